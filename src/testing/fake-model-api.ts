/**
 * A loopback stand-in for the Messages API (`POST /v1/messages`), scripted per test, so the real Claude Code CLI runs
 * with no model service. The conversation's requests (those that offer tools) take the next scripted reply; the
 * CLI's side requests (a title, a quota check: no tools) get a short text. Every request body is kept for the test.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ScriptedReply = { text: string } | { toolUse: { name: string; input: Record<string, unknown> } };

export type RecordedRequest = { method: string; path: string; body: Record<string, unknown> | undefined; at: number };

/** One content block of a request's messages, as far as a test reads it. */
export type ContentBlock = { type: string; text?: string; tool_use_id?: string; content?: unknown; is_error?: boolean; name?: string; input?: unknown };

export type FakeModelApi = {
  url: string;
  /** Adds replies to the queue, taken in order by the conversation's requests. */
  reply(...replies: ScriptedReply[]): void;
  /** Every request so far, in arrival order. */
  requests(): RecordedRequest[];
  /** The requests of the conversation (those offering tools), in arrival order. */
  conversationRequests(): RecordedRequest[];
  /** Paths the fake does not know (the CLI asked for something new). */
  unknownPaths(): string[];
  /** The `tool_result` blocks of every conversation request so far. */
  toolResults(): ContentBlock[];
  /** Polls until some `tool_result` passes `match`; fails after `timeoutMs` with the requests seen. */
  waitForToolResult(match: (r: ContentBlock) => boolean, timeoutMs?: number): Promise<ContentBlock>;
  close(): Promise<void>;
};

const MODEL = 'claude-fake-1';
let nextId = 0;
const id = (prefix: string) => `${prefix}_fake${String(++nextId).padStart(6, '0')}`;

/** A `tool_result`'s content as one string (it is a string or an array of text blocks). */
export function toolResultText(block: ContentBlock): string {
  if (typeof block.content === 'string') return block.content;
  if (Array.isArray(block.content)) return block.content.map((c: { text?: unknown }) => (typeof c.text === 'string' ? c.text : '')).join('\n');
  return '';
}

function contentOf(reply: ScriptedReply): Record<string, unknown> {
  return 'text' in reply ? { type: 'text', text: reply.text } : { type: 'tool_use', id: id('toolu'), name: reply.toolUse.name, input: reply.toolUse.input };
}

/** The SSE events of one assistant message with a single content block, as the streaming API sends them. */
function streamEvents(block: Record<string, unknown>): [string, unknown][] {
  const isTool = block.type === 'tool_use';
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const message = { id: id('msg'), type: 'message', role: 'assistant', model: MODEL, content: [], stop_reason: null, stop_sequence: null, usage };
  const start = isTool ? { ...block, input: {} } : { type: 'text', text: '' };
  const delta = isTool ? { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } : { type: 'text_delta', text: block.text };
  return [
    ['message_start', { type: 'message_start', message }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: start }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: isTool ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } }],
    ['message_stop', { type: 'message_stop' }],
  ];
}

function sendMessage(res: ServerResponse, body: Record<string, unknown> | undefined, block: Record<string, unknown>): void {
  if (body?.stream === true) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    for (const [event, data] of streamEvents(block)) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    res.end();
    return;
  }
  const stop = block.type === 'tool_use' ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: 10, output_tokens: 5 };
  sendJson(res, 200, { id: id('msg'), type: 'message', role: 'assistant', model: MODEL, content: [block], stop_reason: stop, stop_sequence: null, usage });
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });
}

/** The conversation's requests offer tools; a title or quota request does not. */
const isConversation = (body: Record<string, unknown> | undefined) => Array.isArray(body?.tools) && body.tools.length > 0;

function blocksOf(body: Record<string, unknown> | undefined): ContentBlock[] {
  const messages = Array.isArray(body?.messages) ? (body.messages as { content?: unknown }[]) : [];
  return messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as ContentBlock[]) : []));
}

export async function startFakeModelApi(): Promise<FakeModelApi> {
  const queue: ScriptedReply[] = [];
  const recorded: RecordedRequest[] = [];
  const unknown: string[] = [];
  const server: Server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const path = (req.url ?? '/').split('?')[0];
      let body: Record<string, unknown> | undefined;
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
      } catch {
        body = undefined;
      }
      recorded.push({ method: req.method ?? 'GET', path, body, at: Date.now() });
      if (req.method === 'POST' && path === '/v1/messages/count_tokens') return sendJson(res, 200, { input_tokens: 100 });
      if (req.method === 'POST' && path === '/v1/messages') {
        // An empty queue ends the turn: the CLI then waits at its prompt instead of retrying.
        const reply = isConversation(body) ? (queue.shift() ?? { text: 'Done.' }) : { text: 'Fake title' };
        return sendMessage(res, body, contentOf(reply));
      }
      // The CLI probes the base URL's reachability at start.
      if (req.method === 'HEAD' && path === '/') return void res.writeHead(200).end();
      if (req.method === 'GET' && path === '/v1/models') return sendJson(res, 200, { data: [{ type: 'model', id: MODEL, display_name: 'Fake', created_at: '2026-01-01T00:00:00Z' }], has_more: false, first_id: MODEL, last_id: MODEL });
      unknown.push(`${req.method} ${path}`);
      // A newer CLI may ask for something new: say so where the test's output shows it.
      process.stderr.write(`fake model API: nothing serves ${req.method} ${path}\n`);
      sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `the fake model API does not serve ${path}` } });
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  const toolResults = () => recorded.filter((r) => isConversation(r.body)).flatMap((r) => blocksOf(r.body).filter((b) => b.type === 'tool_result'));
  return {
    url: `http://127.0.0.1:${port}`,
    reply: (...replies) => void queue.push(...replies),
    requests: () => [...recorded],
    conversationRequests: () => recorded.filter((r) => isConversation(r.body)),
    unknownPaths: () => [...unknown],
    toolResults,
    async waitForToolResult(match, timeoutMs = 90_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const found = toolResults().find(match);
        if (found) return found;
        if (Date.now() > end) throw new Error(`no matching tool_result within ${timeoutMs} ms; requests: ${recorded.map((r) => r.path).join(', ')}; tool results: ${JSON.stringify(toolResults())}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
