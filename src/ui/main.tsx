import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@fontsource-variable/inter';
import { notifyManager } from '@tanstack/react-query';
import { App } from './app/app.tsx';
import { afterNextPaint } from './lib/after-paint.ts';
import { applyStoredTheme } from './lib/theme.ts';
import { registerServiceWorkerLater } from './lib/service-worker.ts';
import './app/tokens.css';
import './app/styles/index.ts';

applyStoredTheme();
// The cache tells its components of a change after the next frame: what a socket event shows through its own store
// (a new question's dock) paints first, and the lists that read the cache (sessions, counts) follow in the frame after.
notifyManager.setScheduler(afterNextPaint);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
// U17: the installable app's worker (built files only: the dev server has none).
if (import.meta.env.PROD) registerServiceWorkerLater();
