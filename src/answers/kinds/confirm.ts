/** Q12 `confirm`: a yes-or-no question, answered Yes or No. */
import { fixedLabelsKind } from './fixed-labels.ts';

export const CONFIRM_LABELS = ['Yes', 'No'] as const;

export const confirmKind = fixedLabelsKind(CONFIRM_LABELS, 'Choose Yes or No.');
