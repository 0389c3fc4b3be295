import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';

/** What every field has around its control: a label, an optional hint and error, and classes for its box. */
interface FieldFrame {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  /** Classes added to the box's `field` (a wide one in a grid, a picker's own). */
  frameClassName?: string;
}

/**
 * The label, hint and error around one control, wired with aria-describedby and aria-invalid. The control's own
 * `id` is kept when given (tests and links find it by it), else one is made.
 */
function useFrame({ label, hint, error, frameClassName }: FieldFrame, ownId: string | undefined) {
  const madeId = useId();
  const id = ownId ?? madeId;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const wiring = {
    id,
    'aria-invalid': error ? (true as const) : undefined,
    'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') || undefined,
  };
  const frame = (control: ReactNode) => (
    <div className={frameClassName ? `field ${frameClassName}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      {control}
      {hint && (
        <span id={hintId} className="hint">
          {hint}
        </span>
      )}
      {error && (
        <span id={errorId} className="field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
  return { wiring, frame };
}

/** A labelled input. */
export function Field({
  label,
  hint,
  error,
  frameClassName,
  mono,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & FieldFrame & { mono?: boolean }) {
  const { wiring, frame } = useFrame({ label, hint, error, frameClassName }, input.id);
  return frame(<input className={`input${mono ? ' mono' : ''}`} {...wiring} {...input} />);
}

/** A labelled text area. */
export function TextAreaField({
  label,
  hint,
  error,
  frameClassName,
  mono,
  ...textarea
}: TextareaHTMLAttributes<HTMLTextAreaElement> & FieldFrame & { mono?: boolean }) {
  const { wiring, frame } = useFrame({ label, hint, error, frameClassName }, textarea.id);
  return frame(<textarea className={`input${mono ? ' mono' : ''}`} {...wiring} {...textarea} />);
}

/** A labelled select; its options are its children. */
export function SelectField({
  label,
  hint,
  error,
  frameClassName,
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & FieldFrame) {
  const { wiring, frame } = useFrame({ label, hint, error, frameClassName }, select.id);
  return frame(<select className="select" {...wiring} {...select} />);
}
