import { isApproval } from '../questions/question-heard.ts';
import { connectionSurface } from '../questions/surface.ts';
import type { HandlerTable } from './types.ts';

type QuestionMethods = 'question.request' | 'question.waitAnswer' | 'question.resolve' | 'question.get' | 'question.list';

/** Q2..Q6: thin over the question manager. */
export const questionHandlers: Pick<HandlerTable, QuestionMethods> = {
  // G11: an approval is decided by the policy room first.
  'question.request': (p, { core, conn }) =>
    p.approval ? core.policy.request(conn.identity, conn.clientId, { ...p, approval: p.approval }) : core.questions.request(conn.identity, conn.clientId, p),
  'question.waitAnswer': async (p, { core, conn, cancellation }) => {
    let approval = false;
    const result = await core.questions.waitAnswer(conn.identity, p, cancellation, (q) => (approval = isApproval(q)));
    return core.routing.withTrail(p.id, approval ? await core.policy.withDecision(p.id, result) : result);
  },
  'question.resolve': (p, { core, conn }) => core.questions.resolve(conn.identity, p, connectionSurface(conn)),
  'question.get': (p, { core, conn }) => core.questions.get(conn.identity, p.id),
  'question.list': (p, { core, conn }) => core.questions.list(conn.identity, p),
};
