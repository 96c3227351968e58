import { Checkbox as CheckboxPrimitive } from 'radix-ui';
import type { ComponentProps } from 'react';
import './choice-controls.css';

type Props = ComponentProps<typeof CheckboxPrimitive.unstable_Trigger> &
  Pick<ComponentProps<typeof CheckboxPrimitive.unstable_Provider>, 'checked' | 'onCheckedChange' | 'disabled'>;

/**
 * Radix's checkbox (role, aria-checked, Space to toggle) with the house look. Like the radio, its tick is drawn by CSS
 * from `data-state` (Radix's Indicator mounts through Presence, which reads computed styles on every change), and it is
 * Radix's provider and button alone: its Root adds, inside a form, a hidden native checkbox measured through a
 * ResizeObserver, and these forms are read from their drafts, never from form data.
 */
export function Checkbox({ className, checked, onCheckedChange, disabled, ...props }: Props) {
  return (
    <CheckboxPrimitive.unstable_Provider checked={checked} onCheckedChange={onCheckedChange} disabled={disabled}>
      <CheckboxPrimitive.unstable_Trigger className={['checkbox', className].filter(Boolean).join(' ')} {...props}>
        <svg className="checkbox-tick" viewBox="0 0 12 12" width="12" height="12" aria-hidden="true" focusable="false">
          <path d="M2.5 6.5l2.2 2.2L9.5 3.8" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </CheckboxPrimitive.unstable_Trigger>
    </CheckboxPrimitive.unstable_Provider>
  );
}
