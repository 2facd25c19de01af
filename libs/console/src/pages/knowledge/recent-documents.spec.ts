import {
  MAX_RECENT,
  forgetDocument,
  listRecentDocuments,
  rememberDocuments,
  type RecentDocument,
} from './recent-documents';

/** A Storage over a Map (jest runs in node: no sessionStorage). */
function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, String(v)),
  };
}

const doc = (id: string, title = id): RecentDocument => ({
  document_id: id,
  title,
  type: 'runbook',
  origin: 'teach',
  taught_at: '2026-01-01T00:00:00.000Z',
});

describe('recent documents', () => {
  it('keeps documents per team, newest first, without duplicates', () => {
    const s = memoryStorage();
    rememberDocuments('pay', [doc('doc_a')], s);
    rememberDocuments('pay', [doc('doc_b'), doc('doc_c')], s);
    rememberDocuments('pay', [doc('doc_a', 'again')], s);
    rememberDocuments('search', [doc('doc_x')], s);
    expect(listRecentDocuments('pay', s).map((d) => [d.document_id, d.title])).toEqual([
      ['doc_a', 'again'],
      ['doc_b', 'doc_b'],
      ['doc_c', 'doc_c'],
    ]);
    expect(listRecentDocuments('search', s).map((d) => d.document_id)).toEqual(['doc_x']);
    expect(forgetDocument('pay', 'doc_b', s).map((d) => d.document_id)).toEqual(['doc_a', 'doc_c']);
    expect(listRecentDocuments('pay', s)).toHaveLength(2);
  });

  it(`keeps at most ${MAX_RECENT} and survives garbage in storage`, () => {
    const s = memoryStorage();
    for (let i = 0; i < MAX_RECENT + 5; i++) rememberDocuments('', [doc(`doc_${i}`)], s);
    const list = listRecentDocuments('', s);
    expect(list).toHaveLength(MAX_RECENT);
    expect(list[0]!.document_id).toBe(`doc_${MAX_RECENT + 4}`);
    s.setItem('inquest.console.recent-documents', '{not json');
    expect(listRecentDocuments('', s)).toEqual([]);
    s.setItem('inquest.console.recent-documents', '{"":[{"nope":1}]}');
    expect(listRecentDocuments('', s)).toEqual([]);
  });
});
