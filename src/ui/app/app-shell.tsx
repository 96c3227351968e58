import { useChatSync } from '../features/chat/api/use-chat-sync.ts';
import { QuestionsSync } from '../features/questions/index.tsx';
import { ConnectionStatus } from '../features/connection/components/connection-status.tsx';
import { SessionsNav } from '../features/sessions/components/sessions-nav.tsx';
import { useSessionsSync } from '../features/sessions/api/use-sessions-sync.ts';
import { useRoute } from '../lib/router.tsx';
import { ThemeToggle } from '../components/theme-toggle.tsx';
import { EnableNotifications } from '../features/questions/components/enable-notifications.tsx';
import { AppRoutes } from './app-routes.tsx';

/** The layout: header with the connection state, sessions on the left, the page in the middle. */
export function AppShell() {
  const route = useRoute();
  useSessionsSync();
  useChatSync();

  return (
    <div className="app">
      <QuestionsSync />
      <header className="app-header">
        <span className="app-brand">askdock</span>
        <div className="app-header-actions">
          <ConnectionStatus />
          <EnableNotifications />
          <ThemeToggle />
        </div>
      </header>
      <div className="app-body">
        <SessionsNav activeKey={route.name === 'session' ? route.sessionKey : undefined} />
        <main className="app-main">
          <AppRoutes route={route} />
        </main>
      </div>
    </div>
  );
}
