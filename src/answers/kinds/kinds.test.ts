import { describe, expect, it } from 'vitest';
import { readPlainTextReply } from '../plain-text.ts';
import { readablePrompt } from '../readable-prompt.ts';
import { summaryLine } from '../summary.ts';
import { KINDS, kindOf, type ItemDraft, type KindId, type KindItem } from './index.ts';

/** One way through a kind: the draft steps a person takes, what that sends, a plain reply saying the same, and the summary. */
type Case = {
  item: KindItem;
  steps: ({ pick: string } | { type: string })[];
  sends: string[];
  reply: string;
  summary: string;
  /** The labels one tap answers with, or null. */
  oneTap: string[] | null;
  /** Values the gateway refuses, and the rule it names. */
  refused: { values: string[]; problem: string };
  /** What the prompt's text shows for it (H3): its title line's note and its reply hint. */
  prompt: { titleNote: string; hint: string };
};

const options = [{ label: 'Staging (Recommended)' }, { label: 'Production' }];
const approval: KindItem = { id: 'approval', header: 'Bash', question: 'Allow Bash npm test?', kind: 'approval', options: [{ label: 'Allow' }, { label: 'Deny' }, { label: 'Always allow' }] };
const approvalHint = 'Reply with a number or an option, or your own words to deny with them, or skip.';
const notify = [{ label: 'Email' }, { label: 'Slack' }, { label: 'Pager' }];

/** Every kind's ways through, keyed by kind so a new kind cannot be left out. */
const CASES = {
  choice: [
    {
      item: { id: 'env', header: 'Env', question: 'Where?', options },
      steps: [{ type: 'canary' }, { pick: 'Production' }],
      sends: ['Production'],
      reply: '2',
      summary: 'Env: Production',
      oneTap: ['Staging (Recommended)', 'Production'],
      refused: { values: ['Staging (Recommended)', 'Production'], problem: 'is single-select and takes one value' },
      prompt: { titleNote: '', hint: 'Reply with a number, an option or your own words, or skip.' },
    },
    {
      item: { id: 'notify', header: 'Notify', question: 'Who?', options: notify, multiSelect: true },
      steps: [{ pick: 'Pager' }, { pick: 'Email' }, { type: ' ops ' }],
      sends: ['Email', 'Pager', 'ops'],
      reply: '1, 3, ops',
      summary: 'Notify: Email, Pager, ops',
      oneTap: null,
      refused: { values: [], problem: '' },
      prompt: {
        titleNote: ' (choose one or more)',
        hint: 'Reply with the numbers or options you choose, separated by commas (like 1, 3), or your own words, or skip.',
      },
    },
  ],
  approval: [
    {
      item: approval,
      steps: [{ pick: 'Allow' }, { type: 'not on main' }],
      sends: ['not on main'],
      reply: 'not on main',
      summary: 'Bash: not on main',
      oneTap: ['Allow', 'Deny', 'Always allow'],
      refused: { values: ['Allow', 'Deny'], problem: 'takes one decision' },
      prompt: { titleNote: '', hint: approvalHint },
    },
    {
      item: approval,
      steps: [{ type: 'no' }, { pick: 'Deny' }],
      sends: ['Deny'],
      reply: '2',
      summary: 'Bash: Deny',
      oneTap: ['Allow', 'Deny', 'Always allow'],
      refused: { values: [], problem: '' },
      prompt: { titleNote: '', hint: approvalHint },
    },
  ],
  confirm: [
    {
      item: { id: 'go', header: 'Deploy', question: 'Deploy now?', kind: 'confirm', options: [{ label: 'Yes' }, { label: 'No' }] },
      steps: [{ pick: 'No' }, { type: 'y' }],
      sends: ['Yes'],
      reply: 'yes',
      summary: 'Deploy: Yes',
      oneTap: ['Yes', 'No'],
      refused: { values: ['maybe'], problem: 'takes one of Yes or No' },
      prompt: { titleNote: '', hint: 'Reply with 1 (Yes) or 2 (No), or skip.' },
    },
  ],
  input: [
    {
      item: { id: 'replicas', header: 'Replicas', question: 'How many?', kind: 'input', options: [], input: { type: 'integer', minimum: 1, maximum: 10 } },
      steps: [{ type: ' 3 ' }],
      sends: ['3'],
      reply: '3',
      summary: 'Replicas: 3',
      oneTap: null,
      refused: { values: ['11'], problem: 'must be at most 10 (maximum)' },
      prompt: { titleNote: '', hint: 'Reply with a whole number from 1 to 10, or skip.' },
    },
    {
      item: { id: 'ok', header: 'Ok', question: 'Keep the cache?', kind: 'input', options: [], input: { type: 'boolean' } },
      steps: [{ type: 'perhaps' }, { pick: 'true' }],
      sends: ['true'],
      reply: 'yes',
      summary: 'Ok: true',
      oneTap: ['true', 'false'],
      refused: { values: ['perhaps'], problem: 'must be yes or no (boolean)' },
      prompt: { titleNote: '', hint: 'Reply with yes or no, or skip.' },
    },
    {
      // X5: an elicitation field's default is named as the asker's suggestion, never sent on nobody's word.
      item: { id: 'size', header: 'Size', question: 'Which size?', kind: 'input', options: [], input: { type: 'string', enum: ['s', 'm', 'l', 'xl', 'xxl'], default: 'm' } },
      steps: [{ type: 'huge' }, { pick: 'xl' }],
      sends: ['xl'],
      reply: 'xl',
      summary: 'Size: xl',
      oneTap: ['s', 'm', 'l', 'xl', 'xxl'],
      refused: { values: ['huge'], problem: 'must be one of s, m, l, xl, xxl (enum)' },
      prompt: { titleNote: '', hint: 'Reply with one of s, m, l, xl, xxl (suggested: m), or skip.' },
    },
    {
      item: { id: 'day', header: 'Day', question: 'Which day?', kind: 'input', options: [], input: { type: 'date' } },
      steps: [{ type: '2026-12-31' }],
      sends: ['2026-12-31'],
      reply: '2026-12-31',
      summary: 'Day: 2026-12-31',
      oneTap: null,
      refused: { values: ['2026-02-30'], problem: 'must be a date like 2026-12-31 (date)' },
      prompt: { titleNote: '', hint: 'Reply with a date like 2026-12-31, or skip.' },
    },
  ],
  link: [
    {
      item: { id: 'login', header: 'Sign in', question: 'Sign in to GitHub', kind: 'link', url: 'https://github.com/login', options: [{ label: 'Done' }, { label: 'Decline' }] },
      steps: [{ pick: 'Done' }],
      sends: ['Done'],
      reply: 'done',
      summary: 'Sign in: Done',
      oneTap: ['Done', 'Decline'],
      refused: { values: ['finished'], problem: 'takes one of Done or Decline' },
      prompt: { titleNote: '', hint: 'Reply with 1 (Done) or 2 (Decline), or skip.' },
    },
  ],
} satisfies Record<KindId, Case[]>;

const all = Object.entries(CASES).flatMap(([kind, cases]) => cases.map((c: Case) => ({ kind, ...c })));

describe('every question kind, through one contract (Q12)', () => {
  it('[Q12] every kind in KINDS has ways through this contract', () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(KINDS).sort());
  });

  it.each(all)('[Q12] $kind $item.id: draft -> answer -> check -> plain-text reply -> summary -> one tap', (c) => {
    const kind = kindOf(c.item);
    // Draft: each step as a surface applies it, then what the draft sends.
    let draft: ItemDraft = { chosen: [], other: '' };
    for (const step of c.steps) draft = 'pick' in step ? kind.pick(c.item, draft, step.pick) : kind.type(c.item, draft, step.type);
    expect(kind.answer(c.item, draft)).toEqual(c.sends);
    // A discarded answer turns back into a draft that sends the same (U9).
    expect(kind.answer(c.item, kind.draftOf(c.item, c.sends))).toEqual(c.sends);
    // The gateway's check keeps what the draft sends.
    expect(kind.check(c.item, c.sends)).toEqual({ ok: true, values: c.sends });
    if (c.refused.problem) expect(kind.check(c.item, c.refused.values)).toEqual({ ok: false, problem: c.refused.problem });
    // A plain-text reply saying the same gives the same answer (PT1/PT2).
    expect(readPlainTextReply([c.item], c.reply)).toEqual({ outcome: 'answered', answers: { [c.item.id]: c.sends } });
    // The prompt as text, and the summary of the answer (H3, T2).
    expect(readablePrompt([c.item]).split('\n')[0]).toBe(`1. ${c.item.header}: ${c.item.question}${c.prompt.titleNote}`);
    expect(readablePrompt([c.item]).split('\n').at(-1)).toBe(c.prompt.hint);
    expect(summaryLine([c.item], { [c.item.id]: c.sends })).toBe(c.summary);
    // One tap: each label answers the question alone.
    expect(kind.oneTap(c.item)).toEqual(c.oneTap);
    for (const label of c.oneTap ?? []) {
      const tapped = kind.answer(c.item, kind.pick(c.item, { chosen: [], other: '' }, label));
      expect(kind.check(c.item, tapped)).toEqual({ ok: true, values: [label] });
    }
  });
});
