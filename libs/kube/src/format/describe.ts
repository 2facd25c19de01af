import { builtinKindOf } from '../kinds';
import type { KubeObject, Json } from '../world';
import { formatSelector } from '../selectors';
import { age, toDate } from '../time';
import { formatCpu, formatMemory, parseQuantity } from './quantity';
import { formatTabs } from './tabwriter';

/** What a description needs besides the object: its events, related objects, and the time. */
export interface DescribeContext {
  /** events about this object (any order) */
  events: KubeObject[];
  /**
   * objects a description mentions: a Deployment's ReplicaSets, a Node's pods, a Service's
   * Endpoints, a PVC's pods, a Namespace's quotas and limit ranges, a CronJob's Jobs, a
   * workload's pods (for Pods Status)
   */
  related?: KubeObject[];
  now: Date;
}

const L1 = '  ';
const L2 = '    ';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad2 = (n: number) => String(n).padStart(2, '0');

/** Go's time.RFC1123Z in UTC, as kubectl prints timestamps: `Thu, 12 Mar 2026 10:05:00 +0000`. */
export function rfc1123z(ts: unknown): string {
  const d = toDate(ts);
  if (!d) return '<unknown>';
  return `${DAYS[d.getUTCDay()]}, ${pad2(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())} +0000`;
}

/** Go's Duration.String() for whole seconds: `0s`, `10s`, `1m0s`, `1h0m0s`. */
function goSeconds(s: number): string {
  if (s === 0) return '0s';
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h) return `${h}h${m}m${sec}s`;
  if (m) return `${m}m${sec}s`;
  return `${sec}s`;
}

const str = (v: unknown, dflt = '<none>') =>
  v === undefined || v === null || v === '' ? dflt : String(v);

/** kubectl's tabbed writer: lines with `\t` between cells, formatted once at the end. */
class Out {
  private readonly parts: string[] = [];
  line(indent: string, ...cells: Array<string | number | boolean>): void {
    this.parts.push(indent + cells.map(String).join('\t'));
  }
  raw(text: string): void {
    this.parts.push(text);
  }
  /** lines written so far */
  get size(): number {
    return this.parts.length;
  }
  /** keeps at most `max` of the lines written since `start`, then `note` */
  cap(start: number, max: number, note: (dropped: number) => string): void {
    const over = this.parts.length - start - max;
    if (over <= 0) return;
    this.parts.splice(start + max, over, note(over));
  }
  /** kubectl flushes before the events table; a tabless line has the same effect. */
  toString(): string {
    return formatTabs(this.parts.join('\n'), { padding: 2 }) + '\n';
  }
}

function multiline(
  w: Out,
  indent: string,
  title: string,
  map: Record<string, string> | undefined,
  skip: string[] = [],
): void {
  const entries = Object.entries(map ?? {})
    .filter(([k]) => !skip.includes(k))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (entries.length === 0) {
    w.line(indent, `${title}:`, '<none>');
    return;
  }
  entries.forEach(([k, v], i) => {
    const value = typeof v === 'string' && v.length > 140 ? `${v.slice(0, 140)}...` : v;
    if (i === 0) w.line(indent, `${title}:`, `${k}=${value}`);
    else w.line(indent, '', `${k}=${value}`);
  });
}

const annotations = (w: Out, indent: string, obj: KubeObject) =>
  multiline(w, indent, 'Annotations', obj.metadata?.annotations, [
    'kubectl.kubernetes.io/last-applied-configuration',
  ]);

function header(
  w: Out,
  obj: KubeObject,
  opts: { namespace?: boolean; created?: boolean } = {},
): void {
  w.line('', 'Name:', str(obj.metadata?.name));
  if (opts.namespace !== false) w.line('', 'Namespace:', str(obj.metadata?.namespace));
  if (opts.created) w.line('', 'CreationTimestamp:', rfc1123z(obj.metadata?.creationTimestamp));
  multiline(w, '', 'Labels', obj.metadata?.labels);
  annotations(w, '', obj);
}

function controlledBy(w: Out, obj: KubeObject): void {
  const ref = (obj.metadata?.ownerReferences ?? []).find((r: Json) => r.controller);
  if (ref) w.line('', 'Controlled By:', `${ref.kind}/${ref.name}`);
}

function eventSince(e: KubeObject, now: Date): string {
  const first = e.eventTime
    ? age(e.eventTime, now)
    : age(e.firstTimestamp ?? e.metadata?.creationTimestamp, now);
  if (e.series?.count)
    return `${age(e.series.lastObservedTime, now)} (x${e.series.count} over ${first})`;
  if ((e.count ?? 0) > 1) return `${age(e.lastTimestamp, now)} (x${e.count} over ${first})`;
  return first;
}

const eventTime = (e: KubeObject): number =>
  (
    toDate(e.lastTimestamp) ??
    toDate(e.series?.lastObservedTime) ??
    toDate(e.eventTime) ??
    toDate(e.firstTimestamp)
  )?.getTime() ?? 0;

function events(w: Out, list: KubeObject[], now: Date): void {
  if (list.length === 0) {
    w.line('', 'Events:', '<none>');
    return;
  }
  w.raw('Events:');
  w.line(L1, 'Type', 'Reason', 'Age', 'From', 'Message');
  w.line(L1, '----', '------', '----', '----', '-------');
  for (const e of [...list].sort((a, b) => eventTime(a) - eventTime(b))) {
    const from = e.source?.component || e.reportingComponent || e.reportingController || '';
    w.line(
      L1,
      str(e.type, ''),
      str(e.reason, ''),
      eventSince(e, now),
      from,
      String(e.message ?? '')
        .trim()
        .replace(/\n/g, ' '),
    );
  }
}

function conditionsTable(
  w: Out,
  conditions: Json[] | undefined,
  columns: Array<'Type' | 'Status' | 'Reason' | 'Message'>,
): void {
  if (!conditions?.length) return;
  w.raw('Conditions:');
  w.line(L1, ...columns);
  w.line(L1, ...columns.map((c) => '-'.repeat(c.length)));
  for (const c of conditions) {
    w.line(
      L1,
      ...columns.map((col) =>
        str(c[col.toLowerCase()], col === 'Status' || col === 'Type' ? '' : ''),
      ),
    );
  }
}

// ---------------------------------------------------------------- pods and templates

function probe(p: Json): string {
  const attrs = `delay=${goSeconds(p.initialDelaySeconds ?? 0)} timeout=${goSeconds(p.timeoutSeconds ?? 1)} period=${goSeconds(p.periodSeconds ?? 10)} #success=${p.successThreshold ?? 1} #failure=${p.failureThreshold ?? 3}`;
  if (p.exec) return `exec [${(p.exec.command ?? []).join(' ')}] ${attrs}`;
  if (p.httpGet) {
    const g = p.httpGet;
    const url = `${String(g.scheme ?? 'HTTP').toLowerCase()}://${g.host ?? ''}:${g.port}${g.path ?? ''}`;
    return `http-get ${url} ${attrs}`;
  }
  if (p.tcpSocket) return `tcp-socket ${p.tcpSocket.host ?? ''}:${p.tcpSocket.port} ${attrs}`;
  if (p.grpc) return `grpc <pod>:${p.grpc.port} ${p.grpc.service ?? ''} ${attrs}`;
  return `unknown ${attrs}`;
}

function containerState(w: Out, ind: string, title: string, state: Json): void {
  if (state?.running) {
    w.line(ind, `${title}:`, 'Running');
    w.line(ind, '  Started:', rfc1123z(state.running.startedAt));
  } else if (state?.waiting) {
    w.line(ind, `${title}:`, 'Waiting');
    if (state.waiting.reason) w.line(ind, '  Reason:', state.waiting.reason);
  } else if (state?.terminated) {
    const t = state.terminated;
    w.line(ind, `${title}:`, 'Terminated');
    if (t.reason) w.line(ind, '  Reason:', t.reason);
    if (t.message) w.line(ind, '  Message:', String(t.message).trim().replace(/\n/g, ' '));
    w.line(ind, '  Exit Code:', t.exitCode ?? 0);
    if (t.signal) w.line(ind, '  Signal:', t.signal);
    w.line(ind, '  Started:', rfc1123z(t.startedAt));
    w.line(ind, '  Finished:', rfc1123z(t.finishedAt));
  } else {
    w.line(ind, `${title}:`, 'Waiting');
  }
}

function containers(
  w: Out,
  space: string,
  list: Json[],
  statuses: Json[] | undefined,
  pod: boolean,
): void {
  const ind = space + L2;
  for (const c of list) {
    const s = statuses?.find((x: Json) => x.name === c.name);
    w.raw(`${space}${L1}${c.name}:`);
    if (s?.containerID) w.line(ind, 'Container ID:', s.containerID);
    w.line(ind, 'Image:', str(c.image, ''));
    if (s) w.line(ind, 'Image ID:', str(s.imageID, ''));
    const ports: Json[] = c.ports ?? [];
    const portStr = ports
      .map((p) => `${p.containerPort}/${p.protocol ?? 'TCP'}${p.name ? ` (${p.name})` : ''}`)
      .join(', ');
    const hostStr = ports.map((p) => `${p.hostPort ?? 0}/${p.protocol ?? 'TCP'}`).join(', ');
    w.line(ind, ports.length > 1 ? 'Ports:' : 'Port:', ports.length ? portStr : '<none>');
    w.line(ind, ports.length > 1 ? 'Host Ports:' : 'Host Port:', ports.length ? hostStr : '<none>');
    if (c.command?.length) {
      w.raw(`${ind}Command:`);
      for (const x of c.command) w.raw(`${ind}  ${x}`);
    }
    if (c.args?.length) {
      w.raw(`${ind}Args:`);
      for (const x of c.args) w.raw(`${ind}  ${x}`);
    }
    if (pod) {
      containerState(w, ind, 'State', s?.state);
      if (s?.lastState?.terminated) containerState(w, ind, 'Last State', s.lastState);
      w.line(ind, 'Ready:', s?.ready ? 'True' : 'False');
      w.line(ind, 'Restart Count:', s?.restartCount ?? 0);
    }
    for (const kind of ['limits', 'requests'] as const) {
      const r = c.resources?.[kind];
      if (r && Object.keys(r).length) {
        w.raw(`${ind}${kind === 'limits' ? 'Limits' : 'Requests'}:`);
        for (const name of Object.keys(r).sort()) w.line(ind + '  ', `${name}:`, r[name]);
      }
    }
    if (c.livenessProbe) w.line(ind, 'Liveness:', probe(c.livenessProbe));
    if (c.readinessProbe) w.line(ind, 'Readiness:', probe(c.readinessProbe));
    if (c.startupProbe) w.line(ind, 'Startup:', probe(c.startupProbe));
    if (c.envFrom?.length) {
      w.raw(`${ind}Environment Variables from:`);
      for (const f of c.envFrom) {
        const src = f.configMapRef ? ['ConfigMap', f.configMapRef] : ['Secret', f.secretRef ?? {}];
        const prefix = f.prefix ? ` with prefix '${f.prefix}'` : '';
        w.line(
          ind + '  ',
          `${src[1].name}`,
          `${src[0]}${prefix}`,
          `Optional: ${Boolean(src[1].optional)}`,
        );
      }
    }
    const env: Json[] = c.env ?? [];
    if (env.length === 0) w.line(ind, 'Environment:', '<none>');
    else {
      w.raw(`${ind}Environment:`);
      for (const e of env) {
        const vf = e.valueFrom;
        if (!vf)
          w.line(ind + '  ', `${e.name}:`, String(e.value ?? '').replace(/\n/g, `\n${ind}  `));
        else if (vf.fieldRef)
          w.line(
            ind + '  ',
            `${e.name}:`,
            ` (${vf.fieldRef.apiVersion ?? 'v1'}:${vf.fieldRef.fieldPath})`,
          );
        else if (vf.resourceFieldRef)
          w.line(
            ind + '  ',
            `${e.name}:`,
            `${vf.resourceFieldRef.resource ?? ''} (${vf.resourceFieldRef.containerName ?? c.name})`,
          );
        else if (vf.secretKeyRef)
          w.line(
            ind + '  ',
            `${e.name}:`,
            `<set to the key '${vf.secretKeyRef.key}' in secret '${vf.secretKeyRef.name}'>`,
            `Optional: ${Boolean(vf.secretKeyRef.optional)}`,
          );
        else if (vf.configMapKeyRef)
          w.line(
            ind + '  ',
            `${e.name}:`,
            `<set to the key '${vf.configMapKeyRef.key}' of config map '${vf.configMapKeyRef.name}'>`,
            `Optional: ${Boolean(vf.configMapKeyRef.optional)}`,
          );
        else w.line(ind + '  ', `${e.name}:`, '<unknown source>');
      }
    }
    const mounts: Json[] = [...(c.volumeMounts ?? [])].sort((a, b) =>
      String(a.mountPath).localeCompare(String(b.mountPath)),
    );
    if (mounts.length === 0) w.line(ind, 'Mounts:', '<none>');
    else {
      w.raw(`${ind}Mounts:`);
      for (const m of mounts) {
        const flags = [m.readOnly ? 'ro' : 'rw', ...(m.subPath ? [`path="${m.subPath}"`] : [])];
        w.raw(`${ind}  ${m.mountPath} from ${m.name} (${flags.join(',')})`);
      }
    }
  }
}

function volumes(w: Out, space: string, list: Json[] | undefined): void {
  if (!list?.length) {
    w.line(space, 'Volumes:', '<none>');
    return;
  }
  w.raw(`${space}Volumes:`);
  const ind = space + L2;
  for (const v of list) {
    w.raw(`${space}${L1}${v.name}:`);
    if (v.configMap) {
      w.line(ind, 'Type:', 'ConfigMap (a volume populated by a ConfigMap)');
      w.line(ind, 'Name:', v.configMap.name);
      w.line(ind, 'Optional:', Boolean(v.configMap.optional));
    } else if (v.secret) {
      w.line(ind, 'Type:', 'Secret (a volume populated by a Secret)');
      w.line(ind, 'SecretName:', v.secret.secretName);
      w.line(ind, 'Optional:', Boolean(v.secret.optional));
    } else if (v.emptyDir) {
      w.line(ind, 'Type:', "EmptyDir (a temporary directory that shares a pod's lifetime)");
      w.line(ind, 'Medium:', str(v.emptyDir.medium, ''));
      w.line(ind, 'SizeLimit:', str(v.emptyDir.sizeLimit, '<unset>'));
    } else if (v.persistentVolumeClaim) {
      w.line(
        ind,
        'Type:',
        'PersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)',
      );
      w.line(ind, 'ClaimName:', v.persistentVolumeClaim.claimName);
      w.line(ind, 'ReadOnly:', Boolean(v.persistentVolumeClaim.readOnly));
    } else if (v.hostPath) {
      w.line(ind, 'Type:', 'HostPath (bare host directory volume)');
      w.line(ind, 'Path:', v.hostPath.path);
      w.line(ind, 'HostPathType:', str(v.hostPath.type, ''));
    } else if (v.projected) {
      w.line(
        ind,
        'Type:',
        'Projected (a volume that contains injected data from multiple sources)',
      );
      for (const s of v.projected.sources ?? []) {
        if (s.serviceAccountToken)
          w.line(ind, 'TokenExpirationSeconds:', s.serviceAccountToken.expirationSeconds ?? 3607);
        if (s.configMap) {
          w.line(ind, 'ConfigMapName:', s.configMap.name);
          w.line(
            ind,
            'ConfigMapOptional:',
            s.configMap.optional === undefined ? '<nil>' : s.configMap.optional,
          );
        }
        if (s.secret) w.line(ind, 'SecretName:', s.secret.name);
        if (s.downwardAPI) w.line(ind, 'DownwardAPI:', 'true');
      }
    } else if (v.downwardAPI) {
      w.line(ind, 'Type:', 'DownwardAPI (a volume populated by information about the pod)');
      w.raw(`${ind}Items:`);
      for (const i of v.downwardAPI.items ?? [])
        w.raw(`${ind}  ${i.fieldRef?.fieldPath ?? i.resourceFieldRef?.resource} -> ${i.path}`);
    } else if (v.nfs) {
      w.line(ind, 'Type:', 'NFS (an NFS mount that lasts the lifetime of a pod)');
      w.line(ind, 'Server:', v.nfs.server);
      w.line(ind, 'Path:', v.nfs.path);
      w.line(ind, 'ReadOnly:', Boolean(v.nfs.readOnly));
    } else if (v.csi) {
      w.line(ind, 'Type:', 'CSI (a Container Storage Interface (CSI) volume source)');
      w.line(ind, 'Driver:', v.csi.driver);
      w.line(ind, 'FSType:', str(v.csi.fsType, ''));
      w.line(ind, 'ReadOnly:', Boolean(v.csi.readOnly));
    } else {
      w.line(ind, 'Type:', `<unknown>`);
    }
  }
}

function tolerationText(t: Json): string {
  let s = t.key ?? '';
  if (t.value) s += `=${t.value}`;
  if (t.effect) s += `:${t.effect}`;
  if (t.operator === 'Exists' && !t.value) s += t.key ? ' op=Exists' : 'op=Exists';
  if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null)
    s += ` for ${t.tolerationSeconds}s`;
  return s;
}

function list(w: Out, indent: string, title: string, items: string[]): void {
  if (items.length === 0) {
    w.line(indent, `${title}:`, '<none>');
    return;
  }
  items.forEach((it, i) => w.line(indent, i === 0 ? `${title}:` : '', it));
}

function podTemplate(w: Out, template: Json): void {
  const spec = template?.spec ?? {};
  w.raw('Pod Template:');
  multiline(w, L1, 'Labels', template?.metadata?.labels);
  if (template?.metadata?.annotations && Object.keys(template.metadata.annotations).length) {
    multiline(w, L1, 'Annotations', template.metadata.annotations);
  }
  if (spec.serviceAccountName) w.line(L1, 'Service Account:', spec.serviceAccountName);
  if (spec.initContainers?.length) {
    w.raw(`${L1}Init Containers:`);
    containers(w, L1, spec.initContainers, undefined, false);
  }
  w.raw(`${L1}Containers:`);
  containers(w, L1, spec.containers ?? [], undefined, false);
  volumes(w, L1, spec.volumes);
  multiline(w, L1, 'Node-Selectors', spec.nodeSelector);
  list(w, L1, 'Tolerations', (spec.tolerations ?? []).map(tolerationText));
}

function describePod(w: Out, pod: KubeObject, ctx: DescribeContext): void {
  const spec = pod.spec ?? {};
  const status = pod.status ?? {};
  w.line('', 'Name:', str(pod.metadata?.name));
  w.line('', 'Namespace:', str(pod.metadata?.namespace));
  w.line('', 'Priority:', spec.priority ?? 0);
  if (spec.priorityClassName) w.line('', 'Priority Class Name:', spec.priorityClassName);
  if (spec.runtimeClassName) w.line('', 'Runtime Class Name:', spec.runtimeClassName);
  w.line('', 'Service Account:', spec.serviceAccountName ?? 'default');
  w.line('', 'Node:', spec.nodeName ? `${spec.nodeName}/${status.hostIP ?? ''}` : '<none>');
  if (status.startTime) w.line('', 'Start Time:', rfc1123z(status.startTime));
  multiline(w, '', 'Labels', pod.metadata?.labels);
  annotations(w, '', pod);
  if (pod.metadata?.deletionTimestamp) {
    w.line('', 'Status:', `Terminating (lasts ${age(pod.metadata.deletionTimestamp, ctx.now)})`);
    w.line('', 'Termination Grace Period:', `${pod.metadata.deletionGracePeriodSeconds ?? 30}s`);
  } else w.line('', 'Status:', str(status.phase, 'Unknown'));
  if (status.reason) w.line('', 'Reason:', status.reason);
  if (status.message) w.line('', 'Message:', String(status.message).replace(/\n/g, ' '));
  w.line('', 'IP:', str(status.podIP, ''));
  const ips: Json[] = status.podIPs ?? (status.podIP ? [{ ip: status.podIP }] : []);
  if (ips.length === 0) w.line('', 'IPs:', '<none>');
  else {
    w.raw('IPs:');
    for (const ip of ips) w.line(L1, 'IP:', ip.ip);
  }
  controlledBy(w, pod);
  if (status.nominatedNodeName) w.line('', 'NominatedNodeName:', status.nominatedNodeName);
  if (spec.initContainers?.length) {
    w.raw('Init Containers:');
    containers(w, '', spec.initContainers, status.initContainerStatuses, true);
  }
  w.raw('Containers:');
  containers(w, '', spec.containers ?? [], status.containerStatuses, true);
  if (status.conditions?.length) {
    w.raw('Conditions:');
    w.line(L1, 'Type', 'Status');
    for (const c of status.conditions) w.line(L1, `${c.type} `, `${c.status} `);
  }
  volumes(w, '', spec.volumes);
  w.line('', 'QoS Class:', str(status.qosClass, 'BestEffort'));
  multiline(w, '', 'Node-Selectors', spec.nodeSelector);
  list(w, '', 'Tolerations', (spec.tolerations ?? []).map(tolerationText));
  events(w, ctx.events, ctx.now);
}

// ---------------------------------------------------------------- workloads

const related = (ctx: DescribeContext, kind: string) =>
  (ctx.related ?? []).filter((o) => o.kind === kind);

function podsStatus(ctx: DescribeContext): string {
  const pods = related(ctx, 'Pod');
  const n = (phase: string) => pods.filter((p) => p.status?.phase === phase).length;
  return `${n('Running')} Running / ${n('Pending')} Waiting / ${n('Succeeded')} Succeeded / ${n('Failed')} Failed`;
}

function rsSummary(rs: KubeObject): string {
  return `${rs.metadata?.name} (${rs.status?.replicas ?? 0}/${rs.spec?.replicas ?? 0} replicas created)`;
}

const revision = (o: KubeObject) =>
  Number(o.metadata?.annotations?.['deployment.kubernetes.io/revision'] ?? 0);

function describeDeployment(w: Out, d: KubeObject, ctx: DescribeContext): void {
  const spec = d.spec ?? {};
  const st = d.status ?? {};
  header(w, d, { created: true });
  w.line('', 'Selector:', formatSelector(spec.selector));
  w.line(
    '',
    'Replicas:',
    `${spec.replicas ?? 1} desired | ${st.updatedReplicas ?? 0} updated | ${st.replicas ?? 0} total | ${st.availableReplicas ?? 0} available | ${st.unavailableReplicas ?? 0} unavailable`,
  );
  w.line('', 'StrategyType:', spec.strategy?.type ?? 'RollingUpdate');
  w.line('', 'MinReadySeconds:', spec.minReadySeconds ?? 0);
  const ru = spec.strategy?.rollingUpdate;
  if ((spec.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate') {
    w.line(
      '',
      'RollingUpdateStrategy:',
      `${ru?.maxUnavailable ?? '25%'} max unavailable, ${ru?.maxSurge ?? '25%'} max surge`,
    );
  }
  podTemplate(w, spec.template);
  conditionsTable(w, st.conditions, ['Type', 'Status', 'Reason']);
  const rss = related(ctx, 'ReplicaSet').sort((a, b) => revision(b) - revision(a));
  const newest = rss.find((r) => revision(r) === Math.max(...rss.map(revision)));
  const old = rss.filter(
    (r) => r !== newest && ((r.spec?.replicas ?? 0) > 0 || (r.status?.replicas ?? 0) > 0),
  );
  w.line('', 'OldReplicaSets:', old.length ? old.map(rsSummary).join(', ') : '<none>');
  w.line('', 'NewReplicaSet:', newest ? rsSummary(newest) : '<none>');
  events(w, ctx.events, ctx.now);
}

function describeReplicaSet(w: Out, rs: KubeObject, ctx: DescribeContext): void {
  w.line('', 'Name:', str(rs.metadata?.name));
  w.line('', 'Namespace:', str(rs.metadata?.namespace));
  w.line('', 'Selector:', formatSelector(rs.spec?.selector));
  multiline(w, '', 'Labels', rs.metadata?.labels);
  annotations(w, '', rs);
  controlledBy(w, rs);
  w.line(
    '',
    'Replicas:',
    `${rs.status?.replicas ?? 0} current / ${rs.spec?.replicas ?? 1} desired`,
  );
  w.line('', 'Pods Status:', podsStatus(ctx));
  podTemplate(w, rs.spec?.template);
  conditionsTable(w, rs.status?.conditions, ['Type', 'Status', 'Reason']);
  events(w, ctx.events, ctx.now);
}

function describeStatefulSet(w: Out, s: KubeObject, ctx: DescribeContext): void {
  header(w, s, { created: true });
  w.line('', 'Selector:', formatSelector(s.spec?.selector));
  w.line('', 'Replicas:', `${s.spec?.replicas ?? 1} desired | ${s.status?.replicas ?? 0} total`);
  w.line('', 'Update Strategy:', s.spec?.updateStrategy?.type ?? 'RollingUpdate');
  if (s.spec?.updateStrategy?.rollingUpdate?.partition !== undefined) {
    w.line('', '  Partition:', s.spec.updateStrategy.rollingUpdate.partition);
  }
  w.line('', 'Pods Status:', podsStatus(ctx));
  podTemplate(w, s.spec?.template);
  const claims: Json[] = s.spec?.volumeClaimTemplates ?? [];
  if (claims.length === 0) w.line('', 'Volume Claims:', '<none>');
  else {
    w.raw('Volume Claims:');
    for (const c of claims) {
      w.line(L1, 'Name:', c.metadata?.name);
      w.line(L1, 'StorageClass:', str(c.spec?.storageClassName, ''));
      multiline(w, L1, 'Labels', c.metadata?.labels);
      multiline(w, L1, 'Annotations', c.metadata?.annotations);
      w.line(L1, 'Capacity:', str(c.spec?.resources?.requests?.storage, ''));
      w.line(L1, 'Access Modes:', (c.spec?.accessModes ?? []).join(', '));
    }
  }
  events(w, ctx.events, ctx.now);
}

function describeDaemonSet(w: Out, d: KubeObject, ctx: DescribeContext): void {
  const st = d.status ?? {};
  w.line('', 'Name:', str(d.metadata?.name));
  w.line('', 'Namespace:', str(d.metadata?.namespace));
  w.line('', 'Selector:', formatSelector(d.spec?.selector));
  w.line('', 'Node-Selector:', formatSelector(d.spec?.template?.spec?.nodeSelector));
  multiline(w, '', 'Labels', d.metadata?.labels);
  annotations(w, '', d);
  w.line('', 'Desired Number of Nodes Scheduled:', st.desiredNumberScheduled ?? 0);
  w.line('', 'Current Number of Nodes Scheduled:', st.currentNumberScheduled ?? 0);
  w.line('', 'Number of Nodes Scheduled with Up-to-date Pods:', st.updatedNumberScheduled ?? 0);
  w.line('', 'Number of Nodes Scheduled with Available Pods:', st.numberAvailable ?? 0);
  w.line('', 'Number of Nodes Misscheduled:', st.numberMisscheduled ?? 0);
  w.line('', 'Pods Status:', podsStatus(ctx));
  podTemplate(w, d.spec?.template);
  events(w, ctx.events, ctx.now);
}

function describeJob(w: Out, j: KubeObject, ctx: DescribeContext): void {
  const spec = j.spec ?? {};
  const st = j.status ?? {};
  w.line('', 'Name:', str(j.metadata?.name));
  w.line('', 'Namespace:', str(j.metadata?.namespace));
  w.line('', 'Selector:', formatSelector(spec.selector));
  multiline(w, '', 'Labels', j.metadata?.labels);
  annotations(w, '', j);
  controlledBy(w, j);
  w.line('', 'Parallelism:', spec.parallelism ?? 1);
  w.line('', 'Completions:', spec.completions ?? '<unset>');
  w.line('', 'Completion Mode:', spec.completionMode ?? 'NonIndexed');
  w.line('', 'Suspend:', Boolean(spec.suspend));
  w.line('', 'Backoff Limit:', spec.backoffLimit ?? 6);
  if (st.startTime) w.line('', 'Start Time:', rfc1123z(st.startTime));
  if (st.completionTime) {
    w.line('', 'Completed At:', rfc1123z(st.completionTime));
    const ms = toDate(st.completionTime)!.getTime() - (toDate(st.startTime)?.getTime() ?? 0);
    w.line('', 'Duration:', age(new Date(ctx.now.getTime() - ms), ctx.now));
  }
  if (spec.activeDeadlineSeconds)
    w.line('', 'Active Deadline Seconds:', `${spec.activeDeadlineSeconds}s`);
  w.line(
    '',
    'Pods Statuses:',
    `${st.active ?? 0} Active (${st.ready ?? 0} Ready) / ${st.succeeded ?? 0} Succeeded / ${st.failed ?? 0} Failed`,
  );
  podTemplate(w, spec.template);
  conditionsTable(w, st.conditions, ['Type', 'Status', 'Reason', 'Message']);
  events(w, ctx.events, ctx.now);
}

function describeCronJob(w: Out, c: KubeObject, ctx: DescribeContext): void {
  const spec = c.spec ?? {};
  const job = spec.jobTemplate?.spec ?? {};
  w.line('', 'Name:', str(c.metadata?.name));
  w.line('', 'Namespace:', str(c.metadata?.namespace));
  multiline(w, '', 'Labels', c.metadata?.labels);
  annotations(w, '', c);
  w.line('', 'Schedule:', str(spec.schedule, ''));
  if (spec.timeZone) w.line('', 'Time Zone:', spec.timeZone);
  w.line('', 'Concurrency Policy:', spec.concurrencyPolicy ?? 'Allow');
  w.line('', 'Suspend:', spec.suspend ? 'True' : 'False');
  w.line('', 'Successful Job History Limit:', spec.successfulJobsHistoryLimit ?? 3);
  w.line('', 'Failed Job History Limit:', spec.failedJobsHistoryLimit ?? 1);
  w.line(
    '',
    'Starting Deadline Seconds:',
    spec.startingDeadlineSeconds !== undefined ? `${spec.startingDeadlineSeconds}s` : '<unset>',
  );
  w.line('', 'Selector:', job.selector ? formatSelector(job.selector) : '<unset>');
  w.line('', 'Parallelism:', job.parallelism ?? '<unset>');
  w.line('', 'Completions:', job.completions ?? '<unset>');
  podTemplate(w, job.template);
  w.line(
    '',
    'Last Schedule Time:',
    c.status?.lastScheduleTime ? rfc1123z(c.status.lastScheduleTime) : '<unset>',
  );
  const active: Json[] = c.status?.active ?? [];
  w.line('', 'Active Jobs:', active.length ? active.map((a) => a.name).join(', ') : '<none>');
  events(w, ctx.events, ctx.now);
}

// ---------------------------------------------------------------- nodes and storage

function nodeRoles(n: KubeObject): string {
  const roles = Object.keys(n.metadata?.labels ?? {})
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice('node-role.kubernetes.io/'.length))
    .concat(
      n.metadata?.labels?.['kubernetes.io/role'] ? [n.metadata.labels['kubernetes.io/role']] : [],
    );
  return roles.length ? [...new Set(roles)].sort().join(',') : '<none>';
}

function podResources(pod: KubeObject): {
  cpuReq: number;
  cpuLim: number;
  memReq: number;
  memLim: number;
} {
  const sum = { cpuReq: 0, cpuLim: 0, memReq: 0, memLim: 0 };
  for (const c of (pod.spec?.containers ?? []) as Json[]) {
    sum.cpuReq += parseQuantity(c.resources?.requests?.cpu ?? c.resources?.limits?.cpu) ?? 0;
    sum.cpuLim += parseQuantity(c.resources?.limits?.cpu) ?? 0;
    sum.memReq += parseQuantity(c.resources?.requests?.memory ?? c.resources?.limits?.memory) ?? 0;
    sum.memLim += parseQuantity(c.resources?.limits?.memory) ?? 0;
  }
  return sum;
}

const pct = (v: number, total: number | undefined) => (total ? Math.floor((v / total) * 100) : 0);

function describeNode(w: Out, n: KubeObject, ctx: DescribeContext): void {
  const st = n.status ?? {};
  w.line('', 'Name:', str(n.metadata?.name));
  w.line('', 'Roles:', nodeRoles(n));
  multiline(w, '', 'Labels', n.metadata?.labels);
  annotations(w, '', n);
  w.line('', 'CreationTimestamp:', rfc1123z(n.metadata?.creationTimestamp));
  list(
    w,
    '',
    'Taints',
    (n.spec?.taints ?? []).map((t: Json) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`),
  );
  w.line('', 'Unschedulable:', Boolean(n.spec?.unschedulable));
  const conds: Json[] = st.conditions ?? [];
  if (conds.length) {
    w.raw('Conditions:');
    w.line(L1, 'Type', 'Status', 'LastHeartbeatTime', 'LastTransitionTime', 'Reason', 'Message');
    w.line(L1, '----', '------', '-----------------', '------------------', '------', '-------');
    for (const c of conds) {
      w.line(
        L1,
        `${c.type} `,
        `${c.status} `,
        `${rfc1123z(c.lastHeartbeatTime)} `,
        `${rfc1123z(c.lastTransitionTime)} `,
        `${str(c.reason, '')} `,
        str(c.message, ''),
      );
    }
  }
  w.raw('Addresses:');
  for (const a of (st.addresses ?? []) as Json[]) w.line(L1, `${a.type}:`, a.address);
  for (const [title, res] of [
    ['Capacity', st.capacity],
    ['Allocatable', st.allocatable],
  ] as const) {
    if (!res) continue;
    w.raw(`${title}:`);
    for (const k of Object.keys(res).sort()) w.line(L1, `${k}:`, res[k]);
  }
  const info = st.nodeInfo;
  if (info) {
    w.raw('System Info:');
    const rows: Array<[string, unknown]> = [
      ['Machine ID', info.machineID],
      ['System UUID', info.systemUUID],
      ['Boot ID', info.bootID],
      ['Kernel Version', info.kernelVersion],
      ['OS Image', info.osImage],
      ['Operating System', info.operatingSystem],
      ['Architecture', info.architecture],
      ['Container Runtime Version', info.containerRuntimeVersion],
      ['Kubelet Version', info.kubeletVersion],
      ['Kube-Proxy Version', info.kubeProxyVersion],
    ];
    for (const [k, v] of rows) w.line(L1, `${k}:`, str(v, ''));
  }
  if (n.spec?.podCIDR) {
    w.line('', 'PodCIDR:', n.spec.podCIDR);
    w.line('', 'PodCIDRs:', (n.spec.podCIDRs ?? [n.spec.podCIDR]).join(','));
  }
  if (n.spec?.providerID) w.line('', 'ProviderID:', n.spec.providerID);
  const pods = related(ctx, 'Pod').filter(
    (p) =>
      p.spec?.nodeName === n.metadata?.name &&
      p.status?.phase !== 'Succeeded' &&
      p.status?.phase !== 'Failed',
  );
  const alloc = st.allocatable ?? {};
  const cpuAlloc = parseQuantity(alloc.cpu);
  const memAlloc = parseQuantity(alloc.memory);
  w.line('', 'Non-terminated Pods:', `(${pods.length} in total)`);
  w.line(
    L1,
    'Namespace',
    'Name',
    '',
    'CPU Requests',
    'CPU Limits',
    'Memory Requests',
    'Memory Limits',
    'Age',
  );
  w.line(
    L1,
    '---------',
    '----',
    '',
    '------------',
    '----------',
    '---------------',
    '-------------',
    '---',
  );
  const total = { cpuReq: 0, cpuLim: 0, memReq: 0, memLim: 0 };
  for (const p of pods) {
    const r = podResources(p);
    total.cpuReq += r.cpuReq;
    total.cpuLim += r.cpuLim;
    total.memReq += r.memReq;
    total.memLim += r.memLim;
    w.line(
      L1,
      str(p.metadata?.namespace, ''),
      str(p.metadata?.name, ''),
      '',
      `${formatCpu(r.cpuReq)} (${pct(r.cpuReq, cpuAlloc)}%)`,
      `${formatCpu(r.cpuLim)} (${pct(r.cpuLim, cpuAlloc)}%)`,
      `${formatMemory(r.memReq)} (${pct(r.memReq, memAlloc)}%)`,
      `${formatMemory(r.memLim)} (${pct(r.memLim, memAlloc)}%)`,
      age(p.metadata?.creationTimestamp, ctx.now),
    );
  }
  w.raw('Allocated resources:');
  w.raw(`${L1}(Total limits may be over 100 percent, i.e., overcommitted.)`);
  w.line(L1, 'Resource', 'Requests', 'Limits');
  w.line(L1, '--------', '--------', '------');
  w.line(
    L1,
    'cpu',
    `${formatCpu(total.cpuReq)} (${pct(total.cpuReq, cpuAlloc)}%)`,
    `${formatCpu(total.cpuLim)} (${pct(total.cpuLim, cpuAlloc)}%)`,
  );
  w.line(
    L1,
    'memory',
    `${formatMemory(total.memReq)} (${pct(total.memReq, memAlloc)}%)`,
    `${formatMemory(total.memLim)} (${pct(total.memLim, memAlloc)}%)`,
  );
  events(w, ctx.events, ctx.now);
}

const ACCESS: Record<string, string> = {
  ReadWriteOnce: 'RWO',
  ReadOnlyMany: 'ROX',
  ReadWriteMany: 'RWX',
  ReadWriteOncePod: 'RWOP',
};
export const accessModes = (modes: string[] | undefined) =>
  (modes ?? []).map((m) => ACCESS[m] ?? m).join(',');

function describePvc(w: Out, pvc: KubeObject, ctx: DescribeContext): void {
  const spec = pvc.spec ?? {};
  const st = pvc.status ?? {};
  w.line('', 'Name:', str(pvc.metadata?.name));
  w.line('', 'Namespace:', str(pvc.metadata?.namespace));
  w.line('', 'StorageClass:', str(spec.storageClassName, ''));
  w.line('', 'Status:', str(st.phase, ''));
  w.line('', 'Volume:', str(spec.volumeName, ''));
  multiline(w, '', 'Labels', pvc.metadata?.labels);
  annotations(w, '', pvc);
  w.line('', 'Finalizers:', `[${(pvc.metadata?.finalizers ?? []).join(' ')}]`);
  w.line('', 'Capacity:', str(st.capacity?.storage, ''));
  w.line('', 'Access Modes:', accessModes(st.accessModes));
  w.line('', 'VolumeMode:', spec.volumeMode ?? 'Filesystem');
  const users = related(ctx, 'Pod').filter((p) =>
    (p.spec?.volumes ?? []).some(
      (v: Json) => v.persistentVolumeClaim?.claimName === pvc.metadata?.name,
    ),
  );
  list(
    w,
    '',
    'Used By',
    users.map((p) => String(p.metadata?.name)),
  );
  events(w, ctx.events, ctx.now);
}

function describePv(w: Out, pv: KubeObject, ctx: DescribeContext): void {
  const spec = pv.spec ?? {};
  w.line('', 'Name:', str(pv.metadata?.name));
  multiline(w, '', 'Labels', pv.metadata?.labels);
  annotations(w, '', pv);
  w.line('', 'Finalizers:', `[${(pv.metadata?.finalizers ?? []).join(' ')}]`);
  w.line('', 'StorageClass:', str(spec.storageClassName, ''));
  w.line('', 'Status:', str(pv.status?.phase, ''));
  w.line('', 'Claim:', spec.claimRef ? `${spec.claimRef.namespace}/${spec.claimRef.name}` : '');
  w.line('', 'Reclaim Policy:', str(spec.persistentVolumeReclaimPolicy, ''));
  w.line('', 'Access Modes:', accessModes(spec.accessModes));
  w.line('', 'VolumeMode:', spec.volumeMode ?? 'Filesystem');
  w.line('', 'Capacity:', str(spec.capacity?.storage, ''));
  w.line('', 'Node Affinity:', spec.nodeAffinity ? 'Required Terms' : '<none>');
  w.line('', 'Message:', str(pv.status?.message, ''));
  w.raw('Source:');
  const {
    capacity: _c,
    accessModes: _a,
    claimRef: _r,
    persistentVolumeReclaimPolicy: _p,
    storageClassName: _s,
    volumeMode: _v,
    nodeAffinity: _n,
    mountOptions: _m,
    ...source
  } = spec;
  const [type, src] = Object.entries(source)[0] ?? ['unknown', {}];
  w.line(
    L2,
    'Type:',
    type === 'hostPath'
      ? 'HostPath (bare host directory volume)'
      : type === 'csi'
        ? 'CSI (a Container Storage Interface (CSI) volume source)'
        : type,
  );
  for (const [k, v] of Object.entries((src ?? {}) as Record<string, unknown>)) {
    w.line(
      L2,
      `${k.charAt(0).toUpperCase()}${k.slice(1)}:`,
      typeof v === 'object' ? JSON.stringify(v) : String(v),
    );
  }
  events(w, ctx.events, ctx.now);
}

function describeStorageClass(w: Out, sc: KubeObject, ctx: DescribeContext): void {
  w.line('', 'Name:', str(sc.metadata?.name));
  const isDefault =
    sc.metadata?.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true';
  w.line('', 'IsDefaultClass:', isDefault ? 'Yes' : 'No');
  annotations(w, '', sc);
  w.line('', 'Provisioner:', str(sc.provisioner, ''));
  const params = Object.entries(sc.parameters ?? {}).map(([k, v]) => `${k}=${v}`);
  w.line('', 'Parameters:', params.length ? params.join(',') : '<none>');
  w.line(
    '',
    'AllowVolumeExpansion:',
    sc.allowVolumeExpansion === undefined ? '<unset>' : sc.allowVolumeExpansion ? 'True' : 'False',
  );
  w.line('', 'MountOptions:', sc.mountOptions?.length ? sc.mountOptions.join(', ') : '<none>');
  w.line('', 'ReclaimPolicy:', sc.reclaimPolicy ?? 'Delete');
  w.line('', 'VolumeBindingMode:', sc.volumeBindingMode ?? 'Immediate');
  events(w, ctx.events, ctx.now);
}

// ---------------------------------------------------------------- networking

function endpointsFor(ep: KubeObject | undefined, portName?: string): string {
  if (!ep) return '<none>';
  const out: string[] = [];
  for (const s of (ep.subsets ?? []) as Json[]) {
    const port =
      (s.ports ?? []).find((p: Json) => !portName || p.name === portName) ?? s.ports?.[0];
    for (const a of s.addresses ?? []) out.push(port ? `${a.ip}:${port.port}` : a.ip);
  }
  if (out.length === 0) return '';
  return out.length > 3
    ? `${out.slice(0, 3).join(',')} + ${out.length - 3} more...`
    : out.join(',');
}

function describeService(w: Out, svc: KubeObject, ctx: DescribeContext): void {
  const spec = svc.spec ?? {};
  header(w, svc);
  w.line('', 'Selector:', spec.selector ? formatSelector(spec.selector) : '<none>');
  w.line('', 'Type:', spec.type ?? 'ClusterIP');
  if (spec.ipFamilyPolicy) w.line('', 'IP Family Policy:', spec.ipFamilyPolicy);
  if (spec.ipFamilies) w.line('', 'IP Families:', spec.ipFamilies.join(','));
  w.line('', 'IP:', str(spec.clusterIP, ''));
  w.line(
    '',
    'IPs:',
    (spec.clusterIPs ?? (spec.clusterIP ? [spec.clusterIP] : [])).join(',') || '<none>',
  );
  const lb: Json[] = svc.status?.loadBalancer?.ingress ?? [];
  if (lb.length) w.line('', 'LoadBalancer Ingress:', lb.map((i) => i.ip ?? i.hostname).join(', '));
  if (spec.externalName) w.line('', 'External Name:', spec.externalName);
  const ep = related(ctx, 'Endpoints').find((e) => e.metadata?.name === svc.metadata?.name);
  for (const p of (spec.ports ?? []) as Json[]) {
    w.line('', 'Port:', p.name ?? '<unset>', `${p.port}/${p.protocol ?? 'TCP'}`);
    w.line('', 'TargetPort:', `${p.targetPort ?? p.port}/${p.protocol ?? 'TCP'}`);
    if (p.nodePort)
      w.line('', 'NodePort:', p.name ?? '<unset>', `${p.nodePort}/${p.protocol ?? 'TCP'}`);
    w.line('', 'Endpoints:', endpointsFor(ep, p.name));
  }
  w.line('', 'Session Affinity:', spec.sessionAffinity ?? 'None');
  if (spec.externalTrafficPolicy)
    w.line('', 'External Traffic Policy:', spec.externalTrafficPolicy);
  if (spec.internalTrafficPolicy)
    w.line('', 'Internal Traffic Policy:', spec.internalTrafficPolicy);
  events(w, ctx.events, ctx.now);
}

function describeEndpoints(w: Out, ep: KubeObject, ctx: DescribeContext): void {
  header(w, ep);
  w.raw('Subsets:');
  for (const s of (ep.subsets ?? []) as Json[]) {
    const ips = (l: Json[] | undefined) => (l?.length ? l.map((a) => a.ip).join(',') : '<none>');
    w.line(L1, 'Addresses:', ips(s.addresses));
    w.line(L1, 'NotReadyAddresses:', ips(s.notReadyAddresses));
    w.raw(`${L1}Ports:`);
    w.line(L2, 'Name', 'Port', 'Protocol');
    w.line(L2, '----', '----', '--------');
    for (const p of s.ports ?? []) w.line(L2, p.name ?? '<unset>', p.port, p.protocol ?? 'TCP');
    w.raw('');
  }
  events(w, ctx.events, ctx.now);
}

function describeIngressClass(w: Out, c: KubeObject, ctx: DescribeContext): void {
  w.line('', 'Name:', str(c.metadata?.name));
  multiline(w, '', 'Labels', c.metadata?.labels);
  annotations(w, '', c);
  w.line('', 'Controller:', str(c.spec?.controller, ''));
  const p = c.spec?.parameters;
  if (p) {
    w.raw('Parameters:');
    if (p.apiGroup) w.line(L1, 'APIGroup:', str(p.apiGroup));
    w.line(L1, 'Kind:', str(p.kind));
    w.line(L1, 'Name:', str(p.name));
  }
  events(w, ctx.events, ctx.now);
}

function describeIngress(w: Out, ing: KubeObject, ctx: DescribeContext): void {
  const spec = ing.spec ?? {};
  w.line('', 'Name:', str(ing.metadata?.name));
  multiline(w, '', 'Labels', ing.metadata?.labels);
  w.line('', 'Namespace:', str(ing.metadata?.namespace));
  const addr = (ing.status?.loadBalancer?.ingress ?? [])
    .map((i: Json) => i.ip ?? i.hostname)
    .join(',');
  w.line('', 'Address:', addr);
  w.line('', 'Ingress Class:', spec.ingressClassName ?? '<none>');
  const backend = (b: Json) =>
    b?.service
      ? `${b.service.name}:${b.service.port?.number ?? b.service.port?.name}`
      : b?.resource
        ? `${b.resource.kind}/${b.resource.name}`
        : '<default>';
  w.line('', 'Default backend:', spec.defaultBackend ? backend(spec.defaultBackend) : '<default>');
  if (spec.tls?.length) {
    w.raw('TLS:');
    for (const t of spec.tls)
      w.raw(`${L1}${t.secretName ?? 'SNI'} terminates ${(t.hosts ?? []).join(',')}`);
  }
  w.raw('Rules:');
  w.line(L1, 'Host', 'Path', 'Backends');
  w.line(L1, '----', '----', '--------');
  for (const r of (spec.rules ?? []) as Json[]) {
    w.line(L1, r.host ?? '*', '');
    for (const p of r.http?.paths ?? []) {
      // kubectl: "\t%s \t%s (%s)" with the backend service's endpoints when it knows them
      const svc = p.backend?.service?.name;
      const ep = svc ? related(ctx, 'Endpoints').find((e) => e.metadata?.name === svc) : undefined;
      const eps = ep ? ` (${endpointsFor(ep) || '<none>'})` : '';
      w.line(L1, '', `${p.path ?? '/'} `, `${backend(p.backend)}${eps}`);
    }
  }
  annotations(w, '', ing);
  events(w, ctx.events, ctx.now);
}

// ---------------------------------------------------------------- config

function describeConfigMap(w: Out, cm: KubeObject, ctx: DescribeContext): void {
  header(w, cm);
  w.raw('');
  w.raw('Data');
  w.raw('====');
  for (const k of Object.keys(cm.data ?? {}).sort()) {
    w.raw(`${k}:`);
    w.raw('----');
    w.raw(String(cm.data[k]).replace(/\t/g, '    ').replace(/\n$/, ''));
    w.raw('');
  }
  w.raw('');
  w.raw('BinaryData');
  w.raw('====');
  for (const k of Object.keys(cm.binaryData ?? {}).sort()) {
    w.raw(`${k}: ${Buffer.from(String(cm.binaryData[k]), 'base64').length} bytes`);
  }
  w.raw('');
  events(w, ctx.events, ctx.now);
}

function describeSecret(w: Out, s: KubeObject, ctx: DescribeContext): void {
  header(w, s);
  w.raw('');
  w.line('', 'Type:', str(s.type, 'Opaque'));
  w.raw('');
  w.raw('Data');
  w.raw('====');
  const data: Record<string, string> = s.data ?? {};
  const sizes: Array<[string, number]> = Object.keys(data).map((k) => [
    k,
    Buffer.from(String(data[k]), 'base64').length,
  ]);
  for (const [k, v] of Object.entries(s.stringData ?? {}))
    sizes.push([k, Buffer.byteLength(String(v))]);
  for (const [k, n] of sizes.sort(([a], [b]) => a.localeCompare(b)))
    w.line('', `${k}:`, `${n} bytes`);
  w.raw('');
  events(w, ctx.events, ctx.now);
}

function hpaMetric(m: Json, current: Json | undefined): [string, string] {
  const t =
    m[
      m.type === 'Resource'
        ? 'resource'
        : m.type === 'ContainerResource'
          ? 'containerResource'
          : m.type === 'Pods'
            ? 'pods'
            : m.type === 'Object'
              ? 'object'
              : 'external'
    ];
  const cur = current
    ? current[Object.keys(current).find((k) => k !== 'type') ?? '']?.current
    : undefined;
  if (m.type === 'Resource' || m.type === 'ContainerResource') {
    const label = `resource ${t.name}${m.type === 'ContainerResource' ? ` of container "${t.container}"` : ''} on pods`;
    if (t.target?.type === 'Utilization') {
      const c =
        cur?.averageUtilization !== undefined
          ? `${cur.averageUtilization}% (${cur.averageValue ?? ''})`
          : '<unknown>';
      return [`${label}  (as a percentage of request):`, `${c} / ${t.target.averageUtilization}%`];
    }
    return [
      `${label}:`,
      `${cur?.averageValue ?? '<unknown>'} / ${t.target?.averageValue ?? t.target?.value}`,
    ];
  }
  const name = t.metric?.name ?? '';
  const target = t.target?.averageValue ?? t.target?.value ?? '';
  const c = cur?.averageValue ?? cur?.value ?? '<unknown>';
  if (m.type === 'Pods') return [`"${name}" on pods:`, `${c} / ${target}`];
  if (m.type === 'Object')
    return [
      `"${name}" on ${t.describedObject?.kind}/${t.describedObject?.name}:`,
      `${c} / ${target}`,
    ];
  return [
    `"${name}" (target ${t.target?.averageValue ? 'average ' : ''}value):`,
    `${c} / ${target}`,
  ];
}

function describeHpa(w: Out, h: KubeObject, ctx: DescribeContext): void {
  const spec = h.spec ?? {};
  const st = h.status ?? {};
  header(w, h, { created: true });
  const ref = spec.scaleTargetRef ?? {};
  w.line('', 'Reference:', `${ref.kind}/${ref.name}`);
  w.line('', 'Metrics:', '( current / target )');
  (spec.metrics ?? []).forEach((m: Json, i: number) => {
    const [label, value] = hpaMetric(m, st.currentMetrics?.[i]);
    w.line(L1, label, value);
  });
  w.line('', 'Min replicas:', spec.minReplicas ?? 1);
  w.line('', 'Max replicas:', spec.maxReplicas ?? 0);
  w.line(
    '',
    `${ref.kind} pods:`,
    `${st.currentReplicas ?? 0} current / ${st.desiredReplicas ?? 0} desired`,
  );
  conditionsTable(w, st.conditions, ['Type', 'Status', 'Reason', 'Message']);
  events(w, ctx.events, ctx.now);
}

/** kubectl's PodDisruptionBudget describer: the budget, its selector, what it allows now. */
function describePdb(w: Out, p: KubeObject, ctx: DescribeContext): void {
  const spec = p.spec ?? {};
  const st = p.status ?? {};
  w.line('', 'Name:', str(p.metadata?.name));
  w.line('', 'Namespace:', str(p.metadata?.namespace));
  if (spec.minAvailable !== undefined) w.line('', 'Min available:', spec.minAvailable);
  else if (spec.maxUnavailable !== undefined) w.line('', 'Max unavailable:', spec.maxUnavailable);
  w.line('', 'Selector:', spec.selector ? formatSelector(spec.selector) : '<unset>');
  w.raw('Status:');
  w.line(L2, 'Allowed disruptions:', st.disruptionsAllowed ?? 0);
  w.line(L2, 'Current:', st.currentHealthy ?? 0);
  w.line(L2, 'Desired:', st.desiredHealthy ?? 0);
  w.line(L2, 'Total:', st.expectedPods ?? 0);
  events(w, ctx.events, ctx.now);
}

function describeQuota(w: Out, q: KubeObject, ctx: DescribeContext): void {
  w.line('', 'Name:', str(q.metadata?.name));
  w.line('', 'Namespace:', str(q.metadata?.namespace));
  if (q.spec?.scopes?.length) {
    w.raw('Scopes:');
    for (const s of q.spec.scopes) w.raw(`${L1}* ${s}`);
  }
  w.line('', 'Resource', 'Used', 'Hard');
  w.line('', '--------', '----', '----');
  const hard = q.status?.hard ?? q.spec?.hard ?? {};
  for (const k of Object.keys(hard).sort()) w.line('', k, str(q.status?.used?.[k], '0'), hard[k]);
  if (ctx.events.length) events(w, ctx.events, ctx.now);
}

function describeLimitRange(w: Out, lr: KubeObject, ctx: DescribeContext): void {
  w.line('', 'Name:', str(lr.metadata?.name));
  w.line('', 'Namespace:', str(lr.metadata?.namespace));
  limitRangeTable(w, '', lr);
  if (ctx.events.length) events(w, ctx.events, ctx.now);
}

function limitRangeTable(w: Out, indent: string, lr: KubeObject): void {
  w.line(
    indent,
    'Type',
    'Resource',
    'Min',
    'Max',
    'Default Request',
    'Default Limit',
    'Max Limit/Request Ratio',
  );
  w.line(
    indent,
    '----',
    '--------',
    '---',
    '---',
    '---------------',
    '-------------',
    '-----------------------',
  );
  for (const l of (lr.spec?.limits ?? []) as Json[]) {
    const names = new Set<string>();
    for (const f of ['min', 'max', 'default', 'defaultRequest', 'maxLimitRequestRatio'])
      Object.keys(l[f] ?? {}).forEach((k) => names.add(k));
    for (const r of [...names].sort()) {
      const v = (f: string) => str(l[f]?.[r], '-');
      w.line(
        indent,
        l.type,
        r,
        v('min'),
        v('max'),
        v('defaultRequest'),
        v('default'),
        v('maxLimitRequestRatio'),
      );
    }
  }
}

function describeServiceAccount(w: Out, sa: KubeObject, ctx: DescribeContext): void {
  header(w, sa);
  list(
    w,
    '',
    'Image pull secrets',
    (sa.imagePullSecrets ?? []).map((s: Json) => s.name),
  );
  list(
    w,
    '',
    'Mountable secrets',
    (sa.secrets ?? []).map((s: Json) => s.name),
  );
  w.line('', 'Tokens:', '<none>');
  events(w, ctx.events, ctx.now);
}

function describeRole(w: Out, r: KubeObject, ctx: DescribeContext): void {
  w.line('', 'Name:', str(r.metadata?.name));
  multiline(w, '', 'Labels', r.metadata?.labels);
  annotations(w, '', r);
  w.raw('PolicyRule:');
  w.line(L1, 'Resources', 'Non-Resource URLs', 'Resource Names', 'Verbs');
  w.line(L1, '---------', '-----------------', '--------------', '-----');
  const rows: string[][] = [];
  for (const rule of (r.rules ?? []) as Json[]) {
    const groups: string[] = rule.apiGroups?.length ? rule.apiGroups : [''];
    const resources: string[] = rule.resources ?? [];
    const names = `[${(rule.resourceNames ?? []).join(' ')}]`;
    const verbs = `[${(rule.verbs ?? []).join(' ')}]`;
    for (const res of resources)
      for (const g of groups) rows.push([g ? `${res}.${g}` : res, '[]', names, verbs]);
    if (rule.nonResourceURLs?.length)
      rows.push(['', `[${rule.nonResourceURLs.join(' ')}]`, '[]', verbs]);
  }
  for (const row of rows.sort((a, b) => a[0]!.localeCompare(b[0]!))) w.line(L1, ...row);
  if (ctx.events.length) events(w, ctx.events, ctx.now);
}

function describeBinding(w: Out, b: KubeObject, ctx: DescribeContext): void {
  w.line('', 'Name:', str(b.metadata?.name));
  multiline(w, '', 'Labels', b.metadata?.labels);
  annotations(w, '', b);
  w.raw('Role:');
  w.line(L1, 'Kind:', str(b.roleRef?.kind, ''));
  w.line(L1, 'Name:', str(b.roleRef?.name, ''));
  w.raw('Subjects:');
  w.line(L1, 'Kind', 'Name', 'Namespace');
  w.line(L1, '----', '----', '---------');
  for (const s of (b.subjects ?? []) as Json[]) w.line(L1, s.kind, s.name, s.namespace ?? '');
  if (ctx.events.length) events(w, ctx.events, ctx.now);
}

function describeNamespace(w: Out, ns: KubeObject, ctx: DescribeContext): void {
  w.line('', 'Name:', str(ns.metadata?.name));
  multiline(w, '', 'Labels', ns.metadata?.labels);
  annotations(w, '', ns);
  w.line('', 'Status:', str(ns.status?.phase, 'Active'));
  w.raw('');
  const quotas = related(ctx, 'ResourceQuota');
  if (quotas.length === 0) w.raw('No resource quota.');
  for (const q of quotas) {
    w.raw('Resource Quotas');
    w.line(L1, 'Name:', str(q.metadata?.name));
    w.line(L1, 'Resource', 'Used', 'Hard');
    w.line(L1, '--------', '---', '---');
    const hard = q.status?.hard ?? q.spec?.hard ?? {};
    for (const k of Object.keys(hard).sort()) w.line(L1, k, str(q.status?.used?.[k], '0'), hard[k]);
  }
  w.raw('');
  const limits = related(ctx, 'LimitRange');
  if (limits.length === 0) w.raw('No LimitRange resource.');
  for (const lr of limits) {
    w.raw('Resource Limits');
    limitRangeTable(w, L1, lr);
  }
  if (ctx.events.length) events(w, ctx.events, ctx.now);
}

// ---------------------------------------------------------------- generic

function generic(w: Out, value: unknown, indent: string, maxString = Infinity): void {
  if (value === null || typeof value !== 'object') return;
  const text = (v: unknown) => {
    const t = v instanceof Date ? v.toISOString() : String(v);
    if (t.length <= maxString) return t;
    return `${t.slice(0, maxString).replace(/\s+$/, '')}... (${t.length - maxString} more characters)`;
  };
  if (Array.isArray(value)) {
    for (const v of value) {
      if (v !== null && typeof v === 'object') {
        generic(w, v, indent, maxString);
        w.raw('');
      } else w.raw(`${indent}${text(v)}`);
    }
    return;
  }
  // kubectl's generic describer prints fields sorted by name, capitalised
  for (const [k, v] of Object.entries(value).sort(([a], [b]) => a.localeCompare(b))) {
    const key = `${k.charAt(0).toUpperCase()}${k.slice(1)}:`;
    if (v === null || v === undefined) continue;
    if (typeof v === 'object' && !(v instanceof Date)) {
      w.raw(`${indent}${key}`);
      generic(w, v, indent + L1, maxString);
    } else w.line(indent, key, maxString === Infinity ? text(v) : text(v).replace(/\t/g, ' '));
  }
}

/** How much of a custom resource's spec and status a description prints (get shows it all). */
const CUSTOM_SECTION_LINES = 80;
const CUSTOM_STRING_CHARS = 300;
const CONDITION_MESSAGE_CHARS = 1000;

/**
 * A custom resource (a kind the fixed list does not know: Argo CD Application, Flux
 * Kustomization, cert-manager Certificate...) as kubectl's generic describer prints it, with the
 * status conditions as a table (they say why it is not Ready), long values cut and each section
 * bounded, then the object's events.
 */
function describeCustom(w: Out, obj: KubeObject, ctx: DescribeContext): void {
  header(w, obj, { namespace: !!obj.metadata?.namespace });
  w.line('', 'API Version:', str(obj.apiVersion, ''));
  w.line('', 'Kind:', str(obj.kind, ''));
  const { apiVersion: _a, kind: _k, metadata, status, ...rest } = obj;
  w.raw('Metadata:');
  const created = metadata?.creationTimestamp;
  w.line(
    L1,
    'Creation Timestamp:',
    str(created instanceof Date ? created.toISOString() : created, ''),
  );
  if (metadata?.generation !== undefined) w.line(L1, 'Generation:', metadata.generation);
  const owners: Json[] = metadata?.ownerReferences ?? [];
  if (owners.length) {
    w.raw(`${L1}Owner References:`);
    for (const r of owners) w.line(L2, `${r.kind}/${r.name}${r.controller ? ' (controller)' : ''}`);
  }
  if (metadata?.resourceVersion) w.line(L1, 'Resource Version:', metadata.resourceVersion);
  if (metadata?.uid) w.line(L1, 'UID:', metadata.uid);
  const section = (write: () => void) => {
    const start = w.size;
    write();
    w.cap(
      start,
      CUSTOM_SECTION_LINES,
      (n) => `${L1}... (${n} more lines; get the object for all of it)`,
    );
  };
  for (const [k, v] of Object.entries(rest).sort(([a], [b]) => a.localeCompare(b))) {
    if (v === null || v === undefined) continue;
    section(() => generic(w, { [k]: v }, '', CUSTOM_STRING_CHARS));
  }
  if (status && typeof status === 'object' && !Array.isArray(status)) {
    const { conditions, ...other } = status as Record<string, unknown>;
    w.raw('Status:');
    section(() => generic(w, other, L1, CUSTOM_STRING_CHARS));
    if (Array.isArray(conditions) && conditions.length) {
      w.raw(`${L1}Conditions:`);
      w.line(L2, 'Type', 'Status', 'Reason', 'Last Transition Time', 'Message');
      w.line(L2, '----', '------', '------', '--------------------', '-------');
      for (const c of conditions as Json[]) {
        const message = String(c?.message ?? '')
          .trim()
          .replace(/\s*\n\s*/g, ' ')
          .replace(/\t/g, ' ');
        w.line(
          L2,
          str(c?.type, ''),
          str(c?.status, ''),
          str(c?.reason, ''),
          c?.lastTransitionTime ? rfc1123z(c.lastTransitionTime) : '',
          message.length > CONDITION_MESSAGE_CHARS
            ? `${message.slice(0, CONDITION_MESSAGE_CHARS)}...`
            : message,
        );
      }
    }
  } else if (status !== undefined && status !== null) {
    section(() => generic(w, { status }, '', CUSTOM_STRING_CHARS));
  }
  events(w, ctx.events, ctx.now);
}

function describeGeneric(w: Out, obj: KubeObject, ctx: DescribeContext): void {
  const kinded = !!obj.metadata?.namespace;
  header(w, obj, { namespace: kinded });
  w.line('', 'API Version:', str(obj.apiVersion, ''));
  w.line('', 'Kind:', str(obj.kind, ''));
  const { apiVersion: _a, kind: _k, metadata, ...rest } = obj;
  w.raw('Metadata:');
  w.line(
    L1,
    'Creation Timestamp:',
    str(
      metadata?.creationTimestamp instanceof Date
        ? metadata.creationTimestamp.toISOString()
        : metadata?.creationTimestamp,
      '',
    ),
  );
  if (metadata?.resourceVersion) w.line(L1, 'Resource Version:', metadata.resourceVersion);
  if (metadata?.uid) w.line(L1, 'UID:', metadata.uid);
  generic(w, rest, '');
  events(w, ctx.events, ctx.now);
}

const DESCRIBERS: Record<string, (w: Out, obj: KubeObject, ctx: DescribeContext) => void> = {
  Pod: describePod,
  Deployment: describeDeployment,
  ReplicaSet: describeReplicaSet,
  StatefulSet: describeStatefulSet,
  DaemonSet: describeDaemonSet,
  Job: describeJob,
  CronJob: describeCronJob,
  Node: describeNode,
  PersistentVolumeClaim: describePvc,
  PersistentVolume: describePv,
  StorageClass: describeStorageClass,
  IngressClass: describeIngressClass,
  Service: describeService,
  Endpoints: describeEndpoints,
  Ingress: describeIngress,
  ConfigMap: describeConfigMap,
  Secret: describeSecret,
  HorizontalPodAutoscaler: describeHpa,
  PodDisruptionBudget: describePdb,
  ResourceQuota: describeQuota,
  LimitRange: describeLimitRange,
  ServiceAccount: describeServiceAccount,
  Role: describeRole,
  ClusterRole: describeRole,
  RoleBinding: describeBinding,
  ClusterRoleBinding: describeBinding,
  Namespace: describeNamespace,
};

/**
 * An object as `kubectl describe` prints it: the same sections, labels and tabbed alignment,
 * ages against `ctx.now`, an Events table from `ctx.events`. Secrets show sizes, never values.
 * Built-in kinds without a dedicated layout get kubectl's generic one; custom resources get it
 * with their status conditions as a table and bounded sections.
 */
export function describe(obj: KubeObject, ctx: DescribeContext): string {
  const w = new Out();
  // a kind of the fixed list has its own layout; a custom resource (also one that reuses a
  // built-in kind's name in its own group) gets the generic one with its conditions as a table
  const describer = builtinKindOf(obj)
    ? (DESCRIBERS[obj.kind ?? ''] ?? describeGeneric)
    : describeCustom;
  describer(w, obj, ctx);
  return w.toString();
}
