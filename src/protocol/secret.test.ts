import { describe, expect, it } from 'vitest';
import { zodProblems } from './errors.ts';
import { SecretProvideParams } from './secret.ts';

const [valueBranch, skipBranch] = SecretProvideParams.options;

function problems(schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, params: unknown) {
  const parsed = schema.safeParse(params);
  return parsed.success ? [] : zodProblems(parsed.error as Parameters<typeof zodProblems>[0]);
}

describe('secret.provide params (K1)', () => {
  it('[K1] a value or a skip is accepted alone', () => {
    expect(SecretProvideParams.parse({ id: 'r1', value: 'v' })).toEqual({ id: 'r1', value: 'v' });
    expect(SecretProvideParams.parse({ id: 'r1', skip: true })).toEqual({ id: 'r1', skip: true });
  });

  it('[K1] a value with skip is refused by either reading, naming the field the other excludes, never dropped silently', () => {
    const both = { id: 'r1', value: 'v', skip: true };
    expect(SecretProvideParams.safeParse(both).success).toBe(false);
    expect(problems(skipBranch, both)).toEqual([{ path: 'value', problem: 'value and skip are exclusive' }]);
    expect(problems(valueBranch, both)).toEqual([{ path: 'skip', problem: 'value and skip are exclusive' }]);
  });
});
