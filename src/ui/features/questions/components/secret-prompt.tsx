import { useId, useRef, useState, type FormEvent } from 'react';
import { Toggle } from 'radix-ui';
import { useQueryClient } from '@tanstack/react-query';
import type { SecretRequestRecord } from '../../../../protocol/index.ts';
import { Button } from '../../../components/ui/button.tsx';
import { errorMessage } from '../../../lib/error-message.ts';
import { useProvideSecret } from '../api/provide-secret.ts';
import { useMayAnswer } from '../../routing/hooks/use-may-answer.ts';
import { SecretRouteLine } from '../../routing/components/secret-route-line.tsx';
import { secretAnsweredByText } from '../../../../lib/answered-by.ts';
import { secretEnded } from '../api/get-secret-requests.ts';

/** The prompt's head: what is asked for, and by whom. */
function SecretHead({ request }: { request: SecretRequestRecord }) {
  return (
    <div className="qd-secret-head">
      <span className="qd-secret-badge">Secret</span>
      <code className="qd-secret-name">{request.name}</code>
      <span className="qd-secret-from muted">asked by {request.askedBy}</span>
    </div>
  );
}

/** E7 for K1: a routed request someone else provided or skipped says who and where, until it is dismissed. */
function AnsweredSecret({ request }: { request: SecretRequestRecord }) {
  const qc = useQueryClient();
  return (
    <div className="qd-panel qd-secret" data-secret-id={request.id}>
      <SecretHead request={request} />
      <p className="qd-secret-description">{request.description}</p>
      <p className="qd-secret-answered" role="status">
        {secretAnsweredByText(request)}
      </p>
      <div className="qd-footer">
        <span className="qd-spacer" />
        <Button variant="ghost" onClick={() => secretEnded(qc, request.id)}>
          Dismiss
        </Button>
      </div>
    </div>
  );
}

/**
 * W4: a secret request in the dock. The value lives only in this component's state while typed (never a draft, the
 * outbox, the transcript or storage), goes to the gateway once, and is cleared as soon as it left. A routed request
 * (E3, E9) says who it waits for; to anyone else who may see it, it offers no field, Submit or Skip (both would be refused).
 */
export function SecretPrompt({ request, focusField = false }: { request: SecretRequestRecord; focusField?: boolean }) {
  return request.status === 'pending' ? <PendingSecret request={request} focusField={focusField} /> : <AnsweredSecret request={request} />;
}

function PendingSecret({ request, focusField }: { request: SecretRequestRecord; focusField: boolean }) {
  const [value, setValue] = useState('');
  const [shown, setShown] = useState(false);
  const valueRef = useRef('');
  valueRef.current = value;
  const provide = useProvideSecret(() => valueRef.current);
  const fieldId = useId();
  const descriptionId = useId();
  const [empty, setEmpty] = useState(false);
  const mayProvide = useMayAnswer(request.route);

  const clear = () => {
    setValue('');
    valueRef.current = '';
    setShown(false);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (provide.isPending || !mayProvide) return;
    if (!value) return setEmpty(true);
    provide.mutate({ id: request.id, kind: 'value' }, { onSuccess: clear });
  };
  const problem = empty && !value ? 'Type the value, or Skip.' : provide.error ? `Not sent: ${errorMessage(provide.error)}` : null;

  return (
    <form
      className="qd-panel qd-secret"
      data-secret-id={request.id}
      data-read-only={!mayProvide || undefined}
      onSubmit={submit}
      noValidate
      aria-describedby={descriptionId}
    >
      <SecretHead request={request} />
      {request.route && <SecretRouteLine id={request.id} route={request.route} />}
      <p className="qd-secret-description" id={descriptionId}>
        {request.description}
      </p>
      {mayProvide && (
        <>
          <label className="qd-secret-label" htmlFor={fieldId}>
            Secret value
          </label>
          <div className="qd-secret-row">
            <input
              id={fieldId}
              className="qd-secret-input"
              type={shown ? 'text' : 'password'}
              value={value}
              onChange={(e) => {
                setValue(e.target.value);
                setEmpty(false);
              }}
              autoFocus={focusField}
              autoComplete="off"
              autoCapitalize="off"
              autoCorrect="off"
              spellCheck={false}
              maxLength={8000}
              disabled={provide.isPending}
              aria-invalid={problem ? true : undefined}
              data-1p-ignore
              data-lpignore="true"
            />
            <Toggle.Root className="btn btn-ghost btn-md" pressed={shown} onPressedChange={setShown} aria-controls={fieldId}>
              {shown ? 'Hide' : 'Show'}
            </Toggle.Root>
          </div>
          <p className="qd-secret-note muted">Stored encrypted. The agent gets only the name; the value never enters the conversation.</p>
          {problem && (
            <p className="inline-error" role="alert">
              {problem}
            </p>
          )}
          <div className="qd-footer">
            <Button
              variant="ghost"
              disabled={provide.isPending}
              onClick={() => provide.mutate({ id: request.id, kind: 'skip' }, { onSettled: clear })}
            >
              Skip
            </Button>
            <span className="qd-spacer" />
            <Button type="submit" variant="primary" disabled={provide.isPending}>
              Submit
            </Button>
          </div>
        </>
      )}
    </form>
  );
}
