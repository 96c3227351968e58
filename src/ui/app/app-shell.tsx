import { useChatSync } from '../features/chat/api/use-chat-sync.ts';
import { LiveAnnouncer, QuestionsSync } from '../features/questions/index.tsx';
import { ConnectionStatus } from '../features/connection/components/connection-status.tsx';
import { useSessionsSync } from '../features/sessions/api/use-sessions-sync.ts';
import { Link, useRoute } from '../lib/router.tsx';
import { ConnectAgentButton } from '../features/agents/components/connect-agent-button.tsx';
import { AppRoutes, InboxPage, OnCallPage, RulesPage } from './app-routes.tsx';
import { PolicyBanner } from '../features/policy/components/policy-banner.tsx';
import { AuditBanner } from '../features/audit/components/audit-banner.tsx';
import { RulesLink } from '../features/policy/components/rules-link.tsx';
import { OnCallLink } from '../features/routing/components/on-call-link.tsx';
import { HeaderSlot } from './header-slot.tsx';
import { InboxLink } from './inbox-link.tsx';
import { SessionsSidebar } from './sessions-sidebar.tsx';
import { lazyWithRetry } from '../lib/lazy-with-retry.ts';
import { LazyBoundary } from '../components/lazy-boundary.tsx';

// The notification menu and the install control load just after the first screen: neither is needed to read or answer.
const NotificationMenu = lazyWithRetry(() => import('../features/push/notification-menu.tsx'), (m) => m.NotificationMenu);
const AccountMenu = lazyWithRetry(() => import('./account-menu.tsx'), (m) => m.AccountMenu);
const InstallApp = lazyWithRetry(() => import('../features/push/install-app.tsx'), (m) => m.InstallApp);

/** The layout: header with the connection state, sessions on the left, the page in the middle. */
export function AppShell() {
  const route = useRoute();
  useSessionsSync();
  useChatSync();
  const solo = route.name === 'question';

  return (
    <div className="app">
      <QuestionsSync />
      {/* U12: a session's dock and the Inbox's announce new questions themselves; every other page does it here. */}
      {route.name !== 'session' && route.name !== 'inbox' && <LiveAnnouncer />}
      <header className="app-header">
        <Link to="/" className="app-brand">
          askdock
        </Link>
        <HeaderSlot />
        <div className="app-header-actions">
          <ConnectionStatus />
          <ConnectAgentButton />
          {/* Holds the menu's place while its code loads, so the bar does not shift. */}
          <LazyBoundary pending={<span className="btn-icon header-placeholder" aria-hidden="true" />}>
            <NotificationMenu />
          </LazyBoundary>
          <LazyBoundary>
            <InstallApp />
          </LazyBoundary>
          {/* The theme and Sign out, in one menu. */}
          <LazyBoundary pending={<span className="btn-icon header-placeholder" aria-hidden="true" />}>
            <AccountMenu />
          </LazyBoundary>
        </div>
      </header>
      {/* A question link (/q/<id>) is a page of its own: one card, no sessions list beside it. */}
      <div className="app-body" data-solo={solo || undefined}>
        {!solo && (
          <SessionsSidebar
            activeKey={route.name === 'session' ? route.sessionKey : undefined}
            first={<InboxLink active={route.name === 'inbox'} onPreload={InboxPage.preload} after={
                  <>
                    <RulesLink active={route.name === 'rules'} onPreload={RulesPage.preload} />
                    <OnCallLink active={route.name === 'on-call'} onPreload={OnCallPage.preload} />
                  </>
                } />}
          />
        )}
        <main className="app-main">
          <PolicyBanner onRulesPage={route.name === 'rules'} />
          <AuditBanner />
          <AppRoutes route={route} />
        </main>
      </div>
    </div>
  );
}
