import { cutCodePoints, DESCRIPTION_MAX, QUESTION_DETAIL_MAX, QUESTION_TEXT_MAX, type ApprovalRequest, type GrantScope, type QuestionItem } from '../../protocol/index.ts';
import { APPROVAL_ALLOW, APPROVAL_DENY } from '../../answers/kinds/approval.ts';
import { parsedSeveralField } from '../../answers/kinds/choice.ts';
import { describeRequest, type ApprovalFacts, type Verdict } from '../../policy/index.ts';
import type { ApprovalOffer } from '../store/types.ts';

/** The id of the one item of an approval question the gateway makes. */
export const APPROVAL_ITEM_ID = 'approval';

/** G7: each "Always allow…" offer's words, by the scope of the grant it makes. */
export const OFFER_LABELS: Record<Exclude<GrantScope, 'everyone'>, string> = {
  session: 'Always allow in this session',
  project: 'Always allow in this project for 7 days',
  agent: 'Always allow for this agent for 7 days',
};

/** Why the policy asks: the rules that said ask (with their reasons), or that none matched. */
export function askReason(verdict: Verdict): string {
  const asking = verdict.matchedRules.filter((r) => r.decision === 'ask');
  if (asking.length === 0) return 'no rule matched';
  const named = asking.map((r) => `rule ${r.id} (${r.rule})`).join(', ');
  return verdict.reason ? `${named} asks: ${verdict.reason}` : `${named} asks`;
}

/** X2: what the person reads under the question: a shell command as is, any other input as indented JSON. */
export function approvalDetail(approval: ApprovalRequest): string {
  const command = approval.input.command;
  const text = typeof command === 'string' ? command : JSON.stringify(approval.input, null, 2);
  const where = approval.cwd ? `\n\nin ${approval.cwd}` : '';
  return cutCodePoints(`${text}${where}`, QUESTION_DETAIL_MAX);
}

/** Where the offers can bind: a session to ask in, a folder for the project. */
export type OfferPlaces = { session: boolean; project: boolean };

/** G7: the offers, only where a rule can be formed and the scope has something to bind to. */
export function approvalOffers(rule: string | null, places: OfferPlaces): ApprovalOffer[] {
  if (rule === null) return [];
  const offers: ApprovalOffer[] = [];
  if (places.session) offers.push({ label: OFFER_LABELS.session, scope: 'session', rule });
  if (places.project) offers.push({ label: OFFER_LABELS.project, scope: 'project', rule });
  offers.push({ label: OFFER_LABELS.agent, scope: 'agent', rule });
  return offers;
}

/**
 * G11/G7: the approval's question as the gateway makes it, the same for every agent: Allow, Deny, then the offers, each
 * naming its rule; the input as `detail`; the question says what is asked and why.
 */
export function approvalItems(facts: ApprovalFacts, approval: ApprovalRequest, verdict: Verdict, offers: readonly ApprovalOffer[]): QuestionItem[] {
  const question = cutCodePoints(`Allow ${describeRequest(facts)}? Asked because ${askReason(verdict)}.`, QUESTION_TEXT_MAX);
  return [
    {
      id: APPROVAL_ITEM_ID,
      header: 'Approval',
      question,
      kind: 'approval',
      ...parsedSeveralField(false),
      options: [
        { label: APPROVAL_ALLOW, description: 'This request only' },
        { label: APPROVAL_DENY },
        ...offers.map((o) => ({ label: o.label, description: cutCodePoints(`Rule: ${o.rule}`, DESCRIPTION_MAX) })),
      ],
      detail: approvalDetail(approval),
    },
  ];
}
