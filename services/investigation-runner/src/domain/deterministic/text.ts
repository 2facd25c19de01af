/** Cuts a text to n characters, an ellipsis marking the cut. */
export const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Whether `text` names `name` as a whole token (between characters that are not letters or digits). */
export const namesToken = (text: string, name: string): boolean =>
  new RegExp(
    `(?:^|[^a-z0-9])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:[^a-z0-9]|$)`,
    'i',
  ).test(text);

/** The groups an entry's pattern may name its host in (one per alternative). */
export const HOSTS = [
  'host',
  'host2',
  'host3',
  'host4',
  'host5',
  'host6',
  'host7',
  'host8',
  'host9',
];

/** The host a finding's groups (or template variables) name, whichever alternative matched. */
export const hostOf = (groups: Record<string, string>): string | undefined =>
  HOSTS.map((k) => groups[k]).find(Boolean);
