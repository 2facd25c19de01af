// Team scope of the knowledge and deliveries pages: which team the queries act for, whether
// one is chosen (admin tokens), and whether the credential may write (GET /whoami).
import { useQuery } from '@tanstack/react-query';
import { useSession } from '../../api/client';

/** False while an admin token has no team chosen: team-scoped queries must wait. */
export function useTeamReady(): boolean {
  const { isAdmin, session } = useSession();
  return !isAdmin || !!session.team;
}

/** The part of a query key that changes with the team acted for. */
export function useTeamKey(): string {
  return useSession().session.team ?? '';
}

/**
 * Whether the credential may write on team endpoints (GET /whoami): false for a read-only token,
 * undefined while unknown (the buttons stay usable; the API still answers 403).
 */
export function useCanWrite(): boolean | undefined {
  const { client, isAdmin, session } = useSession();
  const who = useQuery({
    queryKey: ['whoami', session.team ?? ''],
    queryFn: ({ signal }) => client.whoami({ signal }),
    enabled: !isAdmin || !!session.team,
    staleTime: 60_000,
    retry: false,
  });
  if (isAdmin) return true;
  return who.data ? who.data.permissions.includes('write') : undefined;
}

/** Said where a write button is disabled because the token may only read. */
export const READ_ONLY_NOTE = 'Your token may only read: this needs write permission.';
