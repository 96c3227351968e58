/** Q12 `link`: a page (`url`) where the person finishes a step, answered Done once finished or Decline. */
import { fixedLabelsKind } from './fixed-labels.ts';

export const LINK_LABELS = ['Done', 'Decline'] as const;

export const linkKind = fixedLabelsKind(LINK_LABELS, 'Open the link, then choose Done or Decline.');
