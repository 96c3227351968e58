import { createContext, useContext, useMemo, useRef, type ComponentProps, type KeyboardEvent } from 'react';
import './choice-controls.css';

/**
 * The ARIA radio group pattern, written out rather than Radix's RadioGroup: a new question mounts one of these in the
 * task its frame arrives in, and Radix's roving focus adds a collection provider and a registration per item, counts
 * the items in an effect and keeps the tab stop in state that each focus sets (bench/FINDINGS.md 34). The behaviour is Radix's: one tab stop (the checked radio, else the first: the caller marks it
 * `tabbable`), arrow keys move focus and check (wrapping with `loop`), Home/End and PageUp/PageDown go to the
 * first/last, modified arrows do nothing, Space and a click check, Enter does not (no form submit), and the radios are
 * buttons with `role="radio"`, `aria-checked` and `data-state` (the dot is drawn by CSS from it).
 */
type Group = { value: string | null; disabled: boolean; select(value: string): void };
const GroupContext = createContext<Group | null>(null);

const FOCUS_INTENT: Record<string, 'next' | 'prev' | 'first' | 'last'> = {
  ArrowDown: 'next',
  ArrowRight: 'next',
  ArrowUp: 'prev',
  ArrowLeft: 'prev',
  Home: 'first',
  PageUp: 'first',
  End: 'last',
  PageDown: 'last',
};

type GroupProps = Omit<ComponentProps<'div'>, 'defaultValue' | 'onChange' | 'role'> & {
  value: string | null;
  onValueChange?: (value: string) => void;
  loop?: boolean;
  disabled?: boolean;
  /** The choice cannot change for now (a submit in flight): the arrows neither move nor check, and focus stays. */
  readOnly?: boolean;
};

export function RadioGroup({ value, onValueChange, loop = true, disabled = false, readOnly = false, className, onKeyDown, ...props }: GroupProps) {
  // The latest callback, read when a radio is checked: the context changes only with the value.
  const onChange = useRef(onValueChange);
  onChange.current = onValueChange;
  const group = useMemo<Group>(() => ({ value, disabled, select: (v) => onChange.current?.(v) }), [value, disabled]);

  const move = (e: KeyboardEvent<HTMLDivElement>) => {
    onKeyDown?.(e);
    const intent = FOCUS_INTENT[e.key];
    if (!intent || e.defaultPrevented || e.metaKey || e.ctrlKey || e.altKey || e.shiftKey) return;
    const root = e.currentTarget;
    const from = e.target instanceof HTMLElement ? e.target : null;
    if (from?.getAttribute('role') !== 'radio') return;
    const radios = [...root.querySelectorAll<HTMLButtonElement>('[role="radio"]')].filter((r) => !r.disabled && r.closest('[role="radiogroup"]') === root);
    const at = radios.indexOf(from as HTMLButtonElement);
    // A radio of a group nested inside this one is that group's business.
    if (at < 0) return;
    e.preventDefault();
    if (readOnly) return;
    const last = radios.length - 1;
    let to = intent === 'first' ? 0 : intent === 'last' ? last : at + (intent === 'next' ? 1 : -1);
    if (to < 0) to = loop ? last : 0;
    if (to > last) to = loop ? 0 : last;
    const target = radios[to];
    target.focus();
    if (!disabled && target.getAttribute('aria-checked') !== 'true') group.select(target.value);
  };

  return (
    <GroupContext.Provider value={group}>
      <div
        {...props}
        role="radiogroup"
        aria-readonly={readOnly || undefined}
        data-disabled={disabled ? '' : undefined}
        className={['radio-group', className].filter(Boolean).join(' ')}
        onKeyDown={move}
      />
    </GroupContext.Provider>
  );
}

type ItemProps = Omit<ComponentProps<'button'>, 'value' | 'type' | 'role' | 'tabIndex' | 'aria-checked'> & {
  value: string;
  /** The group's one tab stop: the caller marks the checked radio, else the first (a checked radio always is one). */
  tabbable?: boolean;
};

export function RadioGroupItem({ value, tabbable = false, disabled, className, onClick, onKeyDown, ...props }: ItemProps) {
  const group = useContext(GroupContext);
  if (!group) throw new Error('RadioGroupItem must be inside a RadioGroup');
  const checked = group.value === value;
  const off = disabled === true || group.disabled;
  return (
    <button
      {...props}
      type="button"
      role="radio"
      aria-checked={checked}
      data-state={checked ? 'checked' : 'unchecked'}
      data-disabled={off ? '' : undefined}
      disabled={off}
      value={value}
      tabIndex={checked || tabbable ? 0 : -1}
      className={['radio', className].filter(Boolean).join(' ')}
      onClick={(e) => {
        onClick?.(e);
        if (!e.defaultPrevented && !checked) group.select(value);
      }}
      onKeyDown={(e) => {
        onKeyDown?.(e);
        // As the ARIA radio pattern has it, Enter does not check a radio (a button would click, and submit a form).
        if (e.key === 'Enter') e.preventDefault();
      }}
    />
  );
}
