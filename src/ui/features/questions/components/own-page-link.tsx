import { Link, questionPath } from '../../../lib/router.tsx';

/** "Open in its own page": the question's link page (`/q/<id>`, U11), which a summary or the collapsed bar offers. */
export function OwnPageLink({ recordId }: { recordId: string }) {
  return (
    <Link to={questionPath(recordId)} className="qd-own-page">
      Open in its own page
    </Link>
  );
}
