import { RadioGroup as RadioGroupPrimitive } from 'radix-ui';
import type { ComponentProps } from 'react';
import './choice-controls.css';

/** Radix owns roving focus and arrow keys; this only adds the house look. */
export function RadioGroup({ className, ...props }: ComponentProps<typeof RadioGroupPrimitive.Root>) {
  return <RadioGroupPrimitive.Root className={['radio-group', className].filter(Boolean).join(' ')} {...props} />;
}

/**
 * The dot is drawn by CSS from `data-state`: Radix's Indicator mounts through Presence, which reads computed styles
 * on every change, and a number key must repaint the options within a frame.
 */
export function RadioGroupItem({ className, ...props }: ComponentProps<typeof RadioGroupPrimitive.Item>) {
  return <RadioGroupPrimitive.Item className={['radio', className].filter(Boolean).join(' ')} {...props} />;
}
