import type { QuestionRecord } from '../../../../protocol/index.ts';
import { commands, type CommandContext } from '../commands.ts';
import { CommandButton } from './command-button.tsx';
import { RequestNav } from './request-nav.tsx';
import { TimeLeft } from './time-left.tsx';

type Props = { record: QuestionRecord; ctx: CommandContext; position: number };

/** Stepper position, time left, request arrows and Collapse: what stays put while the steps change. */
export function DockHeader({ record, ctx, position }: Props) {
  return (
    <div className="qd-header">
      <div className="qd-header-info">
        {!ctx.stacked && ctx.questionCount > 1 && (
          <span className="qd-stepper">
            Question {ctx.step + 1} of {ctx.questionCount}
            <span className="qd-dots" aria-hidden="true">
              {record.questions.map((q, i) => (
                <span key={q.id} className="qd-dot" data-state={i < ctx.step ? 'done' : i === ctx.step ? 'current' : undefined} />
              ))}
            </span>
          </span>
        )}
        {record.mode === 'async' && <span className="qd-muted">Not blocking the agent</span>}
        {record.mode === 'blocking' && record.expiresAtMs !== null && <TimeLeft expiresAtMs={record.expiresAtMs} />}
      </div>
      <div className="qd-header-actions">
        <RequestNav ctx={ctx} position={position} />
        <CommandButton command={commands.collapse} ctx={ctx} variant="ghost" short="Collapse" hint={false} />
      </div>
    </div>
  );
}
