/** A keyboard hint for sighted users; screen readers get `aria-keyshortcuts` on the control instead. */
export function KbdHint({ keys }: { keys: string[] }) {
  return (
    <span className="qd-kbd" aria-hidden="true">
      {keys.map((key, i) => (
        <kbd key={i}>{key}</kbd>
      ))}
    </span>
  );
}
