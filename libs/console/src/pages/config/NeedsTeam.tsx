import type { ReactNode } from 'react';
import { useSession } from '../../api/client';
import { Empty } from '../../components/Empty';

/** The configuration pages act on one team: an admin picks it with the team chooser first. */
export function NeedsTeam(props: { children: ReactNode }) {
  const { isAdmin, session } = useSession();
  if (isAdmin && !session.team)
    return (
      <Empty title="Choose a team first">
        <p>An admin token acts for one team at a time: pick it with the Team chooser at the top.</p>
      </Empty>
    );
  return <>{props.children}</>;
}
