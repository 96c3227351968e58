import { afterEach, describe, expect, it } from 'vitest';
import { AskdockError } from '../../protocol/index.ts';
import { until } from '../../testing/channels/fake-http.ts';
import { startChannelWorld, type ChannelWorld } from '../../testing/channels/channel-harness.ts';
import { TelegramDriver } from '../../testing/channels/fake-telegram.ts';
import { deploy } from '../../testing/channels/scenario-items.ts';
import { createMemoryStore } from '../store/memory.ts';
import type { Store } from '../store/types.ts';
import { retryTransient } from './transient-retry.ts';

/**
 * A store whose group is rolled back at its commit (as a PostgreSQL group the database refused, or a full disk) when it
 * holds the next `lose` answers to a question (or the next `loseAcks` "I'm on it" of a routed one): the hub undoes the
 * whole group and the unit's call answers UNAVAILABLE.
 */
function losingStore() {
  const inner = createMemoryStore();
  const seam = { lose: 0, answersWritten: 0, loseAcks: 0, acksWritten: 0, doomed: false };
  const store: Store = {
    ...inner,
    updateQuestion: async (q) => {
      if (q.status !== 'pending') {
        seam.answersWritten++;
        if (seam.lose > 0) {
          seam.lose--;
          seam.doomed = true;
        }
      } else if (q.route?.ackedBy) {
        seam.acksWritten++;
        if (seam.loseAcks > 0) {
          seam.loseAcks--;
          seam.doomed = true;
        }
      }
      await inner.updateQuestion(q);
    },
    commitGroup: async () => {
      if (seam.doomed) {
        seam.doomed = false;
        throw new Error('the database refused the group');
      }
      await inner.commitGroup();
    },
  };
  return { inner, store, seam };
}

/** E4: every question routed to its session's owner first. */
const ROUTED_TO_OWNER = {
  escalations: { owner: { steps: [{ notify: ['session-owner'], wait: '5m' }], exhausted: 'keep' as const } },
  routes: [{ match: { kind: ['question' as const] }, escalation: 'owner' }],
};

describe('R3 a channel call whose unit the gateway could not save', () => {
  let world: { w: ChannelWorld; close: () => Promise<void> } | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  /** Alice's Telegram conversation asked the deploy question (blocking), with its prompt as posted; `routed`: to her first. */
  async function deployAsked(routed = false) {
    const driver = new TelegramDriver();
    const { inner, store, seam } = losingStore();
    const w = await startChannelWorld(driver, { store, ...(routed ? { config: { routing: ROUTED_TO_OWNER } } : {}) });
    world = { w, close: async () => { await w.close(); await inner.close(); } };
    const key = await w.sessionFromFirstMessage('deploy');
    const id = await w.ask(key, [deploy]);
    const prompt = await until(() => driver.messages().find((m) => m.buttons.includes('Staging')), 'the question');
    return { driver, w, key, id, prompt, seam };
  }

  const resolvedEvents = async (w: ChannelWorld, id: string) =>
    (await w.t.gw.store.eventsAfter(0, 10_000)).filter((e) => e.event === 'question.resolved' && (e.payload as { id?: string }).id === id);

  /** Alice presses Staging while the groups holding the next `lose` answers are undone; what the press was told. */
  async function pressWhileLosing(lose: number) {
    const asked = await deployAsked();
    asked.seam.lose = lose;
    await asked.driver.press(asked.driver.ids.alice, asked.prompt, 'Staging');
    await until(() => asked.driver.notices().length > 0 || undefined, 'the press answered');
    return { ...asked, notices: asked.driver.notices() };
  }

  it('[R3][H4][H5] a press whose first try is undone is tried again with the same key: answered once, and the press shows the answer', async () => {
    const { driver, w, id, prompt, seam, notices } = await pressWhileLosing(1);
    expect(notices).toEqual(['Answered: Staging']);
    const q = await w.question(id);
    expect({ status: q.status, answers: q.answers, by: q.resolvedBy?.identity }).toEqual({ status: 'answered', answers: { env: ['Staging'] }, by: 'guest' });
    // Written twice (the first undone with its group), kept once.
    expect(seam.answersWritten).toBe(2);
    expect(await resolvedEvents(w, id)).toHaveLength(1);
    await until(() => driver.messages().find((m) => m.ref === prompt.ref && m.text.includes('Answered: Staging')), 'the outcome on the prompt');
  });

  it('[R3][PT5][C2] a text reply whose first try is undone is sent again with its one idempotency key: one message, one answer', async () => {
    const { driver, w, key, id, prompt, seam } = await deployAsked();
    seam.lose = 1;
    await driver.userSays(driver.ids.alice, 'Staging');
    // The prompt shows the outcome once a resolution is kept (an undone one is never heard of).
    await until(() => driver.messages().find((m) => m.ref === prompt.ref && m.text.includes('Answered: Staging')), 'the outcome on the prompt');
    const q = await w.question(id);
    expect({ status: q.status, answers: q.answers }).toEqual({ status: 'answered', answers: { env: ['Staging'] } });
    expect(seam.answersWritten).toBe(2);
    expect((await w.t.gw.store.history(key, 50)).messages.filter((m) => m.text === 'Staging')).toHaveLength(1);
    expect(await resolvedEvents(w, id)).toHaveLength(1);
  });

  it('[R3][E4][E12] an "I\'m on it" press or `ack` reply whose first try is undone is tried again: the question is taken once, by its presser', async () => {
    const { driver, w, id, prompt, seam } = await deployAsked(true);
    seam.loseAcks = 1;
    await driver.press(driver.ids.alice, prompt, "I'm on it");
    await until(() => driver.notices().length > 0 || undefined, 'the press answered');
    expect(driver.notices()).toEqual(["You're on it"]);
    expect(seam.acksWritten).toBe(2);
    const q = await w.question(id);
    expect({ status: q.status, ackedBy: q.route?.ackedBy?.identity }).toEqual({ status: 'pending', ackedBy: 'guest' });
    const acked = (await w.t.gw.store.auditLines(0, 1_000)).filter((l) => l.line.includes('"event":"question.acknowledged"'));
    expect(acked).toHaveLength(1);

    seam.loseAcks = 1;
    await driver.userSays(driver.ids.alice, 'ack');
    await until(() => driver.messages().filter((m) => m.text.endsWith(' is on it')).length >= 2 || undefined, 'the reply taken');
    expect(seam.acksWritten).toBe(4);
    expect(driver.messages().some((m) => m.text.startsWith('Not taken'))).toBe(false);
  });

  it('[R3][H4] a group lost on every try is given up after a bounded number of tries, and the press says to try again', async () => {
    const { w, id, seam, notices } = await pressWhileLosing(1_000);
    expect(notices).toEqual(['Could not answer just now; try again.']);
    expect(seam.answersWritten).toBe(4);
    expect((await w.question(id)).status).toBe('pending');
  });
});

describe('R3 what a channel tries again', () => {
  const counted = (err: unknown) => {
    let calls = 0;
    const attempt = () => {
      calls++;
      return Promise.reject(err);
    };
    return { attempt, calls: () => calls };
  };

  it.each([
    ['QUESTION_ALREADY_TERMINAL (answered elsewhere)', new AskdockError('QUESTION_ALREADY_TERMINAL', 'already answered')],
    ['QUESTION_INVALID_ANSWER', new AskdockError('QUESTION_INVALID_ANSWER', 'fits no rule')],
    ['INVALID_REQUEST', new AskdockError('INVALID_REQUEST', 'bad field')],
    ['UNAVAILABLE not marked retryable (a closed gateway)', new AskdockError('UNAVAILABLE', 'closed', { retryable: false })],
    ['a plain error', new Error('boom')],
  ])('[R3] %s is thrown after one try', async (_name, err) => {
    const { attempt, calls } = counted(err);
    await expect(retryTransient(attempt, { initialMs: 1 })).rejects.toBe(err);
    expect(calls()).toBe(1);
  });

  it('[R3] UNAVAILABLE marked retryable is tried again until it succeeds, the same call each time', async () => {
    const seen: unknown[] = [];
    const params = { idempotencyKey: 'telegram-key-1' };
    const result = await retryTransient(async () => {
      seen.push(params);
      if (seen.length < 3) throw new AskdockError('UNAVAILABLE', 'undone', { retryable: true });
      return 'kept';
    }, { initialMs: 1 });
    expect(result).toBe('kept');
    expect(seen).toEqual([params, params, params]);
  });
});
