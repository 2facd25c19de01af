import { SubNav } from '../../components';

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

/** Links between the knowledge pages. */
export function KnowledgeNav() {
  return <SubNav pages={KNOWLEDGE_PAGES} label="Knowledge sections" className="kb-subnav" />;
}
