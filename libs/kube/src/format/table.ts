import { invalidField } from '@inquest/errors';
import { isBuiltinKind, resolveKind, type KindInfo } from '../kinds';
import { formatSelector } from '../selectors';
import { age, humanDuration, toDate } from '../time';
import type { Json, KubeObject, NodeMetrics, PodMetrics } from '../world';
import { accessModes } from './describe';
import { parseQuantity } from './quantity';
import { formatTabs } from './tabwriter';

export interface TableOptions {
  /** `-o wide` columns */
  wide?: boolean;
  /** a NAMESPACE column first, as `kubectl get -A` */
  allNamespaces?: boolean;
  /** for the "No resources found in <ns> namespace." line */
  namespace?: string;
  now: Date;
}

type Row = Array<string | number>;
interface Columns {
  headers: string[];
  wide?: string[];
  row(o: KubeObject, now: Date): Row;
  wideRow?(o: KubeObject, now: Date): Row;
}

const none = (v: unknown, dflt = '<none>') =>
  v === undefined || v === null || v === '' ? dflt : String(v);
const created = (o: KubeObject, now: Date) => age(o.metadata?.creationTimestamp, now);

/** READY, STATUS, RESTARTS of a pod computed the way kubectl's printer does. */
export function podStatus(
  pod: KubeObject,
  now: Date,
): { ready: string; status: string; restarts: string; restartCount: number } {
  const spec = pod.spec ?? {};
  const st = pod.status ?? {};
  let restarts = 0;
  let lastRestart: Date | undefined;
  const noteRestart = (c: Json) => {
    const t = toDate(c.lastState?.terminated?.finishedAt);
    if (t && (!lastRestart || t > lastRestart)) lastRestart = t;
  };
  let reason: string = st.reason || st.phase || 'Unknown';
  let initializing = false;
  const inits: Json[] = st.initContainerStatuses ?? [];
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i];
    restarts += c.restartCount ?? 0;
    noteRestart(c);
    const term = c.state?.terminated;
    if (term && (term.exitCode ?? 0) === 0) continue;
    if (
      c.started &&
      (spec.initContainers ?? []).find((x: Json) => x.name === c.name)?.restartPolicy === 'Always'
    )
      continue;
    if (term)
      reason = term.reason
        ? `Init:${term.reason}`
        : term.signal
          ? `Init:Signal:${term.signal}`
          : `Init:ExitCode:${term.exitCode}`;
    else if (c.state?.waiting?.reason && c.state.waiting.reason !== 'PodInitializing')
      reason = `Init:${c.state.waiting.reason}`;
    else reason = `Init:${i}/${(spec.initContainers ?? []).length}`;
    initializing = true;
    break;
  }
  let ready = 0;
  const initialized = (st.conditions ?? []).some(
    (c: Json) => c.type === 'Initialized' && c.status === 'True',
  );
  if (!initializing || initialized) {
    let hasRunning = false;
    const cs: Json[] = st.containerStatuses ?? [];
    for (let i = cs.length - 1; i >= 0; i--) {
      const c = cs[i];
      restarts += c.restartCount ?? 0;
      noteRestart(c);
      if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
      else if (c.state?.terminated?.reason) reason = c.state.terminated.reason;
      else if (c.state?.terminated)
        reason = c.state.terminated.signal
          ? `Signal:${c.state.terminated.signal}`
          : `ExitCode:${c.state.terminated.exitCode}`;
      else if (c.ready && c.state?.running) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      reason = (st.conditions ?? []).some((c: Json) => c.type === 'Ready' && c.status === 'True')
        ? 'Running'
        : 'NotReady';
    }
  }
  if (pod.metadata?.deletionTimestamp && st.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata?.deletionTimestamp && st.phase !== 'Succeeded' && st.phase !== 'Failed')
    reason = 'Terminating';
  const restartsText =
    restarts !== 0 && lastRestart
      ? `${restarts} (${humanDuration(now.getTime() - lastRestart.getTime())} ago)`
      : String(restarts);
  return {
    ready: `${ready}/${(spec.containers ?? []).length}`,
    status: reason,
    restarts: restartsText,
    restartCount: restarts,
  };
}

function nodeStatus(n: KubeObject): string {
  const ready = (n.status?.conditions ?? []).find((c: Json) => c.type === 'Ready');
  const parts = [ready?.status === 'True' ? 'Ready' : ready ? 'NotReady' : 'Unknown'];
  if (n.spec?.unschedulable) parts.push('SchedulingDisabled');
  return parts.join(',');
}

function nodeRoles(n: KubeObject): string {
  const roles = Object.keys(n.metadata?.labels ?? {})
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice('node-role.kubernetes.io/'.length));
  return roles.length ? roles.sort().join(',') : '<none>';
}

const containersOf = (template: Json) => (template?.spec?.containers ?? []) as Json[];
const workloadWide = (o: KubeObject): Row => [
  containersOf(o.spec?.template)
    .map((c) => c.name)
    .join(',') || '<none>',
  containersOf(o.spec?.template)
    .map((c) => c.image)
    .join(',') || '<none>',
  formatSelector(o.spec?.selector),
];

function servicePorts(s: KubeObject): string {
  const ports: Json[] = s.spec?.ports ?? [];
  if (!ports.length) return '<none>';
  return ports
    .map((p) =>
      p.nodePort
        ? `${p.port}:${p.nodePort}/${p.protocol ?? 'TCP'}`
        : `${p.port}/${p.protocol ?? 'TCP'}`,
    )
    .join(',');
}

function externalIp(s: KubeObject): string {
  const type = s.spec?.type ?? 'ClusterIP';
  const lb = (s.status?.loadBalancer?.ingress ?? []).map((i: Json) => i.ip ?? i.hostname);
  const ext: string[] = s.spec?.externalIPs ?? [];
  if (type === 'ExternalName') return s.spec?.externalName ?? '<none>';
  if (type === 'LoadBalancer') return [...lb, ...ext].join(',') || '<pending>';
  return ext.join(',') || '<none>';
}

function endpointsText(ep: KubeObject): string {
  const out: string[] = [];
  for (const s of (ep.subsets ?? []) as Json[]) {
    for (const a of s.addresses ?? []) {
      if (!s.ports?.length) out.push(a.ip);
      for (const p of s.ports ?? []) out.push(`${a.ip}:${p.port}`);
    }
  }
  if (!out.length) return '<none>';
  return out.length > 3
    ? `${out.slice(0, 3).join(',')} + ${out.length - 3} more...`
    : out.join(',');
}

function hpaTargets(h: KubeObject): string {
  const metrics: Json[] = h.spec?.metrics ?? [];
  if (!metrics.length) return '<none>';
  return metrics
    .map((m, i) => {
      const cur = h.status?.currentMetrics?.[i];
      if (m.type === 'Resource' || m.type === 'ContainerResource') {
        const r = m.resource ?? m.containerResource;
        const c = cur?.resource ?? cur?.containerResource;
        if (r.target?.type === 'Utilization') {
          return `${r.name}: ${c?.current?.averageUtilization !== undefined ? `${c.current.averageUtilization}%` : '<unknown>'}/${r.target.averageUtilization}%`;
        }
        return `${r.name}: ${c?.current?.averageValue ?? '<unknown>'}/${r.target?.averageValue ?? r.target?.value}`;
      }
      const body = m.pods ?? m.object ?? m.external ?? {};
      const c = cur?.pods ?? cur?.object ?? cur?.external;
      return `${body.metric?.name}: ${c?.current?.averageValue ?? c?.current?.value ?? '<unknown>'}/${body.target?.averageValue ?? body.target?.value}`;
    })
    .join(', ');
}

function jobStatus(j: KubeObject): string {
  const conds: Json[] = j.status?.conditions ?? [];
  const has = (t: string) => conds.some((c) => c.type === t && c.status === 'True');
  if (has('Failed')) return 'Failed';
  if (has('Complete')) return 'Complete';
  if (has('Suspended')) return 'Suspended';
  if (has('FailureTarget')) return 'FailureTarget';
  if (has('SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  return 'Running';
}

function jobDuration(j: KubeObject, now: Date): string {
  const start = toDate(j.status?.startTime);
  if (!start) return '';
  const end = toDate(j.status?.completionTime) ?? now;
  return humanDuration(end.getTime() - start.getTime());
}

function eventAge(e: KubeObject, now: Date): string {
  const last = e.lastTimestamp ?? e.series?.lastObservedTime ?? e.eventTime ?? e.firstTimestamp;
  const count = e.series?.count ?? e.count ?? 1;
  if (count > 1)
    return `${age(last, now)} (x${count} over ${age(e.firstTimestamp ?? e.eventTime, now)})`;
  return age(last, now);
}

function quotaUsage(q: KubeObject, limits: boolean): string {
  const hard: Record<string, string> = q.status?.hard ?? q.spec?.hard ?? {};
  return Object.keys(hard)
    .filter((k) => k.startsWith('limits.') === limits)
    .sort()
    .map((k) => `${k}: ${q.status?.used?.[k] ?? '0'}/${hard[k]}`)
    .join(', ');
}

const COLUMNS: Record<string, Columns> = {
  Pod: {
    headers: ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
    wide: ['IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES'],
    row: (p, now) => {
      const s = podStatus(p, now);
      return [p.metadata?.name ?? '', s.ready, s.status, s.restarts, created(p, now)];
    },
    wideRow: (p) => [
      none(p.status?.podIP),
      none(p.spec?.nodeName),
      none(p.status?.nominatedNodeName),
      (p.spec?.readinessGates ?? []).length ? String(p.spec.readinessGates.length) : '<none>',
    ],
  },
  Deployment: {
    headers: ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'],
    wide: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
    row: (d, now) => [
      d.metadata?.name ?? '',
      `${d.status?.readyReplicas ?? 0}/${d.spec?.replicas ?? 1}`,
      d.status?.updatedReplicas ?? 0,
      d.status?.availableReplicas ?? 0,
      created(d, now),
    ],
    wideRow: workloadWide,
  },
  ReplicaSet: {
    headers: ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE'],
    wide: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
    row: (r, now) => [
      r.metadata?.name ?? '',
      r.spec?.replicas ?? 1,
      r.status?.replicas ?? 0,
      r.status?.readyReplicas ?? 0,
      created(r, now),
    ],
    wideRow: workloadWide,
  },
  StatefulSet: {
    headers: ['NAME', 'READY', 'AGE'],
    wide: ['CONTAINERS', 'IMAGES'],
    row: (s, now) => [
      s.metadata?.name ?? '',
      `${s.status?.readyReplicas ?? 0}/${s.spec?.replicas ?? 1}`,
      created(s, now),
    ],
    wideRow: (s) => workloadWide(s).slice(0, 2),
  },
  DaemonSet: {
    headers: [
      'NAME',
      'DESIRED',
      'CURRENT',
      'READY',
      'UP-TO-DATE',
      'AVAILABLE',
      'NODE SELECTOR',
      'AGE',
    ],
    wide: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
    row: (d, now) => {
      const st = d.status ?? {};
      const sel = Object.entries(d.spec?.template?.spec?.nodeSelector ?? {})
        .map(([k, v]) => `${k}=${v}`)
        .join(',');
      return [
        d.metadata?.name ?? '',
        st.desiredNumberScheduled ?? 0,
        st.currentNumberScheduled ?? 0,
        st.numberReady ?? 0,
        st.updatedNumberScheduled ?? 0,
        st.numberAvailable ?? 0,
        sel || '<none>',
        created(d, now),
      ];
    },
    wideRow: workloadWide,
  },
  Job: {
    headers: ['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE'],
    wide: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
    row: (j, now) => [
      j.metadata?.name ?? '',
      jobStatus(j),
      `${j.status?.succeeded ?? 0}/${j.spec?.completions ?? 1}`,
      jobDuration(j, now),
      created(j, now),
    ],
    wideRow: workloadWide,
  },
  CronJob: {
    headers: ['NAME', 'SCHEDULE', 'TIMEZONE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE', 'AGE'],
    wide: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
    row: (c, now) => [
      c.metadata?.name ?? '',
      c.spec?.schedule ?? '',
      c.spec?.timeZone ?? '<none>',
      c.spec?.suspend ? 'True' : 'False',
      (c.status?.active ?? []).length,
      c.status?.lastScheduleTime ? age(c.status.lastScheduleTime, now) : '<none>',
      created(c, now),
    ],
    wideRow: (c) => [
      containersOf(c.spec?.jobTemplate?.spec?.template)
        .map((x) => x.name)
        .join(','),
      containersOf(c.spec?.jobTemplate?.spec?.template)
        .map((x) => x.image)
        .join(','),
      '<none>',
    ],
  },
  Service: {
    headers: ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE'],
    wide: ['SELECTOR'],
    row: (s, now) => [
      s.metadata?.name ?? '',
      s.spec?.type ?? 'ClusterIP',
      none(s.spec?.clusterIP),
      externalIp(s),
      servicePorts(s),
      created(s, now),
    ],
    wideRow: (s) => [s.spec?.selector ? formatSelector(s.spec.selector) : '<none>'],
  },
  Endpoints: {
    headers: ['NAME', 'ENDPOINTS', 'AGE'],
    row: (e, now) => [e.metadata?.name ?? '', endpointsText(e), created(e, now)],
  },
  EndpointSlice: {
    headers: ['NAME', 'ADDRESSTYPE', 'PORTS', 'ENDPOINTS', 'AGE'],
    row: (e, now) => [
      e.metadata?.name ?? '',
      e.addressType ?? '',
      (e.ports ?? []).map((p: Json) => p.port).join(',') || '<unset>',
      (e.endpoints ?? [])
        .flatMap((x: Json) => x.addresses ?? [])
        .slice(0, 3)
        .join(',') || '<unset>',
      created(e, now),
    ],
  },
  Ingress: {
    headers: ['NAME', 'CLASS', 'HOSTS', 'ADDRESS', 'PORTS', 'AGE'],
    row: (i, now) => [
      i.metadata?.name ?? '',
      i.spec?.ingressClassName ?? '<none>',
      (i.spec?.rules ?? []).map((r: Json) => r.host ?? '*').join(',') || '*',
      (i.status?.loadBalancer?.ingress ?? []).map((x: Json) => x.ip ?? x.hostname).join(','),
      i.spec?.tls?.length ? '80, 443' : '80',
      created(i, now),
    ],
  },
  IngressClass: {
    headers: ['NAME', 'CONTROLLER', 'PARAMETERS', 'AGE'],
    row: (c, now) => [
      c.metadata?.name ?? '',
      c.spec?.controller ?? '',
      c.spec?.parameters
        ? `${c.spec.parameters.apiGroup ? `${c.spec.parameters.apiGroup}/` : ''}${c.spec.parameters.kind}/${c.spec.parameters.name}`
        : '<none>',
      created(c, now),
    ],
  },
  Node: {
    headers: ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION'],
    wide: ['INTERNAL-IP', 'EXTERNAL-IP', 'OS-IMAGE', 'KERNEL-VERSION', 'CONTAINER-RUNTIME'],
    row: (n, now) => [
      n.metadata?.name ?? '',
      nodeStatus(n),
      nodeRoles(n),
      created(n, now),
      n.status?.nodeInfo?.kubeletVersion ?? '',
    ],
    wideRow: (n) => {
      const addr = (t: string) =>
        (n.status?.addresses ?? []).find((a: Json) => a.type === t)?.address ?? '<none>';
      const info = n.status?.nodeInfo ?? {};
      return [
        addr('InternalIP'),
        addr('ExternalIP'),
        none(info.osImage, '<unknown>'),
        none(info.kernelVersion, '<unknown>'),
        none(info.containerRuntimeVersion, '<unknown>'),
      ];
    },
  },
  Namespace: {
    headers: ['NAME', 'STATUS', 'AGE'],
    row: (n, now) => [n.metadata?.name ?? '', n.status?.phase ?? 'Active', created(n, now)],
  },
  ConfigMap: {
    headers: ['NAME', 'DATA', 'AGE'],
    row: (c, now) => [
      c.metadata?.name ?? '',
      Object.keys(c.data ?? {}).length + Object.keys(c.binaryData ?? {}).length,
      created(c, now),
    ],
  },
  Secret: {
    headers: ['NAME', 'TYPE', 'DATA', 'AGE'],
    row: (s, now) => [
      s.metadata?.name ?? '',
      s.type ?? 'Opaque',
      Object.keys(s.data ?? {}).length,
      created(s, now),
    ],
  },
  PersistentVolumeClaim: {
    headers: ['NAME', 'STATUS', 'VOLUME', 'CAPACITY', 'ACCESS MODES', 'STORAGECLASS', 'AGE'],
    wide: ['VOLUMEMODE'],
    row: (p, now) => [
      p.metadata?.name ?? '',
      p.status?.phase ?? '',
      p.spec?.volumeName ?? '',
      p.status?.capacity?.storage ?? '',
      accessModes(p.status?.accessModes),
      p.spec?.storageClassName ?? '<unset>',
      created(p, now),
    ],
    wideRow: (p) => [p.spec?.volumeMode ?? 'Filesystem'],
  },
  PersistentVolume: {
    headers: [
      'NAME',
      'CAPACITY',
      'ACCESS MODES',
      'RECLAIM POLICY',
      'STATUS',
      'CLAIM',
      'STORAGECLASS',
      'REASON',
      'AGE',
    ],
    wide: ['VOLUMEMODE'],
    row: (p, now) => [
      p.metadata?.name ?? '',
      p.spec?.capacity?.storage ?? '',
      accessModes(p.spec?.accessModes),
      p.spec?.persistentVolumeReclaimPolicy ?? '',
      p.status?.phase ?? '',
      p.spec?.claimRef ? `${p.spec.claimRef.namespace}/${p.spec.claimRef.name}` : '',
      p.spec?.storageClassName ?? '',
      p.status?.reason ?? '',
      created(p, now),
    ],
    wideRow: (p) => [p.spec?.volumeMode ?? 'Filesystem'],
  },
  StorageClass: {
    headers: [
      'NAME',
      'PROVISIONER',
      'RECLAIMPOLICY',
      'VOLUMEBINDINGMODE',
      'ALLOWVOLUMEEXPANSION',
      'AGE',
    ],
    row: (s, now) => [
      `${s.metadata?.name ?? ''}${s.metadata?.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true' ? ' (default)' : ''}`,
      s.provisioner ?? '',
      s.reclaimPolicy ?? 'Delete',
      s.volumeBindingMode ?? 'Immediate',
      s.allowVolumeExpansion ? 'true' : 'false',
      created(s, now),
    ],
  },
  HorizontalPodAutoscaler: {
    headers: ['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE'],
    row: (h, now) => [
      h.metadata?.name ?? '',
      `${h.spec?.scaleTargetRef?.kind}/${h.spec?.scaleTargetRef?.name}`,
      hpaTargets(h),
      h.spec?.minReplicas ?? 1,
      h.spec?.maxReplicas ?? 0,
      h.status?.currentReplicas ?? 0,
      created(h, now),
    ],
  },
  ResourceQuota: {
    headers: ['NAME', 'AGE', 'REQUEST', 'LIMIT'],
    row: (q, now) => [
      q.metadata?.name ?? '',
      created(q, now),
      quotaUsage(q, false),
      quotaUsage(q, true),
    ],
  },
  LimitRange: {
    headers: ['NAME', 'CREATED AT'],
    row: (l) => [
      l.metadata?.name ?? '',
      toDate(l.metadata?.creationTimestamp)?.toISOString().replace('.000Z', 'Z') ?? '',
    ],
  },
  ServiceAccount: {
    headers: ['NAME', 'SECRETS', 'AGE'],
    row: (s, now) => [s.metadata?.name ?? '', (s.secrets ?? []).length, created(s, now)],
  },
  Role: {
    headers: ['NAME', 'CREATED AT'],
    row: (r) => [
      r.metadata?.name ?? '',
      toDate(r.metadata?.creationTimestamp)?.toISOString().replace('.000Z', 'Z') ?? '',
    ],
  },
  RoleBinding: {
    headers: ['NAME', 'ROLE', 'AGE'],
    wide: ['USERS', 'GROUPS', 'SERVICEACCOUNTS'],
    row: (b, now) => [
      b.metadata?.name ?? '',
      `${b.roleRef?.kind}/${b.roleRef?.name}`,
      created(b, now),
    ],
    wideRow: (b) => {
      const of = (k: string) =>
        (b.subjects ?? [])
          .filter((s: Json) => s.kind === k)
          .map((s: Json) => (k === 'ServiceAccount' ? `${s.namespace}/${s.name}` : s.name))
          .join(', ');
      return [of('User'), of('Group'), of('ServiceAccount')];
    },
  },
  PodDisruptionBudget: {
    headers: ['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE'],
    row: (p, now) => [
      p.metadata?.name ?? '',
      none(p.spec?.minAvailable, 'N/A'),
      none(p.spec?.maxUnavailable, 'N/A'),
      p.status?.disruptionsAllowed ?? 0,
      created(p, now),
    ],
  },
  NetworkPolicy: {
    headers: ['NAME', 'POD-SELECTOR', 'AGE'],
    row: (n, now) => [
      n.metadata?.name ?? '',
      formatSelector(n.spec?.podSelector).replace('<none>', '<none>'),
      created(n, now),
    ],
  },
  Event: {
    headers: ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'],
    row: (e, now) => [
      eventAge(e, now),
      e.type ?? '',
      e.reason ?? '',
      `${String(e.involvedObject?.kind ?? '').toLowerCase()}/${e.involvedObject?.name ?? ''}`,
      String(e.message ?? '')
        .trim()
        .replace(/\n/g, ' '),
    ],
  },
};
COLUMNS.ClusterRole = COLUMNS.Role!;
COLUMNS.ClusterRoleBinding = COLUMNS.RoleBinding!;

const GENERIC: Columns = {
  headers: ['NAME', 'AGE'],
  row: (o, now) => [o.metadata?.name ?? '', created(o, now)],
};

const condition = (o: KubeObject, type: string): Json | undefined =>
  ((o.status?.conditions ?? []) as Json[]).find((c) => c?.type === type);
const oneLine = (v: unknown) =>
  String(v ?? '')
    .trim()
    .replace(/\s*\n\s*/g, ' ');
const readyStatus = (o: KubeObject) => none(condition(o, 'Ready')?.status, 'Unknown');
const readyMessage = (o: KubeObject) => oneLine(condition(o, 'Ready')?.message);
const readyReason = (o: KubeObject) => none(condition(o, 'Ready')?.reason, '');

/** Flux's kinds print Age, Ready and the Ready message (their CRDs' printer columns). */
const FLUX: Columns = {
  headers: ['NAME', 'AGE', 'READY', 'STATUS'],
  row: (o, now) => [o.metadata?.name ?? '', created(o, now), readyStatus(o), readyMessage(o)],
};
const FLUX_SOURCE: Columns = {
  headers: ['NAME', 'URL', 'AGE', 'READY', 'STATUS'],
  row: (o, now) => [
    o.metadata?.name ?? '',
    none(o.spec?.url, ''),
    created(o, now),
    readyStatus(o),
    readyMessage(o),
  ],
};
const CERT_ISSUER: Columns = {
  headers: ['NAME', 'READY', 'AGE'],
  wide: ['STATUS'],
  row: (o, now) => [o.metadata?.name ?? '', readyStatus(o), created(o, now)],
  wideRow: (o) => [readyMessage(o)],
};

/**
 * `kubectl get` columns of well-known custom resources: what their CRDs' additionalPrinterColumns
 * print (keyed `Kind.group`; a Flux kind by its group's suffix).
 */
const CUSTOM_COLUMNS: Record<string, Columns> = {
  'Application.argoproj.io': {
    headers: ['NAME', 'SYNC STATUS', 'HEALTH STATUS'],
    wide: ['REVISION'],
    row: (o) => [
      o.metadata?.name ?? '',
      none(o.status?.sync?.status, ''),
      none(o.status?.health?.status, ''),
    ],
    wideRow: (o) => [none(o.status?.sync?.revision, '')],
  },
  'Kustomization.kustomize.toolkit.fluxcd.io': FLUX,
  'HelmRelease.helm.toolkit.fluxcd.io': FLUX,
  'GitRepository.source.toolkit.fluxcd.io': FLUX_SOURCE,
  'HelmRepository.source.toolkit.fluxcd.io': FLUX_SOURCE,
  'OCIRepository.source.toolkit.fluxcd.io': FLUX_SOURCE,
  'Bucket.source.toolkit.fluxcd.io': {
    ...FLUX_SOURCE,
    headers: ['NAME', 'ENDPOINT', 'AGE', 'READY', 'STATUS'],
    row: (o, now) => [
      o.metadata?.name ?? '',
      none(o.spec?.endpoint, ''),
      created(o, now),
      readyStatus(o),
      readyMessage(o),
    ],
  },
  'Certificate.cert-manager.io': {
    headers: ['NAME', 'READY', 'SECRET', 'AGE'],
    wide: ['ISSUER', 'STATUS'],
    row: (o, now) => [
      o.metadata?.name ?? '',
      readyStatus(o),
      none(o.spec?.secretName, ''),
      created(o, now),
    ],
    wideRow: (o) => [none(o.spec?.issuerRef?.name, ''), readyMessage(o)],
  },
  'CertificateRequest.cert-manager.io': {
    headers: ['NAME', 'APPROVED', 'DENIED', 'READY', 'ISSUER', 'REQUESTOR', 'AGE'],
    wide: ['STATUS'],
    row: (o, now) => [
      o.metadata?.name ?? '',
      none(condition(o, 'Approved')?.status, ''),
      none(condition(o, 'Denied')?.status, ''),
      readyStatus(o),
      none(o.spec?.issuerRef?.name, ''),
      none(o.spec?.username, ''),
      created(o, now),
    ],
    wideRow: (o) => [readyMessage(o)],
  },
  'Issuer.cert-manager.io': CERT_ISSUER,
  'ClusterIssuer.cert-manager.io': CERT_ISSUER,
  'ExternalSecret.external-secrets.io': {
    headers: ['NAME', 'STORE', 'REFRESH INTERVAL', 'STATUS', 'READY'],
    row: (o) => [
      o.metadata?.name ?? '',
      none(o.spec?.secretStoreRef?.name, ''),
      none(o.spec?.refreshInterval, ''),
      readyReason(o),
      readyStatus(o),
    ],
  },
};

/**
 * A custom resource without known printer columns: NAME, READY and STATUS when its objects
 * report a Ready condition or a phase (what an investigation needs first), AGE.
 */
function customColumns(info: KindInfo, objects: KubeObject[]): Columns {
  const known =
    CUSTOM_COLUMNS[`${info.kind}.${info.group}`] ??
    (info.group.endsWith('.toolkit.fluxcd.io') ? FLUX : undefined);
  if (known) return known;
  const ready = objects.some((o) => condition(o, 'Ready'));
  const phase = objects.some((o) => o.status?.phase !== undefined);
  if (!ready && !phase) return GENERIC;
  return {
    headers: ['NAME', ...(ready ? ['READY'] : []), 'STATUS', 'AGE'],
    row: (o, now) => [
      o.metadata?.name ?? '',
      ...(ready ? [readyStatus(o)] : []),
      none(o.status?.phase ?? condition(o, 'Ready')?.reason, ''),
      created(o, now),
    ],
  };
}

const eventSortKey = (e: KubeObject) =>
  (
    toDate(e.lastTimestamp) ??
    toDate(e.series?.lastObservedTime) ??
    toDate(e.eventTime) ??
    toDate(e.firstTimestamp)
  )?.getTime() ?? 0;

/** The header and cells `kubectl get` would print, for structured answers next to the text. */
export function tableRows(
  kind: string | KindInfo,
  objects: KubeObject[],
  opts: TableOptions,
): { headers: string[]; rows: string[][] } {
  const info = typeof kind === 'string' ? resolveKind(kind) : kind;
  if (!info)
    throw invalidField('kind', `the server doesn't have a resource type "${String(kind)}"`);
  const cols = isBuiltinKind(info) ? (COLUMNS[info.kind] ?? GENERIC) : customColumns(info, objects);
  const withNs = opts.allNamespaces && info.namespaced;
  const headers = [
    ...(withNs ? ['NAMESPACE'] : []),
    ...cols.headers,
    ...(opts.wide ? (cols.wide ?? []) : []),
  ];
  const items =
    info.kind === 'Event'
      ? [...objects].sort((a, b) => eventSortKey(a) - eventSortKey(b))
      : objects;
  const rows = items.map((o) =>
    [
      ...(withNs ? [o.metadata?.namespace ?? ''] : []),
      ...cols.row(o, opts.now),
      ...(opts.wide && cols.wideRow ? cols.wideRow(o, opts.now) : []),
    ].map((c) => String(c).replace(/[\t\n]/g, ' ')),
  );
  return { headers, rows };
}

/**
 * Objects of one kind as `kubectl get` prints them (`-o wide` and `-A` too): the same columns,
 * STATUS/READY/RESTARTS computed as kubectl does, ages against `now`. Events are sorted oldest
 * first; other kinds keep the given order.
 */
export function getTable(
  kind: string | KindInfo,
  objects: KubeObject[],
  opts: TableOptions,
): string {
  const info = typeof kind === 'string' ? resolveKind(kind) : kind;
  if (!info)
    throw invalidField('kind', `the server doesn't have a resource type "${String(kind)}"`);
  if (objects.length === 0) {
    return info.namespaced && opts.namespace && !opts.allNamespaces
      ? `No resources found in ${opts.namespace} namespace.\n`
      : 'No resources found\n';
  }
  const { headers, rows } = tableRows(info, objects, opts);
  const text = [headers, ...rows].map((r) => r.join('\t')).join('\n');
  return formatTabs(text, { minWidth: 6, padding: 3 }) + '\n';
}

const milli = (q: string) => Math.round((parseQuantity(q) ?? 0) * 1000);
const mebi = (q: string) => Math.floor((parseQuantity(q) ?? 0) / 2 ** 20);

export interface TopOptions {
  /** `kubectl top pod --containers` */
  containers?: boolean;
  allNamespaces?: boolean;
  /** nodes, for CPU%/MEMORY% of allocatable */
  nodes?: KubeObject[];
}

/** metrics.k8s.io usage as `kubectl top pod` / `kubectl top node` prints it. */
export function topTable(
  kind: 'pods' | 'nodes',
  metrics: PodMetrics[] | NodeMetrics[],
  opts: TopOptions = {},
): string {
  if (metrics.length === 0) return 'No resources found\n';
  let lines: string[][];
  if (kind === 'nodes') {
    lines = [['NAME', 'CPU(cores)', 'CPU%', 'MEMORY(bytes)', 'MEMORY%']];
    for (const m of metrics as NodeMetrics[]) {
      const node = opts.nodes?.find((n) => n.metadata?.name === m.name);
      const cpuAlloc = parseQuantity(node?.status?.allocatable?.cpu);
      const memAlloc = parseQuantity(node?.status?.allocatable?.memory);
      const cpuPct = cpuAlloc
        ? `${Math.floor(((parseQuantity(m.cpu) ?? 0) / cpuAlloc) * 100)}%`
        : '<unknown>';
      const memPct = memAlloc
        ? `${Math.floor(((parseQuantity(m.memory) ?? 0) / memAlloc) * 100)}%`
        : '<unknown>';
      lines.push([m.name, `${milli(m.cpu)}m`, cpuPct, `${mebi(m.memory)}Mi`, memPct]);
    }
    for (const n of opts.nodes ?? []) {
      if (!(metrics as NodeMetrics[]).some((m) => m.name === n.metadata?.name)) {
        lines.push([n.metadata?.name ?? '', '<unknown>', '<unknown>', '<unknown>', '<unknown>']);
      }
    }
  } else {
    const ns = opts.allNamespaces ? ['NAMESPACE'] : [];
    if (opts.containers) {
      lines = [[...ns, 'POD', 'NAME', 'CPU(cores)', 'MEMORY(bytes)']];
      for (const p of metrics as PodMetrics[]) {
        for (const c of p.containers)
          lines.push([
            ...(opts.allNamespaces ? [p.namespace] : []),
            p.name,
            c.name,
            `${milli(c.cpu)}m`,
            `${mebi(c.memory)}Mi`,
          ]);
      }
    } else {
      lines = [[...ns, 'NAME', 'CPU(cores)', 'MEMORY(bytes)']];
      for (const p of metrics as PodMetrics[]) {
        const cpu = p.containers.reduce((s, c) => s + milli(c.cpu), 0);
        const mem = Math.floor(
          p.containers.reduce((s, c) => s + (parseQuantity(c.memory) ?? 0), 0) / 2 ** 20,
        );
        lines.push([...(opts.allNamespaces ? [p.namespace] : []), p.name, `${cpu}m`, `${mem}Mi`]);
      }
    }
  }
  return formatTabs(lines.map((l) => l.join('\t')).join('\n'), { minWidth: 6, padding: 3 }) + '\n';
}
