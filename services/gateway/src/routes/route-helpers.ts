import { ErrorBody } from '@inquest/api-contract';
import { internal } from '@inquest/errors';

/** An error answer of a route's OpenAPI description: the common error body. */
export const err = (description: string) => ({ description, schema: ErrorBody });

/** The team a team route (`auth: 'team'`) acts on; the authenticator guarantees there is one. */
export const teamOf = (req: { auth: { teamId?: string | undefined } }): string => {
  if (!req.auth.teamId) throw internal('team route without a team');
  return req.auth.teamId;
};
