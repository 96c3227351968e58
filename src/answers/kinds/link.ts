/** Q12 `link`: a page (`url`) where the person finishes a step, answered Done once finished or Decline. */
import { fixedLabelsKind } from './fixed-labels.ts';

import { LINK_LABELS } from '../../protocol/rules.ts';

export { LINK_LABELS };

/** Whether a link question's checked answer says the step is done. */
export const linkDone = (values: readonly string[]): boolean => values[0] === LINK_LABELS[0];

export const linkKind = fixedLabelsKind(LINK_LABELS, 'Open the link, then choose Done or Decline.');
