/** W4: the `request_secret` MCP tool: a masked prompt whose value never reaches the model, only its name. */
import { SECRET_NAME_PATTERN, SecretName } from '../protocol/index.ts';
import type { SecretResult } from './sdk-secrets.ts';

export const REQUEST_SECRET_TOOL_NAME = 'request_secret';

/** The installed command that reads secrets: `askdock` unless the running server names its own bin. */
export const DEFAULT_ASKDOCK_COMMAND = 'askdock';

/** The tool's description, naming the command that reads a secret (the running bin, never `npx`, which would fetch another package). */
export function requestSecretDescription(askdock = DEFAULT_ASKDOCK_COMMAND): string {
  return [
    'Ask the user for a credential (API key, token, password) through a masked prompt.',
    'The value is stored encrypted by askdock and is never shown to you: the result names the secret and the shell command that reads it.',
    'Use it instead of ask_user whenever you need a secret; never ask for a credential with ask_user or in chat.',
    `Pass the value to a command through the environment, e.g. \`OPENAI_API_KEY="$(${secretCommand('OPENAI_API_KEY', askdock)})" ./deploy.sh\`, and never print it.`,
  ].join('\n');
}

export const REQUEST_SECRET_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    name: {
      type: 'string',
      pattern: SECRET_NAME_PATTERN.source,
      description: 'The secret\'s name, as an environment variable would spell it, e.g. OPENAI_API_KEY.',
    },
    description: { type: 'string', minLength: 1, maxLength: 1000, description: 'One sentence telling the user what it is for.' },
    timeoutSeconds: { type: 'integer', default: 900, description: 'How long to wait for the user, in seconds: default 900, clamped to 30..3600.' },
  },
  required: ['name', 'description'],
  additionalProperties: false,
} as const;

export function requestSecretTool(askdock = DEFAULT_ASKDOCK_COMMAND) {
  return {
    name: REQUEST_SECRET_TOOL_NAME,
    title: 'Ask the user for a secret',
    description: requestSecretDescription(askdock),
    inputSchema: REQUEST_SECRET_INPUT_SCHEMA,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  };
}

export type RequestSecretArgs = { name: string; description: string; timeoutSeconds?: number };

/** Every field at fault at once (T3), as `{path, problem}` rows. */
export function validateRequestSecret(raw: unknown): { ok: true; value: RequestSecretArgs } | { ok: false; problems: { path: string; problem: string }[] } {
  const args = (raw ?? {}) as Record<string, unknown>;
  const problems: { path: string; problem: string }[] = [];
  const name = SecretName.safeParse(args.name);
  if (!name.success) problems.push({ path: 'name', problem: name.error.issues[0]?.message ?? 'invalid name' });
  const description = typeof args.description === 'string' ? args.description.trim() : '';
  if (!description) problems.push({ path: 'description', problem: 'description must be a non-blank string saying what the secret is for' });
  const t = args.timeoutSeconds;
  if (t !== undefined && (typeof t !== 'number' || !Number.isInteger(t)))
    problems.push({ path: 'timeoutSeconds', problem: 'timeoutSeconds must be an integer' });
  for (const key of Object.keys(args))
    if (!['name', 'description', 'timeoutSeconds'].includes(key)) problems.push({ path: key, problem: 'unknown field' });
  if (problems.length) return { ok: false, problems };
  return { ok: true, value: { name: args.name as string, description, ...(t !== undefined ? { timeoutSeconds: t as number } : {}) } };
}

/** How a shell command reads the stored secret; `askdock` is the command to run (quoted when it holds a space). */
export function secretCommand(name: string, askdock = DEFAULT_ASKDOCK_COMMAND): string {
  const bin = /^[\w./+:@-]+$/.test(askdock) ? askdock : `'${askdock.replaceAll("'", "'\\''")}'`;
  return `${bin} secret get ${name}`;
}

/** The tool's text for the model: what happened and how to use it, never the value. */
export function secretResultText(result: SecretResult, askdock = DEFAULT_ASKDOCK_COMMAND): string {
  const { name } = result;
  switch (result.status) {
    case 'stored':
      return (
        `The user stored the secret ${name}. You never see its value. A command reads it with \`${secretCommand(name, askdock)}\`, ` +
        `e.g. \`${name}="$(${secretCommand(name, askdock)})" your-command\`. Never print or echo it.`
      );
    case 'skipped':
      return `The user declined to provide ${name}. Continue without it, or explain what it is needed for.`;
    case 'expired':
      return `Nobody provided ${name} in time. Continue without it.`;
    case 'cancelled':
      return `The request for ${name} was cancelled. Continue without it.`;
  }
}
