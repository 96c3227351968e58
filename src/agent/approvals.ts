/**
 * X2/X3, G4: what agents already ask, asked in askdock. A tool approval goes to the gateway as `question.request
 * {approval}`, decided by the one policy (or a person, through the approval question the gateway builds); Claude
 * Code's AskUserQuestion is asked as it stands. The decision comes back in the shape Claude Code's permission results
 * share (hooks, the Agent SDK's canUseTool): allow (with updatedInput) or deny with a message. Framework-free:
 * `askdock hook` and `askdockCanUseTool` both use it.
 */
import { cutCodePoints, HEADER_MAX, LABEL_MAX, QUESTION_TEXT_MAX, DESCRIPTION_MAX, type QuestionItemInput } from '../protocol/index.ts';
import type { ApprovalRequest } from '../protocol/policy.ts';
import { SEVERAL_FIELD, severalField } from '../answers/kinds/choice.ts';
import { claudeApproval } from './approval-facts.ts';
import { denyMessage, requestAll } from './approval-request.ts';
import { askPrompt, type PromptOptions } from './ask-prompt.ts';
import type { Agent } from './sdk.ts';
import { ASK_USER_QUESTION_TOOL, EXIT_PLAN_MODE_TOOL } from './tool-names.ts';

export { ASK_USER_QUESTION_TOOL, EXIT_PLAN_MODE_TOOL };

/** A permission rule update as Claude Code suggests it (`permission_suggestions`, the SDK's `suggestions`). */
export type PermissionSuggestion = { type: string; rules?: { toolName: string; ruleContent?: string }[]; behavior?: string; destination?: string; mode?: string; directories?: string[] };

/**
 * A tool the agent asks to run. `agent` names it for the policy (`claude-code`, `codex`, `sdk`); `approvals` are what
 * the policy judges when that is not the tool as named (Codex's patch: one `Edit` per file), each of which must be allowed.
 */
export type ToolRequest = { toolName: string; toolInput: Record<string, unknown>; suggestions?: PermissionSuggestion[]; agent?: string; cwd?: string; approvals?: ApprovalRequest[] };

/** Claude Code's permission result (PermissionRequest hook `decision`, canUseTool's PermissionResult). */
export type ToolDecision =
  | { behavior: 'allow'; updatedInput?: Record<string, unknown> }
  | { behavior: 'deny'; message: string };

export const SKIPPED_MESSAGE = 'The person skipped these questions in askdock without answering; continue with your own judgment.';

/** E8: the agent hears who decided: a deny's message names them (an allow carries no text the agent reads). */
export function withAnswerer(message: string, name: string | undefined): string {
  return name === undefined ? message : `${message} (denied by ${name})`;
}

/** Claude Code's AskUserQuestion item; it names its several-choice field as the wire does. */
type AskQuestionInput = { question: string; header?: string; options?: { label: string; description?: string }[] } & Partial<Record<typeof SEVERAL_FIELD, boolean>>;

/** X3: AskUserQuestion's questions, or null when its input is not that shape. */
export function askUserQuestions(input: Record<string, unknown>): AskQuestionInput[] | null {
  const qs = input.questions;
  if (!Array.isArray(qs) || qs.length === 0) return null;
  const ok = qs.every((q) => q && typeof q === 'object' && typeof q.question === 'string' && Array.isArray(q.options) && q.options.every((o: { label?: unknown }) => typeof o?.label === 'string'));
  return ok ? (qs as AskQuestionInput[]) : null;
}

/** X3: AskUserQuestion asked as it stands, up to 3 questions a prompt (4 questions go in two consecutive prompts). */
export function askUserQuestionPrompts(questions: AskQuestionInput[]): QuestionItemInput[][] {
  const items = questions.map((q, i) => ({
    id: `q${i + 1}`,
    header: cutCodePoints((q.header ?? '').trim() || `Question ${i + 1}`, HEADER_MAX),
    question: cutCodePoints(q.question, QUESTION_TEXT_MAX),
    options: (q.options ?? []).map((o) => ({ label: cutCodePoints(o.label, LABEL_MAX), ...(o.description ? { description: cutCodePoints(o.description, DESCRIPTION_MAX) } : {}) })),
    ...severalField(Boolean(q[SEVERAL_FIELD])),
  }));
  const prompts: QuestionItemInput[][] = [];
  // 4 questions: 2 + 2 reads better than 3 + 1.
  const size = items.length === 4 ? 2 : 3;
  for (let i = 0; i < items.length; i += size) prompts.push(items.slice(i, i + size));
  return prompts;
}

/**
 * X3: the answers in the form Claude Code reads from AskUserQuestion's updatedInput: the tool's input with `answers`
 * keyed by each question's text, several choices joined with ", ", Other's text as typed.
 */
export function askUserQuestionInput(input: Record<string, unknown>, questions: AskQuestionInput[], answers: Record<string, string[]>): Record<string, unknown> {
  const out: Record<string, string> = {};
  questions.forEach((q, i) => {
    const values = answers[`q${i + 1}`] ?? [];
    // A label cut to fit askdock is given back whole.
    out[q.question] = values.map((v) => q.options?.find((o) => cutCodePoints(o.label, LABEL_MAX) === v)?.label ?? v).join(', ');
  });
  return { ...input, answers: out };
}

/** The decision, or why there is none (the agent then asks in its own terminal). */
/** `approvedBy` (E8): "approved by Ana" (a quorum: "approved by Ana and Bo") when people allowed it, for an output with a text the agent reads. */
export type ToolOutcome = { decision: ToolDecision; approvedBy?: string } | { decision: null; reason: 'skipped' | 'expired' | 'cancelled' };

/** E8: "approved by Ana", "approved by Ana and Bo", "approved by Ana, Bo and Cy". */
export function approvedByText(names: readonly string[]): string | undefined {
  if (names.length === 0) return undefined;
  const who = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `approved by ${who}`;
}

/**
 * Asks `req` in askdock and returns the decision. An approval skipped, expired or cancelled has no decision (nothing
 * is ever allowed by default); a skipped AskUserQuestion is denied with a message saying so (X3).
 */
export async function decideTool(agent: Agent, req: ToolRequest, opts: PromptOptions = {}): Promise<ToolOutcome> {
  const questions = req.toolName === ASK_USER_QUESTION_TOOL ? askUserQuestions(req.toolInput) : null;
  if (!questions) {
    const approvals = req.approvals ?? [claudeApproval(req.toolName, req.toolInput, req.suggestions, req.agent ?? 'claude-code', { cwd: req.cwd })];
    const outcome = await requestAll(agent, approvals, opts);
    if (!outcome.decision) return { decision: null, reason: outcome.reason };
    if (outcome.decision.behavior === 'deny') return { decision: { behavior: 'deny', message: withAnswerer(denyMessage(outcome.decision), outcome.decision.resolvedBy?.name) } };
    // Claude Code ignores a bare allow of a plan: it takes the plan back as updatedInput.
    const approvedBy = approvedByText(outcome.approvers ?? []);
    return { decision: { behavior: 'allow', ...(req.toolName === EXIT_PLAN_MODE_TOOL ? { updatedInput: req.toolInput } : {}) }, ...(approvedBy ? { approvedBy } : {}) };
  }
  const answers: Record<string, string[]> = {};
  for (const prompt of askUserQuestionPrompts(questions)) {
    const result = await askPrompt(agent, prompt, opts);
    if (result.status === 'no_answer') {
      if (result.reason === 'skipped') return { decision: { behavior: 'deny', message: SKIPPED_MESSAGE } };
      return { decision: null, reason: result.reason };
    }
    Object.assign(answers, result.answers.answers);
  }
  return { decision: { behavior: 'allow', updatedInput: askUserQuestionInput(req.toolInput, questions, answers) } };
}
