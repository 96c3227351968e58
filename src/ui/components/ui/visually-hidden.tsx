import type { ComponentProps, CSSProperties } from 'react';

/** Out of sight but read aloud: one pixel, clipped, out of the flow (the usual screen-reader-only rules). */
const HIDDEN: CSSProperties = {
  position: 'absolute',
  border: 0,
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)',
  whiteSpace: 'nowrap',
  wordWrap: 'normal',
};

/**
 * Text for screen readers only (labels whose meaning the layout already shows, live regions). A plain span: the
 * first screen needs no component library for it.
 */
export function VisuallyHidden({ style, ...rest }: ComponentProps<'span'>) {
  return <span {...rest} style={{ ...HIDDEN, ...style }} />;
}
