import { conflict } from '@inquest/errors';
import { openSqlite, type Migration, type SqliteDb } from '../sqlite/open-sqlite';
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

export const CONFIG_MIGRATIONS: Migration[] = [
  {
    id: '001-config-hierarchy',
    sql: `
      CREATE TABLE config_nodes (
        node_id TEXT PRIMARY KEY,
        parent_id TEXT REFERENCES config_nodes(node_id),
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        org_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        config TEXT NOT NULL DEFAULT '{}',
        version INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX config_nodes_parent ON config_nodes(parent_id);
      CREATE TABLE config_audit (
        node_id TEXT NOT NULL REFERENCES config_nodes(node_id),
        version INTEGER NOT NULL,
        changed_at TEXT NOT NULL,
        changed_by TEXT NOT NULL,
        approved_by TEXT,
        diff TEXT NOT NULL,
        full_config TEXT NOT NULL,
        PRIMARY KEY (node_id, version)
      );
      CREATE TABLE config_change_requests (
        change_request_id TEXT PRIMARY KEY,
        team_id TEXT NOT NULL,
        status TEXT NOT NULL,
        requested_at TEXT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX config_cr_team_status ON config_change_requests(team_id, status, requested_at);
      CREATE TABLE config_tokens (
        token_id TEXT PRIMARY KEY,
        team_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX config_tokens_team ON config_tokens(team_id, created_at);
    `,
  },
];

interface NodeRow {
  node_id: string;
  parent_id: string | null;
  kind: string;
  name: string;
  org_id: string;
  created_at: string;
  config: string;
  version: number;
}

const toNode = (r: NodeRow): NodeRecord => ({
  node_id: r.node_id,
  parent_id: r.parent_id,
  kind: r.kind as NodeRecord['kind'],
  name: r.name,
  org_id: r.org_id,
  created_at: r.created_at,
});

class SqliteNodeStore implements NodeStore {
  constructor(private readonly db: SqliteDb) {}

  async createNode(node: NodeRecord): Promise<void> {
    try {
      this.db
        .prepare(
          'INSERT INTO config_nodes (node_id, parent_id, kind, name, org_id, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(node.node_id, node.parent_id, node.kind, node.name, node.org_id, node.created_at);
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
        throw conflict(`node ${node.node_id} already exists`);
      }
      throw err;
    }
  }

  async getNode(nodeId: string): Promise<NodeRecord | undefined> {
    const r = this.db.prepare('SELECT * FROM config_nodes WHERE node_id = ?').get(nodeId) as
      NodeRow | undefined;
    return r && toNode(r);
  }

  async listNodes(filter: { parent_id?: string | null } = {}): Promise<NodeRecord[]> {
    const rows =
      filter.parent_id === undefined
        ? this.db.prepare('SELECT * FROM config_nodes ORDER BY node_id').all()
        : filter.parent_id === null
          ? this.db
              .prepare('SELECT * FROM config_nodes WHERE parent_id IS NULL ORDER BY node_id')
              .all()
          : this.db
              .prepare('SELECT * FROM config_nodes WHERE parent_id = ? ORDER BY node_id')
              .all(filter.parent_id);
    return (rows as NodeRow[]).map(toNode);
  }

  async getConfig(nodeId: string): Promise<NodeConfigRecord | undefined> {
    const r = this.db
      .prepare('SELECT node_id, config, version FROM config_nodes WHERE node_id = ?')
      .get(nodeId) as NodeRow | undefined;
    return (
      r && {
        node_id: r.node_id,
        config: JSON.parse(r.config) as NodeConfigRecord['config'],
        version: r.version,
      }
    );
  }

  async getConfigs(nodeIds: string[]): Promise<NodeConfigRecord[]> {
    const out: NodeConfigRecord[] = [];
    for (const id of nodeIds) {
      const c = await this.getConfig(id);
      if (c) out.push(c);
    }
    return out;
  }

  async writeConfig(w: ConfigWrite): Promise<boolean> {
    return this.db.transaction(() => {
      const res = this.db
        .prepare(
          'UPDATE config_nodes SET config = ?, version = version + 1 WHERE node_id = ? AND version = ?',
        )
        .run(JSON.stringify(w.config), w.node_id, w.expected_version);
      if (res.changes === 0) return false;
      this.db
        .prepare(
          'INSERT INTO config_audit (node_id, version, changed_at, changed_by, approved_by, diff, full_config) VALUES (?, ?, ?, ?, ?, ?, ?)',
        )
        .run(
          w.node_id,
          w.expected_version + 1,
          w.audit.changed_at,
          w.audit.changed_by,
          w.audit.approved_by ?? null,
          JSON.stringify(w.audit.diff),
          JSON.stringify(w.audit.full_config),
        );
      return true;
    })();
  }

  async listAudit(nodeIds: readonly string[], page: AuditPage): Promise<AuditList> {
    if (!nodeIds.length) return { entries: [], total: 0 };
    const inList = nodeIds.map(() => '?').join(', ');
    const { n: total } = this.db
      .prepare(`SELECT COUNT(*) AS n FROM config_audit WHERE node_id IN (${inList})`)
      .get(...nodeIds) as { n: number };
    const rows = this.db
      .prepare(
        `SELECT * FROM config_audit WHERE node_id IN (${inList}) ORDER BY changed_at DESC, version DESC, node_id LIMIT ? OFFSET ?`,
      )
      .all(...nodeIds, page.limit, page.offset) as {
      node_id: string;
      version: number;
      changed_at: string;
      changed_by: string;
      approved_by: string | null;
      diff: string;
      full_config: string;
    }[];
    const entries = rows.map((r) => ({
      node_id: r.node_id,
      version: r.version,
      changed_at: r.changed_at,
      changed_by: r.changed_by,
      ...(r.approved_by ? { approved_by: r.approved_by } : {}),
      diff: JSON.parse(r.diff) as AuditRecord['diff'],
      full_config: JSON.parse(r.full_config) as AuditRecord['full_config'],
    }));
    return { entries, total };
  }
}

class SqliteChangeRequestStore implements ChangeRequestStore {
  constructor(private readonly db: SqliteDb) {}

  async create(cr: ChangeRequestRecord): Promise<void> {
    this.db
      .prepare(
        'INSERT INTO config_change_requests (change_request_id, team_id, status, requested_at, data) VALUES (?, ?, ?, ?, ?)',
      )
      .run(cr.change_request_id, cr.team_id, cr.status, cr.requested_at, JSON.stringify(cr));
  }

  async get(id: string): Promise<ChangeRequestRecord | undefined> {
    const r = this.db
      .prepare('SELECT data FROM config_change_requests WHERE change_request_id = ?')
      .get(id) as { data: string } | undefined;
    return r && (JSON.parse(r.data) as ChangeRequestRecord);
  }

  async list(
    filter: { status?: ChangeRequestStatus; team_id?: string } = {},
  ): Promise<ChangeRequestRecord[]> {
    const where: string[] = [];
    const args: string[] = [];
    if (filter.status) {
      where.push('status = ?');
      args.push(filter.status);
    }
    if (filter.team_id) {
      where.push('team_id = ?');
      args.push(filter.team_id);
    }
    const sql = `SELECT data FROM config_change_requests ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY requested_at DESC, rowid DESC`;
    return (this.db.prepare(sql).all(...args) as { data: string }[]).map(
      (r) => JSON.parse(r.data) as ChangeRequestRecord,
    );
  }

  async transition(
    id: string,
    from: ChangeRequestStatus,
    update: Partial<Omit<ChangeRequestRecord, 'change_request_id' | 'team_id'>>,
  ): Promise<ChangeRequestRecord | undefined> {
    return this.db.transaction(() => {
      const r = this.db
        .prepare(
          'SELECT data FROM config_change_requests WHERE change_request_id = ? AND status = ?',
        )
        .get(id, from) as { data: string } | undefined;
      if (!r) return undefined;
      const next = { ...(JSON.parse(r.data) as ChangeRequestRecord), ...update };
      this.db
        .prepare(
          'UPDATE config_change_requests SET status = ?, data = ? WHERE change_request_id = ?',
        )
        .run(next.status, JSON.stringify(next), id);
      return next;
    })();
  }
}

class SqliteTokenStore implements TokenStore {
  constructor(private readonly db: SqliteDb) {}

  async insert(t: TokenRecord): Promise<void> {
    try {
      this.db
        .prepare(
          'INSERT INTO config_tokens (token_id, team_id, created_at, data) VALUES (?, ?, ?, ?)',
        )
        .run(t.token_id, t.team_id, t.created_at, JSON.stringify(t));
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
        throw conflict(`token ${t.token_id} exists`);
      throw err;
    }
  }

  async get(tokenId: string): Promise<TokenRecord | undefined> {
    const r = this.db.prepare('SELECT data FROM config_tokens WHERE token_id = ?').get(tokenId) as
      { data: string } | undefined;
    return r && (JSON.parse(r.data) as TokenRecord);
  }

  async listByTeam(teamId: string): Promise<TokenRecord[]> {
    return (
      this.db
        .prepare('SELECT data FROM config_tokens WHERE team_id = ? ORDER BY created_at, rowid')
        .all(teamId) as { data: string }[]
    ).map((r) => JSON.parse(r.data) as TokenRecord);
  }

  async revoke(tokenId: string, at: string): Promise<TokenRecord | undefined> {
    return this.db.transaction(() => {
      const r = this.db
        .prepare('SELECT data FROM config_tokens WHERE token_id = ?')
        .get(tokenId) as { data: string } | undefined;
      if (!r) return undefined;
      const t = JSON.parse(r.data) as TokenRecord;
      if (t.revoked_at) return t;
      const next = { ...t, revoked_at: at };
      this.db
        .prepare('UPDATE config_tokens SET data = ? WHERE token_id = ?')
        .run(JSON.stringify(next), tokenId);
      return next;
    })();
  }
}

/** The config-hierarchy stores on one SQLite file (WAL, migrations applied). */
export function openSqliteConfigStores(file: string): ConfigStores {
  const db = openSqlite(file, CONFIG_MIGRATIONS);
  return {
    nodes: new SqliteNodeStore(db),
    changeRequests: new SqliteChangeRequestStore(db),
    tokens: new SqliteTokenStore(db),
    close: async () => {
      db.close();
    },
  };
}
