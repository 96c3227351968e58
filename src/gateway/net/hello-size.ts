import type { HelloOk } from '../../protocol/index.ts';

const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/**
 * P5 within P3: a hello-ok bigger than `maxPayload` would be refused by a client holding the same limit, so its snapshot
 * is cut to fit, pending questions first (they are what a person must see), then sessions, and marked `hasMore`.
 * `frameOverhead` is what the response frame adds around the payload (its id and envelope).
 */
export function fitHello(hello: HelloOk, maxPayload: number, frameOverhead: number): HelloOk {
  if (size(hello) + frameOverhead <= maxPayload) return hello;
  const empty: HelloOk = { ...hello, snapshot: { ...hello.snapshot, sessions: [], pendingQuestions: [], hasMore: true } };
  let budget = maxPayload - frameOverhead - size(empty);
  const take = <T>(items: T[]): T[] => {
    const kept: T[] = [];
    for (const item of items) {
      const cost = size(item) + 1;
      if (cost > budget) break;
      budget -= cost;
      kept.push(item);
    }
    return kept;
  };
  const pendingQuestions = take(hello.snapshot.pendingQuestions);
  const sessions = take(hello.snapshot.sessions);
  return { ...empty, snapshot: { ...empty.snapshot, sessions, pendingQuestions } };
}
