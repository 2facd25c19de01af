import type { DocumentRecord } from '@inquest/store';
import { resumePendingDocuments } from './resume-pending';

const doc = (id: string) => ({ document_id: id, team_id: 'team-a' }) as DocumentRecord;

describe('resumePendingDocuments', () => {
  it('indexes every pending document and counts those that made it', async () => {
    const seen: string[] = [];
    const warn = jest.fn();
    const n = await resumePendingDocuments(
      [doc('d1'), doc('d2')],
      async (d) => void seen.push(d.document_id),
      { warn },
    );
    expect(n).toBe(2);
    expect(seen.sort()).toEqual(['d1', 'd2']);
    expect(warn).not.toHaveBeenCalled();
  });

  it('never rejects: a failure while indexing or while recording the status is logged', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const warn = jest.fn();
      const n = await resumePendingDocuments(
        [doc('ok'), doc('embed-fails'), doc('mark-fails'), doc('throws-at-once')],
        (d) => {
          // a synchronous throw must not escape either
          if (d.document_id === 'throws-at-once') throw new Error('sync boom');
          if (d.document_id === 'embed-fails') return Promise.reject(new Error('embeddings down'));
          if (d.document_id === 'mark-fails')
            return Promise.resolve(3).then(() => {
              throw new Error('store down while marking indexed');
            });
          return Promise.resolve(1);
        },
        { warn },
      );
      await new Promise((r) => setImmediate(r));
      expect(n).toBe(1);
      expect(warn.mock.calls.map(([obj]) => (obj as { document_id: string }).document_id)).toEqual([
        'embed-fails',
        'mark-fails',
        'throws-at-once',
      ]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
