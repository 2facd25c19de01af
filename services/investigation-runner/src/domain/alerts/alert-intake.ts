import { createHash, randomBytes } from 'node:crypto';
import { invalidRequest, isDomainError } from '@inquest/errors';
import type { Logger } from '@inquest/observability';
import type { AlertGroupRecord, AlertRecord, AlertStore, NewAlert } from '@inquest/store';
import { agentConfigOf } from '../agents';
import type { InvestigationService } from '../investigation-service';
import { validateRunRequest, type RunRequest } from '../investigation-request';
import type { ConfigSource } from '../ports';
import { alertRunOf } from './alert-investigation';
import { alertSettingsOf, type AlertSettings } from './alert-settings';
import { pagerDutySignatureValid, refInTeamScope, secretsEqual } from './sender-verification';

export const ALERT_SOURCES = ['alertmanager', 'grafana', 'pagerduty', 'generic'] as const;
export const MAX_ALERTS_PER_REQUEST = 1000;
const MAX_KEY_CHARS = 512;
const MAX_LABELS = 64;
const MAX_LABEL_CHARS = 4096;

/** What became of one alert group of a notification. */
export interface GroupOutcome {
  group_key: string;
  alertname: string;
  outcome: 'started' | 'existing' | 'resolved' | 'skipped';
  investigation_id?: string;
  reason?: 'disabled' | 'rate_capped' | 'agent_disabled' | 'resolved_without_investigation';
  alerts: number;
  fingerprint?: string;
}

export interface IngestRequest {
  teamId: string;
  source: string;
  alerts: Omit<NewAlert, 'team_id' | 'source'>[];
  requestedBy?: string;
}

export interface ListAlertsRequest {
  teamId: string;
  limit: number;
  offset: number;
  status?: string;
  alertname?: string;
  group_key?: string;
}

/** Resolves a `vault://` reference of a team's config, within the team's secret scope. */
export interface TeamSecrets {
  resolve(teamId: string, ref: string): Promise<string>;
}

export interface AlertIntakeOptions {
  store: AlertStore;
  investigations: InvestigationService;
  config: ConfigSource;
  secrets: TeamSecrets;
  logger: Logger;
  /** how long a team's effective config is reused (default 1000 ms; 0: every notification asks) */
  configTtlMs?: number;
  /** how often groups whose investigation may not exist yet are looked at again (default 30 s) */
  recoverIntervalMs?: number;
}

/** The stored run request of a group (what recovery re-creates its investigation from). */
type StoredRun = Pick<RunRequest, 'agentName' | 'message' | 'context' | 'alert' | 'requestedBy'>;

/**
 * Alert → investigation: records every alert before anything else, then opens each alert
 * group's firing period once (the store's dedupe point) with the investigation id chosen up
 * front, creates that investigation and marks the group started. A crash anywhere in between
 * leaves a `starting` group that recovery completes with the same id, so each firing period
 * starts exactly one investigation.
 */
export class AlertIntake {
  private timer?: NodeJS.Timeout;
  private readonly configs = new Map<
    string,
    { until: number; value: Promise<Record<string, unknown>> }
  >();

  constructor(private readonly o: AlertIntakeOptions) {}

  /**
   * The team's effective config, reused for `configTtlMs` (default 1 s; concurrent look-ups share
   * one call): a storm of notifications costs one config call a second, and a change of
   * `alerts.*` applies within a second.
   */
  private effectiveConfig(teamId: string): Promise<Record<string, unknown>> {
    const now = Date.now();
    const hit = this.configs.get(teamId);
    if (hit && hit.until > now) return hit.value;
    const value = this.o.config.getEffectiveConfig(teamId);
    const entry = { until: now + (this.o.configTtlMs ?? 1000), value };
    if (this.configs.size > 10_000) this.configs.clear();
    this.configs.set(teamId, entry);
    value.catch(() => {
      if (this.configs.get(teamId) === entry) this.configs.delete(teamId);
    });
    return value;
  }

  async start(): Promise<void> {
    await this.recover().catch((err: unknown) =>
      this.o.logger.warn({ err }, 'alert recovery failed; trying again later'),
    );
    this.timer = setInterval(() => {
      this.recover().catch((err: unknown) => this.o.logger.warn({ err }, 'alert recovery failed'));
    }, this.o.recoverIntervalMs ?? 30_000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async ingest(req: IngestRequest): Promise<{ alertsReceived: number; groups: GroupOutcome[] }> {
    const alerts = validate(req);
    const effective = await this.effectiveConfig(req.teamId);
    const settings = alertSettingsOf(effective);
    const byGroup = new Map<string, NewAlert[]>();
    for (const a of alerts) {
      if (settings.groupBy.length) a.group_key = groupKeyBy(settings.groupBy, a.labels);
      const list = byGroup.get(a.group_key);
      if (list) list.push(a);
      else byGroup.set(a.group_key, [a]);
    }
    const groups: GroupOutcome[] = [];
    for (const [key, list] of byGroup) {
      groups.push(await this.ingestGroup(req, key, list, settings, effective));
    }
    return { alertsReceived: alerts.length, groups };
  }

  async list(req: ListAlertsRequest): Promise<{ items: AlertRecord[]; total: number }> {
    if (!Number.isInteger(req.limit) || req.limit < 1 || req.limit > 100)
      throw invalidRequest('limit must be an integer from 1 to 100');
    if (!Number.isInteger(req.offset) || req.offset < 0)
      throw invalidRequest('offset must be a non-negative integer');
    if (req.status && req.status !== 'firing' && req.status !== 'resolved')
      throw invalidRequest('status must be firing or resolved');
    return this.o.store.list(req);
  }

  /**
   * Checks a credential other than a bearer token against the team's config: the intake secret
   * (`alerts.intake_secret`) and/or a PagerDuty signature (`alerts.pagerduty.signing_secret`).
   * Every credential given must match; false for any failure (unknown team, no secret set,
   * a reference outside the team's scope, a secret that cannot be read).
   */
  async verifySender(req: {
    teamId: string;
    intakeSecret?: string;
    pagerdutySignature?: string;
    body: Buffer;
  }): Promise<boolean> {
    if (req.intakeSecret === undefined && req.pagerdutySignature === undefined) return false;
    let settings: AlertSettings;
    try {
      settings = alertSettingsOf(await this.effectiveConfig(req.teamId));
    } catch (err) {
      if (isDomainError(err) && err.kind === 'not_found') return false;
      throw err;
    }
    const secret = async (ref: string | undefined): Promise<string | undefined> => {
      if (!ref) return undefined;
      if (!refInTeamScope(ref, req.teamId)) {
        this.o.logger.warn({ team_id: req.teamId }, 'alert sender secret outside the team scope');
        return undefined;
      }
      try {
        return await this.o.secrets.resolve(req.teamId, ref);
      } catch (err) {
        this.o.logger.warn({ err, team_id: req.teamId }, 'alert sender secret unavailable');
        return undefined;
      }
    };
    if (req.intakeSecret !== undefined) {
      const expected = await secret(settings.intakeSecretRef);
      if (expected === undefined || !secretsEqual(req.intakeSecret, expected)) return false;
    }
    if (req.pagerdutySignature !== undefined) {
      const expected = await secret(settings.pagerdutySecretRef);
      if (expected === undefined) return false;
      if (!pagerDutySignatureValid(req.pagerdutySignature, req.body, expected)) return false;
    }
    return true;
  }

  /** Creates the investigations of groups a crash left `starting` (same id: at most one each). */
  async recover(): Promise<void> {
    const starting = await this.o.store.listStartingGroups();
    for (const g of starting) {
      try {
        await this.startGroup(g);
      } catch (err) {
        this.o.logger.warn(
          { err, team_id: g.team_id, group_key: g.group_key },
          'could not start the investigation of an alert group',
        );
      }
    }
    if (starting.length) this.o.logger.info({ count: starting.length }, 'recovered alert groups');
  }

  private async ingestGroup(
    req: IngestRequest,
    groupKey: string,
    alerts: NewAlert[],
    settings: AlertSettings,
    effective: Record<string, unknown>,
  ): Promise<GroupOutcome> {
    const now = new Date().toISOString();
    // the group's firing period, if any, is read first: repeats (most of a storm) are then
    // recorded and linked to its investigation in one write each
    const open = await this.o.store.firingGroup(req.teamId, groupKey);
    const records: AlertRecord[] = [];
    for (const a of alerts) {
      const isDisabled = a.status === 'firing' && settings.disabled.has(a.alertname);
      const link = isDisabled
        ? { skipped_reason: 'disabled' }
        : open
          ? { investigation_id: open.investigation_id }
          : undefined;
      records.push(await this.o.store.record(a, now, link));
    }
    const firing = records.filter((r) => r.status === 'firing');
    const enabled = firing.filter((r) => !settings.disabled.has(r.alertname));
    const resolved = records.filter((r) => r.status === 'resolved');
    const lead = enabled[0] ?? firing[0] ?? records[0]!;
    const base = {
      group_key: groupKey,
      alertname: lead.alertname,
      alerts: alerts.length,
      fingerprint: alerts.length === 1 ? lead.fingerprint : undefined,
    };
    const ids = (rs: AlertRecord[]) => rs.map((r) => r.alert_id);

    if (!enabled.length) {
      // the period ends once nothing of the group fires any more
      if (open && resolved.length)
        await this.o.store.resolveGroupIfQuiet(req.teamId, groupKey, now);
      if (firing.length) return { ...base, outcome: 'skipped', reason: 'disabled' };
      const investigationId =
        open?.investigation_id ?? resolved.find((r) => r.investigation_id)?.investigation_id;
      if (investigationId)
        return { ...base, outcome: 'resolved', investigation_id: investigationId };
      await this.o.store.link(req.teamId, ids(resolved), {
        skipped_reason: 'resolved_without_investigation',
      });
      return { ...base, outcome: 'skipped', reason: 'resolved_without_investigation' };
    }

    if (open) {
      if (open.start_state === 'starting') await this.startGroup(open, effective);
      return { ...base, outcome: 'existing', investigation_id: open.investigation_id };
    }
    if (!agentConfigOf(effective, settings.agent).enabled) {
      await this.o.store.link(req.teamId, ids(enabled), { skipped_reason: 'agent_disabled' });
      return { ...base, outcome: 'skipped', reason: 'agent_disabled' };
    }
    const linkAll = (investigationId: string) =>
      this.o.store.link(req.teamId, ids([...enabled, ...resolved]), {
        investigation_id: investigationId,
      });

    const run = alertRunOf(
      req.source,
      alerts.filter((a) => a.status === 'firing' && !settings.disabled.has(a.alertname)),
    );
    const stored: StoredRun = {
      agentName: settings.agent,
      message: run.message,
      context: run.context,
      alert: run.alert,
      requestedBy: req.requestedBy,
    };
    // checked before anything is opened: a group never waits for an investigation that cannot be made
    validateRunRequest({ ...stored, teamId: req.teamId, async: true });
    const opened = await this.o.store.openGroup({
      team_id: req.teamId,
      group_key: groupKey,
      source: req.source,
      alertname: lead.alertname,
      investigation_id: `inv_${randomBytes(12).toString('hex')}`,
      run: stored as unknown as Record<string, unknown>,
      now: Date.now(),
      maxPerMinute: settings.maxPerMinute,
    });
    if (opened.kind === 'capped') {
      await this.o.store.link(req.teamId, ids(enabled), { skipped_reason: 'rate_capped' });
      return { ...base, outcome: 'skipped', reason: 'rate_capped' };
    }
    await linkAll(opened.group.investigation_id);
    if (opened.kind === 'existing') {
      if (opened.group.start_state === 'starting') await this.startGroup(opened.group, effective);
      return { ...base, outcome: 'existing', investigation_id: opened.group.investigation_id };
    }
    await this.startGroup(opened.group, effective);
    return { ...base, outcome: 'started', investigation_id: opened.group.investigation_id };
  }

  /** Creates the group's investigation (a no-op when it exists) and marks the group started. */
  private async startGroup(
    g: AlertGroupRecord,
    effective?: Record<string, unknown>,
  ): Promise<void> {
    const run = g.run as unknown as StoredRun;
    await this.o.investigations.run(
      {
        teamId: g.team_id,
        agentName: run.agentName,
        message: run.message,
        context: run.context,
        alert: run.alert,
        requestedBy: run.requestedBy,
        async: true,
        investigationId: g.investigation_id,
      },
      effective,
    );
    await this.o.store.markGroupStarted(g.team_id, g.group_key, g.episode);
  }
}

const str = (v: unknown): v is string => typeof v === 'string';

/** The group key of `alerts.group_by`: the named labels' values (hashed past 512 characters). */
export function groupKeyBy(names: string[], labels: Record<string, string>): string {
  const key = `group_by:{${names.map((n) => `${n}=${JSON.stringify(labels[n] ?? '')}`).join(',')}}`;
  return key.length <= MAX_KEY_CHARS
    ? key
    : `group_by:sha256:${createHash('sha256').update(key).digest('hex')}`;
}

function checkMap(v: unknown, what: string): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw invalidRequest(`${what} must be an object`);
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length > MAX_LABELS)
    throw invalidRequest(`${what} has more than ${MAX_LABELS} entries`);
  const out: Record<string, string> = {};
  for (const [k, val] of entries) {
    if (!str(val)) throw invalidRequest(`${what}.${k} must be a string`);
    if (k.length > MAX_KEY_CHARS || val.length > MAX_LABEL_CHARS)
      throw invalidRequest(`${what}.${k} is too long`);
    out[k] = val;
  }
  return out;
}

/** The runner's own check of a notification (the gateway checks the senders' shapes first); nothing is stored before it passes. */
function validate(req: IngestRequest): NewAlert[] {
  if (!req.teamId) throw invalidRequest('team is required');
  if (!(ALERT_SOURCES as readonly string[]).includes(req.source))
    throw invalidRequest(`source must be one of ${ALERT_SOURCES.join(', ')}`);
  if (!Array.isArray(req.alerts) || req.alerts.length === 0)
    throw invalidRequest('a notification must carry at least one alert');
  if (req.alerts.length > MAX_ALERTS_PER_REQUEST)
    throw invalidRequest(`a notification may carry at most ${MAX_ALERTS_PER_REQUEST} alerts`);
  return req.alerts.map((a, i) => {
    const where = `alerts[${i}]`;
    if (a.status !== 'firing' && a.status !== 'resolved')
      throw invalidRequest(`${where}.status must be firing or resolved`);
    for (const k of ['group_key', 'fingerprint', 'alertname'] as const) {
      const v = a[k];
      if (!str(v) || !v.trim()) throw invalidRequest(`${where}.${k} is required`);
      if (v.length > MAX_KEY_CHARS) throw invalidRequest(`${where}.${k} is too long`);
    }
    for (const k of ['starts_at', 'ends_at', 'generator_url', 'external_id'] as const) {
      const v = a[k];
      if (v !== undefined && (!str(v) || v.length > MAX_LABEL_CHARS))
        throw invalidRequest(
          `${where}.${k} must be a string of at most ${MAX_LABEL_CHARS} characters`,
        );
    }
    const out: NewAlert = {
      team_id: req.teamId,
      source: req.source,
      status: a.status,
      group_key: a.group_key,
      fingerprint: a.fingerprint,
      alertname: a.alertname,
      labels: checkMap(a.labels, `${where}.labels`),
      annotations: checkMap(a.annotations, `${where}.annotations`),
    };
    if (a.starts_at) out.starts_at = a.starts_at;
    if (a.ends_at) out.ends_at = a.ends_at;
    if (a.generator_url) out.generator_url = a.generator_url;
    if (a.external_id) out.external_id = a.external_id;
    return out;
  });
}
