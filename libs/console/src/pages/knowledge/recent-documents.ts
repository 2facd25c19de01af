// The documents taught or uploaded in this browser tab, per team, so the documents page can show
// their indexing status (the API has a status per id, but no list of documents). Kept in
// sessionStorage like the session itself: gone when the tab closes.

export interface RecentDocument {
  document_id: string;
  title?: string;
  type: string;
  /** 'teach' or the uploaded file's name */
  origin: string;
  taught_at: string;
}

const KEY = 'inquest.console.recent-documents';
/** Enough for a working session; the oldest fall off. */
export const MAX_RECENT = 50;

type Stored = Record<string, RecentDocument[]>;

function read(storage: Storage): Stored {
  try {
    const v = JSON.parse(storage.getItem(KEY) ?? '{}') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Stored) : {};
  } catch {
    return {};
  }
}

/** Newest first. `team` is the team acted for ('' for a team token's own team). */
export function listRecentDocuments(
  team: string,
  storage: Storage = sessionStorage,
): RecentDocument[] {
  const list = read(storage)[team];
  return Array.isArray(list) ? list.filter((d) => typeof d?.document_id === 'string') : [];
}

/** Adds documents (newest first), replacing older entries with the same id. */
export function rememberDocuments(
  team: string,
  docs: RecentDocument[],
  storage: Storage = sessionStorage,
): RecentDocument[] {
  const all = read(storage);
  const ids = new Set(docs.map((d) => d.document_id));
  const next = [
    ...docs,
    ...listRecentDocuments(team, storage).filter((d) => !ids.has(d.document_id)),
  ].slice(0, MAX_RECENT);
  all[team] = next;
  storage.setItem(KEY, JSON.stringify(all));
  return next;
}

export function forgetDocument(
  team: string,
  documentId: string,
  storage: Storage = sessionStorage,
): RecentDocument[] {
  const all = read(storage);
  const next = listRecentDocuments(team, storage).filter((d) => d.document_id !== documentId);
  all[team] = next;
  storage.setItem(KEY, JSON.stringify(all));
  return next;
}
