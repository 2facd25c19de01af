import type { EffectiveConfigSource } from '@inquest/config-client';
import { teamSettingsFrom, type TeamSettingsSource } from '../domain/team-settings';

/** Team settings from the team's effective config (read through the shared config client). */
export function effectiveTeamSettings(effective: EffectiveConfigSource): TeamSettingsSource {
  return {
    async get(teamId) {
      const eff = await effective.get(teamId);
      return teamSettingsFrom(eff.config, teamId, eff.secretScopes);
    },
  };
}
