/**
 * Splits text into chunks of about `chunkSize` tokens (whitespace-separated words) without
 * breaking a fenced code block and starting a new chunk at a Markdown heading when the current
 * one is already half full. A chunk repeats the nearest heading above it so it reads on its own.
 */
export function chunkText(text: string, chunkSize: number): string[] {
  const blocks = toBlocks(text);
  const chunks: string[] = [];
  let cur: string[] = [];
  let curTokens = 0;
  let heading: string | undefined;
  const flush = () => {
    if (cur.length) chunks.push(cur.join('\n\n').trim());
    cur = [];
    curTokens = 0;
  };
  for (const b of blocks) {
    const tokens = countTokens(b.text);
    if (b.kind === 'heading') {
      if (curTokens >= chunkSize / 2) flush();
      heading = b.text;
      cur.push(b.text);
      curTokens += tokens;
      continue;
    }
    if (curTokens + tokens > chunkSize && curTokens > 0) {
      flush();
      if (heading) {
        cur.push(heading);
        curTokens += countTokens(heading);
      }
    }
    if (tokens > chunkSize && b.kind === 'text') {
      // a very long paragraph is cut at sentence ends (code blocks stay whole)
      for (const part of splitLong(b.text, chunkSize)) {
        if (curTokens + countTokens(part) > chunkSize && curTokens > 0) {
          flush();
          if (heading) {
            cur.push(heading);
            curTokens += countTokens(heading);
          }
        }
        cur.push(part);
        curTokens += countTokens(part);
      }
      continue;
    }
    cur.push(b.text);
    curTokens += tokens;
  }
  flush();
  return chunks.filter((c) => c.replace(/^#+.*$/gm, '').trim().length > 0 || chunks.length === 1);
}

export function countTokens(s: string): number {
  return s.split(/\s+/).filter(Boolean).length;
}

interface Block {
  kind: 'heading' | 'code' | 'text';
  text: string;
}

function toBlocks(text: string): Block[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const out: Block[] = [];
  let para: string[] = [];
  const endPara = () => {
    if (para.length) out.push({ kind: 'text', text: para.join('\n') });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*(```|~~~)/.test(line)) {
      endPara();
      const fence = line.trim().slice(0, 3);
      const code = [line];
      for (i++; i < lines.length; i++) {
        code.push(lines[i]!);
        if (lines[i]!.trim().startsWith(fence)) break;
      }
      out.push({ kind: 'code', text: code.join('\n') });
    } else if (/^#{1,6}\s/.test(line)) {
      endPara();
      out.push({ kind: 'heading', text: line.trim() });
    } else if (!line.trim()) {
      endPara();
    } else {
      para.push(line);
    }
  }
  endPara();
  return out;
}

function splitLong(text: string, size: number): string[] {
  const sentences = text.split(/(?<=[.!?])\s+/);
  const out: string[] = [];
  let cur: string[] = [];
  let n = 0;
  for (const s of sentences) {
    const words = s.split(/\s+/).filter(Boolean);
    if (words.length > size) {
      if (cur.length) out.push(cur.join(' '));
      cur = [];
      n = 0;
      for (let i = 0; i < words.length; i += size) out.push(words.slice(i, i + size).join(' '));
      continue;
    }
    if (n + words.length > size && cur.length) {
      out.push(cur.join(' '));
      cur = [];
      n = 0;
    }
    cur.push(s);
    n += words.length;
  }
  if (cur.length) out.push(cur.join(' '));
  return out;
}

/** Markdown upload: one section per top-level heading (the first heading level used). */
export function splitMarkdownSections(markdown: string): { title?: string; content: string }[] {
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  let inCode = false;
  const levels: number[] = [];
  for (const l of lines) {
    if (/^\s*(```|~~~)/.test(l)) inCode = !inCode;
    else if (!inCode) {
      const m = /^(#{1,6})\s/.exec(l);
      if (m) levels.push(m[1]!.length);
    }
  }
  if (!levels.length) return [{ content: markdown.trim() }];
  const top = Math.min(...levels);
  const sections: { title?: string; lines: string[] }[] = [{ lines: [] }];
  inCode = false;
  for (const l of lines) {
    if (/^\s*(```|~~~)/.test(l)) inCode = !inCode;
    const m = !inCode ? /^(#{1,6})\s+(.*)$/.exec(l) : null;
    if (m && m[1]!.length === top) sections.push({ title: m[2]!.trim(), lines: [l] });
    else sections[sections.length - 1]!.lines.push(l);
  }
  return sections
    .map((s) => ({ title: s.title, content: s.lines.join('\n').trim() }))
    .filter((s) => s.content.replace(/^#+.*$/gm, '').trim().length > 0);
}
