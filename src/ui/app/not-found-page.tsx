import { Link } from '../lib/router.tsx';

export function NotFoundPage({ path }: { path: string }) {
  return (
    <div className="empty-state">
      <h1>Nothing here</h1>
      <p className="muted">
        There is no page at <code>{path}</code>. <Link to="/">Go to your sessions</Link>.
      </p>
    </div>
  );
}
