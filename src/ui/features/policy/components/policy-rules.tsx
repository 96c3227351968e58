import { useId } from 'react';
import type { PolicyDecision, PolicyRuleView } from '../../../../protocol/policy.ts';
import { layerTitle } from '../lib/grant-text.ts';
import { DecisionBadge } from './decision-badge.tsx';

/** Rules in the order the policy lists them, one group per layer (config first, then the file, then any other). */
function byLayer(rules: readonly PolicyRuleView[]): [string, PolicyRuleView[]][] {
  const groups = new Map<string, PolicyRuleView[]>([
    ['config', []],
    ['file', []],
  ]);
  for (const rule of rules) groups.set(rule.layer, [...(groups.get(rule.layer) ?? []), rule]);
  return [...groups].filter(([, list]) => list.length > 0);
}

function LayerTable({ layer, rules }: { layer: string; rules: PolicyRuleView[] }) {
  const titleId = useId();
  const { title, key } = layerTitle(layer);
  return (
    <div className="policy-group">
      <h3 id={titleId} className="policy-group-title">
        {title}
        {key && (
          <>
            {' '}
            <code className="policy-id">{key}</code>
          </>
        )}
      </h3>
      <table className="policy-table policy-rules-table" aria-labelledby={titleId}>
        <thead>
          <tr>
            <th scope="col">Rule</th>
            <th scope="col">Decision</th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          {rules.map((rule) => (
            <tr key={rule.id}>
              <th scope="row" className="policy-rule-cell">
                <code className="policy-code">{rule.rule}</code>{' '}
                <span className="policy-id">{rule.id}</span>
              </th>
              <td data-label="Decision">
                <DecisionBadge decision={rule.decision} />
              </td>
              <td data-label="Reason" className={rule.reason ? 'policy-reason' : 'policy-reason muted'}>
                {rule.reason ?? '—'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** G1/G2: every rule of the policy in force with its layer, decision and reason, and what happens when none matches. */
export function PolicyRules({ rules, unmatched }: { rules: readonly PolicyRuleView[]; unmatched: PolicyDecision }) {
  const groups = byLayer(rules);
  return (
    <section className="policy-section" aria-labelledby="policy-rules-title">
      <h2 id="policy-rules-title" className="policy-section-title">
        Policy
      </h2>
      <p className="policy-unmatched">
        When no rule matches: <DecisionBadge decision={unmatched} />
        <span className="muted"> (unmatched)</span>
      </p>
      {groups.length === 0 ? (
        <p className="muted policy-empty">No rules yet: every approval is decided by the default above. Rules go in the config's approvals block.</p>
      ) : (
        groups.map(([layer, list]) => <LayerTable key={layer} layer={layer} rules={list} />)
      )}
    </section>
  );
}
