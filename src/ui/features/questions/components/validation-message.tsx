import { itemAnswer, missingAnswerText, type QuestionItemRecord } from '../../../../answers/collect.ts';
import { useItemDraft } from '../stores/drafts.ts';
import { problemId } from './dom-ids.ts';

/** Says what is missing once a submit was tried, and goes away by itself when the question gets an answer. */
export function ValidationMessage({ recordId, item, shown }: { recordId: string; item: QuestionItemRecord; shown: boolean }) {
  const draft = useItemDraft(recordId, item);
  if (!shown || itemAnswer(item, draft).length > 0) return null;
  return (
    <p id={problemId(recordId, item.id)} className="qd-problem" role="alert">
      {missingAnswerText(item)}
    </p>
  );
}
