const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  rsquo: '’',
  lsquo: '‘',
  rdquo: '”',
  ldquo: '“',
  copy: '©',
};

/** `&amp;`, `&#39;`, `&#x27;` and the common named entities; others are left as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1));
      return Number.isFinite(code) && code > 0 && code < 0x110000
        ? String.fromCodePoint(code)
        : whole;
    }
    return ENTITIES[e.toLowerCase()] ?? whole;
  });
}

/** Elements whose content is not the page's text. */
const DROPPED =
  /<(script|style|noscript|template|svg|nav|header|footer|aside|form|button|iframe|head)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;

/**
 * The readable text of an HTML page (or Confluence storage format) as Markdown: headings become
 * `#` lines, list items `-`, preformatted blocks fences, paragraphs and line breaks newlines;
 * scripts, styles, navigation, headers and footers are dropped. The `<main>` or `<article>` of a
 * page is preferred to its whole body. Not a full HTML parser: enough for documentation pages.
 */
export function htmlToMarkdown(html: string): { title?: string; markdown: string } {
  const titleMatch = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  const title = titleMatch ? clean(decodeEntities(stripTags(titleMatch[1]!))) : undefined;
  let body = html.replace(/<!--[\s\S]*?-->/g, '');
  const main =
    /<main\b[^>]*>([\s\S]*?)<\/main\s*>/i.exec(body) ??
    /<article\b[^>]*>([\s\S]*?)<\/article\s*>/i.exec(body) ??
    /<body\b[^>]*>([\s\S]*?)<\/body\s*>/i.exec(body);
  if (main) body = main[1]!;
  body = body.replace(DROPPED, ' ');
  // Confluence code macros carry their code in CDATA
  body = body.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_, code: string) =>
    code.replace(/</g, '&lt;').replace(/>/g, '&gt;'),
  );
  const fences: string[] = [];
  body = body.replace(/<pre\b[^>]*>([\s\S]*?)<\/pre\s*>/gi, (_, code: string) => {
    fences.push(decodeEntities(stripTags(code)).replace(/\n+$/, ''));
    return `\n\n\uE000${fences.length - 1}\uE000\n\n`;
  });
  body = body
    .replace(/<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1\s*>/gi, (_, n: string, t: string) => {
      return `\n\n${'#'.repeat(Number(n))} ${clean(stripTags(t))}\n\n`;
    })
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/?(p|div|section|ul|ol|table|tr|blockquote|dl|dt|dd)\b[^>]*>/gi, '\n\n')
    .replace(/<\/?(td|th)\b[^>]*>/gi, ' | ')
    .replace(/<code\b[^>]*>([\s\S]*?)<\/code\s*>/gi, (_, c: string) => `\`${stripTags(c)}\``);
  const text = decodeEntities(stripTags(body))
    .split('\n')
    .map((l) => l.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/\uE000(\d+)\uE000/g, (_, i: string) => `\`\`\`\n${fences[Number(i)]}\n\`\`\``)
    .trim();
  return { ...(title ? { title } : {}), markdown: text };
}

const stripTags = (s: string) => s.replace(/<[^>]*>/g, '');
const clean = (s: string) => s.replace(/\s+/g, ' ').trim();
