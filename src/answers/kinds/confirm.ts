/** Q12 `confirm`: a yes-or-no question, answered Yes or No. */
import { fixedLabelsKind } from './fixed-labels.ts';

import { CONFIRM_LABELS } from '../../protocol/rules.ts';

export { CONFIRM_LABELS };

export const confirmKind = fixedLabelsKind(CONFIRM_LABELS, 'Choose Yes or No.');
