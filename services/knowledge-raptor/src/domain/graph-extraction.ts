import type { GraphEdgeRecord } from '@inquest/store';

const ENTITY = String.raw`([a-z][a-z0-9._-]{1,62})`;
const DEPENDS = new RegExp(
  String.raw`\b${ENTITY}\s+(?:depends on|relies on|calls|talks to|reads from|writes to)\s+(?:the\s+)?${ENTITY}`,
  'gi',
);
const DEP_LIST = /^\s*(?:[-*]\s*)?(?:depends[ _]on|dependencies|upstreams?)\s*:\s*(.+)$/gim;
const OWNER = /^\s*(?:[-*]\s*)?(?:owner|owned[ _]by|team)\s*:\s*([a-z0-9@._-]{2,64})\s*$/gim;
const EXPERT = /^\s*(?:[-*]\s*)?(?:experts?|contacts?|sme)\s*:\s*(.+)$/gim;
const STOP = new Set([
  'the',
  'this',
  'that',
  'it',
  'service',
  'which',
  'who',
  'and',
  'then',
  'also',
  'we',
  'you',
]);

/**
 * Entities and relations found in taught content: the document's service is owned_by the
 * team; the author is expert_in the service; "X depends on Y" / "Dependencies: a, b" lines give
 * depends_on; "Owner: t" owned_by; "Experts: a, b" expert_in.
 */
export function extractFromDocument(d: {
  team_id: string;
  service?: string;
  author?: string;
  content: string;
}): GraphEdgeRecord[] {
  const edges: GraphEdgeRecord[] = [];
  const svc = d.service?.toLowerCase();
  if (svc) {
    edges.push({
      from: svc,
      from_kind: 'service',
      to: d.team_id,
      to_kind: 'team',
      relation: 'owned_by',
      weight: 1,
    });
    if (d.author)
      edges.push({
        from: d.author,
        from_kind: 'person',
        to: svc,
        to_kind: 'service',
        relation: 'expert_in',
        weight: 1,
      });
  }
  for (const m of d.content.matchAll(DEPENDS)) {
    const a = m[1]!.toLowerCase();
    const b = m[2]!.toLowerCase();
    if (STOP.has(a) || STOP.has(b) || a === b) continue;
    edges.push({
      from: a,
      from_kind: 'service',
      to: b,
      to_kind: 'service',
      relation: 'depends_on',
      weight: 1,
    });
  }
  if (svc) {
    for (const m of d.content.matchAll(DEP_LIST)) {
      for (const dep of list(m[1]!)) {
        if (dep !== svc)
          edges.push({
            from: svc,
            from_kind: 'service',
            to: dep,
            to_kind: 'service',
            relation: 'depends_on',
            weight: 1,
          });
      }
    }
    for (const m of d.content.matchAll(OWNER)) {
      edges.push({
        from: svc,
        from_kind: 'service',
        to: m[1]!.toLowerCase(),
        to_kind: 'team',
        relation: 'owned_by',
        weight: 1,
      });
    }
    for (const m of d.content.matchAll(EXPERT)) {
      for (const p of list(m[1]!))
        edges.push({
          from: p,
          from_kind: 'person',
          to: svc,
          to_kind: 'service',
          relation: 'expert_in',
          weight: 1,
        });
    }
  }
  return edges;
}

/** From a completed investigation: affected systems are related_to the investigated service and to each other. */
export function extractFromInvestigation(
  service: string | undefined,
  affected: string[],
): GraphEdgeRecord[] {
  const systems = [...new Set(affected.map((s) => s.toLowerCase().trim()).filter(Boolean))].slice(
    0,
    20,
  );
  const edges: GraphEdgeRecord[] = [];
  const svc = service?.toLowerCase();
  if (svc) {
    for (const s of systems) {
      if (s !== svc)
        edges.push({
          from: svc,
          from_kind: 'service',
          to: s,
          to_kind: 'service',
          relation: 'related_to',
          weight: 1,
        });
    }
  }
  for (let i = 0; i < systems.length; i++) {
    for (let j = i + 1; j < systems.length; j++) {
      if (systems[i] === svc || systems[j] === svc) continue;
      edges.push({
        from: systems[i]!,
        from_kind: 'service',
        to: systems[j]!,
        to_kind: 'service',
        relation: 'related_to',
        weight: 0.5,
      });
    }
  }
  return edges;
}

function list(s: string): string[] {
  return s
    .split(/[,;]|\band\b/)
    .map((x) => x.trim().toLowerCase().replace(/[`*_]/g, ''))
    .filter((x) => /^[a-z0-9@][a-z0-9@._-]{1,62}$/.test(x));
}
