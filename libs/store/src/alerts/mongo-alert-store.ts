import type { Collection, Db, Filter } from 'mongodb';
import { fromMongo, isDuplicateKeyError } from '../mongo/mongo-documents';
import type {
  AlertGroupRecord,
  AlertRecord,
  AlertStore,
  ListAlertsQuery,
  NewAlert,
  OpenGroupOutcome,
  OpenGroupRequest,
} from './alert-store';
import { applyLink, mergeRepeat, newRecord } from './sqlite-alert-store';

type AlertDoc = AlertRecord & { _id: string; seq: number };
type GroupDoc = AlertGroupRecord & { _id: string };

const groupId = (teamId: string, groupKey: string, episode: number) =>
  `${teamId}\u0000${groupKey}\u0000${episode}`;

/**
 * MongoDB adapter (distributed mode). The firing period of a group is unique through a partial
 * unique index, so concurrent notifications of one group open it once. The per-team cap is a
 * count before the insert: replicas racing at the cap may open a few more than it.
 */
export class MongoAlertStore implements AlertStore {
  private constructor(
    private readonly alerts: Collection<AlertDoc>,
    private readonly groups: Collection<GroupDoc>,
  ) {}

  static async open(db: Db, prefix = 'alert'): Promise<MongoAlertStore> {
    const alerts = db.collection<AlertDoc>(`${prefix}s`);
    const groups = db.collection<GroupDoc>(`${prefix}_groups`);
    await alerts.createIndex({ team_id: 1, seq: -1 });
    await alerts.createIndex({ team_id: 1, source: 1, fingerprint: 1, seq: -1 });
    await alerts.createIndex({ team_id: 1, group_key: 1, status: 1 });
    await groups.createIndex(
      { team_id: 1, group_key: 1 },
      { unique: true, partialFilterExpression: { status: 'firing' }, name: 'firing_once' },
    );
    await groups.createIndex({ team_id: 1, opened_at: 1 });
    await groups.createIndex({ start_state: 1 });
    return new MongoAlertStore(alerts, groups);
  }

  async record(
    alert: NewAlert,
    now: string,
    link?: { investigation_id?: string; skipped_reason?: string },
  ): Promise<AlertRecord> {
    const prev = fromMongo<AlertRecord>(
      await this.alerts.findOne(
        { team_id: alert.team_id, source: alert.source, fingerprint: alert.fingerprint },
        { sort: { seq: -1 } },
      ),
      ['seq'],
    );
    if (prev && (prev.status === 'firing' || alert.status === 'resolved')) {
      const rec = mergeRepeat(prev, alert, now);
      if (link) applyLink(rec, link);
      await this.write(rec);
      return rec;
    }
    const rec = newRecord(alert, now);
    if (link) applyLink(rec, link);
    await this.alerts.insertOne({
      ...rec,
      _id: rec.alert_id,
      seq: Date.now() * 1000 + Math.floor(Math.random() * 1000),
    });
    return rec;
  }

  async link(
    teamId: string,
    alertIds: string[],
    patch: { investigation_id?: string; skipped_reason?: string },
  ): Promise<void> {
    if (!alertIds.length) return;
    const docs = await this.alerts.find({ _id: { $in: alertIds }, team_id: teamId }).toArray();
    for (const d of docs) await this.write(applyLink(fromMongo<AlertRecord>(d, ['seq'])!, patch));
  }

  /** Writes a record's fields; a field the record no longer has (skipped_reason) is removed. */
  private async write(rec: AlertRecord): Promise<void> {
    const set = Object.fromEntries(Object.entries(rec).filter(([, v]) => v !== undefined));
    const update =
      rec.skipped_reason === undefined
        ? { $set: set, $unset: { skipped_reason: '' as const } }
        : { $set: set };
    await this.alerts.updateOne({ _id: rec.alert_id }, update);
  }

  async openGroup(req: OpenGroupRequest): Promise<OpenGroupOutcome> {
    const firing = await this.firingGroup(req.team_id, req.group_key);
    if (firing) return { kind: 'existing', group: firing };
    const recent = await this.groups.countDocuments({
      team_id: req.team_id,
      opened_at: { $gt: req.now - 60_000 },
    });
    if (recent >= req.maxPerMinute) return { kind: 'capped' };
    const last = await this.groups.findOne(
      { team_id: req.team_id, group_key: req.group_key },
      { sort: { episode: -1 }, projection: { episode: 1 } },
    );
    const group: AlertGroupRecord = {
      team_id: req.team_id,
      group_key: req.group_key,
      episode: (last?.episode ?? 0) + 1,
      status: 'firing',
      source: req.source,
      alertname: req.alertname,
      investigation_id: req.investigation_id,
      start_state: 'starting',
      run: req.run,
      opened_at: req.now,
    };
    try {
      await this.groups.insertOne({
        ...group,
        _id: groupId(group.team_id, group.group_key, group.episode),
      });
      return { kind: 'opened', group };
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      // another notification of the group opened it first
      const winner = await this.firingGroup(req.team_id, req.group_key);
      if (winner) return { kind: 'existing', group: winner };
      throw err;
    }
  }

  async firingGroup(teamId: string, groupKey: string): Promise<AlertGroupRecord | undefined> {
    return fromMongo<AlertGroupRecord>(
      await this.groups.findOne({ team_id: teamId, group_key: groupKey, status: 'firing' }),
    );
  }

  async markGroupStarted(teamId: string, groupKey: string, episode: number): Promise<void> {
    await this.groups.updateOne(
      { _id: groupId(teamId, groupKey, episode) },
      { $set: { start_state: 'started' } },
    );
  }

  async resolveGroupIfQuiet(
    teamId: string,
    groupKey: string,
    at: string,
  ): Promise<AlertGroupRecord | undefined> {
    const stillFiring = await this.alerts.findOne(
      { team_id: teamId, group_key: groupKey, status: 'firing' },
      { projection: { _id: 1 } },
    );
    if (stillFiring) return undefined;
    const doc = await this.groups.findOneAndUpdate(
      { team_id: teamId, group_key: groupKey, status: 'firing' },
      { $set: { status: 'resolved', resolved_at: at } },
      { returnDocument: 'after' },
    );
    return fromMongo<AlertGroupRecord>(doc);
  }

  async listStartingGroups(limit = 1000): Promise<AlertGroupRecord[]> {
    const docs = await this.groups
      .find({ start_state: 'starting' })
      .sort({ opened_at: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => fromMongo<AlertGroupRecord>(d)!);
  }

  async list(q: ListAlertsQuery): Promise<{ items: AlertRecord[]; total: number }> {
    const filter: Filter<AlertDoc> = { team_id: q.teamId };
    if (q.status) filter.status = q.status as AlertDoc['status'];
    if (q.alertname) filter.alertname = q.alertname;
    if (q.group_key) filter.group_key = q.group_key;
    const [total, docs] = await Promise.all([
      this.alerts.countDocuments(filter),
      this.alerts.find(filter).sort({ seq: -1 }).skip(q.offset).limit(q.limit).toArray(),
    ]);
    return { items: docs.map((d) => fromMongo<AlertRecord>(d, ['seq'])!), total };
  }

  async close(): Promise<void> {
    // the MongoClient belongs to the caller
  }
}
