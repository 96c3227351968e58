/** X2 (through G11): what an approved tool will do, as the approval question's `detail`. */
import { cutCodePoints, QUESTION_DETAIL_MAX, type ApprovalRequest } from '../../protocol/index.ts';

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Each line of `body` behind `sign`: one side of a diff. */
const side = (sign: '-' | '+', body: string) => body.split('\n').map((l) => sign + l).join('\n');

const hunk = (before: unknown, after: unknown) => `${side('-', String(before ?? ''))}\n${side('+', String(after ?? ''))}`;

/**
 * The file and its diff (Edit, MultiEdit, a Codex apply_patch asked as an Edit with its `patch`, G4) or its new content
 * (Write, NotebookEdit); undefined for other input.
 */
function fileChange(input: Record<string, unknown>): string | undefined {
  const file = text(input.file_path) ?? text(input.notebook_path);
  if (!file) return undefined;
  if (typeof input.content === 'string') return `${file} (new content)\n\n${input.content}`;
  if (typeof input.new_source === 'string') return `${file} (new content)\n\n${input.new_source}`;
  if (typeof input.old_string === 'string' && typeof input.new_string === 'string') return `--- ${file}\n+++ ${file}\n${hunk(input.old_string, input.new_string)}`;
  if (typeof input.patch === 'string') return `${file} (patch)\n\n${input.patch}`;
  if (Array.isArray(input.edits)) {
    const hunks = input.edits.map((e: { old_string?: unknown; new_string?: unknown }) => `@@\n${hunk(e?.old_string, e?.new_string)}`);
    return `--- ${file}\n+++ ${file}\n${hunks.join('\n')}`;
  }
  return undefined;
}

/** X2: the command as is; a file with its diff or new content; any other input as indented JSON; then the folder. */
export function approvalDetail(approval: ApprovalRequest): string {
  const command = approval.input.command;
  const body = typeof command === 'string' ? command : (fileChange(approval.input) ?? JSON.stringify(approval.input, null, 2));
  const where = approval.cwd ? `\n\nin ${approval.cwd}` : '';
  return cutCodePoints(`${body}${where}`, QUESTION_DETAIL_MAX);
}
