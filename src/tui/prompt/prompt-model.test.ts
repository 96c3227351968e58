import { describe, expect, it } from 'vitest';
import type { QuestionRecord } from '../../protocol/index.ts';
import { emptyDraft, HINT_WIDTH_AT_80, otherChanged, otherSubmitted, promptHint, promptKey, type PromptDraft } from './prompt-model.ts';

const record: Pick<QuestionRecord, 'questions'> = {
  questions: [
    { id: 'env', header: 'Environment', question: 'Where?', options: [{ label: 'Staging (Recommended)' }, { label: 'Production' }] },
    { id: 'notify', header: 'Notify', question: 'Who?', options: [{ label: 'Email' }, { label: 'Slack' }, { label: 'Pager' }], multiSelect: true },
  ],
};
const press = (draft: PromptDraft, ...keys: Parameters<typeof promptKey>[2][]) => {
  let d = draft;
  let effect;
  for (const k of keys) ({ draft: d, effect } = promptKey(record, d, k));
  return { draft: d, effect };
};

describe('prompt keys', () => {
  it('[V2] a number on single-select takes it and goes on; on multi-select toggles; Enter on the last submits', () => {
    const { draft, effect } = press(emptyDraft(), { input: '2' }, { input: '1' }, { input: '3' }, { input: '1' }, { input: '', return: true });
    expect(draft.step).toBe(1);
    expect(effect).toEqual({ kind: 'submit', answers: { env: ['Production'], notify: ['Pager'] } });
  });

  it('[V2] Enter on a multi-select question with nothing chosen takes the highlighted option', () => {
    const { effect } = press(emptyDraft(), { input: '1' }, { input: '', downArrow: true }, { input: '', return: true });
    expect(effect).toEqual({ kind: 'submit', answers: { env: ['Staging (Recommended)'], notify: ['Slack'] } });
  });

  it('[V2][V4][V6] Skip, Esc and `[` / `]` are effects for the screen; Other… opens the field', () => {
    expect(press(emptyDraft(), { input: '', upArrow: true }, { input: '', return: true }).effect).toEqual({ kind: 'skip' });
    expect(press(emptyDraft(), { input: '', escape: true }).effect).toEqual({ kind: 'close' });
    expect(press(emptyDraft(), { input: ']' }).effect).toEqual({ kind: 'switch', by: 1 });
    expect(press(emptyDraft(), { input: '[' }).effect).toEqual({ kind: 'switch', by: -1 });
    expect(press(emptyDraft(), { input: '', downArrow: true }, { input: '', downArrow: true }, { input: '', return: true }).draft.editingOther).toBe(true);
  });

  it('[W3] Other text that looks like a credential holds the answers for a yes; no goes back to the text', () => {
    let d = press(emptyDraft(), { input: '1' }).draft;
    d = otherChanged(record, { ...d, editingOther: true }, 'AKIAIOSFODNN7EXAMPLE');
    const held = otherSubmitted(record, d);
    expect(held.effect).toBeUndefined();
    expect(held.draft.confirm?.warning).toContain('Send it anyway?');
    expect(promptKey(record, held.draft, { input: 'n' }).draft).toMatchObject({ confirm: undefined, editingOther: true });
    expect(promptKey(record, held.draft, { input: 'y' }).effect).toEqual({
      kind: 'submit',
      answers: { env: ['Staging (Recommended)'], notify: ['AKIAIOSFODNN7EXAMPLE'] },
    });
  });
});

describe('the prompt\'s key hint', () => {
  it('[V2] fits one line at 80 columns in every case and names each key once (multi-select: Space/1-9 toggle, Enter done)', () => {
    for (const multi of [false, true])
      for (const step of [0, 1])
        for (const requests of [1, 2]) {
          const hint = promptHint(multi, step, requests);
          expect([...hint].length, hint).toBeLessThanOrEqual(HINT_WIDTH_AT_80);
          expect(hint.split('Enter').length - 1, hint).toBe(1);
        }
    expect(promptHint(true, 1, 2)).toBe('↑↓ move · Space/1-9 toggle · Enter done · ← back · Esc composer · [ ] switch');
    expect(promptHint(false, 0, 1)).toBe('↑↓ move · 1-9 pick · Enter take · Esc composer');
  });
});
