// The queries the configuration pages share, keyed by the team acted for.
import { useQuery } from '@tanstack/react-query';
import { useClient, useSession } from '../../api/client';

/** Query keys of the configuration area; invalidate `configKeys.all(team)` after a change. */
export const configKeys = {
  all: (team: string) => ['config', team] as const,
  effective: (team: string) => ['config', team, 'effective'] as const,
  raw: (team: string) => ['config', team, 'raw'] as const,
  audit: (team: string, offset: number) => ['config', team, 'audit', offset] as const,
  pending: (team: string) => ['config', team, 'pending'] as const,
  caller: (team: string) => ['config', team, 'whoami'] as const,
};

export function useTeam(): string {
  return useSession().session.team ?? '';
}

export function useEffectiveConfig() {
  const client = useClient();
  const team = useTeam();
  return useQuery({
    queryKey: configKeys.effective(team),
    queryFn: ({ signal }) => client.config.effective({ signal }),
  });
}

export function useRawConfig() {
  const client = useClient();
  const team = useTeam();
  return useQuery({
    queryKey: configKeys.raw(team),
    queryFn: ({ signal }) => client.config.raw({ signal }),
  });
}

/** Who the service takes the session for (GET /whoami): identity, permissions. */
export function useCaller() {
  const client = useClient();
  const team = useTeam();
  return useQuery({
    queryKey: configKeys.caller(team),
    queryFn: ({ signal }) => client.whoami({ signal }),
    staleTime: 60_000,
  });
}
