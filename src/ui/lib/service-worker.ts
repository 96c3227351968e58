/**
 * U17: the service worker (built to /sw.js) exists only in a secure context (https, or localhost): elsewhere the app
 * works as before, without offline use or push, and says so where push is offered.
 */
export const serviceWorkerPossible = () => typeof navigator !== 'undefined' && 'serviceWorker' in navigator && window.isSecureContext;

/** Registered once the first screen is usable (after load and an idle moment), so it never competes with first paint. */
export function registerServiceWorkerLater(): void {
  if (!serviceWorkerPossible()) return;
  const register = () => {
    const idle = window.requestIdleCallback ?? ((fn: () => void) => setTimeout(fn, 1));
    idle(() => {
      navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
    });
  };
  // Answers tapped on a notification while offline wait in the worker's outbox: an open page nudges it when it can send.
  const nudge = () => navigator.serviceWorker.controller?.postMessage({ type: 'flush' });
  window.addEventListener('online', nudge);
  void navigator.serviceWorker.ready.then(nudge);
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
