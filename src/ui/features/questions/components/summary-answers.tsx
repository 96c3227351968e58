import { own } from '../../../../protocol/rules.ts';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import type { ReplyReadBack } from '../../../../answers/async-reply.ts';

type Props = {
  record: QuestionRecord;
  /** The async reply read back, per question or whole; absent for blocking questions or when no reply is known. */
  readBack: ReplyReadBack | undefined;
  /** Whether the record's own answers may be shown (they are the outcome, not someone's draft). */
  answered: boolean;
};

/** Each question's wording with its answer; a reply whose headings do not split for certain shows whole (U7, U9). */
export function SummaryAnswers({ record, readBack, answered }: Props) {
  const whole = readBack && 'whole' in readBack ? readBack.whole : undefined;
  const answerOf = (itemId: string): string[] | undefined => {
    if (whole !== undefined) return undefined;
    if (readBack && 'perQuestion' in readBack) return readBack.perQuestion.find((p) => p.questionId === itemId)?.answer;
    return answered ? own(record.answers, itemId) : undefined;
  };
  return (
    <>
      <ul className="qd-summary-list">
        {record.questions.map((item) => {
          const values = answerOf(item.id);
          return (
            <li key={item.id} className="qd-summary-row">
              <span className="qd-summary-question">
                <span className="qd-chip">{item.header}</span> {item.question}
              </span>
              {values && values.length > 0 && <span className="qd-summary-answer">{values.join(', ')}</span>}
            </li>
          );
        })}
      </ul>
      {whole !== undefined && (
        <blockquote className="qd-summary-whole" aria-label="Saved reply">
          {whole}
        </blockquote>
      )}
    </>
  );
}
