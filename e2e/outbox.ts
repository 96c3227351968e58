import type { Page, WebSocketRoute } from '@playwright/test';
import type { GatewayClient } from '../src/client/client.ts';
import { summaryOf } from './dock.ts';

export const messageBox = (page: Page) => page.getByRole('textbox', { name: 'Message' });
/** The delivery state (Queued, Sending, Sent) of the answered async question's summary. */
export const deliveryOf = (page: Page) => summaryOf(page, 'Answered').getByRole('status');
export const sessionKeyOf = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);

/** The chat messages replying to the question: an async answer must exist at most once (C2, Q9). */
export async function repliesTo(client: GatewayClient, sessionKey: string, questionId: string) {
  const { messages } = await client.request('chat.history', { sessionKey, limit: 500 });
  return messages.filter((m) => m.replyTo?.questionId === questionId);
}

/** What the socket route does: cut the link right after the gateway answers the async reply, refuse new links, or swallow the reply. */
export type Gate = { cutAfterReply: boolean; refuse: boolean; swallowReply: boolean };

const isAnswerSend = (frame: string | Buffer) => {
  const text = frame.toString();
  return text.includes('"chat.send"') && text.includes('"replyTo"') ? (JSON.parse(text) as { id: string }).id : null;
};

/** Puts every gateway socket of the page through the test, which plays the network faults `gate` asks for. */
export async function routeGateway(page: Page, gate: Gate) {
  await page.routeWebSocket(/\/ws$/, (ws: WebSocketRoute) => {
    if (gate.refuse) return void ws.close({ code: 1011, reason: 'network down (test)' });
    const server = ws.connectToServer();
    let cutOnReplyTo: string | null = null;
    ws.onMessage((frame) => {
      const answerId = isAnswerSend(frame);
      if (answerId && gate.swallowReply) return;
      if (answerId && gate.cutAfterReply) {
        gate.cutAfterReply = false;
        cutOnReplyTo = answerId;
      }
      server.send(frame);
    });
    server.onMessage((frame) => {
      // The gateway saved the answer and said so (the reply's chat event, then the response); the page hears neither.
      const text = frame.toString();
      if (cutOnReplyTo && (text.includes(`"id":"${cutOnReplyTo}"`) || (text.includes('"event":"chat"') && text.includes('"replyTo"')))) {
        gate.refuse = true;
        void ws.close({ code: 1011, reason: 'dropped mid-send (test)' });
        void server.close();
        return;
      }
      ws.send(frame);
    });
  });
}
