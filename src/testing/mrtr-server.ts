/**
 * A minimal MCP server on stdio that asks the way the 2026-07-28 spec does: `tools/call` of `book` answers
 * `input_required` with an elicitation, and completes once the client retries with `inputResponses` and the
 * `requestState` it was given. (The official SDK does not speak this yet.) The result echoes what the retry carried.
 */
import { createInterface } from 'node:readline';

const send = (m: unknown) => process.stdout.write(JSON.stringify(m) + '\n');
const WHEN = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'When should the table be booked?',
    requestedSchema: { type: 'object', properties: { date: { type: 'string', format: 'date', title: 'Date', description: 'Which day?' } }, required: ['date'] },
  },
};

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const m = JSON.parse(line) as { id?: number | string; method?: string; params?: Record<string, unknown> };
  if (m.id === undefined) continue;
  if (m.method === 'initialize') {
    send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'tables', version: '1.0.0' } } });
  } else if (m.method === 'tools/list') {
    send({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'book', inputSchema: { type: 'object' } }] } });
  } else if (m.method === 'tools/call') {
    const p = m.params ?? {};
    if (!p.inputResponses) send({ jsonrpc: '2.0', id: m.id, result: { resultType: 'input_required', inputRequests: { when: WHEN }, requestState: 'st-1' } });
    else send({ jsonrpc: '2.0', id: m.id, result: { resultType: 'complete', content: [{ type: 'text', text: JSON.stringify({ id: m.id, inputResponses: p.inputResponses, requestState: p.requestState }) }] } });
  } else {
    send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
  }
}
