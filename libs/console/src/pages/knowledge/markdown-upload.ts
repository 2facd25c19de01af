// What a Markdown file becomes before it is sent to POST /kb/documents: the checks the API would
// make (non-empty UTF-8 text, at most 1 MiB of content in a body of at most 1 MiB) done in the
// browser, so the user hears about a wrong file before the upload, and a preview of the documents
// the knowledge base will create (one per top-level heading section, as the service splits it).

/** The gateway refuses bodies over 1 MiB (413) and content over 1 MiB (400). */
export const MAX_UPLOAD_BYTES = 1024 * 1024;

/** File endings the upload accepts (Markdown, and plain text, which is Markdown too). */
export const MARKDOWN_EXTENSIONS = ['.md', '.markdown', '.mdown', '.txt'] as const;

/** The `accept` attribute of the file input. */
export const MARKDOWN_ACCEPT = [...MARKDOWN_EXTENSIONS, 'text/markdown', 'text/plain'].join(',');

export interface MarkdownSection {
  /** The heading text, or undefined for text before the first heading. */
  title?: string;
  content: string;
}

export type PreparedUpload =
  | {
      ok: true;
      content: string;
      /** The documents the service will create, in order. */
      sections: MarkdownSection[];
      /** Title proposed for text before the first heading: the file name without its ending. */
      suggestedTitle: string;
      bytes: number;
    }
  | { ok: false; error: string };

const encoder = new TextEncoder();
const byteLength = (s: string): number => encoder.encode(s).length;

/**
 * One section per heading of the highest level the document uses (`#`, or `##` when it has no
 * `#`), headings inside fenced code ignored; sections with nothing but headings are dropped.
 * Mirrors `splitMarkdownSections` of the knowledge service, which decides for real.
 */
export function splitMarkdownSections(markdown: string): MarkdownSection[] {
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  const fence = /^\s*(```|~~~)/;
  let inCode = false;
  const levels: number[] = [];
  for (const l of lines) {
    if (fence.test(l)) inCode = !inCode;
    else if (!inCode) {
      const m = /^(#{1,6})\s/.exec(l);
      if (m) levels.push(m[1]!.length);
    }
  }
  if (!levels.length) {
    const content = markdown.trim();
    return content ? [{ content }] : [];
  }
  const top = Math.min(...levels);
  const sections: { title?: string; lines: string[] }[] = [{ lines: [] }];
  inCode = false;
  for (const l of lines) {
    if (fence.test(l)) inCode = !inCode;
    const m = !inCode ? /^(#{1,6})\s+(.*)$/.exec(l) : null;
    if (m && m[1]!.length === top) sections.push({ title: m[2]!.trim(), lines: [l] });
    else sections[sections.length - 1]!.lines.push(l);
  }
  return sections
    .map((s) => ({ title: s.title, content: s.lines.join('\n').trim() }))
    .filter((s) => s.content.replace(/^#+.*$/gm, '').trim().length > 0);
}

/** "Runbook: DB failover.md" → "Runbook: DB failover". */
export function titleFromFileName(name: string): string {
  const base = name.replace(/^.*[\\/]/, '');
  const dot = base.lastIndexOf('.');
  return (dot > 0 ? base.slice(0, dot) : base).trim();
}

function hasMarkdownEnding(name: string): boolean {
  const lower = name.toLowerCase();
  return MARKDOWN_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/**
 * Checks a chosen file's bytes and decodes them. Refuses files that are not Markdown/text by
 * name, are not valid UTF-8, look binary (NUL bytes), are empty or only headings, or are too
 * large for the API once wrapped in the JSON body (`extra` are the other body fields).
 */
export function prepareMarkdownUpload(
  fileName: string,
  bytes: Uint8Array,
  extra: Record<string, unknown> = {},
): PreparedUpload {
  if (!hasMarkdownEnding(fileName)) {
    return {
      ok: false,
      error: `${fileName} is not a Markdown file: choose a file ending in ${MARKDOWN_EXTENSIONS.join(', ')}`,
    };
  }
  if (bytes.length > MAX_UPLOAD_BYTES) {
    return {
      ok: false,
      error: `${fileName} is larger than the 1 MiB limit (${bytes.length} bytes)`,
    };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, error: `${fileName} is not UTF-8 text` };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.includes('\u0000')) return { ok: false, error: `${fileName} looks like a binary file` };
  if (!text.trim()) return { ok: false, error: `${fileName} is empty` };
  const sections = splitMarkdownSections(text);
  if (!sections.length) {
    return { ok: false, error: `${fileName} has no text besides headings` };
  }
  const body = JSON.stringify({ ...extra, content: text });
  const size = byteLength(body);
  if (size > MAX_UPLOAD_BYTES) {
    return {
      ok: false,
      error: `${fileName} is too large to upload (${formatBytes(size)} with its fields; the limit is 1 MiB)`,
    };
  }
  return {
    ok: true,
    content: text,
    sections,
    suggestedTitle: titleFromFileName(fileName),
    bytes: byteLength(text),
  };
}

/** 1536 → "1.5 KiB". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1).replace(/\.0$/, '')} KiB`;
  return `${(n / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MiB`;
}
