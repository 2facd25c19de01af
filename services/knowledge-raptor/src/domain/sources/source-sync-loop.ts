import type { Logger } from '@inquest/observability';
import type { SettingsSource } from '../knowledge-settings';
import type { SourceStatus, SourceSync } from './source-sync';

/**
 * Runs each known team's due source syncs on a timer (a source is due when its `sync_interval`
 * passed since its last sync), one team after another, and syncs a team at once on request.
 * A team becomes known when the service serves it or it has sync state from an earlier run.
 */
export class SourceSyncLoop {
  private readonly teams: Set<string>;
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<void>;
  private readonly abort = new AbortController();

  constructor(
    private readonly deps: {
      sync: SourceSync;
      settings: SettingsSource;
      logger: Logger;
      /** how often due sources are looked for */
      tickMs: number;
      /** teams known already (shared with whoever else learns of teams) */
      teams?: Set<string>;
    },
  ) {
    this.teams = deps.teams ?? new Set();
  }

  watch(teamId: string): void {
    this.teams.add(teamId);
  }

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.deps.tickMs);
    this.timer.unref();
  }

  /** Syncs every due source of every known team (skipped while the previous tick runs). */
  tick(): Promise<void> {
    this.ticking ??= (async () => {
      for (const teamId of [...this.teams]) {
        if (this.abort.signal.aborted) return;
        try {
          const { sources, sources_unknown } = await this.deps.settings.get(teamId);
          // also without sources: a source removed from the config has its documents removed
          if (sources.length || !sources_unknown)
            await this.deps.sync.sync(teamId, sources, {
              onlyDue: true,
              signal: this.abort.signal,
              prune: !sources_unknown,
            });
        } catch (err) {
          this.deps.logger.warn({ err, team_id: teamId }, 'source sync tick failed');
        }
      }
    })().finally(() => (this.ticking = undefined));
    return this.ticking;
  }

  /** Syncs every source of the team now, whatever their interval. */
  async syncNow(teamId: string): Promise<SourceStatus[]> {
    this.watch(teamId);
    const { sources, sources_unknown } = await this.deps.settings.get(teamId);
    return this.deps.sync.sync(teamId, sources, {
      signal: this.abort.signal,
      prune: !sources_unknown,
    });
  }

  async status(teamId: string): Promise<SourceStatus[]> {
    this.watch(teamId);
    const { sources } = await this.deps.settings.get(teamId);
    return this.deps.sync.status(teamId, sources);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.abort.abort();
    await this.ticking;
  }
}
