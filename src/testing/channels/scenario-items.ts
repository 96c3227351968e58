import { item } from '../gateway-harness.ts';

/** The questions the channel scenarios ask. */
export const deploy = item({ options: [{ label: 'Staging' }, { label: 'Production' }] });
export const notify = item({ id: 'notify', header: 'Notify', question: 'Who should hear?', options: [{ label: 'Email' }, { label: 'Slack' }, { label: 'Pager' }], multiSelect: true });

export const lunch = item({ id: 'lunch', header: 'Lunch', question: 'What for lunch?', options: [{ label: 'Pizza' }, { label: 'Sushi' }, { label: 'Salad' }] });

