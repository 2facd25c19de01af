import { useId, type ReactNode } from 'react';

export interface Column<T> {
  key: string;
  header: string;
  render(row: T): ReactNode;
  /** CSS width, e.g. '8rem' */
  width?: string;
}

/** A semantic table with a caption (visually hidden unless shown) and one row per item; scrolls sideways when narrow. */
export function DataTable<T>(props: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey(row: T): string;
  showCaption?: boolean;
}) {
  const captionId = useId();
  return (
    // a region that may scroll sideways (narrow screens): focusable, so keyboards can scroll it
    <div className="table-wrap" role="region" aria-labelledby={captionId} tabIndex={0}>
      <table className="data-table">
        <caption id={captionId} className={props.showCaption ? undefined : 'sr-only'}>
          {props.caption}
        </caption>
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th key={c.key} scope="col">
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)}>
              {props.columns.map((c) => (
                <td key={c.key}>{c.render(row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
