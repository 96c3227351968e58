import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { REPO } from './gateway-child.ts';

export const BIN = join(REPO, 'bin', 'askdock.js');

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A real terminal: a private tmux server (its own socket name) running one command in a 120×40 window. */
export class TmuxScreen {
  private constructor(readonly server: string) {}

  /** Runs `command` (words, quoted for the shell) in `cwd` with extra environment; the pane stays after it ends. */
  static start(command: string[], opts: { cwd: string; env?: Record<string, string> }): TmuxScreen {
    const server = `w15-tui-${randomBytes(5).toString('hex')}`;
    const env = Object.entries(opts.env ?? {}).map(([k, v]) => `${k}=${quote(v)}`);
    // A marker before and after shows the shell's screen is back as it was once the program ends.
    const line = `printf 'BEFORE-TUI\\n'; env ${env.join(' ')} ${command.map(quote).join(' ')}; echo "TUI EXITED $?"; sleep 600`;
    execFileSync('tmux', ['-L', server, 'new-session', '-d', '-x', '120', '-y', '40', '-c', opts.cwd, line]);
    return new TmuxScreen(server);
  }

  capture(): string {
    try {
      return execFileSync('tmux', ['-L', this.server, 'capture-pane', '-p'], { encoding: 'utf8' });
    } catch {
      return '';
    }
  }

  /** From now on, every byte the program writes to its terminal is appended to `file` (tmux pipe-pane). */
  record(file: string): void {
    execFileSync('tmux', ['-L', this.server, 'pipe-pane', '-o', `cat >> ${quote(file)}`]);
  }

  /** Keys as tmux names them (`Enter`, `Escape`, `Up`, `C-c`) or, with `literal`, text typed as is. */
  send(keys: string[], literal = false): void {
    execFileSync('tmux', ['-L', this.server, 'send-keys', ...(literal ? ['-l'] : []), ...keys]);
  }

  type(text: string): void {
    this.send([text], true);
  }

  /** Polls the screen until `text` shows, with a generous deadline for a busy machine. */
  async waitFor(text: string | RegExp, timeoutMs = 30_000): Promise<string> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.capture();
      if (typeof text === 'string' ? screen.includes(text) : text.test(screen)) return screen;
      if (Date.now() > end) throw new Error(`timed out waiting for "${text}"; the screen:\n${screen}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  kill(): void {
    try {
      execFileSync('tmux', ['-L', this.server, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // Already gone.
    }
    // The server's socket file is ours too.
    rmSync(join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`, this.server), { force: true });
  }
}

export type StartChild = { proc: ChildProcess; port: number; exit: Promise<number | null> };

/** `askdock start --port P` in `cwd` (so its `.askdock/` is there), without a browser or a UI build. */
export function spawnStart(cwd: string, port = 0, timeoutMs = 60_000): Promise<StartChild> {
  const proc = spawn(process.execPath, [BIN, 'start', '--port', String(port), '--no-open', '--no-build'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const exit = new Promise<number | null>((done) => proc.on('exit', (code) => done(code)));
  let err = '';
  proc.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`askdock start did not listen: ${err}`)), timeoutMs);
    let out = '';
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /askdock gateway listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok({ proc, port: Number(m[1]), exit });
      }
    });
    void exit.then((code) => fail(new Error(`askdock start exited (${code}): ${err}`)));
  });
}
