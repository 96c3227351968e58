import type { QuestionRecord } from '../../../../protocol/index.ts';
import { commands, type CommandContext } from '../commands.ts';
import { askerOf } from '../lib/asker.ts';
import { CommandButton } from './command-button.tsx';
import { RequestNav } from './request-nav.tsx';
import { TimeLeft } from './time-left.tsx';

type Props = { record: QuestionRecord; ctx: CommandContext; position: number; sessionTitle?: string };

/** Who asks; for a client's own session the client (or wrapped server) first, and the asking identity after it. */
function AskedBy({ askedBy, sessionTitle }: { askedBy: string; sessionTitle?: string }) {
  const asker = askerOf(askedBy, sessionTitle);
  return (
    <span className="qd-asker" title={asker.via ? `Asked by ${asker.name} through ${asker.via}` : `Asked by ${asker.name}`}>
      <span className="qd-asker-avatar" aria-hidden="true">
        {asker.name.trim().charAt(0).toUpperCase() || '?'}
      </span>
      <span className="qd-asker-name">
        <span className="qd-asker-label">Asked by </span>
        {asker.name}
      </span>
      {asker.via && <span className="qd-asker-via">via {asker.via}</span>}
    </span>
  );
}

/** One row that stays put while the steps change: who asks, which request, which question, time left, Collapse. */
export function DockHeader({ record, ctx, position, sessionTitle }: Props) {
  return (
    <div className="qd-header">
      <AskedBy askedBy={record.askedBy} sessionTitle={sessionTitle} />
      <RequestNav ctx={ctx} position={position} />
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
      <span className="qd-header-end">
        {record.mode === 'async' && (
          <span className="qd-pill">
            <span className="qd-pill-text">Not blocking the agent</span>
            {/* Where the header is narrow (styles/header.css); screen readers hear the whole text. */}
            <span className="qd-pill-short" aria-hidden="true">
              Not blocking
            </span>
          </span>
        )}
        {record.mode === 'blocking' && record.expiresAtMs !== null && <TimeLeft expiresAtMs={record.expiresAtMs} />}
        <CommandButton command={commands.collapse} ctx={ctx} variant="ghost" short="Collapse" hint={false} />
      </span>
    </div>
  );
}
