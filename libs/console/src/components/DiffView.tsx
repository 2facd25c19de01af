import { diffLines } from 'diff';

/** Line diff of two values (JSON-formatted unless strings): removed lines red, added green. */
export function DiffView(props: { before: unknown; after: unknown; label?: string }) {
  const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v ?? null, null, 2));
  const parts = diffLines(text(props.before), text(props.after));
  return (
    <figure className="diff" aria-label={props.label ?? 'Changes'}>
      <pre>
        {parts.map((p, i) => {
          const cls = p.added ? 'diff-add' : p.removed ? 'diff-del' : 'diff-same';
          const mark = p.added ? '+ ' : p.removed ? '- ' : '  ';
          const lines = p.value.replace(/\n$/, '').split('\n');
          return (
            <span key={i} className={cls}>
              {p.added ? <span className="sr-only">added: </span> : null}
              {p.removed ? <span className="sr-only">removed: </span> : null}
              {lines.map((l) => mark + l).join('\n') + '\n'}
            </span>
          );
        })}
      </pre>
    </figure>
  );
}
