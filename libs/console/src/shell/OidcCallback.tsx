import { useEffect, useRef, useState } from 'react';
import { completeOidcSignIn, loadConsoleConfig } from '../auth/oidc';
import type { Session } from '../session';

/** /console/oidc/callback: exchanges the issuer's code for a token, then opens the console. */
export function OidcCallback(props: { onSignIn(session: Session, returnTo: string): void }) {
  const [error, setError] = useState<string | undefined>();
  const started = useRef(false);
  const { onSignIn } = props;
  useEffect(() => {
    if (started.current) return; // the code is single-use (StrictMode runs effects twice)
    started.current = true;
    const search = window.location.search;
    // the code must not stay in the address bar or the history
    window.history.replaceState(null, '', '/console/oidc/callback');
    void (async () => {
      try {
        const config = await loadConsoleConfig();
        if (!config.oidc) throw new Error('this Inquest has no OIDC sign-in configured');
        const r = await completeOidcSignIn(config.oidc, search);
        onSignIn({ token: r.accessToken, method: 'oidc' }, r.returnTo);
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      }
    })();
  }, [onSignIn]);
  return (
    <main className="signin" id="main">
      <div className="signin-card">
        <h1>Signing in…</h1>
        {error ? (
          <div className="error-view" role="alert">
            <h2>Sign-in failed</h2>
            <p>{error}</p>
            <a className="button" href="/console/">
              Back to sign-in
            </a>
          </div>
        ) : (
          <p role="status">Checking the answer of your identity provider…</p>
        )}
      </div>
    </main>
  );
}
