import { answerPassages, passageText, PASSAGE_WORDS } from './answers';
import { aRetrievedItem } from './testing/knowledge-harness';
import { summaryTitle } from './tree-builder';

const item = aRetrievedItem;

describe('answer passages', () => {
  it('cites the best leaf, and a second document only when it scores almost as well', () => {
    const sum = item({ id: 's', document_id: 'd1', tree_layer: 1, type: 'summary', score: 0.9 });
    const a = item({ id: 'a', document_id: 'd1', score: 0.8 });
    const a2 = item({ id: 'a2', document_id: 'd1', score: 0.79 });
    const b = item({ id: 'b', document_id: 'd2', score: 0.75 });
    expect(answerPassages([sum, a, a2, b]).map((x) => x.id)).toEqual(['a', 'b']);
    expect(answerPassages([a, item({ id: 'c', document_id: 'd3', score: 0.3 })])).toEqual([a]);
    expect(answerPassages([sum])).toEqual([sum]);
  });

  it('quotes a passage whole up to the word limit, without a dangling label', () => {
    expect(passageText('Root cause: memory limit too low\nResolution:')).toBe(
      'Root cause: memory limit too low',
    );
    const long = Array.from({ length: 40 }, (_, i) => `Step ${i} does one thing well.`).join(' ');
    const t = passageText(long);
    expect(t.endsWith('well. …')).toBe(true);
    expect(t.split(/\s+/).length).toBeLessThanOrEqual(PASSAGE_WORDS + 1);
  });
});

describe('summaryTitle', () => {
  it('names the documents a summary covers, most covered first', () => {
    expect(summaryTitle(['Disk full', 'OOMKilled pods', 'OOMKilled pods'])).toBe(
      'Overview: OOMKilled pods; Disk full',
    );
    expect(summaryTitle(['a', 'b', 'c', 'd', 'e'])).toBe('Overview: a; b; c and 2 more');
    expect(summaryTitle([''])).toBe('Overview');
  });
});
