import { useCallback, useState } from 'react';
import type { Answers, QuestionRecord } from '../../../../protocol/index.ts';
import { detectCredentialIn, type CredentialMatch } from '../../../../answers/credentials.ts';

/** The free text among the answers: every value that is not one of its question's option labels (U4). */
export function freeTextValues(record: QuestionRecord, answers: Answers): string[] {
  const out: string[] = [];
  for (const item of record.questions) {
    const labels = new Set(item.options.map((o) => o.label));
    for (const value of answers[item.id] ?? []) if (!labels.has(value)) out.push(value);
  }
  return out;
}

/**
 * W3: before answers leave, Other text that looks like a credential holds them back until the person confirms.
 * `guard(answers, send)` sends at once when nothing looks like a secret; otherwise `pending` opens the warning.
 */
export function useCredentialGuard(record: QuestionRecord) {
  const [pending, setPending] = useState<{ match: CredentialMatch; send: () => void } | null>(null);
  const guard = useCallback(
    (answers: Answers, send: () => void) => {
      const match = detectCredentialIn(freeTextValues(record, answers));
      if (match) setPending({ match, send });
      else send();
    },
    [record],
  );
  const confirm = useCallback(() => {
    setPending(null);
    pending?.send();
  }, [pending]);
  const cancel = useCallback(() => setPending(null), []);
  return { guard, pending: pending?.match ?? null, confirm, cancel };
}
