import { Box, Text, useInput, useStdout } from 'ink';
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { PromptEffect } from './prompt/prompt-model.ts';
import type { TuiActions } from './state/actions.ts';
import { update } from './state/sync.ts';
import { transcriptRows } from './state/transcript-rows.ts';
import { currentRequest, mayAnswerHere, pendingRequests, pendingSecret, shownSecret, type TuiState, type TuiStore } from './state/tui-store.ts';
import { SecretPrompt } from './components/secret-prompt.tsx';
import { Composer } from './components/composer.tsx';
import { QuestionPrompt } from './components/question-prompt.tsx';
import { SessionsPicker } from './components/sessions-picker.tsx';
import { StatusLine } from './components/status-line.tsx';
import { Transcript } from './components/transcript.tsx';
import { terminalLine, terminalText } from '../lib/terminal-text.ts';

type Props = { store: TuiStore; actions: TuiActions; local?: boolean };

function useRows(): number {
  const { stdout } = useStdout();
  const [rows, setRows] = useState(stdout.rows || 24);
  useEffect(() => {
    const onResize = () => setRows(stdout.rows || 24);
    stdout.on('resize', onResize);
    return () => void stdout.off('resize', onResize);
  }, [stdout]);
  return rows;
}

const sessionTitle = (s: TuiState) => {
  const session = s.sessions.find((x) => x.key === s.sessionKey);
  return session ? session.title || session.key : s.sessionKey ?? 'no session';
};

/**
 * W3 for a plain reply: the warning, then y/Enter sends and n/Esc goes back to editing. With a secret request pending
 * (W4) the safe way is the default: s/Enter sends the text as that secret, y as a message anyway.
 */
function ConfirmLine({ store }: { store: TuiStore }) {
  const confirm = useStore(store, (s) => s.confirm);
  useInput((input, key) => {
    const c = store.getState().confirm;
    if (!c) return;
    const letter = input.toLowerCase();
    if (c.asSecret && (letter === 's' || key.return)) {
      store.setState({ confirm: null });
      c.asSecret.send();
    } else if (key.return || letter === 'y') {
      store.setState({ confirm: null });
      c.send();
    } else if (key.escape || letter === 'n') store.setState({ confirm: null });
  });
  const secret = confirm?.asSecret;
  return (
    <Box borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text color="yellow">
        ⚠ {terminalText(confirm?.warning ?? '')}{' '}
        {secret ? (
          <>
            <Text bold>s</Text>/Enter send as secret {terminalLine(secret.name)} · <Text bold>y</Text> send as a message
          </>
        ) : (
          <>
            <Text bold>y</Text>/Enter send
          </>
        )}{' '}
        · <Text bold>n</Text>/Esc edit
      </Text>
    </Box>
  );
}

/** The whole screen (V1): status line, transcript, then the prompt, the sessions list or the composer. */
export function TuiApp({ store, actions, local }: Props) {
  const rows = useRows();
  const state = useStore(store);
  const current = currentRequest(state);
  // The masked field keeps the request it opened on; the composer's hint names the one `/secret` would open.
  const secret = state.view === 'secret' ? shownSecret(state) : pendingSecret(state);
  const onEffect = (effect: PromptEffect) => {
    if (!current) return;
    if (effect.kind === 'submit') void actions.answer(current.record, effect.answers);
    else if (effect.kind === 'skip') void actions.skip(current.record);
    else if (effect.kind === 'close') actions.closePrompt();
    else if (effect.kind === 'ack') void actions.ack(current.record);
    else actions.switchRequest(effect.by);
  };
  let bottom;
  if (state.view === 'sessions') {
    bottom = (
      <SessionsPicker
        sessions={state.sessions}
        openKey={state.sessionKey}
        onPick={(key) => void actions.openSession(key)}
        onCancel={() => update(store, () => ({ view: 'composer' }))}
      />
    );
  } else if (state.view === 'secret' && secret) {
    bottom = (
      <SecretPrompt
        key={secret.id}
        request={secret}
        onProvide={(value) => void actions.provideSecret(secret.id, value)}
        onSkip={() => void actions.skipSecret(secret.id)}
        onClose={() => update(store, () => ({ view: 'composer' }))}
      />
    );
  } else if (state.view === 'prompt' && current) {
    const id = current.record.id;
    bottom = (
      <QuestionPrompt
        key={id}
        record={current.record}
        index={current.index}
        count={current.count}
        draft={actions.draftOf(current.record)}
        getDraft={() => actions.draftOf(current.record)}
        onDraft={(d) => actions.setDraft(id, d)}
        onEffect={onEffect}
        routeWords={state.routeWords[id]}
        mayAnswer={mayAnswerHere(state, current.record)}
      />
    );
  } else if (state.confirm) {
    bottom = <ConfirmLine store={store} />;
  } else {
    bottom = (
      <Composer
        value={state.composerText}
        onChange={(composerText) => store.setState({ composerText })}
        onSubmit={(text) => void actions.submitComposer(text)}
        pending={pendingRequests(state).length}
        secretName={secret?.name}
        active
      />
    );
  }
  return (
    <Box flexDirection="column" height={rows}>
      <StatusLine title={sessionTitle(state)} connection={state.connection} local={local} />
      <Transcript rows={transcriptRows(state)} empty="No messages yet. Type one below (try “deploy”)." />
      {/* The prompt, the composer and the flash keep their height; only the transcript gives way (V1, V2, V4). */}
      <Box flexDirection="column" flexShrink={0}>
        {state.flash ? <Text color={state.flash.tone === 'error' ? 'red' : state.flash.tone === 'warn' ? 'yellow' : 'gray'}>{terminalText(state.flash.text)}</Text> : null}
        {bottom}
      </Box>
    </Box>
  );
}
