import { useEffect, type ReactNode } from 'react';
import { ErrorBoundary } from './ErrorBoundary';

/** A page: its <h1>, optional actions beside it, and an error boundary around the content. */
export function Page(props: { title: string; actions?: ReactNode; children: ReactNode }) {
  useEffect(() => {
    document.title = `${props.title} · Inquest`;
  }, [props.title]);
  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">{props.title}</h1>
        {props.actions ? <div className="page-actions">{props.actions}</div> : null}
      </header>
      <ErrorBoundary>{props.children}</ErrorBoundary>
    </section>
  );
}
