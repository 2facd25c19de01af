import type { ReactNode } from 'react';
import { useSession } from '../api/client';
import { Empty } from './Empty';

/**
 * Team-scoped content: an admin token acts for the team picked in the top bar; without one the
 * API answers 400, so say what to do instead.
 */
export function RequireTeam(props: { children: ReactNode }) {
  const { isAdmin, session } = useSession();
  if (isAdmin && !session.team)
    return (
      <Empty title="Choose a team first">
        <p>An admin token acts for one team at a time: pick it with the Team chooser at the top.</p>
      </Empty>
    );
  return <>{props.children}</>;
}
