import { validateAskUser } from '../agent/ask-user.ts';

/** A valid ask_user question (the deploy one), with `over` laid over it. */
export const question = (over: Record<string, unknown> = {}) => ({
  id: 'deploy_target',
  header: 'Deploy',
  question: 'Where should I deploy?',
  options: [{ label: 'Staging (Recommended)' }, { label: 'Production' }],
  ...over,
});

/** The problems validateAskUser names for `input`, which it must refuse. */
export function problems(input: unknown) {
  const v = validateAskUser(input);
  if (v.ok) throw new Error('expected problems');
  return v.problems;
}
