import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GatewayClient } from '../../../../client/client.ts';
import { newId } from '../../../../lib/ids.ts';
import { useGateway } from '../../../lib/gateway.tsx';
import { hasMessage, type HistoryData } from '../lib/history-cache.ts';
import { chatKeys } from './get-history.ts';

export type SendInput = { sessionKey: string; message: string; idempotencyKey: string };

export function sendMessage(client: GatewayClient, input: SendInput) {
  return client.request('chat.send', input);
}

/** Sends one message; its key is made once per message so a resend after a reconnect never makes a second one (C2). */
export function useSendMessage(sessionKey: string) {
  const client = useGateway();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (message: string) => sendMessage(client, { sessionKey, message, idempotencyKey: newId() }),
    onSuccess: ({ messageId }) => {
      // The `chat` event normally brings the message; if it was missed, read the history again.
      const data = queryClient.getQueryData<HistoryData>(chatKeys.history(sessionKey));
      if (data && !hasMessage(data, messageId)) void queryClient.invalidateQueries({ queryKey: chatKeys.history(sessionKey) });
    },
  });
}
