import { describe, expect, it } from 'vitest';
import { endpointProblem, PUSH_SERVICE_HOSTS } from './endpoints.ts';
import { questionPayload } from './push-service.ts';
import type { QuestionRecord } from '../../protocol/index.ts';

/** One real host per pattern of PUSH_SERVICE_HOSTS; a pattern added without a host here fails the first test. */
const HOSTS = ['fcm.googleapis.com', 'android.googleapis.com', 'updates.push.services.mozilla.com', 'wns2-par02p.notify.windows.com', 'web.push.apple.com'];
const none = new Set<string>();

describe('U17 push service hosts', () => {
  it('[U17] every host pattern has a real host here, and that host passes over https', () => {
    for (const pattern of PUSH_SERVICE_HOSTS) expect(HOSTS.filter((h) => pattern.test(h)), String(pattern)).toHaveLength(1);
    for (const host of HOSTS) expect(endpointProblem(`https://${host}/push/abc`, none), host).toBeUndefined();
  });

  it('[U17] every host pattern refuses its host with a suffix added (an address the client chose)', () => {
    for (const host of HOSTS) {
      for (const bad of [`${host}.127.0.0.1.nip.io`, `x.${host}.127.0.0.1.nip.io`, `${host}.evil.example`, `${host}x`, `${host}-evil.example`]) {
        expect(endpointProblem(`https://${bad}/push/abc`, none), bad).toBeDefined();
      }
      // Each pattern on its own, so one losing its anchors fails here even when another would refuse the host.
      const own = PUSH_SERVICE_HOSTS.find((p) => p.test(host))!;
      expect(own.test(`${host}.127.0.0.1.nip.io`), String(own)).toBe(false);
      expect(own.test(`${host}x`), String(own)).toBe(false);
    }
  });
});

describe('U17 push payload', () => {
  it("[U17] a push's body is the question's text and carries nothing of its detail", () => {
    const detail = 'DETAIL-LINE db password=hunter2\n  stack trace at deploy.ts:42';
    const q = {
      id: 'q1',
      mode: 'blocking',
      expiresAtMs: null,
      questions: [{ id: 'env', header: 'Environment', question: 'Where should it deploy?', detail, multiSelect: false, options: [{ label: 'Staging' }, { label: 'Production' }] }],
    } as unknown as QuestionRecord;
    const payload = questionPayload(q);
    expect(payload).toMatchObject({ type: 'question', body: 'Where should it deploy?', title: 'Environment' });
    const text = JSON.stringify(payload);
    for (const piece of ['DETAIL-LINE', 'hunter2', 'deploy.ts:42', 'detail']) expect(text).not.toContain(piece);
  });
});
