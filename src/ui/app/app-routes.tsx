import { lazy, Suspense } from 'react';
import type { Route } from '../lib/router.tsx';
import { HomePage } from './home-page.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { SessionPage } from './session-page.tsx';

// The question link page is rare on first load, so it is fetched only when opened.
const QuestionLinkPage = lazy(() => import('../features/questions/components/question-link-page.tsx'));

export function AppRoutes({ route }: { route: Route }) {
  switch (route.name) {
    case 'home':
      return <HomePage />;
    case 'session':
      return <SessionPage sessionKey={route.sessionKey} />;
    case 'question':
      return (
        <Suspense fallback={<p className="muted page-note">Loading…</p>}>
          <QuestionLinkPage id={route.id} />
        </Suspense>
      );
    case 'not-found':
      return <NotFoundPage path={route.path} />;
  }
}
