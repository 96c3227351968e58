import { item } from '../gateway-harness.ts';

/** The questions the channel scenarios ask. */
export const deploy = item({ options: [{ label: 'Staging' }, { label: 'Production' }] });
export const notify = item({ id: 'notify', header: 'Notify', question: 'Who should hear?', options: [{ label: 'Email' }, { label: 'Slack' }, { label: 'Pager' }], multiSelect: true });

export const lunch = item({ id: 'lunch', header: 'Lunch', question: 'What for lunch?', options: [{ label: 'Pizza' }, { label: 'Sushi' }, { label: 'Salad' }] });


/** A question long enough that three of them fill more than one message on every platform (H2: a prompt in parts). */
export const longItem = (n: number, what: string) =>
  item({ id: `q${n}`, header: `Part ${n}`, question: `${what} ${'and then some more words '.repeat(38)}?`.slice(0, 1000),
         options: ['Alpha', 'Beta', 'Gamma', 'Delta'].map((label) => ({ label, description: `${label} ${'x'.repeat(180)}` })) });
