import { describe, expect, it } from 'vitest';
import { scaleRows } from './scale-rows.ts';

describe('scale rows', () => {
  it('print the 10x figure beside the 1x one, with its growth against a flat or linear aim', () => {
    const rows = scaleRows({
      connections: [
        { connections: 1000, rssPerConnectionKb: 20, eventToLastMs: 200, delivered: 1000 },
        { connections: 10_000, rssPerConnectionKb: 10, eventToLastMs: 2600, delivered: 10_000 },
      ],
      sessions: [
        { sessions: 100, messagesPerSession: 100, historyPageMs: 10, sessionsListMs: 2, sessionsListKb: 16 },
        { sessions: 1000, messagesPerSession: 100, historyPageMs: 12, sessionsListMs: 150, sessionsListKb: 160 },
      ],
      questions: [],
    });
    const byFigure = Object.fromEntries(rows.map((r) => [r.figure.trim(), r]));
    expect(byFigure['gateway RSS per connection']).toMatchObject({ measured: '10.0 KB', baseline: '1x (1,000) 20.0 KB', ratio: '0.50x', aim: 'growth < 1.5x (flat)', met: true });
    expect(byFigure['question.requested -> the last operator has it']).toMatchObject({ ratio: '13.00x', aim: 'growth <= 12x (about linear)', met: false });
    expect(byFigure['chat.history, one page, median']).toMatchObject({ ratio: '1.20x', met: true });
    expect(byFigure['sessions.list, median']).toMatchObject({ ratio: '75.00x', met: false });
    expect(rows.some((r) => r.figure.includes('question.list'))).toBe(false);
  });
});
