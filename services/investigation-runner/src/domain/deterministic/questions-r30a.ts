/**
 * A question of round30 (r30a): "is X still the primary? which pod and which node?" about a
 * replicated data store (CloudNativePG, Zalando/Patroni, Crunchy, a Redis/Valkey replication set).
 * The operators label the pod that is primary now (cnpg.io/instanceRole=primary, spilo-role=master,
 * ...) and record failovers as events ("Instance X is now the primary"); a runbook's name may be
 * out of date after a failover, so the labels the pods carry now answer it.
 */
import type { ClusterModel } from './model';
import type { ObjectView } from './observe';
import type { Question, Scope, Subject } from './scope';
import { clip } from './text';

/** the labels an operator sets on the pod that is primary (leader) now */
const ROLE_LABELS = [
  'cnpg.io/instanceRole',
  'role',
  'spilo-role',
  'postgres-operator.crunchydata.com/role',
  'app.kubernetes.io/role',
  'patroni.io/role',
  'redis.role',
];
const PRIMARY = /^(?:primary|master|leader)$/i;
/** the labels that name the cluster a pod is an instance of */
const CLUSTER_LABELS = [
  'cnpg.io/cluster',
  'cluster-name',
  'postgres-operator.crunchydata.com/cluster',
  'app.kubernetes.io/instance',
];
/** an operator's record of a failover or switchover */
const FAILOVER =
  /\bis now the (?:primary|leader|master)\b|\bfailing over\b|\bfailover\b|\bswitchover\b|\bpromot(?:ed|ing)\b/i;

const ROLE_WORD = '(?:primary|leader|master)';

export function primaryQuestion(
  t: string,
  namespaces: string[],
  subjects: Subject[],
): Question | undefined {
  if (/^\s*why\b/.test(t) || !t.includes('?')) return undefined;
  if (!new RegExp(`\\b${ROLE_WORD}\\b`).test(t)) return undefined;
  const asks = [
    // "is billing-pg-1 (still) the primary?", "is that still the leader?"
    new RegExp(`\\bis\\s+[\\w.-]+\\s+(?:still\\s+|currently\\s+|now\\s+)?the\\s+${ROLE_WORD}\\b`),
    // "which pod is the primary", "what instance is the current leader"
    new RegExp(
      `\\b(?:which|what)\\s+(?:pod|instance|node|replica|member|one|server)s?\\b[^?.]{0,40}\\b${ROLE_WORD}\\b`,
    ),
    // "who is the primary now", "where is the primary running"
    new RegExp(`\\b(?:who|where|which)\\s+is\\s+the\\s+(?:current\\s+)?${ROLE_WORD}\\b`),
    new RegExp(`\\bcurrent\\s+${ROLE_WORD}\\b[^.]*\\?`),
  ];
  if (!asks.some((re) => re.test(t))) return undefined;
  return {
    type: 'db_primary',
    namespace: namespaces[0],
    near: subjects.map((s) => s.name),
  };
}

const roleOf = (p: ObjectView): { label: string; value: string } | undefined => {
  const label = ROLE_LABELS.find((k) => p.labels[k]);
  return label ? { label, value: p.labels[label]! } : undefined;
};
const clusterOf = (model: ClusterModel, p: ObjectView): string => {
  const label = CLUSTER_LABELS.find((k) => p.labels[k]);
  return label ? p.labels[label]! : model.workloadOf(p).name;
};
/** "billing-pg-1" -> "billing-pg" (an instance's ordinal dropped) */
const base = (name: string) => name.replace(/-\d+$/, '');
const at = (ms?: number) =>
  ms ? ` at ${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC` : '';

export function currentPrimary(
  model: ClusterModel,
  namespace: string | undefined,
  scope: Scope,
  near: string[] = [],
): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const pods = model
    .list('pod', namespace)
    .filter(
      (p) =>
        p.kind === 'pod' &&
        (!namespace || p.namespace === namespace) &&
        !/^(?:Succeeded|Completed|Failed)$/.test(p.status ?? '') &&
        roleOf(p),
    );
  const names = [...near, ...scope.subjects.map((s) => s.name)];
  const groups = new Map<string, ObjectView[]>();
  for (const p of pods) {
    const c = clusterOf(model, p);
    groups.set(c, [...(groups.get(c) ?? []), p]);
  }
  const related = [...groups.entries()].filter(([c, ps]) =>
    names.some(
      (n) => n === c || base(n) === c || ps.some((p) => p.name === n || base(p.name) === base(n)),
    ),
  );
  const chosen = (related.length ? related : [...groups.entries()]).filter(([, ps]) =>
    ps.some((p) => PRIMARY.test(roleOf(p)!.value)),
  );
  const failovers = model.events
    .filter((e) => (!namespace || e.namespace === namespace) && FAILOVER.test(e.message))
    .sort((a, b) => (b.last ?? b.first ?? 0) - (a.last ?? a.first ?? 0));
  // the record of who became primary says most; else the newest failover record
  const decisive = failovers.find((e) => /\bis now the\b/i.test(e.message)) ?? failovers[0];
  const lastFailover = decisive
    ? ` The last failover the operator recorded: "${clip(decisive.message, 160)}"${at(decisive.last ?? decisive.first)}.`
    : '';
  if (!chosen.length) {
    const NOW_PRIMARY = /(?:Instance )?([\w.-]+) is now the (?:primary|leader|master)/i;
    const record = failovers.find((e) => NOW_PRIMARY.test(e.message));
    const named = record ? NOW_PRIMARY.exec(record.message)![1]! : undefined;
    if (record && named) {
      const p = model.get('pod', named, namespace);
      return `${named} is the primary${where} by the operator's last record ("${clip(record.message, 160)}"${at(record.last ?? record.first)})${p?.node ? `; it runs on node ${p.node}` : ''}. No pod read carries a role label that says so now.`;
    }
    return `I found no pod${where} labelled as primary (labels ${ROLE_LABELS.slice(0, 3).join(', ')}) and no failover recorded in its events, so I cannot say which instance is the primary from the data gathered.`;
  }
  const parts: string[] = [];
  for (const [cluster, ps] of chosen) {
    const primaries = ps.filter((p) => PRIMARY.test(roleOf(p)!.value));
    const pr = primaries
      .map((p) => {
        const r = roleOf(p)!;
        return `pod ${p.name} (label ${r.label}=${r.value}), on node ${p.node ?? 'unknown'}`;
      })
      .join(' and ');
    parts.push(
      `The primary of ${cluster}${where} is ${pr}${primaries.length > 1 ? ' (more than one pod is labelled primary: a split or a label not yet updated)' : ''}.`,
    );
    const others = ps.filter((p) => !primaries.includes(p));
    const askedNot = others.filter((p) => names.includes(p.name));
    for (const p of askedNot) {
      const r = roleOf(p)!;
      parts.push(
        `${p.name} is not the primary now: it is a ${r.value} (label ${r.label}=${r.value}) on node ${p.node ?? 'unknown'}.`,
      );
    }
    const rest = others.filter((p) => !askedNot.includes(p));
    if (rest.length)
      parts.push(
        `The other instance${rest.length === 1 ? '' : 's'}: ${rest.map((p) => `${p.name} (${roleOf(p)!.value}, node ${p.node ?? 'unknown'})`).join(', ')}.`,
      );
  }
  return `${parts.join(' ')}${lastFailover}`;
}
