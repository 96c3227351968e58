import { invalidRequest, type AskdockError } from '../../protocol/index.ts';

/**
 * U17: the browsers' push services. A subscription names the address the gateway will POST to, so only these (over
 * https, on the default port) and the origins of the config's `push.allowedEndpoints` are accepted: a client cannot
 * make the gateway call an address of its choosing.
 */
export const PUSH_SERVICE_HOSTS: readonly RegExp[] = [
  /^fcm\.googleapis\.com$/, // Chrome, Edge on Android, Opera, Samsung Internet
  /^android\.googleapis\.com$/, // older Chrome subscriptions
  /^updates\.push\.services\.mozilla\.com$/, // Firefox
  /^[a-z0-9-]+(\.[a-z0-9-]+)*\.notify\.windows\.com$/, // Edge on Windows (wns2-*.notify.windows.com)
  /^web\.push\.apple\.com$/, // Safari
];

/** The origin of each `push.allowedEndpoints` entry; an entry that is no URL is skipped (the config check names it). */
export function allowedOrigins(entries: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const entry of entries) {
    try {
      out.add(new URL(entry).origin);
    } catch {
      // not a URL: matches nothing
    }
  }
  return out;
}

/** Why `endpoint` may not be pushed to, or undefined when it may. */
export function endpointProblem(endpoint: string, allowed: ReadonlySet<string>): string | undefined {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not carry a user name or password';
  if (allowed.has(url.origin)) return undefined;
  if (url.protocol === 'https:' && url.port === '' && PUSH_SERVICE_HOSTS.some((host) => host.test(url.hostname))) return undefined;
  return "must be an https address of a browser push service (fcm.googleapis.com, updates.push.services.mozilla.com, *.notify.windows.com, web.push.apple.com) or an origin in the config's push.allowedEndpoints";
}

export function refusedEndpoint(where: string, path: string, endpoint: string, allowed: ReadonlySet<string>): AskdockError | undefined {
  const problem = endpointProblem(endpoint, allowed);
  return problem === undefined ? undefined : invalidRequest(where, [{ path, problem }]);
}
