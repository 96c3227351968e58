import type { z } from 'zod';
import type { Scope } from './scopes.ts';
import { ConnectParams, HelloOk } from './connect-methods.ts';
import { sessionMethods } from './session-methods.ts';
import { questionMethods } from './question-methods.ts';
import { settingMethods } from './setting-methods.ts';
import { lazyTable } from './lazy-table.ts';

export { ClientMode, ConnectParams, HelloOk } from './connect-methods.ts';
export { QuestionRequestParams, REQUEST_ID_PATTERN, ResolveParams, type QuestionRequestInput } from './question-methods.ts';

/**
 * The method table: params, result and the scopes any one of which allows the call (A5); which methods a client may
 * send again after a reconnect (P7) is in rules.ts (`RESENDABLE_METHODS`).
 * `connect` is listed for its shapes; the gateway handles it before dispatch. X1: an entry's schemas are built when it
 * is first read (lazy-table.ts); the area tables spread here list builders, not built entries.
 */
export const methods = lazyTable({
  connect: () => ({ params: ConnectParams, result: HelloOk, scopes: [] as Scope[] }),
  ...sessionMethods,
  ...questionMethods,
  ...settingMethods,
});

export type Methods = typeof methods;
export type MethodName = Exclude<keyof Methods, 'connect'>;
export const METHOD_NAMES = Object.keys(methods).filter((m) => m !== 'connect') as MethodName[];
export type ParamsInput<M extends MethodName> = z.input<Methods[M]['params']>;
export type Params<M extends MethodName> = z.output<Methods[M]['params']>;
export type Result<M extends MethodName> = z.output<Methods[M]['result']>;

export function isMethodName(name: string): name is MethodName {
  return name !== 'connect' && Object.hasOwn(methods, name);
}
