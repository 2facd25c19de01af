import {
  MAX_UPLOAD_BYTES,
  formatBytes,
  prepareMarkdownUpload,
  splitMarkdownSections,
  titleFromFileName,
} from './markdown-upload';

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('splitMarkdownSections', () => {
  it('makes one section per top-level heading, keeping text before the first one', () => {
    const md = [
      'Intro line.',
      '',
      '# Failover',
      'Promote the replica.',
      '## Check',
      'Lag below 1 s.',
      '# Rollback',
      'Demote it again.',
    ].join('\n');
    expect(splitMarkdownSections(md)).toEqual([
      { title: undefined, content: 'Intro line.' },
      { title: 'Failover', content: '# Failover\nPromote the replica.\n## Check\nLag below 1 s.' },
      { title: 'Rollback', content: '# Rollback\nDemote it again.' },
    ]);
  });

  it('uses the highest level present, ignores headings in fenced code, drops heading-only sections', () => {
    const md = [
      '## One',
      'text',
      '```sh',
      '## not a heading',
      '```',
      '## Empty',
      '### Only a subheading',
      '## Two',
      'more',
    ].join('\r\n');
    const s = splitMarkdownSections(md);
    expect(s.map((x) => x.title)).toEqual(['One', 'Two']);
    expect(s[0]!.content).toContain('## not a heading');
  });

  it('gives the whole text as one untitled section without headings, nothing for blank text', () => {
    expect(splitMarkdownSections('  just text \n')).toEqual([{ content: 'just text' }]);
    expect(splitMarkdownSections('   \n')).toEqual([]);
    expect(splitMarkdownSections('#hashtag is not a heading')).toEqual([
      { content: '#hashtag is not a heading' },
    ]);
  });
});

describe('prepareMarkdownUpload', () => {
  it('accepts a Markdown file, decodes it and previews the documents', () => {
    const r = prepareMarkdownUpload('DB failover.md', utf8('\uFEFF# A\nx\n# B\ny – ü\n'));
    expect(r).toEqual({
      ok: true,
      content: '# A\nx\n# B\ny – ü\n',
      sections: [
        { title: 'A', content: '# A\nx' },
        { title: 'B', content: '# B\ny – ü' },
      ],
      suggestedTitle: 'DB failover',
      bytes: utf8('# A\nx\n# B\ny – ü\n').length,
    });
  });

  it('refuses what the API would refuse, with a message naming the file', () => {
    const err = (name: string, bytes: Uint8Array) => {
      const r = prepareMarkdownUpload(name, bytes);
      if (r.ok) throw new Error('expected a refusal');
      return r.error;
    };
    expect(err('diagram.png', utf8('# x\ny'))).toMatch(/diagram\.png is not a Markdown file/);
    expect(err('a.md', new Uint8Array([0x23, 0x20, 0xff, 0xfe, 0x41]))).toBe(
      'a.md is not UTF-8 text',
    );
    expect(err('a.md', utf8('# x\n\u0000\u0001'))).toBe('a.md looks like a binary file');
    expect(err('a.md', utf8(' \n\t'))).toBe('a.md is empty');
    expect(err('a.md', utf8('# Only\n## headings\n'))).toBe('a.md has no text besides headings');
    expect(err('big.md', new Uint8Array(MAX_UPLOAD_BYTES + 1).fill(0x61))).toBe(
      `big.md is larger than the 1 MiB limit (${MAX_UPLOAD_BYTES + 1} bytes)`,
    );
  });

  it('counts the JSON body, not just the file: escaping and fields can push it over 1 MiB', () => {
    // Half a MiB of quotes fits the content limit, but each quote becomes \" in the JSON body.
    const quotes = '"'.repeat(MAX_UPLOAD_BYTES / 2);
    const r = prepareMarkdownUpload('q.md', utf8(quotes), { type: 'runbook' });
    expect(r).toEqual({ ok: false, error: expect.stringMatching(/too large to upload/) });
    const fits = prepareMarkdownUpload('ok.md', utf8('a'.repeat(MAX_UPLOAD_BYTES - 100)));
    expect(fits.ok).toBe(true);
  });

  it('accepts the other Markdown and text endings in any case', () => {
    for (const name of ['x.markdown', 'x.MD', 'x.mdown', 'notes.txt'])
      expect(prepareMarkdownUpload(name, utf8('text')).ok).toBe(true);
  });
});

describe('helpers', () => {
  it('derives a title from a file name and formats sizes', () => {
    expect(titleFromFileName('C:\\docs\\Runbook.v2.md')).toBe('Runbook.v2');
    expect(titleFromFileName('.md')).toBe('.md');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(2 * 1024 * 1024)).toBe('2 MiB');
  });
});
