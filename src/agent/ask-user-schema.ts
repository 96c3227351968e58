/** The ask_user tool as a model sees it (T1, T4): its description and its parameters and result as JSON Schema. */
import * as z from 'zod';
import { HEADER_MAX, LABEL_MAX, DESCRIPTION_MAX, QUESTION_TEXT_MAX, QUESTION_ID_PATTERN, QUESTION_URL_MAX } from '../protocol/index.ts';
import { DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS, MIN_TIMEOUT_SECONDS } from './ask-user-result.ts';

export const ASK_USER_DESCRIPTION = [
  'Ask the user one to three multiple-choice questions and wait for the answers.',
  'Use it only when you are blocked on a decision that genuinely belongs to the user (a preference, a trade-off, which target to pick),',
  'never for information you can derive from the request, the code or a sensible default.',
  '',
  'How to ask:',
  '- Ask exactly one question per call unless several answers must be given together (at most 3).',
  '- Put every selectable choice in `options` (2 to 4), never only in the question text.',
  '- Put the recommended option first and end its label with " (Recommended)".',
  '- Set `multiSelect: true` only when several options can be chosen at once.',
  '- Never add an "Other" option: the user can always type their own answer instead.',
  '- Never ask for a password, API key, token or any other credential or secret.',
  '- Do not ask whether you may proceed, and do not ask the user to confirm your own plan.',
  `- \`header\` is a short label (at most ${HEADER_MAX} characters), \`question\` is one sentence, \`id\` is a unique snake_case key.`,
  '',
  'Result: {"status":"answered","answers":{"answers":{"<id>":["<value>", ...]}}} with an array of values for every question',
  '(a value that is no option label is text the user typed), or {"status":"no_answer","reason":"skipped"|"expired"|"cancelled"}.',
  'After no_answer, continue with your best judgment and do not ask the same question again.',
].join('\n');

/** A JSON Schema node, as far as readers of the published schema look into it. */
export type JsonSchemaNode = { type?: string; properties?: Record<string, JsonSchemaNode>; items?: JsonSchemaNode; required?: string[]; [key: string]: unknown };

const AskUserOptionInput = z.strictObject({
  label: z.string().min(1).max(LABEL_MAX).describe('The choice as the user sees it.'),
  description: z.string().max(DESCRIPTION_MAX).describe('What choosing it means, briefly.').optional(),
});

const AskUserQuestionInput = z.strictObject({
  id: z.string().regex(QUESTION_ID_PATTERN).describe('Unique snake_case key for this answer, e.g. "deploy_target".'),
  header: z.string().min(1).describe(`Short label shown above the question, at most ${HEADER_MAX} characters (longer is cut).`),
  question: z.string().min(1).max(QUESTION_TEXT_MAX).describe('The question, in one sentence.'),
  options: z
    .array(AskUserOptionInput)
    .min(2)
    .max(4)
    .describe('2 to 4 choices, the recommended one first with " (Recommended)" at the end of its label. Never an "Other" option.'),
  multiSelect: z.boolean().describe('true only when several options can be chosen at once.').optional(),
  url: z
    .string()
    .regex(/^https?:\/\//)
    .max(QUESTION_URL_MAX)
    .describe('Optional http(s) page where the user finishes a step before answering (shown as "Open link"), e.g. a pull request to review.')
    .optional(),
});

/** The call as a model writes it; validateAskUser checks it with the protocol's own rules. */
const AskUserInputShape = z.strictObject({
  questions: z.array(AskUserQuestionInput).min(1).max(3).describe('1 to 3 questions, asked together; prefer exactly one.'),
  timeoutSeconds: z
    .int()
    .describe(`How long to wait for the user, in seconds: default ${DEFAULT_TIMEOUT_SECONDS}, clamped to ${MIN_TIMEOUT_SECONDS}..${MAX_TIMEOUT_SECONDS}.`)
    .default(DEFAULT_TIMEOUT_SECONDS),
});

/** The tool's parameters as plain JSON Schema, for LLM tool calling and the MCP `inputSchema` (no `$schema`: older MCP clients read draft-07). */
export const ASK_USER_INPUT_SCHEMA = (() => {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(AskUserInputShape, {
    io: 'input',
    // An integer needs no bounds beyond the clamp its description states.
    override: ({ jsonSchema }) => {
      if (jsonSchema.type === 'integer') {
        delete jsonSchema.minimum;
        delete jsonSchema.maximum;
      }
    },
  });
  return schema as JsonSchemaNode & { type: 'object'; required: string[] };
})();

/** The result as JSON Schema (MCP `outputSchema`): one object, since MCP wants `type: "object"` at the top. */
export const ASK_USER_OUTPUT_SCHEMA = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { type: 'string', enum: ['answered', 'no_answer'] },
    answers: {
      type: 'object',
      required: ['answers'],
      properties: {
        answers: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
      },
    },
    reason: { type: 'string', enum: ['skipped', 'expired', 'cancelled'] },
    /** L4: the gateway's signed receipt of the decision (a compact JWS), when its audit log is signed. */
    receipt: { type: 'string' },
  },
} as const;
