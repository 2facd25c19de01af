import { decodeEntities, htmlToMarkdown } from './html-to-markdown';

describe('htmlToMarkdown', () => {
  it('keeps the main content as Markdown and drops scripts, navigation and footers', () => {
    const { title, markdown } = htmlToMarkdown(`<html><head><title>Disk &amp; inodes</title>
      <style>p { color: red }</style></head><body><nav>menu</nav><article>
      <h2>Check</h2><p>Run <code>df -i</code> on the node.</p>
      <pre><code>kubectl debug node/n1 -it --image=busybox
df -i</code></pre><ol><li>one</li><li>two</li></ol></article><footer>(c)</footer></body></html>`);
    expect(title).toBe('Disk & inodes');
    expect(markdown).toBe(
      '## Check\n\nRun `df -i` on the node.\n\n```\nkubectl debug node/n1 -it --image=busybox\ndf -i\n```\n\n- one\n- two',
    );
  });

  it('reads Confluence storage format, code macros included', () => {
    const { markdown } = htmlToMarkdown(
      '<h1>Restart</h1><p>Then:</p><ac:structured-macro ac:name="code"><ac:plain-text-body><![CDATA[systemctl restart x && echo <ok>]]></ac:plain-text-body></ac:structured-macro>',
    );
    expect(markdown).toContain('# Restart');
    expect(markdown).toContain('systemctl restart x && echo <ok>');
  });

  it('decodes numeric and named entities', () => {
    expect(decodeEntities('a&#39;b&#x27;c&nbsp;&lt;d&gt; &bogus;')).toBe("a'b'c <d> &bogus;");
  });
});
