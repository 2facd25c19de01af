import { Suspense, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { useSession } from '../api/client';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { Loading } from '../components/Loading';
import { NAV, ROUTES } from '../routes';
import { initialTheme, storeTheme, type Theme } from './theme';

function TeamChooser() {
  const { client, session, setTeam } = useSession();
  const nodes = useQuery({
    queryKey: ['admin', 'nodes'],
    queryFn: ({ signal }) => client.admin.listNodes({}, { signal }),
    staleTime: 60_000,
  });
  const teams = (nodes.data?.nodes ?? []).filter((n) => n.kind === 'team');
  return (
    <label className="team-chooser">
      <span>Team</span>
      <select
        value={session.team ?? ''}
        onChange={(e) => setTeam(e.target.value || undefined)}
        disabled={nodes.isLoading}
      >
        <option value="">{nodes.isError ? 'could not list teams' : '— choose a team —'}</option>
        {teams.map((t) => (
          <option key={t.node_id} value={t.node_id}>
            {t.name}
          </option>
        ))}
        {session.team && !teams.some((t) => t.node_id === session.team) ? (
          <option value={session.team}>{session.team}</option>
        ) : null}
      </select>
    </label>
  );
}

function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(() => initialTheme());
  const next: Theme = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="ghost"
      aria-label={`Switch to ${next} theme`}
      onClick={() => {
        storeTheme(next);
        setTheme(next);
      }}
    >
      {theme === 'dark' ? '☀ Light' : '☾ Dark'}
    </button>
  );
}

function NotFound() {
  return (
    <section className="page">
      <h1>Page not found</h1>
      <p>
        There is no page here. <Link href="/investigations">Go to investigations</Link>.
      </p>
    </section>
  );
}

/** Top bar, left navigation, and the current page (lazily loaded, with its own error boundary). */
export function Layout() {
  const { isAdmin, signOut } = useSession();
  const [location] = useLocation();
  const [navOpen, setNavOpen] = useState(false);
  return (
    <div className="layout">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <button
          type="button"
          className="ghost nav-toggle"
          aria-expanded={navOpen}
          aria-controls="main-nav"
          onClick={() => setNavOpen((o) => !o)}
        >
          Menu
        </button>
        <Link href="/investigations" className="brand">
          Inquest
        </Link>
        <div className="topbar-actions">
          {isAdmin ? <TeamChooser /> : null}
          <ThemeToggle />
          <button type="button" className="ghost" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <nav id="main-nav" className={navOpen ? 'sidenav open' : 'sidenav'} aria-label="Main">
        <ul>
          {NAV.filter((n) => isAdmin || !n.adminOnly).map((n) => {
            const current = location === n.href || location.startsWith(`${n.href}/`);
            return (
              <li key={n.href}>
                <Link
                  href={n.href}
                  aria-current={current ? 'page' : undefined}
                  onClick={() => setNavOpen(false)}
                >
                  {n.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <main id="main" className="content" tabIndex={-1}>
        <ErrorBoundary key={location}>
          <Suspense fallback={<Loading />}>
            <Switch>
              <Route path="/">
                <Redirect to="/investigations" replace />
              </Route>
              {ROUTES.filter((r) => isAdmin || !r.adminOnly).map((r) => (
                <Route key={r.path} path={r.path} component={r.page} />
              ))}
              <Route component={NotFound} />
            </Switch>
          </Suspense>
        </ErrorBoundary>
      </main>
    </div>
  );
}
