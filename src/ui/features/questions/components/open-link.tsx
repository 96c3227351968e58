import { useId, type KeyboardEvent } from 'react';
import { isLinkUrl } from '../../../../protocol/rules.ts';

/**
 * U16: the page a question asks the person to visit first, in a new tab that cannot reach back into this one,
 * with a hint to come back and answer. Only http(s) addresses ever become a link. It is the "Open link" button of U16:
 * an anchor (so the new tab, `rel` and the address stay the browser's own) in the button role, which Space presses too.
 */
export function OpenLink({ url }: { url: string | undefined }) {
  const hintId = useId();
  if (!url || !isLinkUrl(url)) return null;
  const onKeyDown = (e: KeyboardEvent<HTMLAnchorElement>) => {
    if (e.key !== ' ' || e.nativeEvent.isComposing) return;
    e.preventDefault();
    e.currentTarget.click();
  };
  return (
    <div className="open-link">
      <a className="btn btn-secondary btn-sm open-link-button" href={url} target="_blank" rel="noopener noreferrer" role="button" aria-describedby={hintId} onKeyDown={onKeyDown}>
        Open link
        <span aria-hidden="true"> ↗</span>
      </a>
      <span id={hintId} className="open-link-hint">
        Opens {new URL(url).host} in a new tab. Finish the step there, then come back here to answer.
      </span>
    </div>
  );
}
