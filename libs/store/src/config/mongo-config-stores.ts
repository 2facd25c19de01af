import { MongoClient, type Collection, type Db } from 'mongodb';
import { conflict } from '@inquest/errors';
import type {
  AuditList,
  AuditPage,
  AuditRecord,
  ChangeRequestRecord,
  ChangeRequestStatus,
  ChangeRequestStore,
  ConfigStores,
  ConfigWrite,
  NodeConfigRecord,
  NodeRecord,
  NodeStore,
  TokenRecord,
  TokenStore,
} from './config-store';
import { isDuplicateKeyError } from '../mongo/mongo-documents';

// Configs, diffs and patches are stored as JSON text: their keys are user data and dot paths,
// which MongoDB field names cannot carry safely.
interface NodeDoc {
  _id: string;
  parent_id: string | null;
  kind: string;
  name: string;
  org_id: string;
  created_at: string;
  config_json: string;
  version: number;
}

interface AuditDoc {
  node_id: string;
  version: number;
  changed_at: string;
  changed_by: string;
  approved_by?: string;
  diff_json: string;
  full_config_json: string;
}

interface ChangeRequestDoc {
  _id: string;
  team_id: string;
  status: string;
  requested_at: string;
  seq: number;
  data_json: string;
}

interface TokenDoc {
  _id: string;
  team_id: string;
  created_at: string;
  seq: number;
  revoked_at?: string;
  data_json: string;
}

const toNode = (d: NodeDoc): NodeRecord => ({
  node_id: d._id,
  parent_id: d.parent_id,
  kind: d.kind as NodeRecord['kind'],
  name: d.name,
  org_id: d.org_id,
  created_at: d.created_at,
});

class MongoNodeStore implements NodeStore {
  constructor(
    private readonly nodes: Collection<NodeDoc>,
    private readonly audit: Collection<AuditDoc>,
  ) {}

  async createNode(node: NodeRecord): Promise<void> {
    try {
      await this.nodes.insertOne({
        _id: node.node_id,
        parent_id: node.parent_id,
        kind: node.kind,
        name: node.name,
        org_id: node.org_id,
        created_at: node.created_at,
        config_json: '{}',
        version: 0,
      });
    } catch (err) {
      if (isDuplicateKeyError(err)) throw conflict(`node ${node.node_id} already exists`);
      throw err;
    }
  }

  async getNode(nodeId: string): Promise<NodeRecord | undefined> {
    const d = await this.nodes.findOne({ _id: nodeId });
    return d ? toNode(d) : undefined;
  }

  async listNodes(filter: { parent_id?: string | null } = {}): Promise<NodeRecord[]> {
    const q = filter.parent_id === undefined ? {} : { parent_id: filter.parent_id };
    const docs = await this.nodes.find(q).sort({ _id: 1 }).toArray();
    return docs.map(toNode);
  }

  async getConfig(nodeId: string): Promise<NodeConfigRecord | undefined> {
    const d = await this.nodes.findOne(
      { _id: nodeId },
      { projection: { config_json: 1, version: 1 } },
    );
    return d
      ? {
          node_id: d._id,
          config: JSON.parse(d.config_json) as NodeConfigRecord['config'],
          version: d.version,
        }
      : undefined;
  }

  async getConfigs(nodeIds: string[]): Promise<NodeConfigRecord[]> {
    const docs = await this.nodes
      .find({ _id: { $in: nodeIds } }, { projection: { config_json: 1, version: 1 } })
      .toArray();
    const byId = new Map(docs.map((d) => [d._id, d]));
    return nodeIds.flatMap((id) => {
      const d = byId.get(id);
      return d
        ? [
            {
              node_id: id,
              config: JSON.parse(d.config_json) as NodeConfigRecord['config'],
              version: d.version,
            },
          ]
        : [];
    });
  }

  async writeConfig(w: ConfigWrite): Promise<boolean> {
    // The version condition makes the config write atomic against concurrent writers; the audit
    // entry follows with a unique (node_id, version) key, so one entry per version.
    const res = await this.nodes.updateOne(
      { _id: w.node_id, version: w.expected_version },
      { $set: { config_json: JSON.stringify(w.config), version: w.expected_version + 1 } },
    );
    if (res.modifiedCount === 0) return false;
    await this.audit.insertOne({
      node_id: w.node_id,
      version: w.expected_version + 1,
      changed_at: w.audit.changed_at,
      changed_by: w.audit.changed_by,
      ...(w.audit.approved_by ? { approved_by: w.audit.approved_by } : {}),
      diff_json: JSON.stringify(w.audit.diff),
      full_config_json: JSON.stringify(w.audit.full_config),
    });
    return true;
  }

  async listAudit(nodeIds: readonly string[], page: AuditPage): Promise<AuditList> {
    if (!nodeIds.length) return { entries: [], total: 0 };
    const filter = { node_id: { $in: [...nodeIds] } };
    const [docs, total] = await Promise.all([
      this.audit
        .find(filter)
        .sort({ changed_at: -1, version: -1, node_id: 1 })
        .skip(page.offset)
        .limit(page.limit)
        .toArray(),
      this.audit.countDocuments(filter),
    ]);
    const entries = docs.map((d) => ({
      node_id: d.node_id,
      version: d.version,
      changed_at: d.changed_at,
      changed_by: d.changed_by,
      ...(d.approved_by ? { approved_by: d.approved_by } : {}),
      diff: JSON.parse(d.diff_json) as AuditRecord['diff'],
      full_config: JSON.parse(d.full_config_json) as AuditRecord['full_config'],
    }));
    return { entries, total };
  }
}

class MongoChangeRequestStore implements ChangeRequestStore {
  private seq = 0;
  constructor(private readonly col: Collection<ChangeRequestDoc>) {}

  async create(cr: ChangeRequestRecord): Promise<void> {
    await this.col.insertOne({
      _id: cr.change_request_id,
      team_id: cr.team_id,
      status: cr.status,
      requested_at: cr.requested_at,
      seq: this.seq++,
      data_json: JSON.stringify(cr),
    });
  }

  async get(id: string): Promise<ChangeRequestRecord | undefined> {
    const d = await this.col.findOne({ _id: id });
    return d ? (JSON.parse(d.data_json) as ChangeRequestRecord) : undefined;
  }

  async list(
    filter: { status?: ChangeRequestStatus; team_id?: string } = {},
  ): Promise<ChangeRequestRecord[]> {
    const q: Record<string, string> = {};
    if (filter.status) q['status'] = filter.status;
    if (filter.team_id) q['team_id'] = filter.team_id;
    const docs = await this.col.find(q).sort({ requested_at: -1, seq: -1 }).toArray();
    return docs.map((d) => JSON.parse(d.data_json) as ChangeRequestRecord);
  }

  async transition(
    id: string,
    from: ChangeRequestStatus,
    update: Partial<Omit<ChangeRequestRecord, 'change_request_id' | 'team_id'>>,
  ): Promise<ChangeRequestRecord | undefined> {
    // Read, then write conditioned on the status and the exact document read: a concurrent
    // decision makes the condition fail and this one loses.
    for (;;) {
      const d = await this.col.findOne({ _id: id, status: from });
      if (!d) return undefined;
      const next = { ...(JSON.parse(d.data_json) as ChangeRequestRecord), ...update };
      const res = await this.col.updateOne(
        { _id: id, status: from, data_json: d.data_json },
        { $set: { status: next.status, data_json: JSON.stringify(next) } },
      );
      if (res.modifiedCount === 1) return next;
    }
  }
}

class MongoTokenStore implements TokenStore {
  private seq = 0;
  constructor(private readonly col: Collection<TokenDoc>) {}

  async insert(t: TokenRecord): Promise<void> {
    try {
      await this.col.insertOne({
        _id: t.token_id,
        team_id: t.team_id,
        created_at: t.created_at,
        seq: this.seq++,
        data_json: JSON.stringify(t),
      });
    } catch (err) {
      if (isDuplicateKeyError(err)) throw conflict(`token ${t.token_id} exists`);
      throw err;
    }
  }

  async get(tokenId: string): Promise<TokenRecord | undefined> {
    const d = await this.col.findOne({ _id: tokenId });
    return d ? this.decode(d) : undefined;
  }

  async listByTeam(teamId: string): Promise<TokenRecord[]> {
    const docs = await this.col.find({ team_id: teamId }).sort({ created_at: 1, seq: 1 }).toArray();
    return docs.map((d) => this.decode(d));
  }

  async revoke(tokenId: string, at: string): Promise<TokenRecord | undefined> {
    await this.col.updateOne(
      { _id: tokenId, revoked_at: { $exists: false } },
      { $set: { revoked_at: at } },
    );
    return this.get(tokenId);
  }

  private decode(d: TokenDoc): TokenRecord {
    const t = JSON.parse(d.data_json) as TokenRecord;
    return d.revoked_at ? { ...t, revoked_at: d.revoked_at } : t;
  }
}

export interface MongoConfigStoresOptions {
  /** database name; defaults to the one in the URL, else `inquest` */
  dbName?: string;
  /** prefix of the collection names (tests use a unique one) */
  collectionPrefix?: string;
}

/** The config-hierarchy stores on MongoDB; creates their indexes before resolving. */
export async function connectMongoConfigStores(
  url: string,
  options: MongoConfigStoresOptions = {},
): Promise<ConfigStores> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  await client.connect();
  const db: Db = client.db(options.dbName);
  const p = options.collectionPrefix ?? 'config_';
  const nodes = db.collection<NodeDoc>(`${p}nodes`);
  const audit = db.collection<AuditDoc>(`${p}audit`);
  const crs = db.collection<ChangeRequestDoc>(`${p}change_requests`);
  const tokens = db.collection<TokenDoc>(`${p}tokens`);
  await Promise.all([
    nodes.createIndex({ parent_id: 1, _id: 1 }),
    audit.createIndex({ node_id: 1, version: -1 }, { unique: true }),
    crs.createIndex({ team_id: 1, status: 1, requested_at: -1 }),
    crs.createIndex({ status: 1, requested_at: -1 }),
    tokens.createIndex({ team_id: 1, created_at: 1 }),
  ]);
  return {
    nodes: new MongoNodeStore(nodes, audit),
    changeRequests: new MongoChangeRequestStore(crs),
    tokens: new MongoTokenStore(tokens),
    close: () => client.close(),
  };
}
