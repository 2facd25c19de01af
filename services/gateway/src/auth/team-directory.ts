import { invalidRequest, notFound } from '@inquest/errors';
import type { PromiseClient } from '@inquest/grpc-kit';
import type { configV1 } from '@inquest/proto';
import { nodeLevelOf } from '../grpc/config-messages';

/** Which node ids are teams: what the admin token may name in X-Inquest-Team. */
export interface TeamDirectory {
  /**
   * Resolves for an existing team; 404 `not_found` for an unknown node, 400 for a non-team.
   * `via` names where the id came from in the error message (default `X-Inquest-Team`).
   */
  requireTeam(teamId: string, requestId: string, via?: string): Promise<void>;
}

/**
 * Teams from config-hierarchy (GetNode). Nodes never move, change kind or disappear, so a team
 * once seen is remembered; an unknown id is asked again (the team may be created later).
 */
export class ConfigTeamDirectory implements TeamDirectory {
  private readonly teams = new Set<string>();

  constructor(
    private readonly config: PromiseClient<configV1.ConfigServiceClient>,
    private readonly options: { deadlineMs?: number; maxEntries?: number } = {},
  ) {}

  async requireTeam(teamId: string, requestId: string, via = 'X-Inquest-Team'): Promise<void> {
    if (this.teams.has(teamId)) return;
    let node: configV1.Node | undefined;
    try {
      node = (
        await this.config.getNode(
          { node_id: teamId },
          { ctx: { requestId }, deadlineMs: this.options.deadlineMs ?? 2000 },
        )
      ).node;
    } catch (err) {
      if ((err as { code?: unknown }).code === 'not_found')
        throw notFound(`team ${teamId} not found (${via})`);
      throw err;
    }
    if (!node) throw notFound(`team ${teamId} not found (${via})`);
    const level = nodeLevelOf(node);
    if (level !== 'team')
      throw invalidRequest(
        `${via} names node ${teamId}, which is a ${level ?? 'node of unknown level'}, not a team`,
      );
    if (this.teams.size >= (this.options.maxEntries ?? 100_000)) this.teams.clear();
    this.teams.add(teamId);
  }
}
