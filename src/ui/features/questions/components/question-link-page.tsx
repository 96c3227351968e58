import { Fragment, useEffect } from 'react';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { Button } from '../../../components/ui/button.tsx';
import { errorMessage } from '../../../lib/error-message.ts';
import { Link, sessionPath } from '../../../lib/router.tsx';
import { useQuestion } from '../api/get-question.ts';
import { draftActions } from '../stores/drafts.ts';
import { HeaderText } from './header-text.tsx';
import { LinkAnswerForm } from './link-answer-form.tsx';
import { LinkOutcome, LinkNotice } from './link-outcome.tsx';
import { TimeLeft } from './time-left.tsx';
import { useChoosableOffers } from '../hooks/use-choosable-offers.ts';
import { RouteRowSlot } from './route-row-slot.tsx';
import '../styles/index.ts';
import '../question-link.css';

/** `/q/<id>`: one question on its own page, answerable alone (U11), as one centred card. */
export default function QuestionLinkPage({ id }: { id: string }) {
  return (
    <div className="ql-page">
      <QuestionLinkCard id={id} />
    </div>
  );
}

function QuestionLinkCard({ id }: { id: string }) {
  const { record, gone, error, fetching, retry } = useQuestion(id);
  const ended = gone || (record !== undefined && record.status !== 'pending');

  useEffect(() => {
    // Nothing typed here can be sent any more.
    if (ended) draftActions().draftDiscarded(id);
  }, [ended, id]);

  if (gone) return <LinkNotice title="Question no longer available" text="This question no longer exists, or this sign-in cannot see it." />;
  if (record && record.status !== 'pending') return <LinkOutcome record={record} />;
  if (record) return <PendingQuestion record={record} refreshError={error} retrying={fetching} onRetry={retry} />;
  if (error && !fetching)
    return (
      <LinkNotice title="Could not load the question" text="Anything you typed for it is kept.">
        <p className="inline-error" role="alert">
          {errorMessage(error)}
        </p>
        <Button onClick={retry}>Retry</Button>
      </LinkNotice>
    );
  return <p className="muted page-note">Loading the question…</p>;
}

type PendingProps = { record: QuestionRecord; refreshError: Error | null; retrying: boolean; onRetry: () => void };

function PendingQuestion({ record: asked, refreshError, retrying, onRetry }: PendingProps) {
  const record = useChoosableOffers(asked);
  return (
    <article className="question-link" aria-labelledby="question-link-title" data-mode={record.mode}>
      <header className="ql-head">
        <p className="ql-meta">
          <span>Asked by {record.askedBy}</span>
          {record.mode === 'async' && <span>(no rush: the agent is not waiting)</span>}
          {record.mode === 'blocking' && record.expiresAtMs !== null && (
            <>
              <span className="ql-meta-sep" aria-hidden="true">
                ·
              </span>
              <TimeLeft expiresAtMs={record.expiresAtMs} />
            </>
          )}
        </p>
        <h1 id="question-link-title">
          {record.questions.map((q, i) => (
            <Fragment key={q.id}>
              {i > 0 && ' · '}
              <HeaderText header={q.header} whole={q.question} />
            </Fragment>
          ))}
        </h1>
        {record.sessionKey && (
          <Link className="ql-conversation" to={sessionPath(record.sessionKey)}>
            Open the conversation
          </Link>
        )}
      </header>
      <RouteRowSlot record={record} />
      {refreshError && (
        <div className="ql-banner" role="alert">
          <span>Could not check this question again: {errorMessage(refreshError)}</span>
          <Button size="sm" disabled={retrying} onClick={onRetry}>
            Retry
          </Button>
        </div>
      )}
      <LinkAnswerForm record={record} />
    </article>
  );
}
