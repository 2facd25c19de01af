import { useState } from 'react';
import { Field } from './Field';

/** Parses JSON text: the value, or the parser's message. */
export function parseJson(
  text: string,
): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/** A JSON textarea that reports parse errors as you type; `onChange` gets only valid values. */
export function JsonEditor(props: {
  label: string;
  value: unknown;
  onChange(value: unknown): void;
  rows?: number;
  readOnly?: boolean;
}) {
  const [text, setText] = useState(() => JSON.stringify(props.value ?? {}, null, 2));
  const [error, setError] = useState<string | undefined>();
  return (
    <Field label={props.label} error={error}>
      <textarea
        className="json-editor"
        spellCheck={false}
        rows={props.rows ?? 16}
        value={text}
        readOnly={props.readOnly}
        onChange={(e) => {
          setText(e.target.value);
          const r = parseJson(e.target.value);
          if (r.ok) {
            setError(undefined);
            props.onChange(r.value);
          } else setError(`Not valid JSON: ${r.error}`);
        }}
      />
    </Field>
  );
}
