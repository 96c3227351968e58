import { Link, RULES_PATH } from '../../../lib/router.tsx';
import { PolicyErrorAlert } from './policy-error-alert.tsx';

/** G10: the failed reload's alert above any page but the Rules page, with the way there. */
export function PolicyErrorNotice({ error }: { error: string }) {
  return (
    <div className="policy-banner">
      <PolicyErrorAlert error={error}>
        <Link to={RULES_PATH} className="policy-link">
          See the rules
        </Link>
      </PolicyErrorAlert>
    </div>
  );
}
