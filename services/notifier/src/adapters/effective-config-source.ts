import { randomUUID } from 'node:crypto';
import { createClient, type PromiseClient } from '@inquest/grpc-kit';
import { configV1 } from '@inquest/proto';
import {
  teamSettingsFrom,
  type TeamSettings,
  type TeamSettingsSource,
} from '../domain/team-settings';

/** Team settings from config-hierarchy's effective config (gRPC GetEffectiveConfig). */
export class EffectiveConfigSource implements TeamSettingsSource {
  private readonly client: PromiseClient<configV1.ConfigServiceClient>;

  constructor(address: string, deadlineMs = 5000) {
    this.client = createClient(configV1.ConfigServiceClient, address, { deadlineMs });
  }

  async get(teamId: string): Promise<TeamSettings> {
    const res = await this.client.getEffectiveConfig(
      { team_id: teamId },
      { ctx: { requestId: `notifier-${randomUUID()}`, teamId, principal: 'notifier' } },
    );
    return teamSettingsFrom(res.config ?? {}, teamId, res.secret_scopes);
  }

  close(): void {
    this.client.close();
  }
}
