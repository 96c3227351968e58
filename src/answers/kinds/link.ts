/** Q12 `link`: a page (`url`) where the person finishes a step, answered Done once finished or Decline. */
import { fixedLabelsKind } from './fixed-labels.ts';

import { LINK_LABELS } from '../../protocol/rules.ts';

export { LINK_LABELS };

export const linkKind = fixedLabelsKind(LINK_LABELS, 'Open the link, then choose Done or Decline.');
