import { SubNav } from '../../components';

/** The configuration area's pages, in the order of its sub-navigation. */
export const CONFIG_PAGES = [
  { href: '/configuration', label: 'Effective' },
  { href: '/configuration/edit', label: 'Edit' },
  { href: '/configuration/history', label: 'History' },
  { href: '/configuration/pending', label: 'Pending changes' },
] as const;

/** Links between the configuration pages. */
export function ConfigNav() {
  return <SubNav pages={CONFIG_PAGES} label="Configuration sections" />;
}
