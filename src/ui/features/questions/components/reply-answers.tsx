import { memo, useCallback } from 'react';
import type { ChatMessage, QuestionRecord } from '../../../../protocol/index.ts';
import { readBackReply } from '../../../../answers/async-reply.ts';
import { useQuestions } from '../api/get-questions.ts';
import { SummaryAnswers } from './summary-answers.tsx';

/**
 * The body of a chat message that answers an async question (Q9): the answers it carries, each beside its question's
 * header chip, in the summary's card. A reply whose question is unknown here, or that does not read back for certain
 * (edited by hand, ambiguous headings), keeps its text as it was saved (U9).
 */
export const ReplyAnswers = memo(function ReplyAnswers({ message }: { message: ChatMessage }) {
  const questionId = message.replyTo?.questionId;
  const record = useQuestions(useCallback((all: QuestionRecord[]) => all.find((r) => r.id === questionId), [questionId]));
  const readBack = record ? readBackReply(record, message.text, message.replyTo?.answers) : undefined;
  if (!record || !readBack || !('perQuestion' in readBack)) return <p className="message-text">{message.text}</p>;
  return (
    <div className="qd-reply" data-outcome="Answered">
      <span className="qd-summary-outcome">Answer</span>
      <SummaryAnswers record={record} readBack={readBack} answered />
    </div>
  );
});
