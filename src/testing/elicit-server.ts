/**
 * A small real MCP server for the proxy's tests (X5), written with the official SDK: its tools ask the client through
 * `elicitation/create` in form and url modes, report progress, and echo. Run on stdio: `node --import tsx elicit-server.ts`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod';

export const DEPLOY_SCHEMA = {
  type: 'object',
  properties: {
    region: { type: 'string', title: 'Region', description: 'Which region should it run in?', enum: ['eu-west', 'us-east', 'ap-south'], default: 'us-east' },
    size: { type: 'string', title: 'Size', description: 'Which machine size?', enum: ['nano', 'micro', 'small', 'medium', 'large', 'xlarge'] },
    confirm: { type: 'boolean', title: 'Backups', description: 'Keep nightly backups?' },
    replicas: { type: 'integer', title: 'Replicas', description: 'How many replicas?', minimum: 1, maximum: 5, default: 2 },
    email: { type: 'string', title: 'Contact', description: 'Who gets the alerts?', format: 'email' },
    note: { type: 'string', title: 'Note', description: 'Anything to add?', maxLength: 40 },
  },
  required: ['region', 'size', 'confirm', 'replicas', 'email'],
} as const;

const server = new McpServer({ name: 'shop-tools', version: '1.0.0' });
const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
/** The calls `count` and `delete_all` received, for `seen` to tell (G4: a denied call never reaches the server). */
const seen: string[] = [];

server.registerTool('delete_all', { description: 'Deletes everything (it only records the call)', inputSchema: { target: z.string() } }, async ({ target }) => {
  seen.push(`delete_all:${target}`);
  return text(`deleted ${target}`);
});

server.registerTool('seen', { description: 'The calls of count and delete_all so far', inputSchema: {} }, async () => text(JSON.stringify(seen)));

server.registerTool('deploy', { description: 'Deploys after asking how', inputSchema: {} }, async () => {
  const result = await server.server.elicitInput({ mode: 'form', message: 'How should shop deploy?', requestedSchema: DEPLOY_SCHEMA as never });
  return text(JSON.stringify(result));
});

server.registerTool('survey', { description: 'Asks n one-field questions at once', inputSchema: { n: z.number().int() } }, async ({ n }) => {
  const asks = Array.from({ length: n }, (_, i) =>
    server.server.elicitInput({
      mode: 'form',
      message: `Survey question ${i + 1}`,
      requestedSchema: { type: 'object', properties: { answer: { type: 'string', title: `Q${i + 1}`, description: `What is answer ${i + 1}?` } }, required: ['answer'] },
    }),
  );
  return text(JSON.stringify(await Promise.all(asks)));
});

server.registerTool('login', { description: 'Signs in through a browser page', inputSchema: {} }, async () => {
  const result = await server.server.elicitInput({ mode: 'url', message: 'Sign in to the shop', url: 'https://auth.example.com/login?flow=42', elicitationId: 'login-42' });
  return text(JSON.stringify(result));
});

server.registerTool('finish_login', { description: 'Says the sign-in page is done', inputSchema: {} }, async () => {
  await server.server.createElicitationCompletionNotifier('login-42')();
  return text('completed');
});

server.registerTool('count', { description: 'Counts to n with progress', inputSchema: { n: z.number().int() } }, async ({ n }, extra) => {
  seen.push(`count:${n}`);
  const token = extra._meta?.progressToken;
  for (let i = 1; i <= n; i++) {
    if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: n, message: `step ${i}` } });
  }
  // A round trip to the client after the progress, so it has read them all before the result ends the call.
  await server.server.ping();
  return text(`counted to ${n}`);
});

server.registerTool('quit', { description: 'Ends the server with exit code 7', inputSchema: {} }, async () => {
  setTimeout(() => process.exit(7), 10);
  return text('bye');
});

await server.connect(new StdioServerTransport());
