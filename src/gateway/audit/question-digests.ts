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

/** Whether `a` and `b` have the same JSON: walked where that shows (plain values), else by their JSON text. */
const same = (a: unknown, b: unknown) => alike(a, b) || JSON.stringify(a) === JSON.stringify(b);

/**
 * True only where `a` and `b` are sure to have the same JSON text: the same primitive, or arrays or plain objects (keys
 * in the same order) of such. A question read back from the store is parsed from the JSON its asked self was written
 * as, so this walk, not two serialisations, answers for it. Anything else (a class, a toJSON, keys in another order)
 * answers false, and `same` compares the texts.
 */
function alike(a: unknown, b: unknown): boolean {
  // The same value writes the same text (a bigint writes none: JSON.stringify throws, as before).
  if (a === b) return typeof a !== 'bigint';
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!alike(a[i], b[i])) return false;
    return true;
  }
  if (Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const key = ka[i];
    if (key !== kb[i] || key === 'toJSON') return false;
    if (!alike((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

const made = (q: StoredQuestion): QuestionDigest => ({
  questionDigest: digestOf(q.questions),
  ...(q.approval ? { inputDigest: digestOf(q.approval.request) } : {}),
});
