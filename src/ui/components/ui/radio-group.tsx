import { RadioGroup as RadioGroupPrimitive } from 'radix-ui';
import { useRef, type ComponentProps, type FocusEvent, type KeyboardEvent } from 'react';
import './choice-controls.css';

/** Keys with which Radix's roving focus moves between the radios (Home/End to the first/last). */
const NAVIGATION_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

/**
 * Radix owns roving focus and arrow keys; this adds the house look, and makes the radio that a navigation key moved
 * focus to the checked one (the ARIA radio pattern). Radix checks it only while the key is still held when its
 * deferred focus lands, so a quick tap (or a busy machine) moved focus without selecting.
 */
export function RadioGroup({ className, onKeyDownCapture, onFocusCapture, onPointerDownCapture, ...props }: ComponentProps<typeof RadioGroupPrimitive.Root>) {
  const navigating = useRef(false);
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    navigating.current = NAVIGATION_KEYS.has(e.key) && !e.altKey && !e.ctrlKey && !e.metaKey;
    onKeyDownCapture?.(e);
  };
  const onFocus = (e: FocusEvent<HTMLDivElement>) => {
    const target = e.target as HTMLElement;
    if (navigating.current && target.getAttribute('role') === 'radio') {
      navigating.current = false;
      const value = target.getAttribute('value');
      if (value !== null && !props.disabled && target.getAttribute('aria-checked') !== 'true') props.onValueChange?.(value);
    }
    onFocusCapture?.(e);
  };
  return (
    <RadioGroupPrimitive.Root
      className={['radio-group', className].filter(Boolean).join(' ')}
      onKeyDownCapture={onKey}
      onFocusCapture={onFocus}
      onPointerDownCapture={(e) => {
        navigating.current = false;
        onPointerDownCapture?.(e);
      }}
      {...props}
    />
  );
}

type ItemProps = ComponentProps<typeof RadioGroupPrimitive.unstable_ItemTrigger> & { value: string; disabled?: boolean };

/**
 * The dot is drawn by CSS from `data-state`: Radix's Indicator mounts through Presence, which reads computed styles
 * on every change, and a number key must repaint the options within a frame. Radix's own Item adds, inside a form, a
 * hidden native radio that follows the button's size through a ResizeObserver and renders again as it is measured;
 * these forms are read from their drafts, never from form data, so the item is Radix's provider and button alone.
 */
export function RadioGroupItem({ className, value, disabled, ...props }: ItemProps) {
  return (
    <RadioGroupPrimitive.unstable_ItemProvider value={value} disabled={disabled}>
      <RadioGroupPrimitive.unstable_ItemTrigger className={['radio', className].filter(Boolean).join(' ')} {...props} />
    </RadioGroupPrimitive.unstable_ItemProvider>
  );
}
