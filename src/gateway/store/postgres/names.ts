/** NOTIFY channel names are identifiers: one per schema, so gateways on different schemas of a database stay apart. */
export function channelFor(schema: string): string {
  return `askdock_events_${schema.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}`.slice(0, 63);
}

/** The schema a `postgres://` URL selects through `options=-c search_path=…`, else `public`. */
export function schemaOf(url: string): string {
  try {
    const options = new URL(url).searchParams.get('options') ?? '';
    const m = /search_path\s*=\s*([A-Za-z0-9_]+)/.exec(options);
    return m ? m[1] : 'public';
  } catch {
    return 'public';
  }
}

/** Hides the password of a connection URL for messages and logs. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}
