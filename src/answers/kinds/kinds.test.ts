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
