/**
 * What the question trace scripts share: marks the page makes (a question's frame at the socket, its end, the frame
 * after the dock shows it) and one round (asked, shown, answered from Node, on an idle page).
 */
import type { Page } from '@playwright/test';
import { pageIdle, signalFromPage } from './page-tools.ts';
import type { TraceRig } from './trace-rig.ts';

/**
 * In the page before its scripts: a mark when a question's frame reaches the socket (`arrive-<n>`), ahead of the app's
 * listener, and one for each `question.resolved` frame (`resolved`).
 */
export function markArrivals() {
  const Native = WebSocket;
  (window as unknown as { WebSocket: typeof WebSocket }).WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (e) => {
        const data = String(e.data);
        const n = /"question\.requested".*Traced question (\d+):/.exec(data)?.[1];
        if (n) performance.mark(`arrive-${n}`);
        if (data.includes('"question.resolved"')) performance.mark('resolved');
      });
    }
  };
}

/**
 * In the page: a mark once the frame after the question's commit is done, as the question bench takes it (a
 * user-blocking task posted from that frame's rAF: it runs before tasks queued earlier, such as work put off until
 * after the frame); the round goes on after the first ordinary task after it.
 */
function markPaints() {
  const seen = new Set<string>();
  const dock = document.querySelector('.qd-dock') ?? document.body;
  new MutationObserver(() => {
    const n = /Traced question (\d+):/.exec(dock.querySelector('[role="region"][aria-label="Questions"]')?.textContent ?? '')?.[1];
    if (!n || seen.has(n)) return;
    seen.add(n);
    requestAnimationFrame(() => {
      const scheduler = (globalThis as { scheduler?: { postTask(cb: () => void, o: { priority: string }): Promise<void> } }).scheduler;
      const mark = () => performance.getEntriesByName(`painted-${n}`).length === 0 && performance.mark(`painted-${n}`);
      if (scheduler) void scheduler.postTask(mark, { priority: 'user-blocking' });
      const channel = new MessageChannel();
      channel.port1.onmessage = () => (mark(), (window as unknown as { traceShown(n: string): void }).traceShown(n));
      channel.port2.postMessage(null);
    });
  }).observe(dock, { subtree: true, childList: true, characterData: true });
}

/** Starts the paint marks on an opened page; the round it returns asks question `n` and has it answered from Node. */
export async function tracedRounds(page: Page, { operator, agent, sessionKey }: TraceRig): Promise<(n: number) => Promise<void>> {
  const shown = await signalFromPage(page, 'traceShown');
  await page.evaluate(markPaints);
  return async (n: number) => {
    await pageIdle(page);
    const next = shown();
    let id = '';
    const off = operator.on('question.requested', ({ question }) => void (question.sessionKey === sessionKey && (id = question.id)));
    const asked = agent.askUser({ questions: [{ id: 'pick', header: 'Bench', question: `Traced question ${n}: which one?`, options: [{ label: 'Alpha' }, { label: 'Beta' }] }] }, { sessionKey });
    await next;
    off();
    // Answered from Node once the page has shown it, so the window holds the question's work alone.
    await operator.request('question.resolve', { id, answers: { pick: ['Alpha'] } });
    await asked;
  };
}
