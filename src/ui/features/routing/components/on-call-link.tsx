import { Link, ON_CALL_PATH } from '../../../lib/router.tsx';
import { useHasRouting } from '../api/get-routing-status.ts';

const PhoneIcon = () => (
  <svg className="session-source" width="16" height="16" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinejoin="round" aria-hidden="true" focusable="false">
    <circle cx="8" cy="5.5" r="2.75" />
    <path d="M2.75 14c.6-2.9 2.7-4.5 5.25-4.5s4.65 1.6 5.25 4.5" strokeLinecap="round" />
  </svg>
);

/** E9: the On call page's entry, shown only where the gateway routes questions (routing.status has a schedule or a routed question). */
export function OnCallLink({ active, onPreload }: { active: boolean; onPreload?: () => void }) {
  if (!useHasRouting()) return null;
  return (
    <Link to={ON_CALL_PATH} className="session-link" aria-current={active ? 'page' : undefined} onPointerEnter={onPreload} onFocus={onPreload}>
      <PhoneIcon />
      <span className="session-link-title">On call</span>
    </Link>
  );
}
