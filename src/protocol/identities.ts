/** U18/A6: the agent identity `askdock start` makes for Claude Code, Codex and MCP clients (no schema here: the Control UI's first load reads it). */
export const INTEGRATION_AGENT_ID = 'integrations';
