import { Worker } from 'node:worker_threads';

export interface Bm25Row {
  rid: number;
  score: number;
}

/**
 * Runs FTS5 BM25 queries on a read-only connection in a worker thread, so the sparse pass of a
 * hybrid search runs while the main thread does the dense pass (on a 100,000-chunk index each
 * takes ~10-30 ms), and long BM25 scans never block the event loop. WAL mode lets the worker
 * read while the main connection writes; each query sees the last committed state.
 *
 * The worker is plain JavaScript evaluated from a string (so it needs no build step) and loads
 * the same better-sqlite3 the main thread resolved.
 */
export class Bm25Worker {
  private readonly worker: Worker;
  private readonly pending = new Map<
    number,
    { resolve: (rows: Bm25Row[]) => void; reject: (e: Error) => void }
  >();
  private nextId = 1;
  private failed: Error | undefined;

  constructor(file: string, table: string) {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver: require.resolve('better-sqlite3'), file, sql: bm25Sql(table) },
    });
    // an idle search worker never keeps the process alive
    this.worker.unref();
    this.worker.on('message', (m: { id: number; rows?: Bm25Row[]; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m.rows!);
    });
    const fail = (err: Error) => {
      this.failed = err;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`BM25 worker exited with code ${code}`)));
  }

  /** false after the worker died; the caller then queries in its own thread */
  get alive(): boolean {
    return !this.failed;
  }

  search(match: string, limit: number): Promise<Bm25Row[]> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, match, limit });
    });
  }

  async close(): Promise<void> {
    this.failed ??= new Error('BM25 worker closed');
    await this.worker.terminate();
  }
}

/** The same ranking statement as SqliteVectorIndex's in-thread sparse pass. */
export function bm25Sql(table: string): string {
  return `SELECT rowid AS rid, -bm25(${table}) AS score FROM ${table} WHERE ${table} MATCH ? ORDER BY score DESC LIMIT ?`;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const st = db.prepare(workerData.sql);
parentPort.on('message', ({ id, match, limit }) => {
  try {
    const rows = st.all(match, limit).map((r) => ({ rid: Number(r.rid), score: r.score }));
    parentPort.postMessage({ id, rows });
  } catch (err) {
    parentPort.postMessage({ id, error: err && err.message ? err.message : String(err) });
  }
});
`;
