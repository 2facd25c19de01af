import { Link, useLocation } from 'wouter';

/** The configuration area's pages, in the order of its sub-navigation. */
export const CONFIG_PAGES = [
  { href: '/configuration', label: 'Effective' },
  { href: '/configuration/edit', label: 'Edit' },
  { href: '/configuration/history', label: 'History' },
  { href: '/configuration/pending', label: 'Pending changes' },
] as const;

/** Links between the configuration pages (a labelled navigation landmark). */
export function ConfigNav() {
  const [location] = useLocation();
  return (
    <nav className="subnav" aria-label="Configuration sections">
      <ul>
        {CONFIG_PAGES.map((p) => (
          <li key={p.href}>
            <Link href={p.href} aria-current={location === p.href ? 'page' : undefined}>
              {p.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
