import { useId, type ReactElement, cloneElement, type ReactNode } from 'react';

/** A labelled form control: the label, the control (its id set here), a hint and an error. */
export function Field(props: {
  label: string;
  hint?: ReactNode;
  error?: string;
  children: ReactElement<{ id?: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }>;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [props.hint ? hintId : '', props.error ? errorId : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {cloneElement(props.children, {
        id,
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        ...(props.error ? { 'aria-invalid': true } : {}),
      })}
      {props.hint ? (
        <div id={hintId} className="field-hint">
          {props.hint}
        </div>
      ) : null}
      {props.error ? (
        <div id={errorId} className="field-error" role="alert">
          {props.error}
        </div>
      ) : null}
    </div>
  );
}
