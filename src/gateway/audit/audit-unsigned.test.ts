/** L8: a gateway without a usable key runs unsigned: what needs a signature is refused with AUDIT_KEY_MISSING. */
import { afterEach, describe, expect, it } from 'vitest';
import { failure, startTestGateway, type TestGateway } from '../../testing/gateway-harness.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function unsignedAdmin() {
  t = await startTestGateway({ auditSigning: false });
  return t.connect('admin');
}

describe('an unsigned audit log (L8)', () => {
  it('[L8] audit.export without unsigned:true is refused with AUDIT_KEY_MISSING, naming --unsigned; with it the entries come', async () => {
    const admin = await unsignedAdmin();
    const refused = await failure(admin.call('audit.export', {}));
    expect(refused.code).toBe('AUDIT_KEY_MISSING');
    expect(refused.message).toContain('--unsigned');
    const page = await admin.call('audit.export', { unsigned: true });
    expect(page.files.map((f) => f.name)).toContain('entries.jsonl');
  });

  it('[L8][L9] audit.checkpoint {sign:true} is refused with AUDIT_KEY_MISSING; reading it says unsigned', async () => {
    const admin = await unsignedAdmin();
    const refused = await failure(admin.call('audit.checkpoint', { sign: true }));
    expect(refused.code).toBe('AUDIT_KEY_MISSING');
    expect(refused.message).toContain('audit: unsigned');
    expect(await admin.call('audit.checkpoint', {})).toMatchObject({ checkpoint: null, unsigned: true });
  });
});
