import { useCallback, useEffect, useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { isInquestError } from '@inquest/client';
import { Router } from 'wouter';
import { SessionProvider } from '../api/client';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { clearSession, isAdminToken, loadSession, saveSession, type Session } from '../session';
import { CALLBACK_PATH } from '../auth/oidc';
import { Layout } from './Layout';
import { OidcCallback } from './OidcCallback';
import { SignIn } from './SignIn';

/** The whole console: the sign-in page until there is a session, then the layout and pages. */
export function App() {
  const [session, setSession] = useState<Session | undefined>(() => loadSession());
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            retry: (count, error) => count < 1 && !(isInquestError(error) && error.status < 500),
            refetchOnWindowFocus: false,
            staleTime: 5_000,
          },
        },
      }),
  );

  const signIn = useCallback((s: Session) => {
    saveSession(s);
    setSession(s);
  }, []);
  const oidcSignIn = useCallback((s: Session, returnTo: string) => {
    saveSession(s);
    window.history.replaceState(null, '', returnTo);
    setSession(s);
  }, []);
  const signOut = useCallback(() => {
    clearSession();
    queryClient.clear();
    setSession(undefined);
  }, [queryClient]);
  const setTeam = useCallback(
    (team: string | undefined) => {
      setSession((s) => {
        if (!s) return s;
        const next: Session = { token: s.token, method: s.method, ...(team ? { team } : {}) };
        saveSession(next);
        return next;
      });
      queryClient.clear();
    },
    [queryClient],
  );

  // another tab signing out (sessionStorage is per tab, but a 401 handler may clear it here)
  useEffect(() => {
    const onStorage = () => setSession(loadSession());
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <Router base="/console">
          {!session && window.location.pathname === CALLBACK_PATH ? (
            <OidcCallback onSignIn={oidcSignIn} />
          ) : session ? (
            <SessionProvider
              session={session}
              isAdmin={isAdminToken(session.token)}
              setTeam={setTeam}
              signOut={signOut}
            >
              <Layout />
            </SessionProvider>
          ) : (
            <SignIn onSignIn={signIn} />
          )}
        </Router>
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
