import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSession } from '../../api/client';
import { Empty } from '../../components/Empty';

/**
 * Team-scoped pages (knowledge, deliveries) need a team: an admin token names it with the team
 * chooser; without one the API would answer 400, so say what to do instead.
 */
export function TeamRequired(props: { children: ReactNode }) {
  const { isAdmin, session } = useSession();
  if (isAdmin && !session.team)
    return (
      <Empty title="Choose a team first">
        <p>An admin token acts for one team at a time: pick it with the Team chooser at the top.</p>
      </Empty>
    );
  return <>{props.children}</>;
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
