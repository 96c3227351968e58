/**
 * G4/G11: what each agent asks permission for, as the one approval the gateway's policy judges: `{tool, input, cwd,
 * agent, suggestions}`. Claude Code's tools are judged as they are named; Codex's shell tool as `Bash` with its
 * command, and its apply_patch as `Edit` of each file the patch touches; an MCP server's tool as `mcp__<server>__<tool>`.
 */
import { isAbsolute, resolve } from 'node:path';
import type { ApprovalRequest } from '../protocol/policy.ts';
import type { PermissionSuggestion } from './approvals.ts';

/** G11 bounds on what may go on the wire. */
const SUGGESTIONS_MAX = 8;
const RULE_MAX = 1000;
const TOOL_MAX = 256;

/** G7: the rules Claude Code suggests (`addRules`), written as G1 rules: `Bash(npm test:*)`, `mcp__github__create_issue`. */
export function suggestionRules(suggestions: readonly PermissionSuggestion[] | undefined): string[] {
  const rules: string[] = [];
  for (const s of suggestions ?? []) {
    if (s.type !== 'addRules' || (s.behavior !== undefined && s.behavior !== 'allow')) continue;
    for (const r of s.rules ?? []) {
      if (typeof r?.toolName !== 'string' || r.toolName === '') continue;
      const rule = r.ruleContent ? `${r.toolName}(${r.ruleContent})` : r.toolName;
      if (rule.length <= RULE_MAX && !rules.includes(rule)) rules.push(rule);
    }
  }
  return rules.slice(0, SUGGESTIONS_MAX);
}

/** A word as a POSIX shell reads it back: bare when it is plain, else in single quotes. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

const SHELLS = new Set(['bash', 'sh', 'zsh', '/bin/bash', '/bin/sh', '/bin/zsh', '/usr/bin/bash', '/usr/bin/zsh']);

/**
 * Codex's command: a string as it stands; an array joined shell-quoted, except `bash -lc SCRIPT` (how Codex runs most
 * commands), which is judged as its script.
 */
export function codexCommand(command: unknown): string | undefined {
  if (typeof command === 'string') return command;
  if (!Array.isArray(command) || command.length === 0 || !command.every((w) => typeof w === 'string')) return undefined;
  const words = command as string[];
  if (words.length === 3 && SHELLS.has(words[0]) && ['-c', '-lc'].includes(words[1])) return words[2];
  return words.map(shellQuote).join(' ');
}

/** The files an apply_patch patch adds, updates, deletes or moves to, in the order it names them. */
export function patchedFiles(patch: string): string[] {
  const files: string[] = [];
  for (const line of patch.split('\n')) {
    const m = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/.exec(line.trimEnd());
    if (m && !files.includes(m[1].trim())) files.push(m[1].trim());
  }
  return files;
}

/** The patch text of an apply_patch call (Codex gives it as `command`; older payloads as `input` or `patch`). */
function patchText(input: Record<string, unknown>): string | undefined {
  for (const key of ['command', 'input', 'patch']) if (typeof input[key] === 'string') return input[key] as string;
  return undefined;
}

type Where = { cwd?: string };

/** G4: a Claude Code approval (PermissionRequest, canUseTool): the tool as named, its input, its suggested rules. */
export function claudeApproval(toolName: string, toolInput: Record<string, unknown>, suggestions: readonly PermissionSuggestion[] | undefined, agent: string, where: Where = {}): ApprovalRequest {
  const rules = suggestionRules(suggestions);
  return { tool: toolName.slice(0, TOOL_MAX), input: toolInput, ...(where.cwd ? { cwd: where.cwd } : {}), agent, ...(rules.length ? { suggestions: rules } : {}) };
}

/**
 * G4: a Codex approval as the policy judges it: its shell tool as `Bash {command}`, apply_patch as one `Edit
 * {file_path}` (absolute, from `cwd`) for every file the patch touches (each must be allowed), anything else as named.
 */
export function codexApprovals(toolName: string, toolInput: Record<string, unknown>, where: Where = {}): ApprovalRequest[] {
  const base = { ...(where.cwd ? { cwd: where.cwd } : {}), agent: 'codex' };
  if (['Bash', 'shell', 'exec_command', 'local_shell', 'unified_exec'].includes(toolName)) {
    const command = codexCommand(toolInput.command ?? toolInput.cmd);
    if (command !== undefined) return [{ tool: 'Bash', input: { ...toolInput, command }, ...base }];
  }
  if (toolName === 'apply_patch') {
    const patch = patchText(toolInput);
    const files = patch ? patchedFiles(patch) : [];
    // Like Claude Code's Edit, the file is named absolutely: a patch's relative path is read from the folder it runs in.
    const absolute = (file: string) => (where.cwd && !isAbsolute(file) ? resolve(where.cwd, file) : file);
    if (files.length > 0) return files.map((file) => ({ tool: 'Edit', input: { file_path: absolute(file), patch }, ...base }));
  }
  return [{ tool: toolName.slice(0, TOOL_MAX), input: toolInput, ...base }];
}

/** G4: an MCP server's tool call through `askdock mcp-proxy --approve`: `mcp__<server>__<tool>` with the arguments as input. */
export function mcpApproval(server: string, tool: string, args: Record<string, unknown>, where: Where = {}): ApprovalRequest {
  return { tool: `mcp__${mcpName(server)}__${mcpName(tool)}`.slice(0, TOOL_MAX), input: args, ...(where.cwd ? { cwd: where.cwd } : {}), agent: 'mcp' };
}

/** A server's or tool's name as Claude Code writes it in a rule: letters, digits, `_` and `-`, anything else as `_`. */
export const mcpName = (name: string): string => name.replace(/[^A-Za-z0-9_-]/g, '_');
