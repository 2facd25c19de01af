import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { InquestClient } from '@inquest/client';
import type { Session } from '../session';

/** One typed client per session: every API call of the console goes through it. */
export function createConsoleClient(session: Pick<Session, 'token' | 'team'>): InquestClient {
  return new InquestClient({
    baseUrl: window.location.origin,
    token: session.token,
    ...(session.team ? { team: session.team } : {}),
    timeoutMs: 30_000,
    // the page shows errors itself (429 with its Retry-After): retry once, never wait long
    retry: { maxRetries: 1, maxRetryAfterMs: 2_000 },
  });
}

interface SessionContextValue {
  session: Session;
  client: InquestClient;
  isAdmin: boolean;
  setTeam(team: string | undefined): void;
  signOut(): void;
}

const SessionContext = createContext<SessionContextValue | undefined>(undefined);

export function SessionProvider(props: {
  session: Session;
  isAdmin: boolean;
  setTeam(team: string | undefined): void;
  signOut(): void;
  children: ReactNode;
}) {
  const { session, isAdmin, setTeam, signOut } = props;
  const client = useMemo(() => createConsoleClient(session), [session]);
  const value = useMemo(
    () => ({ session, client, isAdmin, setTeam, signOut }),
    [session, client, isAdmin, setTeam, signOut],
  );
  return <SessionContext.Provider value={value}>{props.children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const v = useContext(SessionContext);
  if (!v) throw new Error('useSession outside <SessionProvider>');
  return v;
}

/** The typed Inquest client of the signed-in session. */
export function useClient(): InquestClient {
  return useSession().client;
}
