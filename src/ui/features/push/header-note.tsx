import { Button } from '../../components/ui/button.tsx';

/** A short note under the top bar about what a header control just did or why it cannot (U17); it stays until dismissed. */
export function HeaderNote({ text, onDismiss }: { text: string; onDismiss: () => void }) {
  return (
    <div className="header-note" role="status">
      <p>{text}</p>
      <Button variant="ghost" size="sm" onClick={onDismiss}>
        Dismiss
      </Button>
    </div>
  );
}
