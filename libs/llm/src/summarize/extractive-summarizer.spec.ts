import { ExtractiveSummarizer, splitSentences } from './extractive-summarizer';

describe('ExtractiveSummarizer', () => {
  const s = new ExtractiveSummarizer();
  it('keeps central sentences within the word budget in original order', async () => {
    const out = await s.summarize(
      [
        'Checkout pods are OOMKilled after the deploy. Raise the memory limit of checkout to 1Gi.',
        'The checkout memory limit was 512Mi. The team lunch is on Friday.',
      ],
      { maxWords: 15 },
    );
    expect(out).toContain('memory limit');
    expect(out).not.toContain('lunch');
    expect(out.split(/\s+/).length).toBeLessThanOrEqual(16);
  });
  it('prefers sentences about the focus', async () => {
    const out = await s.summarize(
      ['Restart the pod with kubectl. Rotate the TLS certificate with cert-manager.'],
      {
        maxWords: 8,
        focus: 'certificate expired',
      },
    );
    expect(out).toContain('certificate');
  });
  it('splits markdown into units and is deterministic', async () => {
    expect(splitSentences('# Title\n- step one\n- step two. Then three')).toEqual([
      'Title',
      'step one',
      'step two.',
      'Then three',
    ]);
    const p = ['a b c. d e f. g h i.'];
    expect(await s.summarize(p)).toBe(await s.summarize(p));
    expect(await s.summarize([''])).toBe('');
  });
});
