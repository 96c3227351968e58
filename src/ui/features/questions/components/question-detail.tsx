import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { copyText } from '../../../lib/copy-text.ts';
import { IS_MAC } from '../commands.ts';

type CopyState = 'copied' | 'by-hand' | null;

/** A unified diff's lines get their colour; anything else is shown as plain preformatted text. */
const looksLikeDiff = (lines: string[]) => lines.some((l) => l.startsWith('@@ ')) || (lines.some((l) => l.startsWith('--- ')) && lines.some((l) => l.startsWith('+++ ')));

function lineKind(line: string): string | undefined {
  if (line.startsWith('+++ ') || line.startsWith('--- ')) return 'file';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return undefined;
}

/**
 * X2: what the question is about (a command, a diff, a tool's input) as a monospace block above the options, kept as
 * given and always text (React escapes it; nothing in it is ever read as HTML). In the dock it scrolls past 12 lines and
 * takes focus for keyboard scrolling; the link page shows it `whole`. Copy works without the Clipboard API too.
 */
export function QuestionDetail({ detail, whole = false }: { detail: string | undefined; whole?: boolean }) {
  const textRef = useRef<HTMLPreElement>(null);
  const [copy, setCopy] = useState<CopyState>(null);
  useEffect(() => {
    if (copy !== 'copied') return;
    const timer = setTimeout(() => setCopy(null), 2000);
    return () => clearTimeout(timer);
  }, [copy]);
  if (!detail) return null;
  const lines = detail.split('\n');
  const diff = looksLikeDiff(lines);
  // A final newline ends the last line; it starts no line of its own.
  const count = lines.length - (lines.length > 1 && lines[lines.length - 1] === '' ? 1 : 0);
  const onCopy = async () => {
    if (await copyText(detail)) return setCopy('copied');
    // Neither clipboard way is allowed here: the text is selected, so the person's own copy key takes it.
    const pre = textRef.current;
    if (pre) window.getSelection()?.selectAllChildren(pre);
    setCopy('by-hand');
  };
  return (
    <div className="qd-detail" data-whole={whole || undefined}>
      <div className="qd-detail-bar">
        <span className="qd-detail-size">{count === 1 ? '1 line' : `${count} lines`}</span>
        <span className="qd-detail-status" role="status">
          {copy === 'copied' ? 'Copied' : copy === 'by-hand' ? `Copying is blocked here: the text is selected, press ${IS_MAC ? '⌘C' : 'Ctrl+C'}` : ''}
        </span>
        <Button size="sm" variant="ghost" className="qd-detail-copy" onClick={() => void onCopy()}>
          Copy
        </Button>
      </div>
      {/* Focusable so a keyboard can scroll it; it is no text field, so the number keys still pick (U3). Each diff line keeps
          its newline, so the text read or copied by hand is the detail as given. */}
      <pre ref={textRef} className="qd-detail-text" role="group" aria-label="Detail" tabIndex={0}>
        <code>
          {diff
            ? lines.map((line, i) => (
                <span key={i} className="qd-detail-line" data-kind={lineKind(line)}>
                  {i < lines.length - 1 ? `${line}\n` : line}
                </span>
              ))
            : detail}
        </code>
      </pre>
    </div>
  );
}
