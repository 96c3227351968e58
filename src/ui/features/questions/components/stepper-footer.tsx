import { commands, type CommandContext } from '../commands.ts';
import { CommandButton } from './command-button.tsx';
import { KeyHints } from './key-hints.tsx';

/** Skip on the left; Back and Next, or Submit on the last step, on the right (U2, U5). */
/** `notice`: what a submit that changed nothing says (E5: an Allow already counted), read out as a status. */
export function StepperFooter({ ctx, error, notice, choices = 0 }: { ctx: CommandContext; error: string | null; notice?: string | null; choices?: number }) {
  const stepping = !ctx.stacked && ctx.questionCount > 1;
  const last = !stepping || ctx.step === ctx.questionCount - 1;
  return (
    <div className="qd-footer">
      {error && (
        <p className="qd-problem qd-footer-error" role="alert">
          {error}
        </p>
      )}
      {notice && !error && (
        <p className="qd-muted qd-footer-error" role="status">
          {notice}
        </p>
      )}
      {/* E3: Skip and Submit are for those who may answer; anyone else only reads (and steps through) the question. */}
      {ctx.mayAnswer && <CommandButton command={commands.skip} ctx={ctx} variant="ghost" />}
      <span className="qd-spacer" />
      {ctx.busy ? <span className="qd-muted">Sending…</span> : <KeyHints ctx={ctx} last={last} choices={ctx.mayAnswer ? choices : 0} />}
      {stepping && <CommandButton command={commands.back} ctx={ctx} hint={false} />}
      {!last ? (
        <CommandButton command={commands.next} ctx={ctx} variant="primary" hint={false} />
      ) : (
        ctx.mayAnswer && <CommandButton command={commands.submit} ctx={ctx} variant="primary" hint={false} />
      )}
    </div>
  );
}
