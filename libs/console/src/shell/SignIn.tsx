import { useEffect, useState, type FormEvent } from 'react';
import { createConsoleClient } from '../api/client';
import { loadConsoleConfig, startOidcSignIn, type OidcSettings } from '../auth/oidc';
import { describeError } from '../components/ErrorView';
import { Field } from '../components/Field';
import { isAdminToken, type Session } from '../session';

/** Checks a token with one cheap authenticated call before keeping it. */
async function verifyToken(token: string): Promise<void> {
  const client = createConsoleClient({ token });
  if (isAdminToken(token)) await client.admin.listNodes();
  else await client.agents.list({ limit: 1 });
}

/** Sign-in: paste a team or admin token (kept in sessionStorage for this tab only). */
export function SignIn(props: { onSignIn(session: Session): void }) {
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [oidc, setOidc] = useState<OidcSettings | null>(null);
  const [oidcError, setOidcError] = useState<string | undefined>();
  const [redirecting, setRedirecting] = useState(false);

  useEffect(() => {
    const ac = new AbortController();
    void loadConsoleConfig(ac.signal).then((c) => setOidc(c.oidc));
    return () => ac.abort();
  }, []);

  async function signInWithOidc(settings: OidcSettings) {
    setRedirecting(true);
    setOidcError(undefined);
    try {
      await startOidcSignIn(settings);
    } catch (err) {
      setRedirecting(false);
      setOidcError(
        `Cannot start single sign-on with ${settings.issuer}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const t = token.trim();
    if (!t) {
      setError('Paste a token first.');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await verifyToken(t);
      props.onSignIn({ token: t, method: 'token' });
    } catch (err) {
      const d = describeError(err);
      setError(d.kind === 'unauthorized' ? 'That token was not accepted.' : d.message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="signin" id="main">
      <div className="signin-card">
        <h1>Sign in to Inquest</h1>
        {oidc ? (
          <>
            <button
              type="button"
              className="primary wide"
              disabled={redirecting}
              onClick={() => void signInWithOidc(oidc)}
            >
              {redirecting ? 'Opening single sign-on…' : 'Sign in with single sign-on'}
            </button>
            <p className="field-hint">Identity provider: {new URL(oidc.issuer).host}</p>
            {oidcError ? (
              <p className="field-error" role="alert">
                {oidcError}
              </p>
            ) : null}
            <p className="signin-divider">or paste a token</p>
          </>
        ) : null}
        <form onSubmit={(e) => void submit(e)} noValidate>
          <Field
            label="Access token"
            hint="A team token (<token_id>.<secret>) or the admin token (admin.<secret>). It stays in this browser tab only."
            error={error}
          >
            <input
              type="password"
              autoComplete="off"
              spellCheck={false}
              value={token}
              onChange={(e) => setToken(e.target.value)}
              required
            />
          </Field>
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
      </div>
    </main>
  );
}
