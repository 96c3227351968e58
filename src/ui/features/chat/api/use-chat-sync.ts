import { useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useGatewayEvent, useGatewayHello } from '../../../lib/gateway.tsx';
import { endStreams, upsertMessage, type HistoryData } from '../lib/history-cache.ts';
import { chatKeys } from './get-history.ts';
import { runsActions } from '../stores/runs-store.ts';

/** Merges live `chat` events into loaded histories; after a reconnect that could not resume, reads them again (R2). */
export function useChatSync() {
  const queryClient = useQueryClient();
  const helloSeen = useRef(false);

  useGatewayEvent('chat', ({ sessionKey, message, state }) => {
    queryClient.setQueryData<HistoryData>(chatKeys.history(sessionKey), (data) => upsertMessage(data, message, state === 'delta'));
  });

  useGatewayEvent('run.started', ({ runId, sessionKey }) => {
    if (sessionKey) runsActions().runStarted(sessionKey, runId);
  });

  useGatewayEvent('run.ended', ({ runId, sessionKey, stopReason }) => {
    if (!sessionKey) return;
    queryClient.setQueryData<HistoryData>(chatKeys.history(sessionKey), (data) => endStreams(data, runId));
    runsActions().runEnded(sessionKey, runId, stopReason);
  });

  useGatewayHello((hello) => {
    const reconnect = helloSeen.current;
    helloSeen.current = true;
    if (reconnect && !hello.resumed) void queryClient.invalidateQueries({ queryKey: chatKeys.all });
  });
}
