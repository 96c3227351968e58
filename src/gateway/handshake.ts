import { AskdockError, CloseCode, EVENT_NAMES, PROTOCOL_VERSION, SERVER_VERSION, type ConnectParams, type HelloOk } from '../protocol/index.ts';
import type { Identity } from './auth.ts';
import type { Core } from './core.ts';
import type { LoginGuard } from './login-guard.ts';
import { methodsFor } from './run-authority.ts';

export type Admission = { identity: Identity } | { refusal: AskdockError; close: [code: number, reason: string] };

/** P4 and S4: the identity a `connect` authenticates as, or why it is refused and how the socket closes. */
export function admit(p: ConnectParams, ctx: { core: Core; logins: LoginGuard; connId: string; address: string }): Admission {
  const { core, logins, connId, address } = ctx;
  // S4: an address past its failures is refused without looking at the token, so guessing on learns nothing.
  const lockedFor = logins.blockedFor(address);
  if (lockedFor !== null) {
    core.opts.log.warn({ connId, address, retryAfterMs: lockedFor }, 'refused connect: too many bad tokens from this address');
    return {
      refusal: new AskdockError('RATE_LIMITED', `too many failed connects from this address: retry in ${Math.ceil(lockedFor / 1000)} s`, {
        retryAfterMs: lockedFor,
        retryable: true,
      }),
      close: [CloseCode.unauthorized, 'too many failed connects'],
    };
  }
  const identity = core.auth.authenticate(p.auth.token);
  if (!identity) {
    const count = logins.fail(address);
    core.opts.log.warn({ connId, address, badTokens: count }, `unknown token from ${address}`);
    return { refusal: new AskdockError('UNAUTHORIZED', 'unknown token: check auth.token'), close: [CloseCode.unauthorized, 'bad token'] };
  }
  if (PROTOCOL_VERSION < p.minProtocol || PROTOCOL_VERSION > p.maxProtocol) {
    return {
      refusal: new AskdockError(
        'INVALID_REQUEST',
        `no common protocol version: the gateway speaks ${PROTOCOL_VERSION}, the client ${p.minProtocol}..${p.maxProtocol}`,
        { details: { protocol: PROTOCOL_VERSION } },
      ),
      close: [CloseCode.noCommonVersion, 'no common protocol version'],
    };
  }
  return { identity };
}

/** P5: what a client learns on connecting: its methods and scopes, the policy, and a snapshot as of seq `latest`. */
export function helloFor(
  core: Core,
  identity: Identity,
  connId: string,
  policy: { maxPayload: number; tickIntervalMs: number },
  latest: number,
  resumed: boolean,
): HelloOk {
  return {
    type: 'hello-ok',
    protocol: PROTOCOL_VERSION,
    server: { version: SERVER_VERSION, connId },
    features: { methods: methodsFor(identity), events: [...EVENT_NAMES] },
    auth: { identity: identity.id, role: identity.role, scopes: [...identity.scopes] },
    policy: { maxPayload: policy.maxPayload, tickIntervalMs: policy.tickIntervalMs },
    snapshot: {
      cursor: latest,
      sessions: core.visibleSessions(identity),
      pendingQuestions: core.questions.pendingFor(identity),
      pendingSecrets: core.secrets.pendingFor(identity),
    },
    resumed,
  };
}
