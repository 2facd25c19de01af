/** A JSON object as stored (configs, diffs, patches). */
export type StoredJson = { [key: string]: unknown };

export type NodeKind = 'org' | 'group' | 'team';

/** One node of the hierarchy. Nodes are never moved or deleted. */
export interface NodeRecord {
  node_id: string;
  /** null for an organization root */
  parent_id: string | null;
  kind: NodeKind;
  name: string;
  /** id of the root of the node's lineage (itself for a root) */
  org_id: string;
  created_at: string;
}

/** A node's own configuration document and its version (0 before the first change). */
export interface NodeConfigRecord {
  node_id: string;
  config: StoredJson;
  version: number;
}

/** One applied change of a node's config; exactly one per version. */
export interface AuditRecord {
  node_id: string;
  version: number;
  changed_at: string;
  changed_by: string;
  approved_by?: string;
  /** dot.path -> {old, new} */
  diff: StoredJson;
  full_config: StoredJson;
}

export type ChangeRequestStatus = 'pending_approval' | 'approved' | 'rejected';

export interface ChangeRequestRecord {
  change_request_id: string;
  team_id: string;
  status: ChangeRequestStatus;
  requested_by: string;
  requested_at: string;
  approvers: string[];
  /** dot.path -> {old, new} as seen when requested */
  changes: StoredJson;
  /** the patch to apply on approval */
  patch: StoredJson;
  decided_by?: string;
  decided_at?: string;
  comment?: string;
  applied_version?: number;
}

export interface TokenRecord {
  token_id: string;
  team_id: string;
  permissions: string[];
  owner: string;
  label?: string;
  created_at: string;
  expires_at?: string;
  revoked_at?: string;
  /** hex SHA-256 of the secret; the secret itself is never stored */
  secret_hash: string;
}

export interface AuditPage {
  limit: number;
  offset: number;
}

export interface AuditList {
  entries: AuditRecord[];
  /** entries of these nodes in all, whatever the page */
  total: number;
}

export interface ConfigWrite {
  node_id: string;
  /** the version the new config was computed from; the write fails when it moved on */
  expected_version: number;
  config: StoredJson;
  audit: Omit<AuditRecord, 'node_id' | 'version'>;
}

/** Nodes, their own configs with versions, and the audit trail (written together). */
export interface NodeStore {
  /** throws a `conflict` DomainError when the id exists */
  createNode(node: NodeRecord): Promise<void>;
  getNode(nodeId: string): Promise<NodeRecord | undefined>;
  /** parent_id undefined: every node; null: roots; a string: that node's children. Ordered by node_id. */
  listNodes(filter?: { parent_id?: string | null }): Promise<NodeRecord[]>;
  getConfig(nodeId: string): Promise<NodeConfigRecord | undefined>;
  getConfigs(nodeIds: string[]): Promise<NodeConfigRecord[]>;
  /**
   * Atomically stores `config` as version expected_version + 1 with its audit entry, provided the
   * stored version is still expected_version. Resolves false (nothing written) otherwise.
   */
  writeConfig(write: ConfigWrite): Promise<boolean>;
  /**
   * Audit entries of the given nodes (a lineage: changes made at any of its levels), newest first
   * (by changed_at, then version), one page of them, with the number of entries in all.
   */
  listAudit(nodeIds: readonly string[], page: AuditPage): Promise<AuditList>;
}

export interface ChangeRequestStore {
  create(cr: ChangeRequestRecord): Promise<void>;
  get(id: string): Promise<ChangeRequestRecord | undefined>;
  /** newest first */
  list(filter?: { status?: ChangeRequestStatus; team_id?: string }): Promise<ChangeRequestRecord[]>;
  /**
   * Moves a change request from status `from`, setting `changes`; resolves the updated record, or
   * undefined when it does not exist or is no longer in `from` (someone else decided first).
   */
  transition(
    id: string,
    from: ChangeRequestStatus,
    update: Partial<Omit<ChangeRequestRecord, 'change_request_id' | 'team_id'>>,
  ): Promise<ChangeRequestRecord | undefined>;
}

export interface TokenStore {
  insert(token: TokenRecord): Promise<void>;
  get(tokenId: string): Promise<TokenRecord | undefined>;
  /** oldest first */
  listByTeam(teamId: string): Promise<TokenRecord[]>;
  /** sets revoked_at unless already revoked; resolves the record, undefined when unknown */
  revoke(tokenId: string, at: string): Promise<TokenRecord | undefined>;
}

/** Everything the config-hierarchy service stores, from one backend. */
export interface ConfigStores {
  nodes: NodeStore;
  changeRequests: ChangeRequestStore;
  tokens: TokenStore;
  close(): Promise<void>;
}
