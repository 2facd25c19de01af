/** Cuts a text to n characters, an ellipsis marking the cut. */
export const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Whether `text` names `name` as a whole token (between characters that are not letters or digits). */
export const namesToken = (text: string, name: string): boolean =>
  new RegExp(
    `(?:^|[^a-z0-9])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:[^a-z0-9]|$)`,
    'i',
  ).test(text);
