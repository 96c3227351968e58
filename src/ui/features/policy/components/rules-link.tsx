import { useHello } from '../../../lib/gateway.tsx';
import { Link, RULES_PATH } from '../../../lib/router.tsx';
import { usePolicyError } from '../api/get-policy.ts';

const ShieldIcon = () => (
  <svg className="session-source" width="16" height="16" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinejoin="round" aria-hidden="true" focusable="false">
    <path d="M8 1.75 13 3.5v4c0 3-2.1 5.3-5 6.75C5.1 12.8 3 10.5 3 7.5v-4L8 1.75Z" />
  </svg>
);

/** G12: the Rules page's entry beside the Inbox, for admins only; marked while a reload failed (G10). */
export function RulesLink({ active, onPreload }: { active: boolean; onPreload?: () => void }) {
  const admin = useHello()?.auth.scopes.includes('operator.admin') === true;
  const failed = usePolicyError() !== undefined;
  if (!admin) return null;
  return (
    <Link
      to={RULES_PATH}
      className="session-link rules-link"
      aria-current={active ? 'page' : undefined}
      aria-description={failed ? 'The last policy reload failed' : undefined}
      onPointerEnter={onPreload}
      onFocus={onPreload}
    >
      <ShieldIcon />
      <span className="session-link-title">Rules</span>
      {failed && <span className="rules-link-alert" aria-hidden="true" />}
    </Link>
  );
}
