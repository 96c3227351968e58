/**
 * E1: a route's `tool` is a G1 rule, matched as the policy matches it (a Bash rule covers a command when it covers
 * any of its parts, so a route for `Bash(git push *)` also catches `npm test && git push`). Routing only chooses
 * who is asked, never allows anything, so "covers any part" is the right reading here.
 */
import { checkRuleText } from './grammar.ts';
import { matcherFor, ruleMatches } from './match.ts';
import { splitCommand } from './parts.ts';

export interface ToolRuleRequest { tool: string; input: Record<string, unknown> }

export const routeToolMatcher = {
  check(rule: string): string | null {
    return checkRuleText(rule);
  },
  matches(rule: string, request: ToolRuleRequest): boolean {
    if (checkRuleText(rule) !== null) return false;
    const command = request.input.command;
    const split = request.tool === 'Bash' && typeof command === 'string' ? splitCommand(command) : undefined;
    return ruleMatches(matcherFor({ rule }), { tool: request.tool, input: request.input }, 'ask', split);
  },
};
