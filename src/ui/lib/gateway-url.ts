/** The gateway's WebSocket at the page's own origin (the gateway serves the UI; Vite proxies /ws in dev). */
export function sameOriginSocketUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws`;
}
