import { afterEach, describe, expect, it } from 'vitest';
import { gatewayEnvironment } from '../../cli/gateway-env.ts';
import { startTestGateway, type TestGateway } from '../../testing/gateway-harness.ts';
import { createLogger, prettyLine } from './logger.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('gateway logs', () => {
  it('[logs] one JSON object per line, with level, msg, connId, method and code', async () => {
    t = await startTestGateway({ memory: true });
    const admin = await t.connect('admin');
    const res = await admin.request('question.get', { id: 'no-such-question' });
    expect(res.ok).toBe(false);
    const entries = t.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    const opened = entries.find((e) => e.msg === 'connection opened');
    expect(opened).toMatchObject({ level: 'info', connId: expect.stringMatching(/^c/), identity: 'admin' });
    expect(entries).toContainEqual(
      expect.objectContaining({ level: 'debug', connId: opened!.connId, method: 'question.get', code: 'QUESTION_NOT_FOUND', msg: 'no question "no-such-question"' }),
    );
    for (const line of t.logs) expect(line).not.toContain('\n');
  });

  it('[logs] readable lines for a terminal: time, level, message, then the fields', () => {
    const line = JSON.stringify({ level: 'error', time: '2026-12-01T08:30:05.123Z', msg: 'question.get failed', connId: 'c1', method: 'question.get', code: 'UNAVAILABLE' });
    expect(prettyLine(line, false)).toBe('08:30:05 ERROR question.get failed connId=c1 method=question.get code=UNAVAILABLE\n');
    const lines: string[] = [];
    createLogger({ pretty: true, sink: { write: (l) => lines.push(l) } }).info({ connId: 'c2' }, 'connection opened');
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d .*INFO.* connection opened connId=c2\n$/);
  });

  it('[logs] a readable line shows what a client sent with no control sequence a terminal would act on', async () => {
    t = await startTestGateway({ memory: true });
    const admin = await t.connect('admin');
    // An id that would retitle the window (OSC), recolour the screen (8-bit CSI) and read backwards (RLO).
    const res = await admin.request('question.get', { id: 'q\u001b]0;owned\u0007-\u009b31m-\u202e' });
    expect(res.ok).toBe(false);
    const line = t.logs.find((l) => l.includes('QUESTION_NOT_FOUND'))!;
    const shown = prettyLine(line, false);
    expect(shown).toContain('no question "q\uFFFD]0;owned\uFFFD-\uFFFD31m-\\u202E"');
    expect(shown.slice(0, -1)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    const fields = prettyLine(JSON.stringify({ level: 'warn', time: 0, msg: 'refused', origin: 'x\u009d0;t\u0007', detail: { at: '\u009b2J' } }), false);
    expect(fields.slice(0, -1)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it('[logs] the command that starts a gateway picks JSON or readable lines by whether stderr is a terminal', () => {
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => written.push(chunk) > 0) as typeof process.stderr.write;
    try {
      gatewayEnvironment({}, { isTTY: false }).log.info({ connId: 'c3' }, 'hello');
      gatewayEnvironment({}, { isTTY: true }).log.info({ connId: 'c4' }, 'hello');
    } finally {
      process.stderr.write = write;
    }
    expect(JSON.parse(written[0])).toMatchObject({ level: 'info', msg: 'hello', connId: 'c3' });
    expect(written[1]).toMatch(/hello connId=c4\n$/);
    expect(gatewayEnvironment({ ASKDOCK_CHECK_FRAMES: '1', ASKDOCK_SYNC: 'FULL' }, {})).toMatchObject({ checkFrames: true, syncFull: true });
  });
});
