import type { PromptDraft, PromptKey, PromptStep } from './prompt-model.ts';

/**
 * E3: the prompt of someone a routed question does not wait for: they read it, step between its questions (←/→) and
 * requests (`[` / `]`) and leave (Esc); nothing picks, types, skips or submits, since the gateway would refuse it.
 */
export function readingKey(questionCount: number, draft: PromptDraft, key: PromptKey): PromptStep {
  if (key.escape) return { draft, effect: { kind: 'close' } };
  if (key.input === '[') return { draft, effect: { kind: 'switch', by: -1 } };
  if (key.input === ']') return { draft, effect: { kind: 'switch', by: 1 } };
  if (key.leftArrow && draft.step > 0) return { draft: { ...draft, step: draft.step - 1, cursor: 0 } };
  if (key.rightArrow && draft.step < questionCount - 1) return { draft: { ...draft, step: draft.step + 1, cursor: 0 } };
  return { draft };
}

/** The read-only prompt's line of keys. */
export function readingHint(questionCount: number, requests: number): string {
  const parts = ['Read only: you may not answer', questionCount > 1 ? '←→ question' : null, 'Esc composer', requests > 1 ? '[ ] switch' : null];
  return parts.filter((p) => p !== null).join(' · ');
}
