/**
 * X5: a url-mode elicitation's step is complete when its MCP server says so (`notifications/elicitation/complete`).
 * The proxy that asked then answers its own link question Done, so every surface shows it done, not withdrawn. That is
 * all an asker may answer of its own: a blocking link question that asks for no approval, with Done only; anything else
 * needs a person (A3, G11).
 */
import { LINK_LABELS } from '../../protocol/rules.ts';
import { invalidRequest, type Params } from '../../protocol/index.ts';
import type { Identity } from '../auth.ts';
import type { StoredQuestion } from '../store/types.ts';

const DONE = LINK_LABELS[0].toLowerCase();

/** Q1: where an asker speaks from (its SDK, the hook, the MCP proxy): all it may name on its own cancel or Done. */
const ASKER_SURFACES: ReadonlySet<string> = new Set(['sdk', 'hook', 'mcp-proxy']);

/**
 * Whether `p` is the asker of `q` answering its link question(s) Done. `heardApproval`: the question.requested event's
 * audience said it asks for an approval (G11), which an asker never decides.
 */
export function closesOwnLink(identity: Identity, q: StoredQuestion, p: Params<'question.resolve'>, heardApproval = false): boolean {
  if (!('answers' in p) || q.askedBy !== identity.id || q.questions.length === 0) return false;
  // Q9: an async question's answer is a user's message in its session; the asker's own would speak for the person.
  if (q.mode !== 'blocking' || q.approval !== undefined || heardApproval) return false;
  if (Object.keys(p.answers).length !== q.questions.length) return false;
  return q.questions.every((item) => {
    const values = item.kind === 'link' ? p.answers[item.id] : undefined;
    return values?.length === 1 && values[0].trim().toLowerCase() === DONE;
  });
}

/** The surface an asker names on its own cancel or Done, refused unless it is an asker's (a person's is not its to name). */
export function askerSurface(surface: string | undefined, act: 'cancel' | 'Done'): string | undefined {
  if (surface === undefined || ASKER_SURFACES.has(surface)) return surface;
  const why = surface === 'policy' ? 'policy is the surface of decisions the policy makes' : `"${surface}" is where people answer`;
  throw invalidRequest('question.resolve', [{ path: 'surface', problem: `an asker's own ${act} comes from sdk, hook or mcp-proxy: ${why}` }]);
}
