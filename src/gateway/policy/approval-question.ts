import { cutCodePoints, DESCRIPTION_MAX, HEADER_MAX, QUESTION_TEXT_MAX, type ApprovalRequest, type QuestionItem } from '../../protocol/index.ts';
import { APPROVAL_ALLOW, APPROVAL_DENY } from '../../answers/kinds/approval.ts';
import { parsedSeveralField } from '../../answers/kinds/choice.ts';
import { APPROVAL_OFFERS } from '../../answers/kinds/approval-offers.ts';
import { approvalDetail } from './approval-detail.ts';
import { describeRequest, type ApprovalFacts, type Verdict } from '../../policy/index.ts';
import type { ApprovalOffer } from '../store/types.ts';

/** The id of the one item of an approval question the gateway makes. */
export const APPROVAL_ITEM_ID = 'approval';

/** Why the policy asks: the rules that said ask (with their reasons), or that none matched. */
export function askReason(verdict: Verdict): string {
  const asking = verdict.matchedRules.filter((r) => r.decision === 'ask');
  if (asking.length === 0) return 'no rule matched';
  const named = asking.map((r) => `rule ${r.id} (${r.rule})`).join(', ');
  return verdict.reason ? `${named} asks: ${verdict.reason}` : `${named} asks`;
}

/** G6/G11: what decided a request nobody was asked about: the rules (or the grant) that said so, or the unmatched default. */
export function decidedReason(verdict: Verdict): string {
  const done = verdict.decision === 'allow' ? 'allowed' : 'denied';
  const deciding = verdict.matchedRules.filter((r) => r.decision === verdict.decision && (verdict.decidedBy === 'grant') === (r.layer === 'grant'));
  if (deciding.length === 0) return `${done}: no rule matched${verdict.reason && verdict.reason !== 'no rule matched' ? ` (${verdict.reason})` : ''}`;
  const by = verdict.decidedBy === 'grant' ? 'grant' : 'rule';
  const named = `${done} by ${by}${deciding.length > 1 ? 's' : ''} ${deciding.map((r) => `${r.id} (${r.rule})`).join(', ')}`;
  return verdict.reason && verdict.decision === 'deny' ? `${named}: ${verdict.reason}` : named;
}

/** X2 (through G11): the header is the tool's name cut to 12, an MCP tool's without its `mcp__` prefix (`github__crea`). */
export function approvalHeader(tool: string): string {
  return cutCodePoints(tool.replace(/^mcp__/, '') || tool, HEADER_MAX);
}

/** X2 (through G11): `Allow <tool> <what>?`: the tool's name and what it acts on (its command, file, address, pattern or query). */
export function approvalAsk(facts: ApprovalFacts): string {
  const named = describeRequest(facts);
  // describeRequest names the request as a rule does (`Bash(npm test)`); X2 reads the tool, then what it acts on.
  if (named.startsWith(`${facts.tool}(`) && named.endsWith(')')) return `Allow ${facts.tool} ${named.slice(facts.tool.length + 1, -1)}?`;
  const other = ['pattern', 'query', 'path', 'url'].map((k) => facts.input[k]).find((v): v is string => typeof v === 'string' && v.trim() !== '');
  return other ? `Allow ${facts.tool} ${other.replace(/\s+/g, ' ').slice(0, 200)}?` : `Allow ${facts.tool}?`;
}

/** Where the offers can bind: a session to ask in, a folder for the project. */
export type OfferPlaces = { session: boolean; project: boolean };

/** G7: the offers, only where a rule can be formed and the scope has something to bind to. */
export function approvalOffers(rule: string | null, places: OfferPlaces): ApprovalOffer[] {
  if (rule === null) return [];
  // The words and their order are the answer kinds' (the dock, the TUI and a resolve read the same list).
  const bound = { session: places.session, project: places.project, agent: true };
  return APPROVAL_OFFERS.filter((o) => bound[o.scope]).map((o) => ({ label: o.label, scope: o.scope, rule }));
}

/**
 * G11/G7: the approval's question as the gateway makes it, the same for every agent: Allow, Deny, then the offers, each
 * naming its rule; the input as `detail`; the question says what is asked, Allow's description why.
 */
export function approvalItems(facts: ApprovalFacts, approval: ApprovalRequest, verdict: Verdict, offers: readonly ApprovalOffer[]): QuestionItem[] {
  // X2's question is exactly `Allow <tool> <what>?`; why the policy asks goes with Allow, the choice it holds back.
  const asking = verdict.decision === 'ask';
  const text = asking ? approvalAsk(facts) : `${describeRequest(facts)} ${decidedReason(verdict)}.`;
  const question = cutCodePoints(text, QUESTION_TEXT_MAX);
  const allowNote = asking ? cutCodePoints(`This request only. Asked because ${askReason(verdict)}.`, DESCRIPTION_MAX) : 'This request only';
  return [
    {
      id: APPROVAL_ITEM_ID,
      header: approvalHeader(facts.tool),
      question,
      kind: 'approval',
      ...parsedSeveralField(false),
      options: [
        { label: APPROVAL_ALLOW, description: allowNote },
        { label: APPROVAL_DENY },
        ...offers.map((o) => ({ label: o.label, description: cutCodePoints(`Rule: ${o.rule}`, DESCRIPTION_MAX) })),
      ],
      detail: approvalDetail(approval),
    },
  ];
}
