import { RelativeTime } from '../../../components/relative-time.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { errorCode, errorMessage } from '../../../lib/error-message.ts';
import { useHello } from '../../../lib/gateway.tsx';
import { usePolicy } from '../api/get-policy.ts';
import { PolicyErrorAlert } from './policy-error-alert.tsx';
import { PolicyGrants } from './policy-grants.tsx';
import { PolicyRules } from './policy-rules.tsx';
import '../policy.css';

/** `/rules` (G5, G10, G12): the approval policy in force and its live grants, for operator.admin. Its own chunk. */
export default function RulesPage() {
  const hello = useHello();
  const policy = usePolicy();
  const admin = hello?.auth.scopes.includes('operator.admin') === true;

  let body;
  if (hello && !admin) body = <p className="muted policy-empty">Only an admin sees the approval policy and its grants.</p>;
  else if (policy.isError)
    body = (
      <div className="policy-empty">
        <p className="inline-error">
          {errorCode(policy.error) === 'UNAVAILABLE' ? 'This gateway has no approval policy yet.' : `Could not load the approval policy: ${errorMessage(policy.error)}`}
        </p>
        <Button size="sm" onClick={() => void policy.refetch()}>
          Try again
        </Button>
      </div>
    );
  else if (!policy.data) body = <p className="muted policy-empty">Loading…</p>;
  else
    body = (
      <>
        {policy.data.error && <PolicyErrorAlert error={policy.data.error} />}
        <PolicyRules rules={policy.data.rules} unmatched={policy.data.unmatched ?? 'ask'} />
        <PolicyGrants grants={policy.data.grants} />
      </>
    );

  return (
    <div className="policy-page">
      <header className="policy-head">
        <h1 className="policy-title">Rules</h1>
        <p className="muted policy-lead">
          What agents may do without asking: the approval policy decides each request, the most restrictive matching rule wins.
          {policy.data && (
            <>
              {' '}
              Loaded <RelativeTime ms={policy.data.loadedAtMs} />.
            </>
          )}
        </p>
      </header>
      {body}
    </div>
  );
}
