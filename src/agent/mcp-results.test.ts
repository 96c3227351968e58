import { describe, expect, it } from 'vitest';
import { AskdockError } from '../protocol/index.ts';
import { gatewayErrorResult } from './mcp-results.ts';

const errorJson = (result: ReturnType<typeof gatewayErrorResult>) => JSON.parse((result.content[1] as { text: string }).text).error;

describe('a gateway refusal as an MCP tool result', () => {
  it('[errors] RATE_LIMITED keeps its retryAfterMs and UNAVAILABLE its retryable, so the model knows when to call again', () => {
    const limited = gatewayErrorResult(new AskdockError('RATE_LIMITED', 'agent already has 1000 pending questions', { retryAfterMs: 5_000, retryable: true }));
    expect(limited.isError).toBe(true);
    expect(errorJson(limited)).toEqual({ code: 'RATE_LIMITED', message: 'agent already has 1000 pending questions', retryAfterMs: 5_000, retryable: true });
    expect(errorJson(gatewayErrorResult(new AskdockError('UNAVAILABLE', 'internal error', { retryable: false })))).toMatchObject({ retryable: false });
    // Anything that is not the gateway's own refusal (a socket error) is the gateway being out of reach: worth retrying.
    expect(errorJson(gatewayErrorResult(new Error('socket hang up')))).toEqual({ code: 'UNAVAILABLE', message: 'socket hang up', retryable: true });
  });
});
