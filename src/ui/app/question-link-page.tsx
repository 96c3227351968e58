import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GatewayClient } from '../../client/client.ts';
import { useGateway } from '../lib/gateway.tsx';
import { errorCode, errorMessage } from '../lib/error-message.ts';
import { Button } from '../components/ui/button.tsx';

// A placeholder for U11's question link page: it shows the question's headers and status; answering here comes later.

export async function getQuestion(client: GatewayClient, id: string) {
  const { question } = await client.request('question.get', { id });
  return question;
}

export function questionLinkQueryOptions(client: GatewayClient, id: string) {
  return queryOptions({
    queryKey: ['question-link', id] as const,
    queryFn: () => getQuestion(client, id),
    staleTime: Infinity,
    retry: (count, error) => errorCode(error) !== 'QUESTION_NOT_FOUND' && count < 1,
  });
}

const STATUS: Record<string, string> = {
  pending: 'Waiting for an answer',
  answered: 'Answered',
  skipped: 'Skipped',
  expired: 'Expired',
  cancelled: 'Cancelled',
};

export default function QuestionLinkPage({ id }: { id: string }) {
  const question = useQuery(questionLinkQueryOptions(useGateway(), id));

  if (question.isPending) return <p className="muted page-note">Loading the question…</p>;
  if (question.isError) {
    if (errorCode(question.error) === 'QUESTION_NOT_FOUND')
      return (
        <div className="empty-state">
          <h1>Question not available</h1>
          <p className="muted">This question no longer exists, or this sign-in cannot see it.</p>
        </div>
      );
    return (
      <div className="empty-state">
        <h1>Could not load the question</h1>
        <p className="inline-error">{errorMessage(question.error)}</p>
        <Button onClick={() => void question.refetch()}>Retry</Button>
      </div>
    );
  }

  const record = question.data;
  return (
    <article className="question-link" aria-labelledby="question-link-title">
      <h1 id="question-link-title">{record.questions.map((q) => q.header).join(' · ')}</h1>
      <p className="question-link-status">{STATUS[record.status] ?? record.status}</p>
      <ol className="question-link-items">
        {record.questions.map((q) => (
          <li key={q.id}>
            <strong>{q.header}</strong> {q.question}
            {record.answers?.[q.id] && <span className="muted"> — {record.answers[q.id].join(', ')}</span>}
          </li>
        ))}
      </ol>
    </article>
  );
}
