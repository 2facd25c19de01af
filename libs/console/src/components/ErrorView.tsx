import { useEffect, useState } from 'react';
import { describeError } from './describe-error';
import { clearSession } from '../session';

export { describeError, type ErrorDescription } from './describe-error';

/** The one error display of the console; `onRetry` adds a retry button (after Retry-After on 429). */
export function ErrorView(props: { error: unknown; onRetry?: () => void }) {
  const d = describeError(props.error);
  const [wait, setWait] = useState(d.retryAfter ?? 0);
  useEffect(() => {
    setWait(d.retryAfter ?? 0);
  }, [d.retryAfter, props.error]);
  useEffect(() => {
    if (wait <= 0) return;
    const t = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(t);
  }, [wait]);
  return (
    <div className="error-view" role="alert">
      <h2>{d.title}</h2>
      <p>
        {d.kind === 'rate_limited' && wait > 0
          ? `Too many requests, retry in ${wait} s.`
          : d.message}
      </p>
      {d.requestId ? <p className="muted">Request id: {d.requestId}</p> : null}
      <div className="row">
        {d.kind === 'unauthorized' ? (
          <a
            className="button"
            href="/console/"
            onClick={() => {
              clearSession();
            }}
          >
            Sign in again
          </a>
        ) : null}
        {d.kind === 'code_missing' ? (
          <button type="button" onClick={() => window.location.reload()}>
            Reload
          </button>
        ) : null}
        {props.onRetry && d.kind !== 'unauthorized' && d.kind !== 'code_missing' ? (
          <button type="button" onClick={props.onRetry} disabled={wait > 0}>
            Retry
          </button>
        ) : null}
      </div>
    </div>
  );
}
