import { Link, useLocation } from 'wouter';

export interface SubNavPage {
  readonly href: string;
  readonly label: string;
}

/** Links between the pages of one area: a labelled navigation landmark, the current page marked. */
export function SubNav(props: { pages: readonly SubNavPage[]; label: string; className?: string }) {
  const [location] = useLocation();
  return (
    <nav className={props.className ?? 'subnav'} aria-label={props.label}>
      <ul>
        {props.pages.map((p) => (
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
