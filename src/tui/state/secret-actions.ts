import type { GatewayClient } from '../../client/client.ts';
import { waitsForText } from '../../lib/route-text.ts';
import { errorText, flash } from './flash.ts';
import { update } from './sync.ts';
import { pendingSecret, sessionSecrets, type TuiStore } from './tui-store.ts';

/** W4: a value as the pending secret (K1 `secret.provide`); nothing of it is kept on this screen. Whether it was stored. */
export async function provideSecret(client: GatewayClient, store: TuiStore, id: string, value: string): Promise<boolean> {
  update(store, () => ({ flash: null, view: 'composer' }));
  try {
    // A one-line value (a token typed or pasted with its Enter) loses stray spaces and that line break; a pasted key
    // keeps its lines as they are, its last line break too.
    const body = value.replace(/\r?\n$/, '');
    const { name } = await client.request('secret.provide', { id, value: body.includes('\n') ? value : body.trim() });
    flash(store, `Sent as the secret ${name}: stored encrypted; the agent gets only its name`);
    return true;
  } catch (err) {
    flash(store, `Secret not sent: ${errorText(err)}`, 'error');
    return false;
  }
}

/** K1: Skip declines a secret request (`secret.provide {id, skip:true}`), as Skip declines a question (V2): no value goes. */
export async function skipSecret(client: GatewayClient, store: TuiStore, id: string): Promise<void> {
  update(store, () => ({ flash: null, view: 'composer' }));
  try {
    const { name } = await client.request('secret.provide', { id, skip: true });
    flash(store, `Skipped the secret ${name}`);
  } catch (err) {
    flash(store, `Secret not skipped: ${errorText(err)}`, 'error');
  }
}

/** `/secret`: the masked field for the secret this person may provide; one that waits for others says for whom. */
export function openSecret(store: TuiStore): void {
  const s = store.getState();
  const pending = pendingSecret(s);
  if (pending) return update(store, () => ({ view: 'secret', secretId: pending.id }));
  const theirs = sessionSecrets(s)[0];
  if (!theirs?.route) return flash(store, 'No secret is requested in this session');
  flash(store, `The secret ${theirs.name} waits for ${waitsForText(theirs.route)}: you may not provide it`, 'warn');
}
