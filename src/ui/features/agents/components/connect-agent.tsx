import { useId, useMemo, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import type { ConnectInfo } from '../api/get-connect-info.ts';
import { integrationAgent } from '../lib/integration-agent.ts';
import { agentUrl, connectSnippets, type Snippet } from '../lib/snippets.ts';
import { CopyButton } from './copy-button.tsx';
import { useShowsConnectPanel } from '../stores/connect-shown.ts';
import './connect-agent.css';

const HIDDEN_TOKEN = '<agent token>';

function SnippetView({ snippet, filled, reveal }: { snippet: Snippet; filled: () => string; reveal: () => void }) {
  const ref = useRef<HTMLElement>(null);
  const titleId = useId();
  return (
    <section className="connect-snippet" aria-labelledby={titleId}>
      <div className="connect-snippet-head">
        <h2 id={titleId}>{snippet.title}</h2>
        <span className="connect-snippet-where">{snippet.where}</span>
        <CopyButton label={`Copy ${snippet.title}`} text={filled} target={ref} before={reveal} />
      </div>
      <pre>
        <code ref={ref}>{snippet.text}</code>
      </pre>
    </section>
  );
}

/** Every snippet runs a bare `askdock`: it is on the PATH only once installed globally. */
function CliNote() {
  return (
    <p className="connect-agent-note connect-cli-note">
      The snippets run <code>askdock</code> from your PATH: install it once with <code>npm i -g .</code> in the askdock folder, or write{' '}
      <code>node /path/to/askdock/bin/askdock.js</code> in its place.
    </p>
  );
}

/**
 * U18: the agent token, shown on request and copyable, and ready snippets for each agent with this gateway's address
 * (and, once shown or copied, the token) filled in. The empty state's body and the header dialog's.
 */
export function ConnectAgentBody({ info }: { info: ConnectInfo }) {
  const agent = integrationAgent(info.agents);
  const [shown, setShown] = useState(false);
  const tokenRef = useRef<HTMLElement>(null);
  const url = agentUrl(window.location);
  const token = agent?.token ?? null;
  const snippets = useMemo(() => connectSnippets(url, shown && token ? token : HIDDEN_TOKEN), [url, shown, token]);
  const filled = useMemo(() => new Map(connectSnippets(url, token ?? HIDDEN_TOKEN).map((s) => [s.id, s.text])), [url, token]);
  return (
    <>
      <p className="empty-state-lead">
        {info.agents.some((a) => a.presence.state === 'connected')
          ? `An agent is connected: start a session with New session${agent ? ', or connect another with the token below' : ''}.`
          : 'No agent is connected to this gateway. Give one the token below; its questions dock here.'}
      </p>
      {!agent ? (
        <p className="connect-agent-note">
          {info.agents.length
            ? 'The only agent identity here is the demo agent\'s, and it answers only its own sessions: give your agents one of their own'
            : 'The config has no agent identity: add one'}{' '}
          with role "agent" and scope "agent.run", then restart the gateway.
        </p>
      ) : (
        <div className="connect-token">
          <span className="connect-token-label">Agent token ({agent.id})</span>
          {token === null ? (
            <p className="connect-agent-note">The config keeps only this token's hash: use the token you gave it.</p>
          ) : (
            <>
              <code ref={tokenRef} className="connect-token-value" aria-label="Agent token">
                {shown ? token : '•'.repeat(24)}
              </code>
              <span className="connect-token-actions">
                <Button size="sm" onClick={() => setShown((s) => !s)} aria-pressed={shown}>
                  {shown ? 'Hide token' : 'Show token'}
                </Button>
                <CopyButton label="Copy token" text={() => token} target={tokenRef} before={() => setShown(true)} />
              </span>
            </>
          )}
        </div>
      )}
      <CliNote />
      <div className="connect-snippets">
        {snippets.map((s) => (
          <SnippetView key={s.id} snippet={s} filled={() => filled.get(s.id) ?? s.text} reveal={() => setShown(true)} />
        ))}
      </div>
    </>
  );
}

/** U18: an admin's empty state on a gateway without the demo agent. */
export function ConnectAgent({ info }: { info: ConnectInfo }) {
  useShowsConnectPanel();
  return (
    <section className="empty-state connect-agent" aria-labelledby="connect-agent-title">
      <h1 id="connect-agent-title">Connect an agent</h1>
      <ConnectAgentBody info={info} />
    </section>
  );
}
