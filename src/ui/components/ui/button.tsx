import type { ComponentProps } from 'react';

type Variant = 'primary' | 'secondary' | 'ghost';

export type ButtonProps = ComponentProps<'button'> & { variant?: Variant; size?: 'sm' | 'md' };

/** A native button with the house look; `type` defaults to "button" so it never submits a form by accident. */
export function Button({ variant = 'secondary', size = 'md', type = 'button', className, ...rest }: ButtonProps) {
  const classes = ['btn', `btn-${variant}`, `btn-${size}`, className].filter(Boolean).join(' ');
  return <button type={type} className={classes} {...rest} />;
}
