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
const DROPPED = [
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'nav',
  'header',
  'footer',
  'aside',
  'form',
  'button',
  'iframe',
  'head',
];
const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

/*
 * Every step below reads the page once. A lazy `<x>([\s\S]*?)</x>` regular expression is tried
 * from each opening tag to the end of the page when no closing tag follows (and `<x[^>]*>` from
 * each `<` when no `>` follows): a page of 5 MiB of unclosed `<main ` or `<![CDATA[` held the
 * service's thread (all-in-one's whole process) for hours. Pages come from URLs a team sets.
 */

/** Stands for a `<` that is text (see closeDanglingTags), until the text is done. */
const TEXT_LT = '\uE001';
const restoreLt = (s: string) => (s.includes(TEXT_LT) ? s.replaceAll(TEXT_LT, '<') : s);

/**
 * `<` that no `>` follows cannot open a tag: they are text (as a browser shows them), kept aside
 * as TEXT_LT so that every tag pattern after this stops at the next `>`.
 */
function closeDanglingTags(html: string): string {
  const last = html.lastIndexOf('>');
  if (html.indexOf('<', last + 1) < 0) return html;
  return html.slice(0, last + 1) + html.slice(last + 1).replaceAll('<', TEXT_LT);
}

/** Opening tags of the named elements (`<name ...>`), `name` captured. */
const openTags = (names: string[]) => new RegExp(`<(${names.join('|')})\\b[^>]*>`, 'gi');

/**
 * Replaces each `<name ...>inner</name>` (the first closing tag after its opening one, as a lazy
 * expression would) with `fn(name, inner)`; `first` stops after one. Linear: a name without a
 * closing tag after an opening one has none after any later one either.
 */
function replaceElements(
  html: string,
  names: string[],
  fn: (name: string, inner: string) => string,
  first = false,
): string {
  html = closeDanglingTags(html);
  let lower: string | undefined;
  const open = openTags(names);
  const unclosed = new Set<string>();
  const out: string[] = [];
  let done = 0;
  for (let m = open.exec(html); m; m = open.exec(html)) {
    const name = m[1]!.toLowerCase();
    if (unclosed.has(name)) continue;
    lower ??= html.toLowerCase();
    const end = closingTag(lower, name, m.index + m[0].length);
    if (!end) {
      unclosed.add(name);
      if (unclosed.size === names.length) break;
      continue;
    }
    out.push(html.slice(done, m.index), fn(name, html.slice(m.index + m[0].length, end.at)));
    done = end.after;
    open.lastIndex = end.after;
    if (first) break;
  }
  return done === 0 ? html : out.join('') + html.slice(done);
}

/** The first `</name>` (spaces allowed before `>`) at or after `from` in a lower-cased page. */
function closingTag(lower: string, name: string, from: number) {
  const needle = `</${name}`;
  for (let at = lower.indexOf(needle, from); at >= 0; at = lower.indexOf(needle, at + 1)) {
    let i = at + needle.length;
    while (i < lower.length && /\s/.test(lower[i]!)) i++;
    if (lower[i] === '>') return { at, after: i + 1 };
  }
  return undefined;
}

/** The inner text of the first `<name>…</name>` of the page. */
function firstElement(html: string, name: string): string | undefined {
  let inner: string | undefined;
  replaceElements(
    html,
    [name],
    (_, i) => {
      inner = i;
      return '';
    },
    true,
  );
  return inner;
}

/** Removes what lies between each `open` and the next `close` (`<!-- -->`), or keeps it as `fn` says. */
function replaceBetween(
  html: string,
  open: string,
  close: string,
  fn: (inner: string) => string,
): string {
  const out: string[] = [];
  let done = 0;
  for (let at = html.indexOf(open); at >= 0; at = html.indexOf(open, done)) {
    const end = html.indexOf(close, at + open.length);
    if (end < 0) break;
    out.push(html.slice(done, at), fn(html.slice(at + open.length, end)));
    done = end + close.length;
  }
  return done === 0 ? html : out.join('') + html.slice(done);
}

/**
 * The readable text of an HTML page (or Confluence storage format) as Markdown: headings become
 * `#` lines, list items `-`, preformatted blocks fences, paragraphs and line breaks newlines;
 * scripts, styles, navigation, headers and footers are dropped. The `<main>` or `<article>` of a
 * page is preferred to its whole body. Not a full HTML parser: enough for documentation pages,
 * in time linear in the page.
 */
export function htmlToMarkdown(html: string): { title?: string; markdown: string } {
  html = closeDanglingTags(html);
  const titleText = firstElement(html, 'title');
  const title =
    titleText !== undefined ? restoreLt(clean(decodeEntities(stripTags(titleText)))) : undefined;
  let body = replaceBetween(html, '<!--', '-->', () => '');
  const main =
    firstElement(body, 'main') ?? firstElement(body, 'article') ?? firstElement(body, 'body');
  if (main !== undefined) body = main;
  body = replaceElements(body, DROPPED, () => ' ');
  // Confluence code macros carry their code in CDATA
  body = replaceBetween(body, '<![CDATA[', ']]>', (code) =>
    code.replace(/</g, '&lt;').replace(/>/g, '&gt;'),
  );
  const fences: string[] = [];
  body = replaceElements(body, ['pre'], (_, code) => {
    fences.push(decodeEntities(stripTags(code)).replace(/\n+$/, ''));
    return `\n\n\uE000${fences.length - 1}\uE000\n\n`;
  });
  body = closeDanglingTags(
    replaceElements(body, HEADINGS, (h, t) => {
      return `\n\n${'#'.repeat(Number(h.slice(1)))} ${clean(stripTags(t))}\n\n`;
    }),
  )
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/?(p|div|section|ul|ol|table|tr|blockquote|dl|dt|dd)\b[^>]*>/gi, '\n\n')
    .replace(/<\/?(td|th)\b[^>]*>/gi, ' | ');
  body = replaceElements(body, ['code'], (_, c) => `\`${stripTags(c)}\``);
  const text = decodeEntities(stripTags(body))
    .split('\n')
    .map((l) => l.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/\uE000(\d+)\uE000/g, (_, i: string) => `\`\`\`\n${fences[Number(i)]}\n\`\`\``)
    .trim();
  return { ...(title ? { title } : {}), markdown: restoreLt(text) };
}

/** Text without its tags; a `<` that no `>` follows stays text. Linear: each `>` is looked for once. */
function stripTags(s: string): string {
  const out: string[] = [];
  let done = 0;
  for (let at = s.indexOf('<'); at >= 0; at = s.indexOf('<', done)) {
    const end = s.indexOf('>', at + 1);
    if (end < 0) break;
    out.push(s.slice(done, at));
    done = end + 1;
  }
  return done === 0 ? s : out.join('') + s.slice(done);
}
const clean = (s: string) => s.replace(/\s+/g, ' ').trim();
