import { createClient, type PromiseClient } from '@inquest/grpc-kit';
import type { Logger } from '@inquest/observability';
import { configV1 } from '@inquest/proto';
import { secretScopeOf } from '@inquest/secrets';
import {
  DEFAULT_SETTINGS,
  settingsFromConfig,
  type KbSettings,
  type SettingsSource,
} from '../domain/knowledge-settings';

/**
 * A team's knowledge_base settings from config-hierarchy's effective config (gRPC), cached for
 * `ttlMs`. When config-hierarchy cannot be reached the last known settings are used, else the
 * defaults, so knowledge keeps working while config is down.
 */
export class ConfigSettingsSource implements SettingsSource {
  private readonly client: PromiseClient<configV1.ConfigServiceClient>;
  private readonly cache = new Map<string, { at: number; value: KbSettings }>();
  private readonly inflight = new Map<string, Promise<KbSettings>>();

  constructor(
    address: string,
    private readonly ttlMs: number,
    private readonly logger: Logger,
    private readonly deadlineMs = 1000,
  ) {
    this.client = createClient(configV1.ConfigServiceClient, address, { deadlineMs, retries: 0 });
  }

  async get(teamId: string): Promise<KbSettings> {
    const hit = this.cache.get(teamId);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value;
    let running = this.inflight.get(teamId);
    if (!running) {
      running = this.fetch(teamId, hit?.value).finally(() => this.inflight.delete(teamId));
      this.inflight.set(teamId, running);
    }
    // stale while revalidate: only a team's first request waits for config-hierarchy
    return hit && this.ttlMs > 0 ? hit.value : running;
  }

  private async fetch(teamId: string, stale: KbSettings | undefined): Promise<KbSettings> {
    try {
      const res = await this.client.getEffectiveConfig(
        { team_id: teamId },
        { ctx: { requestId: 'kb-settings', teamId } },
      );
      // a secret reference resolves under the node that set it, else the team's own prefix
      const value = settingsFromConfig(res.config ?? {}, (field) => {
        const wire = res.secret_scopes[field];
        return wire
          ? { owner: wire.owner_node_id, prefixes: [...wire.prefixes] }
          : secretScopeOf(teamId);
      });
      this.cache.set(teamId, { at: Date.now(), value });
      return value;
    } catch (err) {
      const code = (err as { code?: string }).code;
      // an unknown team has no overrides: defaults, cached like an answer
      if (code === 'not_found') {
        this.cache.set(teamId, { at: Date.now(), value: DEFAULT_SETTINGS });
        return DEFAULT_SETTINGS;
      }
      this.logger.warn(
        { err, team_id: teamId },
        'effective config unavailable; using last known or default knowledge settings',
      );
      const value = stale ?? { ...DEFAULT_SETTINGS, sources_unknown: true };
      // retry after a short pause rather than on every call
      this.cache.set(teamId, { at: Date.now() - this.ttlMs + Math.min(this.ttlMs, 1000), value });
      return value;
    }
  }

  /** Forget cached settings (a config change anywhere may affect any team below it). */
  invalidate(): void {
    this.cache.clear();
  }

  close(): void {
    this.client.close();
  }
}
