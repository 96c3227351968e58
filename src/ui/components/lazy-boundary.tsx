import { Component, Suspense, type ReactNode } from 'react';
import { onImportRetry, retryFailedImports } from '../lib/retrying-import.ts';
import { Button } from './ui/button.tsx';

type Props = {
  children: ReactNode;
  /** Shown while the chunk loads (nothing by default). */
  pending?: ReactNode;
  /** Shown when the chunk cannot be loaded (nothing by default); see `LoadFailed` for the page's main content. */
  failed?: ReactNode;
};

/**
 * Around each piece of the page whose code is a chunk of its own (`lazyWithRetry`): a chunk that cannot be loaded (the
 * network dropped while it was requested) leaves only this piece out, never the whole app. When failed chunks are
 * fetched again (back online, reconnected, Retry) the boundary renders its piece again.
 */
export class LazyBoundary extends Component<Props, { failed?: boolean }> {
  state: { failed?: boolean } = {};

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch() {
    // Heard once: the next retry renders the piece again (a boundary gone by then only misses that one call).
    const stop = onImportRetry(() => {
      stop();
      this.setState({ failed: false });
    });
  }

  render() {
    return this.state.failed ? this.props.failed : <Suspense fallback={this.props.pending}>{this.props.children}</Suspense>;
  }
}

/** What a page's main content says when its code could not be loaded: a quiet line and a Retry button. */
export function LoadFailed({ what, className = 'page-note' }: { what: string; className?: string }) {
  return (
    <div className={`load-failed ${className}`}>
      <p className="muted">Could not load {what}.</p>
      <Button size="sm" onClick={retryFailedImports}>
        Retry
      </Button>
    </div>
  );
}
