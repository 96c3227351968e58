import { useEffect, useId, useRef } from 'react';
import type { PolicyGrant } from '../../../../protocol/policy.ts';
import { exactTime, useMinuteClock } from '../../../lib/relative-time.ts';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { VisuallyHidden } from '../../../components/ui/visually-hidden.tsx';
import { errorMessage } from '../../../lib/error-message.ts';
import { Link, questionPath, sessionPath } from '../../../lib/router.tsx';
import { useRevokeGrant } from '../api/revoke-grant.ts';
import { endsIn, grantReach } from '../lib/grant-text.ts';
import { RevokeGrantButton } from './revoke-grant-button.tsx';

/** `onRevoking`: a revoke starts (true) or was refused (false), for where focus goes when the row leaves. */
type RowProps = { grant: PolicyGrant; now: number; onRevoking: (going: boolean) => void };

function GrantRow({ grant, now, onRevoking }: RowProps) {
  const reach = grantReach(grant);
  const ruleId = useId();
  // One revoke per row: another row's revoke neither clears this one's "Revoking…" nor hides its refusal.
  const revoke = useRevokeGrant();
  const pending = revoke.isPending;
  const failed = revoke.isError ? errorMessage(revoke.error) : undefined;
  const onRevoke = () => {
    onRevoking(true);
    revoke.mutate(grant.id, { onError: () => onRevoking(false) });
  };
  return (
    <tr aria-busy={pending || undefined}>
      <th scope="row" className="policy-rule-cell">
        <code id={ruleId} className="policy-code">
          {grant.rule}
        </code>
      </th>
      <td data-label="Applies to">
        {reach.words}
        {reach.value && (
          <>
            {' '}
            {grant.scope === 'session' ? (
              <Link to={sessionPath(reach.value)} className="policy-link policy-id">
                {reach.value}
              </Link>
            ) : (
              <code className="policy-id">{reach.value}</code>
            )}
          </>
        )}
      </td>
      <td data-label="Made by">
        {grant.grantedBy}
        {grant.createdAtMs !== undefined && (
          <>
            {', '}
            <RelativeTime ms={grant.createdAtMs} className="muted" />
          </>
        )}
      </td>
      <td data-label="From">
        <Link to={questionPath(grant.questionId)} className="policy-link policy-id" aria-label={`Question ${grant.questionId}`}>
          {grant.questionId}
        </Link>
      </td>
      <td data-label="Ends">
        <time dateTime={new Date(grant.expiresAt).toISOString()} title={exactTime(grant.expiresAt)}>
          {endsIn(grant.expiresAt, now)}
        </time>
      </td>
      <td className="policy-actions">
        <RevokeGrantButton ruleId={ruleId} pending={pending} failed={failed} onRevoke={onRevoke} />
      </td>
    </tr>
  );
}

/** G5/G12: every live grant: its rule, where it applies, who made it from which question, when it ends, and Revoke. */
export function PolicyGrants({ grants }: { grants: readonly PolicyGrant[] }) {
  const now = useMinuteClock();
  const live = grants.filter((g) => g.expiresAt > now);
  const heading = useRef<HTMLHeadingElement>(null);
  const revoked = useRef(false);
  // A revoked grant's row (and its Revoke button, which had focus) leaves: focus goes to the list's heading, not the page.
  useEffect(() => {
    if (!revoked.current || !heading.current) return;
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (lost) {
      revoked.current = false;
      heading.current.focus();
    }
  }, [live.length]);
  return (
    <section className="policy-section" aria-labelledby="policy-grants-title">
      <h2 id="policy-grants-title" ref={heading} tabIndex={-1} className="policy-section-title">
        Grants
      </h2>
      <p className="muted policy-lead">Made by "Always allow…" answers. A grant allows like a rule, but a deny or ask rule still wins over it.</p>
      {live.length === 0 ? (
        <p className="muted policy-empty">No grants in force.</p>
      ) : (
        <table className="policy-table policy-grants" aria-labelledby="policy-grants-title">
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col">Applies to</th>
              <th scope="col">Made by</th>
              <th scope="col">From</th>
              <th scope="col">Ends</th>
              <th scope="col">
                <VisuallyHidden>Actions</VisuallyHidden>
              </th>
            </tr>
          </thead>
          <tbody>
            {live.map((grant) => (
              <GrantRow
                key={grant.id}
                grant={grant}
                now={now}
                onRevoking={(going) => {
                  revoked.current = going;
                }}
              />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
