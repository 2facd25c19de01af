import { chunkText, countTokens, splitMarkdownSections } from './chunker';

describe('chunker', () => {
  it('keeps chunks within the token budget and repeats the heading', () => {
    const text = `# Runbook\n\n${Array.from({ length: 30 }, (_, i) => `Paragraph ${i} has exactly seven words here.`).join('\n\n')}`;
    const chunks = chunkText(text, 40);
    expect(chunks.length).toBeGreaterThan(4);
    for (const c of chunks) {
      expect(countTokens(c)).toBeLessThanOrEqual(42);
      expect(c.startsWith('# Runbook')).toBe(true);
    }
    expect(chunks.join(' ')).toContain('Paragraph 29');
  });
  it('never splits a fenced code block', () => {
    const code =
      '```\n' + Array.from({ length: 50 }, (_, i) => `echo line ${i}`).join('\n') + '\n```';
    const chunks = chunkText(`intro text\n\n${code}\n\nafter`, 20);
    const withCode = chunks.filter((c) => c.includes('```'));
    expect(withCode).toHaveLength(1);
    expect(withCode[0]).toContain('echo line 0');
    expect(withCode[0]).toContain('echo line 49');
  });
  it('splits Markdown uploads by top-level heading and ignores headings inside code', () => {
    const md = 'preamble\n## A\ntext a\n```\n## not a heading\n```\n## B\ntext b';
    const s = splitMarkdownSections(md);
    expect(s.map((x) => x.title)).toEqual([undefined, 'A', 'B']);
    expect(s[1]!.content).toContain('## not a heading');
  });
});
