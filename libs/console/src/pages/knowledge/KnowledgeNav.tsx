import { Link, useLocation } from 'wouter';

/** The knowledge area's pages, in the order of its sub-navigation. */
export const KNOWLEDGE_PAGES = [
  { href: '/knowledge', label: 'Search' },
  { href: '/knowledge/ask', label: 'Ask' },
  { href: '/knowledge/teach', label: 'Teach & upload' },
  { href: '/knowledge/documents', label: 'Documents' },
  { href: '/knowledge/patterns', label: 'Learned patterns' },
  { href: '/knowledge/graph', label: 'Graph' },
  { href: '/knowledge/sources', label: 'Sources & tree' },
] as const;

/** Links between the knowledge pages (a second navigation landmark, labelled). */
export function KnowledgeNav() {
  const [location] = useLocation();
  return (
    <nav className="kb-subnav" aria-label="Knowledge sections">
      <ul>
        {KNOWLEDGE_PAGES.map((p) => (
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
