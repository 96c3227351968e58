import { AskdockError, CloseCode, commonProtocol, EVENT_NAMES, PROTOCOL_VERSION, SERVER_VERSION, type ConnectParams, type HelloOk } from '../../protocol/index.ts';
import type { Identity } from '../auth.ts';
import type { Core } from '../core.ts';
import type { LoginGuard } from '../infra/login-guard.ts';
import { methodsFor } from '../runs/run-authority.ts';

export type Admission = { identity: Identity; protocol: number } | { refusal: AskdockError; close: [code: number, reason: string] };

/** P4 and S4: the identity a `connect` authenticates as, or why it is refused and how the socket closes. */
export function admit(p: ConnectParams, ctx: { core: Core; logins: LoginGuard; connId: string; address: string }): Admission {
  const locked = lockedOut(ctx);
  if (locked) return locked;
  const identity = ctx.core.auth.authenticate(p.auth.token);
  if (!identity) return badToken(ctx, 'unknown token: check auth.token');
  const protocol = commonProtocol(p.minProtocol, p.maxProtocol);
  if (protocol === null) return noCommonVersion(p.minProtocol, p.maxProtocol);
  return { identity, protocol };
}

/** S4: an address past its failures is refused without looking at the token, so guessing on learns nothing. */
function lockedOut({ core, logins, connId, address }: { core: Core; logins: LoginGuard; connId: string; address: string }): Admission | null {
  const lockedFor = logins.blockedFor(address);
  if (lockedFor === null) return null;
  core.opts.log.warn({ connId, address, retryAfterMs: lockedFor }, 'refused connect: too many bad tokens from this address');
  return {
    refusal: new AskdockError('RATE_LIMITED', `too many failed connects from this address: retry in ${Math.ceil(lockedFor / 1000)} s`, {
      retryAfterMs: lockedFor,
      retryable: true,
    }),
    close: [CloseCode.unauthorized, 'too many failed connects'],
  };
}

function badToken(ctx: { core: Core; logins: LoginGuard; connId: string; address: string }, message: string): Admission {
  const { core, logins, connId, address } = ctx;
  const count = logins.fail(address);
  core.opts.log.warn({ connId, address, badTokens: count }, `unknown token from ${address}`);
  return { refusal: new AskdockError('UNAUTHORIZED', message), close: [CloseCode.unauthorized, 'bad token'] };
}

function noCommonVersion(min: number, max: number): Admission {
  return {
    refusal: new AskdockError('INVALID_REQUEST', `no common protocol version: the gateway speaks ${PROTOCOL_VERSION}, the client ${min}..${max}`, {
      details: { protocol: PROTOCOL_VERSION },
    }),
    close: [CloseCode.noCommonVersion, 'no common protocol version'],
  };
}

/**
 * P4 for a `connect` whose params do not parse: one without a string `auth.token` is a bad token (UNAUTHORIZED, 4001,
 * and it counts as a failed login, S4); one whose only fault is a version range that cannot hold ours (say 0..0) has no
 * common version (4002). Anything else is a bad frame (null): INVALID_REQUEST naming the fields, the socket open (P3).
 */
export function refuseMalformedConnect(
  raw: unknown,
  faultyPaths: readonly string[],
  ctx: { core: Core; logins: LoginGuard; connId: string; address: string },
): Admission | null {
  const params = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  if (faultyPaths.some((path) => path === 'auth' || path.startsWith('auth.'))) {
    return lockedOut(ctx) ?? badToken(ctx, 'connect needs auth.token, a string: check auth.token');
  }
  const { minProtocol: min, maxProtocol: max } = params;
  const versionsOnly = faultyPaths.every((path) => path === 'minProtocol' || path === 'maxProtocol');
  if (versionsOnly && Number.isInteger(min) && Number.isInteger(max) && commonProtocol(min as number, max as number) === null)
    return lockedOut(ctx) ?? noCommonVersion(min as number, max as number);
  return null;
}

/** P5: what a client learns on connecting: its methods and scopes, the policy, and a snapshot as of seq `latest`. */
export async function helloFor(
  core: Core,
  identity: Identity,
  connId: string,
  policy: { maxPayload: number; tickIntervalMs: number; publicUrl?: string },
  latest: number,
  resumed: boolean,
  protocol: number = PROTOCOL_VERSION,
): Promise<HelloOk> {
  return {
    type: 'hello-ok',
    protocol,
    server: { version: SERVER_VERSION, connId, ...(policy.publicUrl ? { publicUrl: policy.publicUrl } : {}) },
    features: { methods: methodsFor(identity), events: [...EVENT_NAMES] },
    auth: { identity: identity.id, role: identity.role, scopes: [...identity.scopes] },
    policy: { maxPayload: policy.maxPayload, tickIntervalMs: policy.tickIntervalMs },
    snapshot: {
      cursor: latest,
      sessions: await core.visibleSessions(identity),
      pendingQuestions: await core.questions.pendingFor(identity),
      pendingSecrets: await core.secrets.pendingFor(identity),
    },
    resumed,
  };
}

/** connect's params with the token left out of the U+0000 check (P4 judges the token). */
export function withoutToken(params: unknown): unknown {
  if (!params || typeof params !== 'object' || Array.isArray(params)) return params;
  const { auth, ...rest } = params as { auth?: unknown };
  return auth && typeof auth === 'object' && !Array.isArray(auth) ? { ...rest, auth: { ...auth, token: '' } } : rest;
}
