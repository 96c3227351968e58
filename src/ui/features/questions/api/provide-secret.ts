import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useGateway } from '../../../lib/gateway.tsx';
import { secretEnded } from './get-secret-requests.ts';

export type ProvideVariables = { id: string; kind: 'value' | 'skip' };

/**
 * K1 `secret.provide`. The value is read through `readValue` at send time and never becomes a mutation variable,
 * so react-query's cache (and anything that inspects it) never holds it.
 */
export function useProvideSecret(readValue: () => string) {
  const client = useGateway();
  const qc = useQueryClient();
  return useMutation({
    mutationKey: ['secret-requests', 'provide'],
    mutationFn: (v: ProvideVariables) =>
      client.request('secret.provide', v.kind === 'skip' ? { id: v.id, skip: true } : { id: v.id, value: readValue() }),
    onSuccess: (_result, v) => secretEnded(qc, v.id),
  });
}

/** K1 for a value typed elsewhere (the composer's "Send as secret", W3): straight to the gateway, never into a cache. */
export function useProvideSecretValue() {
  const client = useGateway();
  const qc = useQueryClient();
  return async (id: string, value: string) => {
    await client.request('secret.provide', { id, value });
    secretEnded(qc, id);
  };
}
