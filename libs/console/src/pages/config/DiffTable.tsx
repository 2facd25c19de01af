import type { DiffRow } from './config-draft';

const KIND_TEXT = { added: 'added', removed: 'removed', changed: 'changed' } as const;

/** A config diff as a table: field, what it was, what it becomes (used by edit, history, pending). */
export function DiffTable(props: {
  caption: string;
  rows: DiffRow[];
  /** extra words for a removed field (e.g. what it inherits then) */
  removedNote?: (path: string) => string;
}) {
  return (
    <div className="table-wrap" role="region" aria-label={props.caption} tabIndex={0}>
      <table className="data-table cfg-diff cfg-stack">
        <caption className="sr-only">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Before</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => (
            <tr key={r.path}>
              <th scope="row" className="cfg-path">
                {r.path} <span className="sr-only">({KIND_TEXT[r.kind]})</span>
              </th>
              <td className={r.old !== undefined ? 'old' : undefined} data-label="Before">
                {r.old !== undefined ? (
                  <pre className="cfg-value">{r.old}</pre>
                ) : (
                  <span className="muted">not set</span>
                )}
              </td>
              <td className={r.new !== undefined ? 'new' : undefined} data-label="After">
                {r.new !== undefined ? (
                  <pre className="cfg-value">{r.new}</pre>
                ) : (
                  <span className="muted">
                    removed{props.removedNote ? `: ${props.removedNote(r.path)}` : ''}
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
