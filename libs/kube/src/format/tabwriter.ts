/**
 * Go's text/tabwriter, which kubectl prints through: cells end at a tab, a column's width is
 * set per block of consecutive lines that have that column, the last cell of a line is never
 * padded. Aligning the way kubectl does is what makes the output read like kubectl's.
 */
export function formatTabs(
  text: string,
  opts: { minWidth?: number; padding?: number } = {},
): string {
  const minWidth = opts.minWidth ?? 0;
  const padding = opts.padding ?? 2;
  const lines = text.split('\n').map((l) => l.split('\t'));
  const width = (s: string) => [...s].length;
  const out: string[] = [];
  const widths: number[] = [];

  const writeLines = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const cells = lines[i]!;
      let line = '';
      cells.forEach((c, j) => {
        line += c;
        if (j < widths.length && j < cells.length - 1)
          line += ' '.repeat(Math.max(0, widths[j]! - width(c)));
      });
      out.push(line);
    }
  };

  const format = (line0: number, line1: number) => {
    const column = widths.length;
    let start = line0;
    for (let i = line0; i < line1; i++) {
      if (column >= lines[i]!.length - 1) continue;
      writeLines(start, i);
      start = i;
      let w = minWidth;
      for (; i < line1; i++) {
        const cells = lines[i]!;
        if (column >= cells.length - 1) break;
        w = Math.max(w, width(cells[column]!) + padding);
      }
      widths.push(w);
      format(start, i);
      widths.pop();
      start = i;
      i--; // the outer loop's i++ must look at line `i` again
    }
    writeLines(start, line1);
  };

  format(0, lines.length);
  return out.map((l) => l.replace(/\s+$/, '')).join('\n');
}
