/**
 * X2/X3: what agents already ask, asked in askdock. A tool approval becomes one question (Allow / Deny / Always allow,
 * the tool's input as `detail`); Claude Code's AskUserQuestion is asked as it stands. The decision comes back in the
 * shape Claude Code's permission results share (hooks, the Agent SDK's canUseTool): allow (with updatedInput,
 * updatedPermissions) or deny with a message. Framework-free: `askdock hook` and `askdockCanUseTool` both use it.
 */
import { cutCodePoints, HEADER_MAX, LABEL_MAX, QUESTION_DETAIL_MAX, QUESTION_TEXT_MAX, DESCRIPTION_MAX, type QuestionItemInput } from '../protocol/index.ts';
import { APPROVAL_ALLOW, APPROVAL_ALWAYS, APPROVAL_DENY, readApproval } from '../answers/kinds/approval.ts';
import { askPrompt, type PromptOptions } from './ask-prompt.ts';
import type { Agent } from './sdk.ts';

/** A permission rule update as Claude Code suggests it (`permission_suggestions`, the SDK's `suggestions`). */
export type PermissionSuggestion = { type: string; rules?: { toolName: string; ruleContent?: string }[]; behavior?: string; destination?: string; mode?: string; directories?: string[] };

export type ToolRequest = { toolName: string; toolInput: Record<string, unknown>; suggestions?: PermissionSuggestion[] };

/** Claude Code's permission result (PermissionRequest hook `decision`, canUseTool's PermissionResult). */
export type ToolDecision =
  | { behavior: 'allow'; updatedInput?: Record<string, unknown>; updatedPermissions?: PermissionSuggestion[] }
  | { behavior: 'deny'; message: string };

export const ALLOW = APPROVAL_ALLOW;
export const DENY = APPROVAL_DENY;
export const ALWAYS_ALLOW = APPROVAL_ALWAYS;
export const ASK_USER_QUESTION_TOOL = 'AskUserQuestion';
export const EXIT_PLAN_MODE_TOOL = 'ExitPlanMode';
export const DENIED_MESSAGE = 'The person denied this in askdock.';
export const SKIPPED_MESSAGE = 'The person skipped these questions in askdock without answering; continue with your own judgment.';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const oneLine = (s: string, max: number) => {
  const line = s.trim().replace(/\s+/g, ' ');
  return Array.from(line).length > max ? `${cutCodePoints(line, max - 1)}…` : line;
};

/** What the tool will act on, for the question: the command, the file, the address, the pattern. */
function target(input: Record<string, unknown>): string | undefined {
  return str(input.command) ?? str(input.file_path) ?? str(input.notebook_path) ?? str(input.path) ?? str(input.url) ?? str(input.pattern) ?? str(input.query);
}

/** Lines of `text` each marked with `mark` (a diff side). */
const marked = (mark: string, text: string) => text.split('\n').map((line) => `${mark}${line}`).join('\n');

/** X2: what the tool will do as preformatted text: the command, the file and its diff or new content, else its input. */
export function toolDetail(toolName: string, input: Record<string, unknown>): string {
  const file = str(input.file_path) ?? str(input.notebook_path);
  let detail: string;
  if (typeof input.command === 'string') {
    detail = `$ ${input.command}`;
    if (str(input.description)) detail += `\n\n# ${input.description}`;
  } else if (file && typeof input.content === 'string') {
    detail = `${file} (new content)\n\n${input.content}`;
  } else if (file && typeof input.old_string === 'string' && typeof input.new_string === 'string') {
    detail = `--- ${file}\n+++ ${file}\n${marked('-', input.old_string)}\n${marked('+', input.new_string)}`;
  } else if (file && Array.isArray(input.edits)) {
    const hunks = input.edits.map((e: { old_string?: unknown; new_string?: unknown }) =>
      `@@\n${marked('-', String(e.old_string ?? ''))}\n${marked('+', String(e.new_string ?? ''))}`,
    );
    detail = `--- ${file}\n+++ ${file}\n${hunks.join('\n')}`;
  } else if (typeof input.plan === 'string') {
    detail = input.plan;
  } else if (file && typeof input.new_source === 'string') {
    detail = `${file}\n\n${input.new_source}`;
  } else {
    detail = `${toolName}\n${JSON.stringify(input, null, 2)}`;
  }
  return detail.length > QUESTION_DETAIL_MAX ? `${detail.slice(0, QUESTION_DETAIL_MAX - 2)}\n…` : detail;
}

/** The rule an "Always allow" would add, as a person reads it: `Bash(npm test:*)`. */
export function describeSuggestions(suggestions: PermissionSuggestion[]): string {
  const parts = suggestions.map((s) => {
    if (s.rules?.length) return s.rules.map((r) => (r.ruleContent ? `${r.toolName}(${r.ruleContent})` : r.toolName)).join(', ');
    if (s.mode) return `mode ${s.mode}`;
    if (s.directories?.length) return `access to ${s.directories.join(', ')}`;
    return s.type;
  });
  return cutCodePoints(`Adds the rule ${parts.join('; ')}, so this is not asked again`, DESCRIPTION_MAX);
}

/**
 * X2: the label of the option that applies the suggestions: "Always allow" for rules; a mode change says what it does
 * and for how long (`setMode` acceptEdits for the session: "Allow edits for this session").
 */
export function alwaysAllowLabel(suggestions: PermissionSuggestion[]): string {
  const mode = suggestions.every((sug) => sug.type === 'setMode' && sug.mode) ? suggestions[0]?.mode : undefined;
  if (!mode) return ALWAYS_ALLOW;
  const what = mode === 'acceptEdits' ? 'Allow edits' : mode === 'bypassPermissions' ? 'Allow every tool' : `Switch to ${mode} mode`;
  const when = suggestions[0].destination === undefined || suggestions[0].destination === 'session' ? 'for this session' : 'from now on';
  return cutCodePoints(`${what} ${when}`, LABEL_MAX);
}

/** X2: the approval question: header the tool's name, `Allow <tool> <what>?`, Allow / Deny (/ Always allow). */
export function approvalQuestion(req: ToolRequest): QuestionItemInput {
  const what = target(req.toolInput);
  const question = what ? `Allow ${req.toolName} ${oneLine(what, 160)}?` : `Allow ${req.toolName}?`;
  const options: { label: string; description?: string }[] = [{ label: ALLOW }, { label: DENY }];
  if (req.suggestions?.length) options.push({ label: alwaysAllowLabel(req.suggestions), description: describeSuggestions(req.suggestions) });
  return {
    id: 'approval',
    kind: 'approval',
    header: cutCodePoints(req.toolName.replace(/^mcp__/, '') || req.toolName, HEADER_MAX),
    question: cutCodePoints(question, QUESTION_TEXT_MAX),
    options,
    detail: toolDetail(req.toolName, req.toolInput),
  };
}

/** E8: the agent hears who decided: a deny's message names them (an allow carries no text the agent reads). */
export function withAnswerer(decision: ToolDecision, name: string | undefined): ToolDecision {
  if (name === undefined || decision.behavior === 'allow') return decision;
  return { ...decision, message: `${decision.message} (denied by ${name})` };
}

/** X2: an approval's answer as the decision: Allow, Always allow (the suggested rules), Deny, or Other's text as a deny message. */
export function approvalDecision(req: ToolRequest, values: string[]): ToolDecision {
  const question = approvalQuestion(req);
  const decision = readApproval({ ...question, options: question.options ?? [] }, values);
  // Claude Code ignores a bare allow of a plan: it takes the plan back as updatedInput.
  const input = req.toolName === EXIT_PLAN_MODE_TOOL ? { updatedInput: req.toolInput } : {};
  if (decision.behavior === 'allow') return { behavior: 'allow', ...input };
  if (decision.behavior === 'always') return { behavior: 'allow', ...input, updatedPermissions: req.suggestions ?? [] };
  return { behavior: 'deny', message: decision.message ?? DENIED_MESSAGE };
}

type AskQuestionInput = { question: string; header?: string; options?: { label: string; description?: string }[]; multiSelect?: boolean };

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
    ...(q.multiSelect ? { multiSelect: true } : {}),
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
export type ToolOutcome = { decision: ToolDecision } | { decision: null; reason: 'skipped' | 'expired' | 'cancelled' };

/**
 * Asks `req` in askdock and returns the decision. An approval skipped, expired or cancelled has no decision (nothing
 * is ever allowed by default); a skipped AskUserQuestion is denied with a message saying so (X3).
 */
export async function decideTool(agent: Agent, req: ToolRequest, opts: PromptOptions = {}): Promise<ToolOutcome> {
  const questions = req.toolName === ASK_USER_QUESTION_TOOL ? askUserQuestions(req.toolInput) : null;
  if (!questions) {
    const result = await askPrompt(agent, [approvalQuestion(req)], opts);
    if (result.status !== 'answered') return { decision: null, reason: result.reason };
    return { decision: withAnswerer(approvalDecision(req, result.answers.answers.approval ?? []), result.resolvedBy?.name) };
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
