import { AlertDialog as Primitive } from 'radix-ui';
import type { ReactNode } from 'react';
import './alert-dialog.css';

type Props = {
  open: boolean;
  title: string;
  description: string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  children?: ReactNode;
};

/** Radix owns focus trapping, Esc and the alertdialog role; this adds the house look and one confirm/cancel pair. */
export function ConfirmAlert({ confirmLabel, onConfirm, ...rest }: Props) {
  return <ChoiceAlert {...rest} choices={[{ value: 'confirm', label: confirmLabel, primary: true }]} onChoose={onConfirm} />;
}

export type AlertChoice<T extends string> = { value: T; label: string; primary?: boolean };

type ChoiceProps<T extends string> = {
  open: boolean;
  title: string;
  description: string;
  choices: readonly AlertChoice<T>[];
  cancelLabel: string;
  onChoose: (value: T) => void;
  /** Esc, or the cancel button: nothing chosen. */
  onCancel: () => void;
  children?: ReactNode;
};

/** A question with several ways on (e.g. send as a secret, or anyway) and a way back; Radix owns focus and Esc. */
export function ChoiceAlert<T extends string>({ open, title, description, choices, cancelLabel, onChoose, onCancel, children }: ChoiceProps<T>) {
  return (
    <Primitive.Root open={open} onOpenChange={(next) => !next && onCancel()}>
      <Primitive.Portal>
        <Primitive.Overlay className="alert-overlay" />
        <Primitive.Content className="alert-content">
          <Primitive.Title className="alert-title">{title}</Primitive.Title>
          <Primitive.Description className="alert-description">{description}</Primitive.Description>
          {children}
          <div className="alert-actions">
            <Primitive.Cancel className="btn btn-secondary btn-md">{cancelLabel}</Primitive.Cancel>
            {choices.map((c) => (
              <Primitive.Action key={c.value} className={`btn ${c.primary ? 'btn-primary' : 'btn-secondary'} btn-md`} onClick={() => onChoose(c.value)}>
                {c.label}
              </Primitive.Action>
            ))}
          </div>
        </Primitive.Content>
      </Primitive.Portal>
    </Primitive.Root>
  );
}
