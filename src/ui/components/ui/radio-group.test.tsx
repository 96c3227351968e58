// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RadioGroup, RadioGroupItem } from './radio-group.tsx';

afterEach(cleanup);

const LABELS = ['Staging', 'Production', 'Canary'];

/** Renders labelled radios as the dock does: the caller marks the tab stop (the checked one, else the first). */
function Group({ initial = null, loop = true, readOnly = false, onRender }: { initial?: string | null; loop?: boolean; readOnly?: boolean; onRender?: () => void }) {
  const [value, setValue] = useState<string | null>(initial);
  onRender?.();
  const stop = Math.max(0, LABELS.indexOf(value ?? ''));
  return (
    <RadioGroup aria-label="Environment" value={value} onValueChange={setValue} loop={loop} readOnly={readOnly}>
      {LABELS.map((label, i) => (
        <div key={label}>
          <label htmlFor={`r${i}`}>{label}</label>
          <RadioGroupItem id={`r${i}`} value={label} tabbable={i === stop} />
        </div>
      ))}
    </RadioGroup>
  );
}

const radio = (name: string) => screen.getByRole('radio', { name });
const checked = () => screen.getAllByRole('radio').filter((r) => r.getAttribute('aria-checked') === 'true').map((r) => r.getAttribute('value'));
const tabStops = () => screen.getAllByRole('radio').filter((r) => r.tabIndex === 0).map((r) => r.getAttribute('value'));

describe('RadioGroup (the ARIA radio group pattern)', () => {
  it('[U12] a radiogroup of radios named by their labels, one tab stop: the first until one is checked, then the checked one', () => {
    render(<Group />);
    expect(screen.getByRole('radiogroup', { name: 'Environment' })).toBeTruthy();
    expect(checked()).toEqual([]);
    expect(tabStops()).toEqual(['Staging']);
    fireEvent.click(radio('Production'));
    expect(checked()).toEqual(['Production']);
    expect(radio('Production').getAttribute('data-state')).toBe('checked');
    expect(radio('Staging').getAttribute('data-state')).toBe('unchecked');
    expect(tabStops()).toEqual(['Production']);
  });

  it('[U3] arrow keys move focus and check, wrapping; Home/End and PageUp/PageDown go to the ends; modified arrows do nothing', () => {
    render(<Group initial="Staging" />);
    radio('Staging').focus();
    fireEvent.keyDown(radio('Staging'), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(radio('Production'));
    expect(checked()).toEqual(['Production']);
    fireEvent.keyDown(radio('Production'), { key: 'ArrowRight' });
    fireEvent.keyDown(radio('Canary'), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(radio('Staging'));
    expect(checked()).toEqual(['Staging']);
    fireEvent.keyDown(radio('Staging'), { key: 'ArrowUp' });
    expect(checked()).toEqual(['Canary']);
    fireEvent.keyDown(radio('Canary'), { key: 'Home' });
    expect(checked()).toEqual(['Staging']);
    fireEvent.keyDown(radio('Staging'), { key: 'PageDown' });
    expect(checked()).toEqual(['Canary']);
    fireEvent.keyDown(radio('Canary'), { key: 'ArrowLeft', shiftKey: true });
    fireEvent.keyDown(radio('Canary'), { key: 'ArrowUp', ctrlKey: true });
    expect(checked()).toEqual(['Canary']);
    expect(document.activeElement).toBe(radio('Canary'));
  });

  it('[U3] without loop the arrows stop at the ends', () => {
    render(<Group initial="Canary" loop={false} />);
    radio('Canary').focus();
    fireEvent.keyDown(radio('Canary'), { key: 'ArrowDown' });
    expect(checked()).toEqual(['Canary']);
    fireEvent.keyDown(radio('Canary'), { key: 'End' });
    fireEvent.keyDown(radio('Canary'), { key: 'ArrowUp' });
    expect(checked()).toEqual(['Production']);
  });

  it('[U3] Enter does not check a radio (the page keeps Enter for its own commands); a click on the checked one changes nothing', () => {
    const renders = vi.fn();
    render(<Group initial="Staging" onRender={renders} />);
    const enter = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
    radio('Production').dispatchEvent(enter);
    expect(enter.defaultPrevented).toBe(true);
    expect(checked()).toEqual(['Staging']);
    renders.mockClear();
    fireEvent.click(radio('Staging'));
    expect(renders).not.toHaveBeenCalled();
  });

  it('[U3] read-only (a submit in flight): the arrows neither move focus nor check, so the tab stop stays where focus is', () => {
    render(<Group initial="Staging" readOnly />);
    radio('Staging').focus();
    const down = new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true, cancelable: true });
    radio('Staging').dispatchEvent(down);
    expect(down.defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(radio('Staging'));
    expect(checked()).toEqual(['Staging']);
    expect(screen.getByRole('radiogroup').getAttribute('aria-readonly')).toBe('true');
  });

  it('a disabled group checks nothing and its radios are disabled', () => {
    const change = vi.fn();
    render(
      <RadioGroup aria-label="Locked" value={null} onValueChange={change} disabled>
        <RadioGroupItem aria-label="One" value="one" tabbable />
        <RadioGroupItem aria-label="Two" value="two" />
      </RadioGroup>,
    );
    fireEvent.click(radio('One'));
    expect(change).not.toHaveBeenCalled();
    expect((radio('One') as HTMLButtonElement).disabled).toBe(true);
  });
});
