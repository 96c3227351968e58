import { HEADER_CUT_MARK } from '../../../../protocol/rules.ts';
import { VisuallyHidden } from '../../../components/ui/visually-hidden.tsx';

type Props = { header: string; /** The question's own text: the whole of what a cut header stands for. */ whole: string };

/**
 * Q2: a header the gateway cut ends with an ellipsis; the cut text stays on screen, hover shows the question it
 * stands for, and a screen reader hears that question rather than the cut words. A header that fits is shown as it is.
 */
export function HeaderText({ header, whole }: Props) {
  if (!header.endsWith(HEADER_CUT_MARK)) return <>{header}</>;
  return (
    <span title={whole}>
      <span aria-hidden="true">{header}</span>
      <VisuallyHidden>{whole}</VisuallyHidden>
    </span>
  );
}
