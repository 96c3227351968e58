/**
 * `import { askdockCanUseTool } from 'askdock/claude-agent-sdk'` (X4): the Claude Agent SDK's `canUseTool`, answered
 * through askdock. A subpath of its own, so the main entry's types never need `@anthropic-ai/claude-agent-sdk`.
 */
export { askdockCanUseTool, CAN_USE_TOOL_CLIENT_NAME, type AskdockCanUseToolOptions } from './agent/can-use-tool.ts';
