/**
 * X6: notices that the process that started this one went away without passing a signal on (`npx`, `sh -c` and other
 * wrappers killed with SIGTERM leave their child running). A hook or proxy that keeps waiting then asks a question
 * whose answer nobody reads; this tells it to withdraw the question as it would on a signal.
 *
 * Two signs: the parent process changes (the child is re-parented to init or to a subreaper once its parent exits;
 * checked every `intervalMs`), and stdout failing or closing (EPIPE: nobody reads what would be printed).
 */

export const CALLER_CHECK_INTERVAL_MS = 500;

export type CallerWatch = { stop(): void };

type WatchOptions = {
  intervalMs?: number;
  /** The parent's pid as this process started; defaults to process.ppid now. */
  parentPid?: number;
  /** Read on each check; defaults to process.ppid (a live value in Node). */
  currentParent?: () => number;
  stdout?: NodeJS.WritableStream;
};

/** Calls `onGone(why)` once when the caller is gone; `stop()` ends the watch (it never keeps the process alive). */
export function watchCaller(onGone: (why: string) => void, opts: WatchOptions = {}): CallerWatch {
  const parent = opts.parentPid ?? process.ppid;
  const current = opts.currentParent ?? (() => process.ppid);
  const stdout = opts.stdout ?? process.stdout;
  let done = false;
  const gone = (why: string) => {
    if (done) return;
    stop();
    onGone(why);
  };
  const timer = setInterval(() => {
    const now = current();
    if (now !== parent) gone(`the process that started it (pid ${parent}) went away`);
  }, opts.intervalMs ?? CALLER_CHECK_INTERVAL_MS);
  timer.unref();
  const onError = (err: NodeJS.ErrnoException) => gone(`its output cannot be written (${err.code ?? err.message})`);
  const onClose = () => gone('its output was closed');
  stdout.on('error', onError);
  stdout.on('close', onClose);
  function stop() {
    if (done) return;
    done = true;
    clearInterval(timer);
    stdout.off('close', onClose);
    // An EPIPE after the watch ended must not crash the process either.
    stdout.off('error', onError);
    stdout.on('error', () => undefined);
  }
  return { stop };
}
