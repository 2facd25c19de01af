import Database from 'better-sqlite3';
import type { Database as SqliteDb, Statement } from 'better-sqlite3';
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { TextAnalyzer, fnv1a32 } from '../text/text-analyzer';
import { Bm25Worker, bm25Sql, type Bm25Row } from './bm25-worker';
import { SignCodeScan, signCode } from './sign-code-scan';
import {
  cosine,
  reciprocalRankFusion,
  spaceKey,
  type ChunkPayload,
  type DeleteFilter,
  type IndexedChunk,
  type SearchHit,
  type SearchRequest,
  type StoredChunk,
  type VectorIndex,
  type VectorSpace,
} from '../vector-index';

export interface SqliteVectorIndexOptions {
  /** SQLite file (or ':memory:'); several spaces may share one file */
  file: string;
  space: VectorSpace;
  analyzer?: TextAnalyzer;
  /**
   * From this many indexed chunks in the space on, BM25 queries run in a worker thread (in
   * parallel with the dense pass of a hybrid search); default 20,000. Not for ':memory:'.
   */
  sparseWorkerFrom?: number;
  /**
   * How many postings (the summed document frequencies of the query's terms) one BM25 query may
   * scan: terms are taken rarest first until the next would exceed it, the two rarest always
   * (default 60,000; 0 = no limit). BM25's cost grows with the postings it ranks.
   */
  sparsePostingBudget?: number;
  /**
   * Teams with at most this many chunks load their sign codes for the dense pass at once on
   * first use; larger ones load in the background while sqlite-vec answers (default 20,000).
   */
  codesLoadAtOnce?: number;
}

/** A team's codes in memory: `ready` once every row up to the end was read (`cursor` = last rid). */
interface TeamCodes {
  scan: SignCodeScan;
  cursor: number;
  ready: boolean;
}

interface ItemRow {
  rid: number;
  id: string;
  payload: string;
}

/**
 * Embedded adapter: sqlite-vec (vec0, cosine, team as partition key, level as metadata column)
 * for dense vectors, FTS5 over pre-analyzed terms for BM25, fusion in process. Tables are
 * prefixed by the space key so each embedding model and dimension has its own.
 */
export class SqliteVectorIndex implements VectorIndex {
  readonly backend = 'sqlite' as const;
  private readonly analyzer: TextAnalyzer;
  private readonly p: string;
  private readonly st: Record<string, Statement>;
  /** document frequencies of query terms, refreshed every minute */
  private dfCache = { at: 0, total: 0, df: new Map<string, number>() };
  /** per team: sign codes for the coarse dense pass (see SignCodeScan) */
  private readonly teamCodes = new Map<string, TeamCodes>();
  /** SQLite's data_version when the codes were last known current (other connections bump it) */
  private seenDataVersion = -1;
  private readonly words: number;
  private bm25Worker: Bm25Worker | undefined;

  private constructor(
    private readonly db: SqliteDb,
    readonly space: VectorSpace,
    analyzer: TextAnalyzer,
    private readonly ownsDb: boolean,
    private readonly file: string,
    private readonly sparseWorkerFrom: number,
    private readonly sparsePostingBudget: number,
    private readonly codesLoadAtOnce: number,
  ) {
    this.analyzer = analyzer;
    this.words = Math.ceil(space.dimensions / 32);
    this.p = `vx_${spaceKey(space)}`;
    const p = this.p;
    db.exec(`
      CREATE TABLE IF NOT EXISTS ${p}_items (
        rid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, team_id TEXT NOT NULL, document_id TEXT NOT NULL,
        tree_layer INTEGER NOT NULL, tree_version TEXT, payload TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS ${p}_items_doc ON ${p}_items (team_id, document_id);
      CREATE INDEX IF NOT EXISTS ${p}_items_layer ON ${p}_items (team_id, tree_layer);
      CREATE INDEX IF NOT EXISTS ${p}_items_team ON ${p}_items (team_id);
      CREATE VIRTUAL TABLE IF NOT EXISTS ${p}_bm25 USING fts5(terms, content='', contentless_delete=1,
        tokenize = "unicode61 remove_diacritics 0 tokenchars '_'");
      CREATE TABLE IF NOT EXISTS ${p}_emb (rid INTEGER PRIMARY KEY, embedding BLOB NOT NULL);
      CREATE VIRTUAL TABLE IF NOT EXISTS ${p}_vbit USING vec0(team_id text partition key, level text,
        embedding bit[${space.dimensions}]);
      CREATE VIRTUAL TABLE IF NOT EXISTS ${p}_bm25v USING fts5vocab(${p}_bm25, 'row');
    `);
    this.st = {
      byId: db.prepare(`SELECT rid, id, team_id, payload FROM ${p}_items WHERE id = ?`),
      insItem: db.prepare(
        `INSERT INTO ${p}_items (id, team_id, document_id, tree_layer, tree_version, payload) VALUES (?, ?, ?, ?, ?, ?)`,
      ),
      delItem: db.prepare(`DELETE FROM ${p}_items WHERE rid = ?`),
      insFts: db.prepare(`INSERT INTO ${p}_bm25 (rowid, terms) VALUES (?, ?)`),
      delFts: db.prepare(`DELETE FROM ${p}_bm25 WHERE rowid = ?`),
      insVec: db.prepare(
        `INSERT INTO ${p}_vbit (rowid, team_id, level, embedding) VALUES (?, ?, ?, vec_quantize_binary(vec_f32(?)))`,
      ),
      delVec: db.prepare(`DELETE FROM ${p}_vbit WHERE rowid = ?`),
      insEmb: db.prepare(`INSERT INTO ${p}_emb (rid, embedding) VALUES (?, ?)`),
      delEmb: db.prepare(`DELETE FROM ${p}_emb WHERE rid = ?`),
      getVec: db.prepare(`SELECT embedding FROM ${p}_emb WHERE rid = ?`),
      knn: db.prepare(
        `SELECT rowid AS rid FROM ${p}_vbit WHERE embedding MATCH vec_quantize_binary(vec_f32(?)) AND k = ? AND team_id = ?`,
      ),
      knnLevel: db.prepare(
        `SELECT rowid AS rid FROM ${p}_vbit WHERE embedding MATCH vec_quantize_binary(vec_f32(?)) AND k = ? AND team_id = ? AND level = ?`,
      ),
      docFreq: db.prepare(`SELECT doc FROM ${p}_bm25v WHERE term = ?`),
      docTotal: db.prepare(`SELECT count(*) AS n FROM ${p}_items`),
      bm25: db.prepare(bm25Sql(`${p}_bm25`)),
      layer: db.prepare(
        `SELECT rid, id, payload FROM ${p}_items WHERE team_id = ? AND tree_layer = ?`,
      ),
      count: db.prepare(`SELECT count(*) AS n FROM ${p}_items WHERE team_id = ?`),
      countLayer: db.prepare(
        `SELECT count(*) AS n FROM ${p}_items WHERE team_id = ? AND tree_layer = ?`,
      ),
      teamItems: db.prepare(
        `SELECT rid, document_id, tree_layer, tree_version FROM ${p}_items WHERE team_id = ?`,
      ),
      codesBatch: db.prepare(
        `SELECT i.rid AS rid, json_extract(i.payload, '$.level') AS level, e.embedding AS embedding
         FROM ${p}_items i JOIN ${p}_emb e ON e.rid = i.rid
         WHERE i.team_id = ? AND i.rid > ? ORDER BY i.rid LIMIT ${CODES_BATCH}`,
      ),
    };
  }

  /** Opens (creating if needed) the space's tables; loads sqlite-vec into the connection. */
  static open(options: SqliteVectorIndexOptions): SqliteVectorIndex {
    if (options.file !== ':memory:') {
      // owner-only, like every data file: the directory when created here, the file (and its WAL)
      mkdirSync(dirname(options.file), { recursive: true, mode: 0o700 });
      closeSync(openSync(options.file, 'a', 0o600));
      try {
        chmodSync(options.file, 0o600);
      } catch {
        // not ours: left as it is
      }
    }
    const db = new Database(options.file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    (require('sqlite-vec') as { load(db: SqliteDb): void }).load(db);
    return new SqliteVectorIndex(
      db,
      options.space,
      options.analyzer ?? new TextAnalyzer(),
      true,
      options.file,
      options.sparseWorkerFrom ?? SPARSE_WORKER_FROM,
      options.sparsePostingBudget ?? SPARSE_POSTING_BUDGET,
      options.codesLoadAtOnce ?? CODES_LOAD_AT_ONCE,
    );
  }

  async upsert(chunks: IndexedChunk[]): Promise<void> {
    for (const c of chunks) {
      if (c.vector.length !== this.space.dimensions) {
        throw new Error(
          `vector of ${c.vector.length} dimensions in a ${this.space.dimensions}-dimension space`,
        );
      }
    }
    const changes: {
      teamId: string;
      oldRid?: number;
      rid: number;
      level: string;
      v: Float32Array;
    }[] = [];
    this.db.transaction(() => {
      for (const c of chunks) {
        const old = this.st['byId']!.get(c.id) as ItemRow | undefined;
        if (old) this.removeRid(old.rid);
        const info = this.st['insItem']!.run(
          c.id,
          c.teamId,
          c.payload.document_id,
          c.payload.tree_layer,
          c.payload.tree_version ?? null,
          JSON.stringify(c.payload),
        );
        const rid = BigInt(info.lastInsertRowid);
        const tok = teamToken(c.teamId);
        const terms = this.analyzer.terms(c.text).map((t) => tok + t);
        terms.push(levelToken(tok, c.payload.level));
        this.st['insFts']!.run(rid, terms.join(' '));
        const blob = Buffer.from(c.vector.buffer, c.vector.byteOffset, c.vector.byteLength);
        this.st['insVec']!.run(rid, c.teamId, c.payload.level, blob);
        this.st['insEmb']!.run(rid, blob);
        changes.push({
          teamId: c.teamId,
          oldRid: old ? Number(old.rid) : undefined,
          rid: Number(rid),
          level: c.payload.level,
          v: c.vector,
        });
      }
    })();
    // committed: the in-memory codes follow (a row past a loading team's cursor is read later)
    for (const ch of changes) {
      const codes = this.teamCodes.get(ch.teamId);
      if (!codes) continue;
      if (ch.oldRid !== undefined) codes.scan.remove(ch.oldRid);
      if (codes.ready || ch.rid <= codes.cursor)
        codes.scan.add(ch.rid, levelBit(ch.level), signCode(ch.v, this.words));
    }
  }

  async search(req: SearchRequest): Promise<SearchHit[]> {
    const limit = Math.max(1, req.limit);
    const filter = (payload: ChunkPayload) =>
      (!req.filter?.levels?.length || req.filter.levels.includes(payload.level)) &&
      (!req.filter?.documentIds?.length || req.filter.documentIds.includes(payload.document_id));
    const hasDocFilter = !!req.filter?.documentIds?.length;
    if (req.mode === 'dense')
      return this.dense(req, hasDocFilter ? limit * 10 : limit, filter).slice(0, limit);
    if (req.mode === 'sparse')
      return (await this.sparse(req, hasDocFilter ? limit * 10 : limit, filter)).slice(0, limit);
    const n = req.candidates ?? Math.max(limit, 50);
    // the sparse pass starts first: on a large index it runs in the BM25 worker meanwhile
    const sparse = this.sparse(req, n, filter);
    let d: SearchHit[];
    try {
      d = this.dense(req, n, filter);
    } catch (err) {
      await sparse.catch(() => undefined);
      throw err;
    }
    const s = await sparse;
    const fused = reciprocalRankFusion([d.map((h) => h.id), s.map((h) => h.id)]);
    const payloads = new Map<string, ChunkPayload>();
    for (const h of [...d, ...s]) payloads.set(h.id, h.payload);
    const cos = new Map(d.map((h) => [h.id, h.score] as const));
    const bm = new Map(s.map((h) => [h.id, h.score] as const));
    const top = [...fused.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, limit);
    const lacking = top.filter(([id]) => !cos.has(id)).map(([id]) => id);
    if (lacking.length) {
      const rows = this.db
        .prepare(
          `SELECT i.id, e.embedding FROM ${this.p}_items i JOIN ${this.p}_emb e ON e.rid = i.rid WHERE i.id IN (${lacking.map(() => '?').join(',')})`,
        )
        .all(...lacking) as { id: string; embedding: Buffer }[];
      for (const r of rows) cos.set(r.id, cosineBlob(req.vector!, r.embedding));
    }
    return top.map(([id, score]) => ({
      id,
      score,
      payload: payloads.get(id)!,
      similarity: cos.get(id),
      bm25: bm.get(id) ?? 0,
    }));
  }

  /**
   * Binary-quantised coarse pass in sqlite-vec (sign bits, Hamming distance: a few bytes per
   * vector, so 100k vectors scan in milliseconds), then exact cosine on the float vectors of
   * the best `COARSE_FACTOR * k` candidates. With fewer vectors than the coarse k it is exact.
   */
  private dense(req: SearchRequest, k: number, keep: (p: ChunkPayload) => boolean): SearchHit[] {
    if (!req.vector) throw new Error('dense search needs a query vector');
    const q = Buffer.from(req.vector.buffer, req.vector.byteOffset, req.vector.byteLength);
    const coarseK = Math.min(4096, Math.max(k * COARSE_FACTOR, COARSE_MIN));
    const levels = req.filter?.levels?.length ? req.filter.levels : [undefined];
    const codes = this.codesOf(req.teamId);
    const rids: number[] = codes
      ? codes.nearest(
          signCode(req.vector, this.words),
          // as many candidates as the per-level sqlite-vec searches below would give
          coarseK * levels.length,
          req.filter?.levels?.length
            ? req.filter.levels.reduce((m, l) => m | (1 << levelBit(l)), 0)
            : 0xff,
        )
      : [];
    for (const level of codes ? [] : levels) {
      const r =
        level === undefined
          ? (this.st['knn']!.all(q, coarseK, req.teamId) as { rid: number }[])
          : (this.st['knnLevel']!.all(q, coarseK, req.teamId, level) as { rid: number }[]);
      for (const x of r) rids.push(Number(x.rid));
    }
    const scored: { rid: number; score: number }[] = [];
    for (let i = 0; i < rids.length; i += 500) {
      const part = rids.slice(i, i + 500);
      const rows = this.db
        .prepare(
          `SELECT rid, embedding FROM ${this.p}_emb WHERE rid IN (${part.map(() => '?').join(',')})`,
        )
        .all(...part) as { rid: number; embedding: Buffer }[];
      for (const r of rows)
        scored.push({ rid: Number(r.rid), score: cosineBlob(req.vector, r.embedding) });
    }
    scored.sort((a, b) => b.score - a.score);
    return this.hydrate(
      scored.slice(0, Math.max(k, 1) * (req.filter?.documentIds?.length ? 10 : 1)),
      req.teamId,
      keep,
    );
  }

  /**
   * The team's codes when they are all in memory; a small team's are loaded now, a large team's
   * in batches between queries (the caller searches with sqlite-vec meanwhile). Writes by other connections
   * to the file (SQLite's data_version moves) drop every team's codes.
   */
  private codesOf(teamId: string): SignCodeScan | undefined {
    const version = this.db.pragma('data_version', { simple: true }) as number;
    if (version !== this.seenDataVersion) {
      this.teamCodes.clear();
      this.seenDataVersion = version;
    }
    const have = this.teamCodes.get(teamId);
    if (have) return have.ready ? have.scan : undefined;
    const entry: TeamCodes = { scan: new SignCodeScan(this.words), cursor: 0, ready: false };
    this.teamCodes.set(teamId, entry);
    const load = () => {
      const rows = this.st['codesBatch']!.all(teamId, entry.cursor) as {
        rid: number;
        level: string;
        embedding: Buffer;
      }[];
      for (const r of rows) {
        const v = new Float32Array(
          r.embedding.buffer.slice(
            r.embedding.byteOffset,
            r.embedding.byteOffset + r.embedding.byteLength,
          ),
        );
        entry.scan.add(Number(r.rid), levelBit(r.level), signCode(v, this.words));
        entry.cursor = Number(r.rid);
      }
      if (rows.length < CODES_BATCH) entry.ready = true;
    };
    // a small team loads at once (a few ms); a large one in batches between queries
    if ((this.st['count']!.get(teamId) as { n: number }).n <= this.codesLoadAtOnce) {
      while (!entry.ready) load();
      return entry.scan;
    }
    const step = () => {
      if (this.teamCodes.get(teamId) !== entry || !this.db.open) return;
      load();
      if (!entry.ready) setImmediate(step);
    };
    setImmediate(step);
    return undefined;
  }

  private async sparse(
    req: SearchRequest,
    k: number,
    keep: (p: ChunkPayload) => boolean,
  ): Promise<SearchHit[]> {
    if (req.text === undefined) throw new Error('sparse search needs a query text');
    const tok = teamToken(req.teamId);
    const terms = this.selectiveTerms([
      ...new Set(this.analyzer.terms(req.text).map((t) => tok + t)),
    ]);
    if (!terms.length) return [];
    let match = terms.map((t) => `"${t}"`).join(' OR ');
    const levels = req.filter?.levels ?? [];
    // a level filter is a token of its own: only postings of the wanted levels are ranked
    if (levels.length)
      match = `(${match}) AND (${levels.map((l) => `"${levelToken(tok, l)}"`).join(' OR ')})`;
    const fetch = req.filter?.documentIds?.length ? k * 10 : k;
    const rows = await this.bm25(match, fetch);
    return this.hydrate(rows, req.teamId, keep).slice(0, k);
  }

  /** BM25 rows of an FTS5 query: in the worker on a large index, else in this thread. */
  private async bm25(match: string, limit: number): Promise<Bm25Row[]> {
    if (this.file !== ':memory:' && this.dfCache.total >= this.sparseWorkerFrom) {
      if (!this.bm25Worker?.alive) {
        void this.bm25Worker?.close();
        this.bm25Worker = new Bm25Worker(this.file, `${this.p}_bm25`);
      }
      try {
        return await this.bm25Worker.search(match, limit);
      } catch {
        // the worker died (it is replaced next time): answer from this thread
      }
    }
    return this.st['bm25']!.all(match, limit) as Bm25Row[];
  }

  /**
   * Terms found in more than half of the documents get an IDF of ~0 in FTS5's BM25 and only
   * make the scan longer: they are dropped (the rarest two are always kept); then terms are
   * taken rarest first within `sparsePostingBudget` (the common ones add little to BM25 but
   * most of its cost). Document frequencies come from the fts5vocab table over the whole index.
   */
  private selectiveTerms(terms: string[]): string[] {
    if (terms.length <= 2) return terms;
    const now = Date.now();
    if (now - this.dfCache.at > 60_000)
      this.dfCache = {
        at: now,
        total: (this.st['docTotal']!.get() as { n: number }).n,
        df: new Map(),
      };
    const { total, df } = this.dfCache;
    if (total < 1000) return terms;
    const withDf = terms.map((t) => {
      let n = df.get(t);
      if (n === undefined) {
        n = (this.st['docFreq']!.get(t) as { doc: number } | undefined)?.doc ?? 0;
        if (df.size < 50_000) df.set(t, n);
      }
      return { t, n };
    });
    withDf.sort((a, b) => a.n - b.n);
    const keep = withDf.filter((x, i) => i < 2 || x.n <= total * MAX_TERM_SHARE);
    const budget = this.sparsePostingBudget || Infinity;
    const picked: string[] = [];
    let postings = 0;
    for (const x of keep) {
      if (picked.length >= 2 && postings + x.n > budget) break;
      picked.push(x.t);
      postings += x.n;
    }
    return picked;
  }

  private hydrate(
    rows: { rid: number; score: number }[],
    teamId: string,
    keep: (p: ChunkPayload) => boolean,
  ): SearchHit[] {
    if (!rows.length) return [];
    const byRid = new Map<number, { id: string; payload: string; team_id: string }>();
    for (let i = 0; i < rows.length; i += 500) {
      const part = rows.slice(i, i + 500);
      const got = this.db
        .prepare(
          `SELECT rid, id, team_id, payload FROM ${this.p}_items WHERE rid IN (${part.map(() => '?').join(',')})`,
        )
        .all(...part.map((r) => r.rid)) as {
        rid: number;
        id: string;
        team_id: string;
        payload: string;
      }[];
      for (const g of got) byRid.set(Number(g.rid), g);
    }
    const out: SearchHit[] = [];
    for (const r of rows) {
      const item = byRid.get(Number(r.rid));
      if (!item || item.team_id !== teamId) continue;
      const payload = JSON.parse(item.payload) as ChunkPayload;
      if (!keep(payload)) continue;
      out.push({ id: item.id, score: r.score, payload });
    }
    return out;
  }

  async delete(teamId: string, filter: DeleteFilter): Promise<void> {
    const rows = this.st['teamItems']!.all(teamId) as {
      rid: number;
      document_id: string;
      tree_layer: number;
      tree_version: string | null;
    }[];
    const docs = filter.documentIds ? new Set(filter.documentIds) : undefined;
    const victims = rows.filter(
      (r) =>
        (!docs || docs.has(r.document_id)) &&
        (filter.minTreeLayer === undefined || r.tree_layer >= filter.minTreeLayer) &&
        (filter.exceptTreeVersion === undefined || r.tree_version !== filter.exceptTreeVersion),
    );
    this.db.transaction(() => {
      for (const v of victims) this.removeRid(v.rid);
    })();
    const codes = this.teamCodes.get(teamId);
    if (codes) for (const v of victims) codes.scan.remove(Number(v.rid));
  }

  private removeRid(rid: number): void {
    const b = BigInt(rid);
    this.st['delFts']!.run(b);
    this.st['delVec']!.run(b);
    this.st['delEmb']!.run(b);
    this.st['delItem']!.run(b);
  }

  async listLayer(teamId: string, treeLayer: number, withVectors: boolean): Promise<StoredChunk[]> {
    const rows = this.st['layer']!.all(teamId, treeLayer) as ItemRow[];
    return rows.map((r) => this.toStored(r, withVectors));
  }

  async get(teamId: string, ids: string[]): Promise<StoredChunk[]> {
    const out: StoredChunk[] = [];
    for (const id of ids) {
      const r = this.st['byId']!.get(id) as (ItemRow & { team_id: string }) | undefined;
      if (r && r.team_id === teamId) out.push(this.toStored(r, true));
    }
    return out;
  }

  private toStored(r: ItemRow, withVectors: boolean): StoredChunk {
    const stored: StoredChunk = { id: r.id, payload: JSON.parse(r.payload) as ChunkPayload };
    if (withVectors) {
      const v = this.st['getVec']!.get(BigInt(r.rid)) as { embedding: Buffer } | undefined;
      if (v)
        stored.vector = new Float32Array(
          v.embedding.buffer.slice(
            v.embedding.byteOffset,
            v.embedding.byteOffset + v.embedding.byteLength,
          ),
        );
    }
    return stored;
  }

  async count(teamId: string, treeLayer?: number): Promise<number> {
    const r =
      treeLayer === undefined
        ? (this.st['count']!.get(teamId) as { n: number })
        : (this.st['countLayer']!.get(teamId, treeLayer) as { n: number });
    return r.n;
  }

  async close(): Promise<void> {
    this.teamCodes.clear();
    await this.bm25Worker?.close();
    this.bm25Worker = undefined;
    if (this.ownsDb && this.db.open) this.db.close();
  }
}

/**
 * Coarse candidates of the binary pass per wanted dense result, and at least COARSE_MIN (a team
 * with fewer vectors is searched exactly). sqlite-vec's top-k cost grows with k, so it stays small.
 */
const COARSE_FACTOR = 3;
const COARSE_MIN = 120;
/** rows read per step while a team's sign codes load into memory */
const CODES_BATCH = 4096;
/** teams with at most this many chunks load their sign codes at once (~0.1 s at the limit) */
const CODES_LOAD_AT_ONCE = 20_000;
/** From this many indexed chunks in the space on, BM25 queries run in a worker thread. */
const SPARSE_WORKER_FROM = 20_000;
/**
 * Postings one BM25 query may rank (see sparsePostingBudget). On the 100,000-chunk benchmark
 * index it keeps 5-6 of ~6 terms, p95 ~35 ms, top 10 93% the same as with every term.
 */
const SPARSE_POSTING_BUDGET = 60_000;
/** Query terms in a larger share of documents than this are skipped by the BM25 pass. */
const MAX_TERM_SHARE = 0.5;

function cosineBlob(q: Float32Array, blob: Buffer): number {
  const v =
    blob.byteOffset % 4 === 0
      ? new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4)
      : new Float32Array(Uint8Array.from(blob).buffer);
  return cosine(q, v);
}

/** Bit index of a knowledge level in SignCodeScan level masks (L1..L4 -> 1..4, others 0). */
function levelBit(level: string): number {
  const m = /^L([1-4])$/i.exec(level);
  return m ? Number(m[1]) : 0;
}

function levelToken(teamToken: string, level: string): string {
  return `${teamToken}_level_${level.toLowerCase().replace(/[^a-z0-9]/g, '')}`;
}

/**
 * Prefix of every indexed term of a team: each team has its own postings (and document
 * frequencies), so the BM25 pass walks only the team's postings and needs no intersection.
 */
function teamToken(teamId: string): string {
  return `t${fnv1a32(teamId).toString(36)}x${teamId.length}_`;
}
