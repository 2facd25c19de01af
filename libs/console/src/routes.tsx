// Every page of the console: ONE list, each page lazily loaded (its own chunk).
// To add a page: create libs/console/src/pages/<area>/<Name>Page.tsx with a default export,
// then add one line below. Paths are relative to /console.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export interface RouteEntry {
  /** wouter pattern, e.g. '/investigations/:id' */
  path: string;
  page: LazyExoticComponent<ComponentType>;
  /** only for admin tokens */
  adminOnly?: boolean;
}

export interface NavItem {
  label: string;
  href: string;
  adminOnly?: boolean;
}

/** The left navigation, in order. */
export const NAV: NavItem[] = [
  { label: 'Investigations', href: '/investigations' },
  { label: 'Configuration', href: '/configuration' },
  { label: 'Knowledge', href: '/knowledge' },
  { label: 'Deliveries', href: '/deliveries' },
  { label: 'Admin', href: '/admin', adminOnly: true },
];

export const ROUTES: RouteEntry[] = [
  // investigations (A)
  {
    path: '/investigations',
    page: lazy(() => import('./pages/investigations/InvestigationsPage')),
  },
  {
    path: '/investigations/new',
    page: lazy(() => import('./pages/investigations/NewInvestigationPage')),
  },
  {
    path: '/investigations/:id',
    page: lazy(() => import('./pages/investigations/InvestigationPage')),
  },
  // configuration + admin (B)
  { path: '/configuration', page: lazy(() => import('./pages/config/ConfigurationPage')) },
  { path: '/configuration/edit', page: lazy(() => import('./pages/config/ConfigEditPage')) },
  { path: '/configuration/history', page: lazy(() => import('./pages/config/ConfigHistoryPage')) },
  { path: '/configuration/pending', page: lazy(() => import('./pages/config/ConfigPendingPage')) },
  { path: '/admin', page: lazy(() => import('./pages/admin/AdminPage')), adminOnly: true },
  // knowledge + deliveries (C)
  { path: '/knowledge', page: lazy(() => import('./pages/knowledge/KnowledgeSearchPage')) },
  { path: '/knowledge/ask', page: lazy(() => import('./pages/knowledge/KnowledgeAskPage')) },
  { path: '/knowledge/teach', page: lazy(() => import('./pages/knowledge/KnowledgeTeachPage')) },
  {
    path: '/knowledge/documents',
    page: lazy(() => import('./pages/knowledge/KnowledgeDocumentsPage')),
  },
  {
    path: '/knowledge/patterns',
    page: lazy(() => import('./pages/knowledge/KnowledgePatternsPage')),
  },
  { path: '/knowledge/graph', page: lazy(() => import('./pages/knowledge/KnowledgeGraphPage')) },
  {
    path: '/knowledge/sources',
    page: lazy(() => import('./pages/knowledge/KnowledgeSourcesPage')),
  },
  { path: '/deliveries', page: lazy(() => import('./pages/deliveries/DeliveriesPage')) },
];
