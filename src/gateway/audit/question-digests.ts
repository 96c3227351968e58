import { digestOf } from '../../audit/index.ts';
import type { StoredQuestion } from '../store/types.ts';

export type QuestionDigest = { questionDigest: string; inputDigest?: string };
type Kept = { questions: unknown; request: unknown; digests: QuestionDigest };

/**
 * L4: a question's digests (its items; an approval's input) are made when it is asked and used again when it is decided,
 * rather than made twice. Kept for the last `limit` questions asked here; taken again only for the same items (the same
 * objects, or the same JSON when the question was read back from the store); otherwise made again.
 */
export class QuestionDigests {
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly limit = 512) {}

  /** The digests of a question being asked, kept for its decision. */
  asked(q: StoredQuestion): QuestionDigest {
    const digests = made(q);
    this.kept.set(q.id, { questions: q.questions, request: q.approval?.request, digests });
    if (this.kept.size > this.limit) this.kept.delete(this.kept.keys().next().value!);
    return digests;
  }

  /** The digests of a question being decided: those made when it was asked, when its items are the same. */
  decided(q: StoredQuestion): QuestionDigest {
    const kept = this.kept.get(q.id);
    this.kept.delete(q.id);
    return kept && same(kept.questions, q.questions) && same(kept.request, q.approval?.request) ? kept.digests : made(q);
  }
}

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

const made = (q: StoredQuestion): QuestionDigest => ({
  questionDigest: digestOf(q.questions),
  ...(q.approval ? { inputDigest: digestOf(q.approval.request) } : {}),
});
