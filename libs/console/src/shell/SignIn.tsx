import { useState, type FormEvent } from 'react';
import { createConsoleClient } from '../api/client';
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
