import { createHash } from 'node:crypto';
import type { Egress } from '@inquest/egress';
import type {
  SourceConnector,
  SourceDocument,
  SourceSettings,
} from '../../domain/sources/source-sync';
import { decodeEntities, htmlToMarkdown } from './html-to-markdown';

export interface WebSourceOptions {
  /** deadline of each page request */
  timeoutMs?: number;
  /** most pages read per source (a sitemap may list more) */
  maxPages?: number;
  /** nested sitemaps followed from a sitemap index */
  maxSitemaps?: number;
}

const isSitemap = (url: string) => /sitemap[^/]*\.xml$/i.test(new URL(url).pathname);

/**
 * A set of web pages: `url` and `urls`, where a `sitemap*.xml` stands for the pages it lists
 * (a sitemap index for its sitemaps). Every request goes through the egress guard; redirects are
 * not followed (the guard returns them), so a page that moved is reported, not read. A page's
 * version is the hash of its text: a page whose markup changed but not its words is not taught
 * again. A page that fails fails the source (its documents are kept, the error is shown).
 */
export class WebSourceConnector implements SourceConnector {
  constructor(
    private readonly egress: Egress,
    private readonly opts: WebSourceOptions = {},
  ) {}

  async fetch(source: SourceSettings, signal?: AbortSignal): Promise<SourceDocument[]> {
    const max = this.opts.maxPages ?? 500;
    const pages: string[] = [];
    for (const u of [source.url, ...(source.urls ?? [])]) {
      if (!/^https?:\/\//i.test(u)) throw new Error(`not an http(s) URL: ${u}`);
      if (isSitemap(u)) pages.push(...(await this.sitemap(u, signal, 0)));
      else pages.push(u);
    }
    const docs: SourceDocument[] = [];
    for (const page of [...new Set(pages)].slice(0, max)) {
      signal?.throwIfAborted();
      const res = await this.get(page, signal);
      const type = res.headers['content-type'] ?? '';
      const body = res.text();
      const { title, markdown } = /html|xml/i.test(type)
        ? htmlToMarkdown(body)
        : { title: undefined, markdown: body };
      if (!markdown.trim()) continue;
      docs.push({
        path: page,
        version: createHash('sha256').update(markdown).digest('hex').slice(0, 32),
        ...(title ? { title } : {}),
        content: title && !/^#\s/.test(markdown) ? `# ${title}\n\n${markdown}` : markdown,
        format: 'markdown',
      });
    }
    return docs;
  }

  private async get(url: string, signal?: AbortSignal) {
    const res = await this.egress.request(url, {
      headers: { accept: 'text/html, application/xml;q=0.9, text/plain;q=0.8' },
      signal,
      timeoutMs: this.opts.timeoutMs ?? 15_000,
    });
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    return res;
  }

  private async sitemap(url: string, signal: AbortSignal | undefined, depth: number) {
    const xml = (await this.get(url, signal)).text();
    const root = /<\s*(?:[\w-]+:)?(urlset|sitemapindex)\b/i.exec(xml)?.[1]?.toLowerCase();
    if (!root) throw new Error(`${url} is not a sitemap (no <urlset> or <sitemapindex>)`);
    const closed = locElements(xml);
    const opened = (xml.match(LOC_OPEN) ?? []).length;
    if (opened !== closed.length || !new RegExp(`</\\s*(?:[\\w-]+:)?${root}\\s*>`, 'i').test(xml))
      throw new Error(`${url} is a malformed sitemap`);
    const locs = closed
      .map((inner) => decodeEntities(inner.replace(/<!\[CDATA\[|\]\]>/g, '').trim()))
      .filter((l) => /^https?:\/\//i.test(l));
    if (root === 'urlset') return locs;
    if (depth >= 1) throw new Error(`${url}: sitemap indexes nested too deep`);
    const out: string[] = [];
    for (const l of locs.slice(0, this.opts.maxSitemaps ?? 50))
      out.push(...(await this.sitemap(l, signal, depth + 1)));
    return out;
  }
}

const LOC_OPEN = /<\s*(?:[\w-]+:)?loc\s*>/gi;
const LOC_CLOSE = /<\/\s*(?:[\w-]+:)?loc\s*>/gi;

/**
 * The inner text of each `<loc>…</loc>` (an opening tag to the first closing one after it, as a
 * lazy expression would), in time linear in the sitemap: a lazy expression over the whole text
 * was tried from every `<loc>` to the end when no `</loc>` followed (5 MiB of `<loc>` from a
 * team's sitemap URL held the service's thread for an hour).
 */
export function locElements(xml: string): string[] {
  const open = new RegExp(LOC_OPEN.source, 'gi');
  const close = new RegExp(LOC_CLOSE.source, 'gi');
  const out: string[] = [];
  for (let m = open.exec(xml); m; m = open.exec(xml)) {
    close.lastIndex = m.index + m[0].length;
    const end = close.exec(xml);
    // no closing tag after this opening one: none after a later one either
    if (!end) break;
    out.push(xml.slice(m.index + m[0].length, end.index));
    open.lastIndex = end.index + end[0].length;
  }
  return out;
}
