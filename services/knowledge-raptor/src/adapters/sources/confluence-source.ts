import type { Egress } from '@inquest/egress';
import type { SecretResolver } from '@inquest/secrets';
import type {
  SourceConnector,
  SourceDocument,
  SourceSettings,
} from '../../domain/sources/source-sync';
import { htmlToMarkdown } from './html-to-markdown';

export interface ConfluenceSourceOptions {
  secrets?: SecretResolver;
  /** deadline of each page of results */
  timeoutMs?: number;
  /** results asked per request */
  pageSize?: number;
  /** most pages read per space */
  maxPages?: number;
}

interface ContentPage {
  results?: {
    id?: string;
    type?: string;
    title?: string;
    version?: { number?: number };
    body?: { storage?: { value?: string } };
  }[];
  size?: number;
  _links?: { next?: string };
}

/**
 * Confluence (Cloud or Data Center): the pages of each of `space_keys`, from the REST API
 * `GET /wiki/rest/api/content?spaceKey=&type=page&expand=body.storage,version`, paginated by
 * `start`/`limit` while the answer has a `_links.next` (the link itself is not followed, so an
 * answer cannot send the sync to another host). The API token (a vault reference) goes as HTTP
 * Basic with `username` (Atlassian Cloud), or as a Bearer personal access token without one
 * (Data Center). A page's version is its Confluence version number; its storage-format body is
 * read as Markdown. Every request goes through the egress guard.
 */
export class ConfluenceSourceConnector implements SourceConnector {
  constructor(
    private readonly egress: Egress,
    private readonly opts: ConfluenceSourceOptions = {},
  ) {}

  async fetch(source: SourceSettings, signal?: AbortSignal): Promise<SourceDocument[]> {
    if (!source.space_keys?.length) throw new Error('a confluence source needs space_keys');
    let site: URL;
    try {
      site = new URL(source.url);
    } catch {
      throw new Error(`not a URL: ${source.url}`);
    }
    if (site.protocol !== 'https:' && site.protocol !== 'http:')
      throw new Error(`not an http(s) URL: ${source.url}`);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (source.token_ref) {
      if (!this.opts.secrets || !source.scope)
        throw new Error('no secret store to resolve the source token');
      const token = await this.opts.secrets.resolve(source.token_ref, source.scope);
      headers['authorization'] = source.username
        ? `Basic ${Buffer.from(`${source.username}:${token}`).toString('base64')}`
        : `Bearer ${token}`;
    }
    // the site, with or without its /wiki context path
    const root = site.href.replace(/\/+$/, '').replace(/\/wiki$/, '');
    const limit = this.opts.pageSize ?? 50;
    const docs: SourceDocument[] = [];
    for (const space of source.space_keys) {
      let start = 0;
      for (let n = 0; n < (this.opts.maxPages ?? 200); n++) {
        signal?.throwIfAborted();
        const q = new URLSearchParams({
          spaceKey: space,
          type: 'page',
          expand: 'body.storage,version',
          start: String(start),
          limit: String(limit),
        });
        const res = await this.egress.request(`${root}/wiki/rest/api/content?${q}`, {
          headers,
          signal,
          timeoutMs: this.opts.timeoutMs ?? 15_000,
        });
        if (res.status === 401 || res.status === 403)
          throw new Error(`Confluence answered ${res.status}: check username and token`);
        if (res.status !== 200)
          throw new Error(`Confluence answered ${res.status} for space ${space}`);
        let body: ContentPage;
        try {
          body = res.json() as ContentPage;
        } catch {
          throw new Error(`Confluence answered something other than JSON for space ${space}`);
        }
        const results = Array.isArray(body.results) ? body.results : [];
        for (const p of results) {
          if (!p.id || (p.type && p.type !== 'page')) continue;
          const { markdown } = htmlToMarkdown(p.body?.storage?.value ?? '');
          if (!markdown.trim()) continue;
          const title = p.title?.trim() || `Page ${p.id}`;
          docs.push({
            path: `${space}/${p.id}`,
            version: String(p.version?.number ?? 0),
            title,
            content: /^#\s/.test(markdown) ? markdown : `# ${title}\n\n${markdown}`,
            format: 'markdown',
          });
        }
        if (!body._links?.next || !results.length) break;
        start += body.size ?? results.length;
      }
    }
    return docs;
  }
}
