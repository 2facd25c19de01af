import type { EffectiveConfigSource } from '@inquest/config-client';
import type { Logger } from '@inquest/observability';
import { secretScopeOf } from '@inquest/secrets';
import {
  DEFAULT_SETTINGS,
  settingsFromConfig,
  type KbSettings,
  type SettingsSource,
} from '../domain/knowledge-settings';

/**
 * A team's knowledge_base settings from its effective config (the shared config client, which
 * serves the last known answer while config-hierarchy cannot be reached). With no answer at all,
 * the defaults, so knowledge keeps working while config is down; an unknown team has no overrides.
 */
export function effectiveKbSettings(
  effective: EffectiveConfigSource,
  logger: Logger,
): SettingsSource {
  return {
    async get(teamId: string): Promise<KbSettings> {
      try {
        const eff = await effective.get(teamId);
        // a secret reference resolves under the node that set it, else the team's own prefix
        return settingsFromConfig(eff.config, (field) => {
          const wire = eff.secretScopes[field];
          return wire
            ? { owner: wire.owner_node_id, prefixes: [...wire.prefixes] }
            : secretScopeOf(teamId);
        });
      } catch (err) {
        if ((err as { code?: string }).code === 'not_found') return DEFAULT_SETTINGS;
        logger.warn(
          { err, team_id: teamId },
          'effective config unavailable; using default knowledge settings',
        );
        return DEFAULT_SETTINGS;
      }
    },
  };
}
