import {
  describe,
  getTable,
  topTable,
  toYaml,
  type KindInfo,
  type KubeObject,
  type WorldIndex,
} from '@inquest/kube';
import { ToolFailure } from './mcp-vocabulary-server';

/**
 * The objects `kubectl describe` reads besides the object itself: a workload's ReplicaSets and
 * pods, a CronJob's Jobs, a Node's pods, a PVC's namespace pods, a Service's Endpoints, a
 * Namespace's quotas and limit ranges.
 */
function relatedOf(world: WorldIndex, obj: KubeObject): KubeObject[] {
  const ns = obj.metadata?.namespace;
  switch (obj.kind) {
    case 'Deployment':
      return [...world.ownedBy(obj, 'ReplicaSet'), ...world.podsOf(obj)];
    case 'ReplicaSet':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'Job':
      return world.podsOf(obj);
    case 'CronJob':
      return world.ownedBy(obj, 'Job');
    case 'Node':
      return world.list('Pod');
    case 'PersistentVolumeClaim':
      return world.list('Pod', { namespace: ns });
    case 'Service':
      return world.list('Endpoints', { namespace: ns });
    case 'Namespace': {
      const name = obj.metadata?.name;
      return [
        ...world.list('ResourceQuota', { namespace: name }),
        ...world.list('LimitRange', { namespace: name }),
      ];
    }
    default:
      return [];
  }
}

/** A column appended after the last one, aligned the way kubectl's tab writer aligns it. */
function appendColumn(table: string, header: string, values: string[]): string {
  const lines = table.replace(/\n$/, '').split('\n');
  const width = Math.max(6, ...lines.map((l) => l.length + 3));
  return (
    lines.map((l, i) => l.padEnd(width) + (i === 0 ? header : (values[i - 1] ?? ''))).join('\n') +
    '\n'
  );
}

/** Columns put before the first one, aligned. */
function prependColumns(table: string, columns: { header: string; values: string[] }[]): string {
  const lines = table.replace(/\n$/, '').split('\n');
  const widths = columns.map((c) =>
    Math.max(6, c.header.length + 3, ...c.values.map((v) => v.length + 3)),
  );
  return (
    lines
      .map(
        (l, i) =>
          columns
            .map((c, j) => (i === 0 ? c.header : (c.values[i - 1] ?? '')).padEnd(widths[j]!))
            .join('') + l,
      )
      .join('\n') + '\n'
  );
}

const labelsOf = (o: KubeObject) => {
  const l = o.metadata?.labels ?? {};
  const keys = Object.keys(l).sort();
  return keys.length ? keys.map((k) => `${k}=${l[k]}`).join(',') : '<none>';
};

/** Go's time.Time.String() in UTC, as kubernetes-mcp-server prints event timestamps. */
function goTime(ts: unknown): string {
  const d = typeof ts === 'string' || ts instanceof Date ? new Date(ts) : undefined;
  if (!d || Number.isNaN(d.getTime())) return '0001-01-01 00:00:00 +0000 UTC';
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} +0000 UTC`;
}

/** What kubectl prints for a world, as the foreign vocabularies need it (over @inquest/kube). */
export function kubectl(world: WorldIndex) {
  const now = world.now;
  const metricsOff = () => new ToolFailure('error: Metrics API not available');
  const events = (o: KubeObject) =>
    world.events({
      involved: {
        kind: o.kind ?? '',
        name: o.metadata?.name ?? '',
        ...(o.metadata?.namespace ? { namespace: o.metadata.namespace } : {}),
      },
    });
  return {
    /** `kubectl describe <kind> <name>` */
    describe: (_info: KindInfo, obj: KubeObject) =>
      describe(obj, { events: events(obj), related: relatedOf(world, obj), now }),
    /** `kubectl get <kind> [-A] -o wide --show-labels` */
    table: (info: KindInfo, objs: KubeObject[], opts: { allNamespaces: boolean }) =>
      appendColumn(
        getTable(info, objs, { wide: true, allNamespaces: opts.allNamespaces, now }),
        'LABELS',
        objs.map(labelsOf),
      ),
    /** kubernetes-mcp-server's list table: NAMESPACE, APIVERSION, KIND, the wide columns, LABELS */
    mcpTable: (info: KindInfo, objs: KubeObject[]) =>
      prependColumns(
        appendColumn(
          getTable(info, objs, { wide: true, allNamespaces: false, now }),
          'LABELS',
          objs.map(labelsOf),
        ),
        [
          ...(info.namespaced
            ? [{ header: 'NAMESPACE', values: objs.map((o) => o.metadata?.namespace ?? '') }]
            : []),
          { header: 'APIVERSION', values: objs.map(() => info.apiVersion) },
          { header: 'KIND', values: objs.map(() => info.kind) },
        ],
      ),
    /** `kubectl get -o yaml` */
    yaml: (obj: KubeObject) => toYaml(obj),
    /** `kubectl events` (a table like `kubectl get events`) */
    events: (evs: KubeObject[], opts: { allNamespaces: boolean }) =>
      getTable('Event', evs, { allNamespaces: opts.allNamespaces, now }),
    /** kubernetes-mcp-server's events_list body: a YAML list of a few fields per event */
    eventsYaml: (evs: KubeObject[]) =>
      toYaml(
        evs.map((e) => {
          const ts =
            e.eventTime ??
            e.series?.lastObservedTime ??
            ((e.count ?? 0) > 1 ? e.lastTimestamp : undefined) ??
            e.firstTimestamp ??
            e.lastTimestamp;
          return {
            InvolvedObject: {
              Kind: e.involvedObject?.kind ?? '',
              Name: e.involvedObject?.name ?? '',
              apiVersion: e.involvedObject?.apiVersion ?? '',
            },
            Message: String(e.message ?? '').trim(),
            Namespace: e.metadata?.namespace ?? '',
            Reason: e.reason ?? '',
            Timestamp: goTime(ts),
            Type: e.type ?? '',
          };
        }),
      ),
    /** `kubectl top pod` */
    topPods: (opts: {
      allNamespaces: boolean;
      namespace?: string;
      name?: string;
      containers?: boolean;
    }) => {
      if (!world.hasMetrics()) throw metricsOff();
      const metrics = world
        .podMetrics(opts.allNamespaces ? undefined : opts.namespace)
        .filter((m) => !opts.name || m.name === opts.name);
      if (opts.name && !metrics.length) throw new ToolFailure(`pods "${opts.name}" not found`);
      return topTable('pods', metrics, {
        allNamespaces: opts.allNamespaces,
        containers: opts.containers ?? false,
      });
    },
    /** `kubectl top node` */
    topNodes: (name?: string) => {
      if (!world.hasMetrics()) throw metricsOff();
      const metrics = world.nodeMetrics().filter((m) => !name || m.name === name);
      const nodes = world.list('Node').filter((n) => !name || n.metadata?.name === name);
      return topTable('nodes', metrics, { nodes });
    },
  };
}
