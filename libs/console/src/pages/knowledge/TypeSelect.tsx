import type { ChangeEvent } from 'react';
import { TYPES_BY_LEVEL } from './knowledge-text';

/** The knowledge types grouped by level (L1 procedural ... L4 policy). Wrap in a Field. */
export function TypeSelect(props: {
  id?: string;
  value: string;
  onChange(value: string): void;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}) {
  const { value, onChange, ...rest } = props;
  return (
    <select
      {...rest}
      value={value}
      onChange={(e: ChangeEvent<HTMLSelectElement>) => onChange(e.target.value)}
    >
      {TYPES_BY_LEVEL.map((l) => (
        <optgroup key={l.level} label={l.label}>
          {l.types.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  );
}
