import type { Route } from '../lib/router.tsx';
import { HomePage } from './home-page.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { SessionPage } from './session-page.tsx';
import { lazyWithRetry } from '../lib/lazy-with-retry.ts';
import { LazyBoundary, LoadFailed } from '../components/lazy-boundary.tsx';

// The question link page is rare on first load, so it is fetched only when opened.
const QuestionLinkPage = lazyWithRetry(() => import('../features/questions/components/question-link-page.tsx'), (m) => m.default);
// G12: the Rules page is for admins, now and then: none of it is in the first load.
export const RulesPage = lazyWithRetry(() => import('../features/policy/components/rules-page.tsx'), (m) => m.default);

// U15: the Inbox (sessionless questions) is seldom the first screen: its own chunk, fetched when its link is pointed at.
export const InboxPage = lazyWithRetry(() => import('./inbox-page.tsx'), (m) => m.InboxPage);

// E9: the On call page, for routed gateways: its own chunk too.
export const OnCallPage = lazyWithRetry(() => import('../features/routing/components/on-call-page.tsx'), (m) => m.default);

export function AppRoutes({ route }: { route: Route }) {
  switch (route.name) {
    case 'home':
      return <HomePage />;
    case 'inbox':
      return (
        <LazyBoundary pending={<p className="muted page-note">Loading…</p>} failed={<LoadFailed what="the Inbox" />}>
          <InboxPage />
        </LazyBoundary>
      );
    case 'rules':
      return (
        <LazyBoundary pending={<p className="muted page-note">Loading…</p>} failed={<LoadFailed what="the rules" />}>
          <RulesPage />
        </LazyBoundary>
      );
    case 'on-call':
      return (
        <LazyBoundary pending={<p className="muted page-note">Loading…</p>} failed={<LoadFailed what="the on-call page" />}>
          <OnCallPage />
        </LazyBoundary>
      );
    case 'session':
      return <SessionPage sessionKey={route.sessionKey} />;
    case 'question':
      return (
        <LazyBoundary pending={<p className="muted page-note">Loading…</p>} failed={<LoadFailed what="this question" />}>
          <QuestionLinkPage id={route.id} />
        </LazyBoundary>
      );
    case 'not-found':
      return <NotFoundPage path={route.path} />;
  }
}
