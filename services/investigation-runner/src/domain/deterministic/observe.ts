import { parseAllDocuments } from 'yaml';
import { kindOf } from './tool-profile';

/**
 * Reads real tool outputs into one shape: Kubernetes objects (JSON, YAML, `kubectl describe`
 * text, `kubectl get` tables, custom JSON), events, log lines and metrics. Bounded: huge or
 * hostile outputs are cut, never trusted.
 */

export interface StateView {
  reason?: string;
  message?: string;
  exitCode?: number;
  at?: number;
}

export interface ContainerView {
  name: string;
  image?: string;
  restarts?: number;
  ready?: boolean;
  waiting?: StateView;
  terminated?: StateView;
  last?: StateView;
  limits: Record<string, string>;
  requests: Record<string, string>;
  probes: string[];
  /** declared container ports ("8080") */
  ports: string[];
  /** `ENV_NAME <- configmap x key y`, `envFrom secret z` */
  envRefs: string[];
  env: Record<string, string>;
}

export interface ConditionView {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  at?: number;
}

export interface ObjectView {
  kind: string;
  name: string;
  namespace?: string;
  status?: string;
  reason?: string;
  message?: string;
  restarts?: number;
  node?: string;
  owner?: { kind: string; name: string };
  labels: Record<string, string>;
  containers: ContainerView[];
  conditions: ConditionView[];
  created?: number;
  images: string[];
  /** kind-specific facts: storageClass, volume, claims, taints, nodeSelector, replicas... */
  fields: Record<string, string>;
  source: string;
}

export interface EventView {
  type?: string;
  reason?: string;
  message: string;
  object?: { kind?: string; name: string };
  namespace?: string;
  count?: number;
  first?: number;
  last?: number;
  source: string;
}

export interface LogLine {
  at?: number;
  level?: 'error' | 'warn' | 'info';
  text: string;
}

export interface LogView {
  pod?: string;
  namespace?: string;
  container?: string;
  previous: boolean;
  lines: LogLine[];
  source: string;
}

export interface MetricView {
  kind: 'pod' | 'node';
  name: string;
  namespace?: string;
  cpu?: string;
  memory?: string;
  source: string;
}

export interface Observed {
  objects: ObjectView[];
  events: EventView[];
  logs: LogView[];
  metrics: MetricView[];
  /** free text that fits none of the above (for the text signatures) */
  texts: string[];
}

export interface CallContext {
  tool: string;
  /** the run's current time (epoch ms): ages in tables and describe text count back from it */
  now?: number;
  verb: string;
  kind?: string;
  namespace?: string;
  pod?: string;
  container?: string;
  previous?: boolean;
}

const MAX_TEXT = 400_000;
const MAX_LINES = 5_000;
const MAX_NODES = 20_000;

export const empty = (): Observed => ({
  objects: [],
  events: [],
  logs: [],
  metrics: [],
  texts: [],
});

export function parseTime(v: unknown): number | undefined {
  if (typeof v !== 'string' || v.length < 10) return undefined;
  const t = Date.parse(v);
  return Number.isFinite(t) ? t : undefined;
}

const str = (v: unknown): string | undefined =>
  typeof v === 'string'
    ? v
    : typeof v === 'number' || typeof v === 'boolean'
      ? String(v)
      : undefined;
const rec = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const num = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};
const strMap = (v: unknown): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(rec(v))) {
    const s = str(x);
    if (s !== undefined) out[k] = s;
  }
  return out;
};

export function newObject(kind: string, name: string, source: string): ObjectView {
  return { kind, name, labels: {}, containers: [], conditions: [], images: [], fields: {}, source };
}

/** Entry point: any tool output. */
export function observe(output: unknown, ctx: CallContext): Observed {
  const out = empty();
  const budget = { nodes: 0 };
  visit(output, ctx, out, budget, 0);
  return out;
}

function visit(
  v: unknown,
  ctx: CallContext,
  out: Observed,
  budget: { nodes: number },
  depth: number,
) {
  if (depth > 12 || budget.nodes++ > MAX_NODES) return;
  if (typeof v === 'string') return parseText(v, ctx, out);
  if (Array.isArray(v)) {
    for (const x of v.slice(0, 2000)) visit(x, ctx, out, budget, depth + 1);
    return;
  }
  const o = rec(v);
  if (!Object.keys(o).length) return;
  // MCP content blocks
  if (
    Array.isArray(o['content']) &&
    o['content'].every((c) => typeof rec(c)['type'] === 'string')
  ) {
    for (const c of o['content'] as unknown[]) {
      const t = str(rec(c)['text']);
      if (t) parseText(t, ctx, out);
    }
    return;
  }
  const kubeList =
    Array.isArray(o['items']) && (o['items'] as unknown[]).some((i) => !!rec(i)['metadata']);
  if (typeof o['kind'] === 'string' && (o['metadata'] || kubeList)) {
    if (Array.isArray(o['items'])) {
      for (const it of o['items'] as unknown[]) visit(it, ctx, out, budget, depth + 1);
      return;
    }
    return fromKubeObject(o, ctx, out);
  }
  fromCustomJson(o, ctx, out, budget, depth);
}

// ---------------------------------------------------------------- Kubernetes API objects

function fromKubeObject(o: Record<string, unknown>, ctx: CallContext, out: Observed): void {
  const kind = kindOf(String(o['kind'])) ?? String(o['kind']).toLowerCase();
  const meta = rec(o['metadata']);
  const spec = rec(o['spec']);
  const status = rec(o['status']);
  if (kind === 'event' || o['involvedObject'] || o['regarding']) return fromKubeEvent(o, ctx, out);
  const name = str(meta['name']) ?? '';
  if (!name) return;
  const v = newObject(kind, name, ctx.tool);
  v.namespace = str(meta['namespace']);
  v.labels = strMap(meta['labels']);
  v.created = parseTime(meta['creationTimestamp']);
  const owner = rec(arr(meta['ownerReferences'])[0]);
  if (owner['kind'] && owner['name'])
    v.owner = {
      kind: kindOf(String(owner['kind'])) ?? String(owner['kind']),
      name: String(owner['name']),
    };
  if (meta['deletionTimestamp']) v.fields['terminating'] = 'true';
  const ann = strMap(meta['annotations']);
  if (ann['deployment.kubernetes.io/revision'])
    v.fields['revision'] = ann['deployment.kubernetes.io/revision'];
  if (ann['kubernetes.io/change-cause'])
    v.fields['changeCause'] = ann['kubernetes.io/change-cause'];
  v.conditions = arr(status['conditions']).map((c) => {
    const r = rec(c);
    return {
      type: str(r['type']) ?? '',
      status: str(r['status']) ?? '',
      reason: str(r['reason']),
      message: str(r['message']),
      at: parseTime(r['lastTransitionTime']) ?? parseTime(r['lastHeartbeatTime']),
    };
  });
  v.status = str(status['phase']);
  v.reason = str(status['reason']);
  v.message = str(status['message']);
  const podSpec =
    kind === 'pod'
      ? spec
      : rec(rec(rec(spec['jobTemplate'])['spec'])['template'])['spec']
        ? rec(rec(rec(rec(spec['jobTemplate'])['spec'])['template'])['spec'])
        : rec(rec(spec['template'])['spec']);
  const specContainers = arr(podSpec['containers']).map(rec);
  for (const c of specContainers) {
    const cv = containerFromSpec(c);
    v.containers.push(cv);
    if (cv.image) v.images.push(cv.image);
  }
  if (Object.keys(rec(podSpec['nodeSelector'])).length)
    v.fields['nodeSelector'] = Object.entries(strMap(podSpec['nodeSelector']))
      .map(([k, x]) => `${k}=${x}`)
      .join(',');
  if (podSpec['affinity']) v.fields['affinity'] = JSON.stringify(podSpec['affinity']).slice(0, 600);
  const tol = arr(podSpec['tolerations'])
    .map(rec)
    .map(
      (t) =>
        `${str(t['key']) ?? ''}${t['value'] ? `=${str(t['value'])}` : ''}:${str(t['effect']) ?? ''}`,
    );
  if (tol.length) v.fields['tolerations'] = tol.join(',');
  const claims: string[] = [];
  const cms: string[] = [];
  const secrets: string[] = [];
  for (const vol of arr(podSpec['volumes']).map(rec)) {
    const c = str(rec(vol['persistentVolumeClaim'])['claimName']);
    if (c) claims.push(c);
    const cm = str(rec(vol['configMap'])['name']);
    if (cm) cms.push(cm);
    const s = str(rec(vol['secret'])['secretName']);
    if (s) secrets.push(s);
  }
  if (claims.length) v.fields['claims'] = claims.join(',');
  if (cms.length) v.fields['configMaps'] = cms.join(',');
  if (secrets.length) v.fields['secrets'] = secrets.join(',');
  const pullSecrets = arr(podSpec['imagePullSecrets'])
    .map((x) => str(rec(x)['name']))
    .filter(Boolean);
  if (pullSecrets.length) v.fields['imagePullSecrets'] = pullSecrets.join(',');
  if (str(podSpec['serviceAccountName']))
    v.fields['serviceAccount'] = String(podSpec['serviceAccountName']);
  if (kind === 'pod') {
    v.node = str(spec['nodeName']);
    const statuses = [
      ...arr(status['initContainerStatuses']),
      ...arr(status['containerStatuses']),
    ].map(rec);
    for (const s of statuses) {
      const cname = str(s['name']) ?? '';
      let cv = v.containers.find((c) => c.name === cname);
      if (!cv) {
        cv = emptyContainer(cname);
        v.containers.push(cv);
      }
      cv.image = str(s['image']) ?? cv.image;
      cv.restarts = num(s['restartCount']);
      cv.ready = s['ready'] === true;
      const st = rec(s['state']);
      const ls = rec(s['lastState']);
      cv.waiting = stateOf(rec(st['waiting']));
      cv.terminated = stateOf(rec(st['terminated']));
      cv.last = stateOf(rec(ls['terminated']));
      if (!st['waiting'] && !st['terminated'] && st['running']) cv.ready = cv.ready ?? true;
    }
    v.restarts = v.containers.reduce((a, c) => a + (c.restarts ?? 0), 0);
    v.status = podStatusText(v) ?? v.status;
  } else {
    for (const k of [
      'replicas',
      'readyReplicas',
      'availableReplicas',
      'updatedReplicas',
      'unavailableReplicas',
      'currentReplicas',
      'desiredReplicas',
      'failed',
      'succeeded',
      'active',
      'numberReady',
      'desiredNumberScheduled',
      'numberUnavailable',
    ]) {
      const n = num(status[k]);
      if (n !== undefined) v.fields[`status.${k}`] = String(n);
    }
    for (const k of [
      'replicas',
      'minReplicas',
      'maxReplicas',
      'backoffLimit',
      'activeDeadlineSeconds',
      'storageClassName',
      'volumeName',
      'schedule',
      'suspend',
      'unschedulable',
      'provisioner',
      'secretName',
      'dnsNames',
      'issuerRef',
    ]) {
      const x = spec[k];
      if (x !== undefined) v.fields[k] = typeof x === 'object' ? JSON.stringify(x) : String(x);
    }
    if (kind === 'persistentvolumeclaim' || kind === 'persistentvolume') {
      if (str(status['phase'])) v.status = String(status['phase']);
      const cap =
        str(rec(spec['capacity'])['storage']) ??
        str(rec(rec(spec['resources'])['requests'])['storage']);
      if (cap) v.fields['capacity'] = cap;
      const modes = arr(spec['accessModes']).map(String);
      if (modes.length) v.fields['accessModes'] = modes.join(',');
      const claim = rec(spec['claimRef']);
      if (claim['name'])
        v.fields['claim'] = `${str(claim['namespace']) ?? ''}/${str(claim['name'])}`;
    }
    if (kind === 'node') {
      const taints = arr(spec['taints'])
        .map(rec)
        .map(
          (t) => `${str(t['key'])}${t['value'] ? `=${str(t['value'])}` : ''}:${str(t['effect'])}`,
        );
      if (taints.length) v.fields['taints'] = taints.join(',');
      v.fields['allocatable'] = JSON.stringify(rec(status['allocatable']));
      const ready = v.conditions.find((c) => c.type === 'Ready');
      v.status = ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : v.status;
      if (spec['unschedulable'] === true) v.status = `${v.status ?? 'Ready'},SchedulingDisabled`;
    }
    if (kind === 'horizontalpodautoscaler') {
      v.fields['scaleTarget'] =
        `${str(rec(spec['scaleTargetRef'])['kind']) ?? ''}/${str(rec(spec['scaleTargetRef'])['name']) ?? ''}`;
      const cm = arr(status['currentMetrics'])
        .map((m) => JSON.stringify(m))
        .join(' ');
      if (cm) v.fields['currentMetrics'] = cm.slice(0, 600);
      const metrics = arr(spec['metrics'])
        .map((m) => JSON.stringify(m))
        .join(' ');
      if (metrics) v.fields['metrics'] = metrics.slice(0, 600);
    }
    if (kind === 'resourcequota') {
      v.fields['hard'] = JSON.stringify(rec(status['hard']));
      v.fields['used'] = JSON.stringify(rec(status['used']));
    }
    if (kind === 'limitrange')
      v.fields['limits'] = JSON.stringify(spec['limits'] ?? []).slice(0, 800);
    if (kind === 'service') {
      v.fields['selector'] = Object.entries(strMap(spec['selector']))
        .map(([k, x]) => `${k}=${x}`)
        .join(',');
      v.fields['ports'] = JSON.stringify(spec['ports'] ?? []).slice(0, 300);
      if (str(spec['clusterIP'])) v.fields['clusterIP'] = String(spec['clusterIP']);
    }
    if (kind === 'endpoints') {
      const subsets = arr(o['subsets']).map(rec);
      v.fields['ready'] = String(subsets.reduce((a, s) => a + arr(s['addresses']).length, 0));
      v.fields['notReady'] = String(
        subsets.reduce((a, s) => a + arr(s['notReadyAddresses']).length, 0),
      );
    }
    if (kind === 'configmap' || kind === 'secret')
      v.fields['keys'] = Object.keys({
        ...rec(o['data']),
        ...rec(o['stringData']),
        ...rec(o['binaryData']),
      }).join(',');
    if (kind === 'job') v.fields['startTime'] = str(status['startTime']) ?? '';
  }
  out.objects.push(v);
}

function emptyContainer(name: string): ContainerView {
  return { name, limits: {}, requests: {}, probes: [], ports: [], envRefs: [], env: {} };
}

function stateOf(s: Record<string, unknown>): StateView | undefined {
  if (!Object.keys(s).length) return undefined;
  return {
    reason: str(s['reason']),
    message: str(s['message']),
    exitCode: num(s['exitCode']),
    at: parseTime(s['finishedAt']) ?? parseTime(s['startedAt']),
  };
}

function probeText(p: Record<string, unknown>): string | undefined {
  if (!Object.keys(p).length) return undefined;
  const http = rec(p['httpGet']);
  const tcp = rec(p['tcpSocket']);
  const exec = rec(p['exec']);
  const target = Object.keys(http).length
    ? `http-get ${str(http['scheme'])?.toLowerCase() ?? 'http'}://:${str(http['port']) ?? ''}${str(http['path']) ?? '/'}`
    : Object.keys(tcp).length
      ? `tcp-socket :${str(tcp['port']) ?? ''}`
      : Object.keys(exec).length
        ? `exec ${JSON.stringify(exec['command'])}`
        : 'probe';
  return `${target} delay=${num(p['initialDelaySeconds']) ?? 0}s timeout=${num(p['timeoutSeconds']) ?? 1}s period=${num(p['periodSeconds']) ?? 10}s #failure=${num(p['failureThreshold']) ?? 3}`;
}

function containerFromSpec(c: Record<string, unknown>): ContainerView {
  const cv = emptyContainer(str(c['name']) ?? '');
  cv.image = str(c['image']);
  const res = rec(c['resources']);
  cv.limits = strMap(res['limits']);
  cv.requests = strMap(res['requests']);
  for (const [k, label] of [
    ['livenessProbe', 'Liveness'],
    ['readinessProbe', 'Readiness'],
    ['startupProbe', 'Startup'],
  ] as const) {
    const t = probeText(rec(c[k]));
    if (t) cv.probes.push(`${label}: ${t}`);
  }
  for (const e of arr(c['env']).map(rec)) {
    const name = str(e['name']) ?? '';
    const from = rec(e['valueFrom']);
    const cm = rec(from['configMapKeyRef']);
    const sk = rec(from['secretKeyRef']);
    if (cm['name'])
      cv.envRefs.push(`${name} <- configmap ${str(cm['name'])} key ${str(cm['key'])}`);
    else if (sk['name'])
      cv.envRefs.push(`${name} <- secret ${str(sk['name'])} key ${str(sk['key'])}`);
    else if (str(e['value']) !== undefined) cv.env[name] = String(e['value']);
  }
  for (const e of arr(c['envFrom']).map(rec)) {
    const cm = str(rec(e['configMapRef'])['name']);
    const s = str(rec(e['secretRef'])['name']);
    if (cm) cv.envRefs.push(`envFrom configmap ${cm}`);
    if (s) cv.envRefs.push(`envFrom secret ${s}`);
  }
  cv.ports = arr(c['ports'])
    .map((x) => str(rec(x)['containerPort']) ?? '')
    .filter(Boolean);
  const args = [...arr(c['command']), ...arr(c['args'])].map(String);
  if (args.length) cv.env['__args'] = args.join(' ');
  return cv;
}

/** The STATUS kubectl prints for a pod. */
export function podStatusText(v: ObjectView): string | undefined {
  if (v.fields['terminating']) return 'Terminating';
  if (v.reason && v.status === 'Failed') return v.reason;
  for (const c of v.containers) {
    if (c.waiting?.reason && c.waiting.reason !== 'ContainerCreating') return c.waiting.reason;
    if (c.terminated?.reason && v.status !== 'Succeeded') return c.terminated.reason;
  }
  return v.status;
}

function fromKubeEvent(o: Record<string, unknown>, ctx: CallContext, out: Observed) {
  const meta = rec(o['metadata']);
  const inv = rec(o['involvedObject'] ?? o['regarding'] ?? o['InvolvedObject']);
  const message = str(o['message'] ?? o['note'] ?? o['Message']) ?? '';
  out.events.push({
    type: str(o['type'] ?? o['Type']),
    reason: str(o['reason'] ?? o['Reason']),
    message,
    object:
      inv['name'] || inv['Name']
        ? {
            kind: kindOf(str(inv['kind'] ?? inv['Kind'])) ?? str(inv['kind'] ?? inv['Kind']),
            name: String(inv['name'] ?? inv['Name']),
          }
        : undefined,
    namespace: str(inv['namespace'] ?? inv['Namespace']) ?? str(meta['namespace']) ?? ctx.namespace,
    count: num(o['count'] ?? o['Count'] ?? rec(o['series'])['count']),
    first: parseTime(o['firstTimestamp'] ?? o['FirstTimestamp'] ?? o['eventTime']),
    last: parseTime(
      o['lastTimestamp'] ??
        o['LastTimestamp'] ??
        rec(o['series'])['lastObservedTime'] ??
        o['eventTime'] ??
        o['Timestamp'],
    ),
    source: ctx.tool,
  });
}

// ---------------------------------------------------------------- custom JSON

const LIST_KIND_KEYS: Record<string, string> = {
  pods: 'pod',
  deployments: 'deployment',
  nodes: 'node',
  jobs: 'job',
  services: 'service',
  statefulsets: 'statefulset',
  daemonsets: 'daemonset',
  replicasets: 'replicaset',
  pvcs: 'persistentvolumeclaim',
  persistentvolumeclaims: 'persistentvolumeclaim',
  hpas: 'horizontalpodautoscaler',
  namespaces: 'namespace',
  revisions: 'revision',
  resources: '',
  items: '',
  results: '',
};
const LOG_KEYS = /^(lines|logs|log|log_?lines|entries|output|stdout)$/i;
const EVENT_KEYS = /^(events|event_?list)$/i;

function fromCustomJson(
  o: Record<string, unknown>,
  ctx: CallContext,
  out: Observed,
  budget: { nodes: number },
  depth: number,
) {
  for (const [k, val] of Object.entries(o)) {
    if (budget.nodes++ > MAX_NODES) return;
    if (k === 'text' && typeof val === 'string') {
      parseText(val, ctx, out);
      continue;
    }
    if (
      LOG_KEYS.test(k) &&
      (typeof val === 'string' ||
        (Array.isArray(val) && val.every((x) => typeof x === 'string' || typeof x === 'object')))
    ) {
      const lines =
        typeof val === 'string'
          ? val.split('\n')
          : (val as unknown[]).map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
      out.logs.push({
        pod: str(o['pod']) ?? str(o['pod_name']) ?? ctx.pod,
        namespace: str(o['namespace']) ?? ctx.namespace,
        container: str(o['container']) ?? ctx.container,
        previous: o['previous'] === true || !!ctx.previous,
        lines: lines
          .slice(-MAX_LINES)
          .map(parseLogLine)
          .filter((l) => l.text),
        source: ctx.tool,
      });
      continue;
    }
    if (EVENT_KEYS.test(k) && Array.isArray(val)) {
      for (const e of val.slice(0, 2000)) {
        const r = rec(e);
        if (r['involvedObject'] || r['regarding'] || r['metadata']) fromKubeEvent(r, ctx, out);
        else
          customEvent(
            r,
            ctx,
            out,
            str(o['name']) && o['kind']
              ? { kind: kindOf(String(o['kind'])), name: String(o['name']) }
              : ctx.pod
                ? { kind: 'pod', name: ctx.pod }
                : undefined,
          );
      }
      continue;
    }
    if (Array.isArray(val) && val.length && typeof val[0] === 'object') {
      const kind = LIST_KIND_KEYS[k.toLowerCase()] ?? kindOf(k);
      for (const item of val.slice(0, 2000)) {
        const r = rec(item);
        if (typeof r['kind'] === 'string' && r['metadata']) fromKubeObject(r, ctx, out);
        else if (kind === 'revision') customRevision(r, o, ctx, out);
        else if (
          r['reason'] !== undefined &&
          r['message'] !== undefined &&
          !r['restarts'] &&
          !r['status']
        )
          customEvent(r, ctx, out);
        else if (typeof r['name'] === 'string' || typeof r['pod'] === 'string')
          customObject(r, kind || ctx.kind || guessKind(r), ctx, out, str(o['namespace']));
        else visit(r, ctx, out, budget, depth + 1);
      }
      continue;
    }
    if (typeof val === 'object' && val !== null) {
      visit(val, ctx, out, budget, depth + 1);
      continue;
    }
    if (
      typeof val === 'string' &&
      val.length > 30 &&
      !/^(name|namespace|image|url|id|uid)$/i.test(k)
    )
      out.texts.push(val.slice(0, 2000));
  }
  // an object that is itself a resource ({name, status, containers...})
  if (
    typeof o['name'] === 'string' &&
    (o['status'] !== undefined || o['containers'] || o['restarts'] !== undefined || o['phase'])
  )
    customObject(o, ctx.kind ?? guessKind(o), ctx, out, str(o['namespace']));
}

function guessKind(r: Record<string, unknown>): string {
  if (r['containers'] || r['restarts'] !== undefined || r['restart_count'] !== undefined)
    return 'pod';
  if (r['replicas'] !== undefined) return 'deployment';
  return 'resource';
}

function customObject(
  r: Record<string, unknown>,
  kind: string,
  ctx: CallContext,
  out: Observed,
  ns?: string,
) {
  const name = str(r['name']) ?? str(r['pod']) ?? '';
  if (!name) return;
  const v = newObject(kindOf(kind) ?? kind, name, ctx.tool);
  v.namespace = str(r['namespace']) ?? ns ?? ctx.namespace;
  v.status = str(r['status']) ?? str(r['phase']) ?? str(r['state']);
  if (typeof r['status'] === 'object') v.status = str(rec(r['status'])['phase']);
  v.restarts = num(r['restarts'] ?? r['restart_count'] ?? r['restartCount']);
  v.node = str(r['node']) ?? str(r['node_name']);
  v.labels = strMap(r['labels']);
  const app = str(r['app']) ?? str(r['deployment']);
  if (app) v.owner = { kind: 'deployment', name: app };
  const reason =
    str(r['last_termination_reason']) ?? str(r['reason']) ?? str(r['lastTerminationReason']);
  if (reason) v.reason = reason;
  const image = str(r['image']);
  if (image) v.images.push(image);
  for (const k of ['replicas', 'ready_replicas', 'revision', 'ready', 'available']) {
    const x = str(r[k]);
    if (x !== undefined) v.fields[k] = x;
  }
  const rollout = parseTime(r['last_rollout'] ?? r['deployed_at'] ?? r['updated_at']);
  if (rollout) v.fields['lastRollout'] = String(rollout);
  for (const c of arr(r['containers']).map(rec)) {
    const cv = emptyContainer(str(c['name']) ?? '');
    cv.image = str(c['image']);
    if (cv.image) v.images.push(cv.image);
    cv.restarts = num(c['restart_count'] ?? c['restarts'] ?? c['restartCount']);
    cv.ready = c['ready'] === true;
    cv.limits = strMap(c['limits'] ?? rec(c['resources'])['limits']);
    cv.requests = strMap(c['requests'] ?? rec(c['resources'])['requests']);
    const env = c['env'];
    if (Array.isArray(env))
      for (const e of env.map(rec)) cv.env[str(e['name']) ?? ''] = str(e['value']) ?? '';
    else cv.env = strMap(env);
    const st = rec(c['state']);
    cv.waiting = stateOf(rec(st['waiting']));
    cv.terminated = stateOf(rec(st['terminated']));
    const ls = rec(c['last_state'] ?? c['lastState']);
    const lt = rec(ls['terminated']);
    if (Object.keys(lt).length)
      cv.last = {
        reason: str(lt['reason']),
        exitCode: num(lt['exit_code'] ?? lt['exitCode']),
        at: parseTime(lt['finished_at'] ?? lt['finishedAt']),
        message: str(lt['message']),
      };
    v.containers.push(cv);
  }
  if (v.containers.length)
    v.restarts = v.restarts ?? v.containers.reduce((a, c) => a + (c.restarts ?? 0), 0);
  out.objects.push(v);
  if (Array.isArray(r['events']))
    for (const e of (r['events'] as unknown[]).slice(0, 500))
      customEvent(rec(e), ctx, out, { kind: v.kind, name: v.name });
}

function customRevision(
  r: Record<string, unknown>,
  parent: Record<string, unknown>,
  ctx: CallContext,
  out: Observed,
) {
  const name = str(parent['deployment']) ?? str(parent['name']) ?? ctx.pod ?? '';
  const at = parseTime(
    r['deployed_at'] ?? r['created_at'] ?? r['timestamp'] ?? r['creationTimestamp'],
  );
  const v = newObject('revision', `${name}#${str(r['revision']) ?? ''}`, ctx.tool);
  v.namespace = str(parent['namespace']) ?? ctx.namespace;
  v.owner = { kind: 'deployment', name };
  v.created = at;
  const image = str(r['image']);
  if (image) v.images.push(image);
  v.fields['revision'] = str(r['revision']) ?? '';
  if (str(r['change_cause'] ?? r['changeCause']))
    v.fields['changeCause'] = String(r['change_cause'] ?? r['changeCause']);
  out.objects.push(v);
}

function customEvent(
  r: Record<string, unknown>,
  ctx: CallContext,
  out: Observed,
  about?: { kind?: string; name: string },
) {
  const message = str(r['message']) ?? str(r['msg']) ?? str(r['note']) ?? '';
  if (!message && !r['reason']) return;
  let object = about;
  const o = str(r['object']) ?? str(r['involved_object']);
  if (o) {
    const [k, n] = o.includes('/') ? o.split('/', 2) : [undefined, o];
    object = { kind: kindOf(k) ?? k, name: n ?? o };
  }
  out.events.push({
    type: str(r['type']),
    reason: str(r['reason']),
    message,
    object,
    namespace: str(r['namespace']) ?? ctx.namespace,
    count: num(r['count']),
    first: parseTime(r['first_seen'] ?? r['firstTimestamp'] ?? r['first_timestamp']),
    last: parseTime(
      r['last_seen'] ?? r['lastTimestamp'] ?? r['timestamp'] ?? r['time'] ?? r['last_timestamp'],
    ),
    source: ctx.tool,
  });
}

// ---------------------------------------------------------------- text

function parseText(text0: string, ctx: CallContext, out: Observed): void {
  const text = text0.length > MAX_TEXT ? text0.slice(-MAX_TEXT) : text0;
  const t = text.trim();
  if (!t) return;
  if ((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']'))) {
    try {
      visit(JSON.parse(t), ctx, out, { nodes: 0 }, 1);
      return;
    } catch {
      /* not JSON */
    }
  }
  if (/^Name:\s+\S/m.test(t) && /^(Namespace|Labels|Annotations|CreationTimestamp|Roles):/m.test(t))
    return parseDescribeAll(t, ctx, out);
  const yamlStart = t.search(
    /^(apiVersion:|kind:|items:|- (apiVersion|kind|InvolvedObject|involvedObject|metadata|lastTimestamp|type|reason|Reason)\b|metadata:)/m,
  );
  if (yamlStart >= 0 && !looksLikeLog(t.slice(0, yamlStart))) {
    try {
      const docs = parseAllDocuments(t.slice(yamlStart)).map((d) => d.toJS() as unknown);
      if (docs.some((d) => typeof d === 'object' && d !== null)) {
        const before = t.slice(0, yamlStart).trim();
        const isEvents = /event/i.test(before) || ctx.verb === 'events';
        for (const d of docs) {
          if (isEvents && Array.isArray(d)) for (const e of d) fromKubeEvent(rec(e), ctx, out);
          else visit(d, ctx, out, { nodes: 0 }, 1);
        }
        return;
      }
    } catch {
      /* not YAML */
    }
  }
  const firstLine = t.split('\n', 1)[0] ?? '';
  if (isTableHeader(firstLine)) return parseTables(t, ctx, out);
  if (ctx.verb === 'logs' || looksLikeLog(t) || t.split('\n').length > 1) {
    const lines = t
      .split('\n')
      .slice(-MAX_LINES)
      .map(parseLogLine)
      .filter((l) => l.text);
    out.logs.push({
      pod: ctx.pod,
      namespace: ctx.namespace,
      container: ctx.container,
      previous: !!ctx.previous,
      lines,
      source: ctx.tool,
    });
    return;
  }
  out.texts.push(t.slice(0, 4000));
}

function looksLikeLog(t: string): boolean {
  return /^\s*(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|[IWEF]\d{4} \d{2}:\d{2}|\{"(ts|time|level|msg|timestamp)"|time=|level=|\[\w+\])/m.test(
    t,
  );
}

const LEVEL_RE =
  /\b(ERROR|ERR|FATAL|FTL|CRITICAL|CRIT|CRT|PANIC|PNC|SEVERE|EMERG|ALERT)\b|"level"\s*:\s*"(error|fatal|critical|panic)"|level=(error|fatal|crit|panic)|^\s*panic:|^\s*Traceback|Exception\b|^\s*[EF]\d{4} |\bfatal\b|\bfailed\b|\bcannot\b|\bunable to\b/i;
const WARN_RE = /\b(WARN|WARNING|WRN)\b|"level"\s*:\s*"warn(ing)?"|level=warn|^\s*W\d{4} /i;

export function parseLogLine(raw: string): LogLine {
  const text = raw.replace(/\s+$/, '').slice(0, 2000);
  let at: number | undefined;
  const iso = /(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)/.exec(
    text.slice(0, 80),
  );
  if (iso?.[1])
    at = parseTime(iso[1].replace(' ', 'T').replace(/(\d{2}:\d{2}:\d{2}(?:\.\d+)?)$/, '$1Z'));
  const level = LEVEL_RE.test(text) ? 'error' : WARN_RE.test(text) ? 'warn' : undefined;
  return { at, level, text };
}

// ---------------------------------------------------------------- kubectl get tables

/** `NAME  READY  STATUS`, `NAMESPACE  APIVERSION  KIND  NAME ...`, `LAST SEEN  TYPE  REASON ...` */
function isTableHeader(line: string): boolean {
  const cols = line.trim().split(/\s{2,}/);
  return (
    cols.length >= 2 &&
    cols.every((c) => /^[A-Z][A-Z0-9 %/_.-]*(\([A-Za-z%]+\))?[A-Z0-9 %/_.-]*$/.test(c)) &&
    cols.some((c) => c === 'NAME' || c === 'LAST SEEN' || c === 'POD')
  );
}

function columns(header: string): { name: string; start: number }[] {
  const cols: { name: string; start: number }[] = [];
  const re = /\S+(?: \S+)*/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(header))) cols.push({ name: m[0], start: m.index });
  return cols;
}

function parseTables(t: string, ctx: CallContext, out: Observed) {
  const blocks = t.split(/\n\s*\n/);
  for (const block of blocks) {
    const lines = block.split('\n').filter((l) => l.trim());
    const header = lines[0];
    if (!header || !isTableHeader(header)) {
      if (block.trim())
        parseText(block, { ...ctx, verb: ctx.verb === 'logs' ? 'logs' : 'text' }, out);
      continue;
    }
    const cols = columns(header);
    const names = cols.map((c) => c.name);
    const rows = lines.slice(1, 3000).map((line) => {
      const r: Record<string, string> = {};
      cols.forEach((c, i) => {
        const next = cols[i + 1];
        // cells are aligned on the header; the last one takes the rest of the line
        r[c.name] = (next ? line.slice(c.start, next.start) : line.slice(c.start)).trim();
      });
      // misaligned rows (proportional output): fall back to splitting on 2+ spaces
      if (cols.length > 1 && line.slice(0, cols[1]!.start).trim().includes('  ')) {
        const parts = line.trim().split(/\s{2,}/);
        cols.forEach(
          (c, i) =>
            (r[c.name] = i === cols.length - 1 ? parts.slice(i).join('  ') : (parts[i] ?? '')),
        );
      }
      return r;
    });
    const has = (n: string) => names.includes(n);
    if (has('REASON') && (has('OBJECT') || has('MESSAGE'))) {
      for (const r of rows) {
        const obj = r['OBJECT'] ?? r['INVOLVED OBJECT'] ?? '';
        const [k, n] = obj.includes('/') ? obj.split('/', 2) : [undefined, obj];
        out.events.push({
          type: r['TYPE'],
          reason: r['REASON'],
          message: r['MESSAGE'] ?? '',
          object: n ? { kind: kindOf(k) ?? k, name: n } : undefined,
          namespace: r['NAMESPACE'] ?? ctx.namespace,
          count: num(r['COUNT']),
          last: ageToTime(r['LAST SEEN'], ctx.now ?? Date.now()),
          first: ageToTime(r['FIRST SEEN'], ctx.now ?? Date.now()),
          source: ctx.tool,
        });
      }
      continue;
    }
    if (names.some((n) => /^CPU/.test(n)) && names.some((n) => /^MEMORY/.test(n))) {
      const cpuCol =
        names.find((n) => /^CPU(\(cores\))?$/.test(n)) ?? names.find((n) => /^CPU/.test(n))!;
      const memCol =
        names.find((n) => /^MEMORY(\(bytes\))?$/.test(n)) ?? names.find((n) => /^MEMORY/.test(n))!;
      for (const r of rows)
        out.metrics.push({
          kind: ctx.kind === 'node' || has('CPU%') ? 'node' : 'pod',
          name: r['POD'] ?? r['NAME'] ?? '',
          namespace: r['NAMESPACE'] ?? ctx.namespace,
          cpu: r[cpuCol],
          memory: r[memCol],
          source: ctx.tool,
        });
      continue;
    }
    const kind = has('RESTARTS')
      ? 'pod'
      : has('ROLES') || (has('VERSION') && has('STATUS'))
        ? 'node'
        : has('STORAGECLASS') && has('VOLUME')
          ? 'persistentvolumeclaim'
          : has('RECLAIM POLICY')
            ? 'persistentvolume'
            : has('COMPLETIONS')
              ? 'job'
              : has('MINPODS')
                ? 'horizontalpodautoscaler'
                : has('UP-TO-DATE')
                  ? 'deployment'
                  : has('PROVISIONER')
                    ? 'storageclass'
                    : has('SCHEDULE')
                      ? 'cronjob'
                      : has('DATA')
                        ? 'configmap'
                        : has('CLUSTER-IP')
                          ? 'service'
                          : (ctx.kind ?? 'resource');
    for (const r of rows) {
      const raw = r['NAME'] ?? '';
      const [k, n] = raw.includes('/') ? raw.split('/', 2) : [undefined, raw];
      if (!n) continue;
      const v = newObject(kindOf(k) ?? kindOf(r['KIND']) ?? kind, n, ctx.tool);
      v.namespace = r['NAMESPACE'] ?? ctx.namespace;
      v.created = ageToTime(r['AGE'], ctx.now ?? Date.now());
      v.status = r['STATUS'];
      v.node = r['NODE'] && r['NODE'] !== '<none>' ? r['NODE'] : undefined;
      const restarts = /^(\d+)/.exec(r['RESTARTS'] ?? '');
      if (restarts?.[1]) v.restarts = Number(restarts[1]);
      if (r['READY']) v.fields['ready'] = r['READY'];
      if (r['STORAGECLASS']) v.fields['storageClassName'] = r['STORAGECLASS'];
      if (r['VOLUME']) v.fields['volumeName'] = r['VOLUME'];
      if (r['COMPLETIONS']) v.fields['completions'] = r['COMPLETIONS'];
      if (r['MINPODS']) v.fields['minReplicas'] = r['MINPODS'];
      if (r['MAXPODS']) v.fields['maxReplicas'] = r['MAXPODS'];
      if (r['REPLICAS']) v.fields['status.currentReplicas'] = r['REPLICAS'];
      if (r['TARGETS']) v.fields['targets'] = r['TARGETS'];
      if (r['REFERENCE']) v.fields['scaleTarget'] = r['REFERENCE'];
      if (r['IMAGES']) v.images.push(...r['IMAGES'].split(','));
      if (r['AVAILABLE']) v.fields['status.availableReplicas'] = r['AVAILABLE'];
      if (r['CLUSTER-IP']) v.fields['clusterIP'] = r['CLUSTER-IP'];
      if (r['LABELS'])
        for (const kv of r['LABELS'].split(',')) {
          const [a, b] = kv.split('=');
          if (a && b) v.labels[a] = b;
        }
      out.objects.push(v);
    }
  }
}

/** "5m", "3h12m", "2d", "45s", "<unknown>" -> epoch ms relative to `now` (set later). */
export function ageToTime(age: string | undefined, now: number): number | undefined {
  if (!age) return undefined;
  const m = /^((\d+)d)?((\d+)h)?((\d+)m)?((\d+)s)?$/.exec(age.trim().split(/\s/)[0] ?? '');
  if (!m || !m[0]) return undefined;
  const ms =
    (Number(m[2] ?? 0) * 86400 +
      Number(m[4] ?? 0) * 3600 +
      Number(m[6] ?? 0) * 60 +
      Number(m[8] ?? 0)) *
    1000;
  return now - ms;
}

// ---------------------------------------------------------------- kubectl describe

interface Line {
  indent: number;
  key?: string;
  value: string;
  raw: string;
}

function parseDescribeAll(t: string, ctx: CallContext, out: Observed) {
  const parts = t.split(/\n(?=Name:\s)/);
  for (const p of parts) parseDescribe(p, ctx, out);
}

function splitLine(raw: string): Line {
  const indent = raw.length - raw.trimStart().length;
  const m = /^\s*([A-Za-z][A-Za-z0-9 ./()_-]{0,40}?):(?:\s+(.*))?$/.exec(raw);
  if (m && !/^\s*(http|https|tcp)$/i.test(m[1] ?? ''))
    return { indent, key: m[1], value: (m[2] ?? '').trim(), raw };
  return { indent, value: raw.trim(), raw };
}

function parseDescribe(t: string, ctx: CallContext, out: Observed) {
  const lines = t.split('\n').map(splitLine);
  const top = (k: string) => lines.find((l) => l.indent === 0 && l.key === k)?.value;
  const name = top('Name');
  if (!name) return;
  const kind = describeKind(lines, ctx);
  const v = newObject(kind, name, ctx.tool);
  v.namespace = top('Namespace') || ctx.namespace;
  v.status = top('Status');
  v.reason = top('Reason');
  v.message = top('Message');
  const node = top('Node');
  if (node && node !== '<none>') v.node = node.split('/')[0];
  const controlled = top('Controlled By');
  if (controlled?.includes('/')) {
    const [k, n] = controlled.split('/', 2);
    v.owner = { kind: kindOf(k) ?? (k ?? '').toLowerCase(), name: n ?? '' };
  }
  const ts = top('CreationTimestamp') ?? top('Start Time');
  if (ts) v.created = parseTime(ts) ?? Date.parse(ts);
  // labels (multi-line: "Labels: app=x\n        pod-template-hash=y")
  collectMulti(lines, 'Labels').forEach((kv) => {
    const [a, b] = kv.split('=');
    if (a && b !== undefined) v.labels[a] = b;
  });
  const taints = collectMulti(lines, 'Taints').filter((x) => x !== '<none>');
  if (taints.length) v.fields['taints'] = taints.join(',');
  const ns = collectMulti(lines, 'Node-Selectors').filter((x) => x !== '<none>');
  if (ns.length) v.fields['nodeSelector'] = ns.join(',');
  for (const k of [
    'StorageClass',
    'Volume',
    'Selector',
    'Replicas',
    'Pods Statuses',
    'Backoff Limit',
    'Min replicas',
    'Max replicas',
    'Reference',
    'Unschedulable',
    'Type',
    'IP',
    'Port',
    'TargetPort',
    'Endpoints',
    'Image',
    'Provisioner',
    'Capacity',
    'Access Modes',
    'Service Account',
    'Used By',
    'Claim',
    'Schedule',
    'Active Deadline Seconds',
    'Completions',
    'Start Time',
    'Secret Name',
    'Issuer Ref',
  ]) {
    const x = top(k);
    if (x) v.fields[k] = x;
  }
  if (v.fields['StorageClass'] !== undefined)
    v.fields['storageClassName'] = v.fields['StorageClass'];
  if (v.fields['Volume']) v.fields['volumeName'] = v.fields['Volume'];
  if (v.fields['Min replicas']) v.fields['minReplicas'] = v.fields['Min replicas'];
  if (v.fields['Max replicas']) v.fields['maxReplicas'] = v.fields['Max replicas'];
  if (v.fields['Reference']) v.fields['scaleTarget'] = v.fields['Reference'];
  if (v.fields['Backoff Limit']) v.fields['backoffLimit'] = v.fields['Backoff Limit'];
  const deadline = /^(\d+)/.exec(v.fields['Active Deadline Seconds'] ?? '');
  if (deadline) v.fields['activeDeadlineSeconds'] = deadline[1]!;
  const hpaPods = lines.find(
    (l) => /^Deployment pods:|^\w+ pods:/.test(l.raw.trim()) && l.indent === 0,
  );
  if (hpaPods) {
    const m = /(\d+) current \/ (\d+) desired/.exec(hpaPods.raw);
    if (m) {
      v.fields['status.currentReplicas'] = m[1]!;
      v.fields['status.desiredReplicas'] = m[2]!;
    }
  }
  const rep =
    /(\d+) desired \| (\d+) updated \| (\d+) total \| (\d+) available \| (\d+) unavailable/.exec(
      v.fields['Replicas'] ?? '',
    );
  if (rep) {
    v.fields['replicas'] = rep[1]!;
    v.fields['status.availableReplicas'] = rep[4]!;
    v.fields['status.unavailableReplicas'] = rep[5]!;
  }
  const ps = /(\d+) Active.*?(\d+) Succeeded.*?(\d+) Failed/.exec(v.fields['Pods Statuses'] ?? '');
  if (ps) {
    v.fields['status.active'] = ps[1]!;
    v.fields['status.succeeded'] = ps[2]!;
    v.fields['status.failed'] = ps[3]!;
  }
  if (v.fields['Image']) v.images.push(v.fields['Image']);
  const newRs = top('NewReplicaSet');
  if (newRs && newRs !== '<none>') v.fields['newReplicaSet'] = newRs.split(/\s/)[0]!;
  if (kind === 'service' && v.fields['IP']) v.fields['clusterIP'] = v.fields['IP'];
  if (kind === 'deployment') {
    const rep = /(\d+) desired/.exec(v.fields['Replicas'] ?? '');
    if (rep) v.fields['replicas'] = rep[1]!;
  }
  // containers
  const cStart = lines.findIndex(
    (l) => /^(Init )?Containers$/.test(l.key ?? '') && (l.indent === 0 || l.indent === 2),
  );
  if (cStart >= 0) {
    const base = lines[cStart]!.indent;
    let cur: ContainerView | undefined;
    let section: 'state' | 'last' | 'limits' | 'requests' | 'env' | 'other' = 'other';
    for (let i = cStart + 1; i < lines.length; i++) {
      const l = lines[i]!;
      if (l.indent <= base && l.raw.trim()) break;
      if (l.indent === base + 2 && l.key && !l.value) {
        cur = emptyContainer(l.key);
        v.containers.push(cur);
        section = 'other';
        continue;
      }
      if (!cur || !l.key) continue;
      if (l.indent === base + 4) {
        switch (l.key) {
          case 'Image':
            cur.image = l.value;
            v.images.push(l.value);
            section = 'other';
            break;
          case 'State':
            section = 'state';
            setState(cur, 'state', l.value);
            break;
          case 'Last State':
            section = 'last';
            setState(cur, 'last', l.value);
            break;
          case 'Ready':
            cur.ready = l.value === 'True';
            section = 'other';
            break;
          case 'Restart Count':
            cur.restarts = num(l.value);
            section = 'other';
            break;
          case 'Limits':
            section = 'limits';
            break;
          case 'Requests':
            section = 'requests';
            break;
          case 'Environment':
            section = 'env';
            break;
          case 'Port':
          case 'Ports':
            for (const m of l.value.matchAll(/(\d+)\/(?:TCP|UDP|SCTP)/g)) cur.ports.push(m[1]!);
            section = 'other';
            break;
          case 'Liveness':
          case 'Readiness':
          case 'Startup':
            cur.probes.push(`${l.key}: ${l.value}`);
            section = 'other';
            break;
          case 'Args':
          case 'Command':
            section = 'other';
            cur.env['__args'] = [
              cur.env['__args'] ?? '',
              l.value,
              ...collectUntilKey(lines, i + 1, base + 4),
            ]
              .join(' ')
              .trim();
            break;
          default:
            section = 'other';
        }
        continue;
      }
      if (l.indent > base + 4) {
        const st =
          section === 'state'
            ? stateRef(cur, 'state')
            : section === 'last'
              ? (cur.last ??= {})
              : undefined;
        if (st) {
          if (l.key === 'Reason') st.reason = l.value;
          else if (l.key === 'Message') st.message = l.value;
          else if (l.key === 'Exit Code') st.exitCode = num(l.value);
          else if (l.key === 'Finished' || l.key === 'Started')
            st.at = Date.parse(l.value) || st.at;
        } else if (section === 'limits') cur.limits[l.key] = l.value;
        else if (section === 'requests') cur.requests[l.key] = l.value;
        else if (section === 'env') {
          const ref = /<set to the key '([^']+)' (?:of config map|in secret) '([^']+)'>/.exec(
            l.value,
          );
          if (ref)
            cur.envRefs.push(
              `${l.key} <- ${/secret/.test(l.value) ? 'secret' : 'configmap'} ${ref[2]} key ${ref[1]}`,
            );
          else cur.env[l.key] = l.value;
        }
      }
    }
  }
  // volumes: ClaimName
  const claims = lines.filter((l) => l.key === 'ClaimName').map((l) => l.value);
  if (claims.length) v.fields['claims'] = claims.join(',');
  // conditions table
  const condIdx = lines.findIndex((l) => l.indent === 0 && l.key === 'Conditions');
  if (condIdx >= 0) {
    const header = lines[condIdx + 1]?.raw ?? '';
    const cols = columns(header);
    for (let i = condIdx + 2; i < lines.length; i++) {
      const raw = lines[i]!.raw;
      if (!raw.startsWith(' ') || !raw.trim()) break;
      if (/^\s*-+(\s+-+)*\s*$/.test(raw)) continue;
      const parts = raw.trim().split(/\s{2,}/);
      const get = (n: string) => {
        const idx = cols.findIndex((c) => c.name === n);
        return idx >= 0
          ? idx === cols.length - 1
            ? parts.slice(idx).join('  ')
            : parts[idx]
          : undefined;
      };
      const type = get('Type') ?? parts[0] ?? '';
      if (!type) continue;
      v.conditions.push({
        type,
        status: get('Status') ?? parts[1] ?? '',
        reason: get('Reason'),
        message: get('Message'),
      });
    }
  }
  if (kind === 'node') {
    const ready = v.conditions.find((c) => c.type === 'Ready');
    if (ready) v.status = ready.status === 'True' ? 'Ready' : 'NotReady';
  }
  if (kind === 'pod') {
    v.restarts = v.containers.reduce((a, c) => a + (c.restarts ?? 0), 0);
    v.status = podStatusText({ ...v, status: v.status }) ?? v.status;
  }
  out.objects.push(v);
  // events table
  const evIdx = lines.findIndex((l) => l.indent === 0 && l.key === 'Events');
  if (evIdx >= 0 && !/^<none>/.test(lines[evIdx]!.value)) {
    const header = lines[evIdx + 1]?.raw ?? '';
    const cols = columns(header);
    for (let i = evIdx + 2; i < lines.length; i++) {
      const raw = lines[i]!.raw;
      if (!raw.trim()) break;
      if (/^\s*-+(\s+-+)*\s*$/.test(raw)) continue;
      const parts = raw.trim().split(/\s{2,}/);
      const idx = (n: string) => cols.findIndex((c) => c.name === n);
      const at = (n: string) => (idx(n) >= 0 ? parts[idx(n)] : undefined);
      const msgIdx = idx('Message');
      const message =
        msgIdx >= 0 ? parts.slice(msgIdx).join('  ') : (parts[parts.length - 1] ?? '');
      const age = at('Age') ?? '';
      const count = /\(x(\d+) over ([^)]+)\)/.exec(age);
      out.events.push({
        type: at('Type'),
        reason: at('Reason'),
        message,
        object: { kind, name },
        namespace: v.namespace,
        count: count ? Number(count[1]) : undefined,
        last: ageToTime(age.split(' ')[0], ctx.now ?? Date.now()),
        first: count ? ageToTime(count[2], ctx.now ?? Date.now()) : undefined,
        source: ctx.tool,
      });
    }
  }
}

function describeKind(lines: Line[], ctx: CallContext): string {
  const has = (k: string) => lines.some((l) => l.indent === 0 && l.key === k);
  if (has('Containers') && (has('Node') || has('IP') || has('QoS Class'))) return 'pod';
  if (has('Taints') && (has('Roles') || has('Unschedulable'))) return 'node';
  if (has('StrategyType') || has('NewReplicaSet')) return 'deployment';
  if (has('Backoff Limit') || (has('Completions') && has('Pods Statuses'))) return 'job';
  if (has('Schedule') && has('Concurrency Policy')) return 'cronjob';
  if (has('Min replicas') || (has('Reference') && has('Max replicas')))
    return 'horizontalpodautoscaler';
  if (has('StorageClass') && has('Access Modes') && has('Used By')) return 'persistentvolumeclaim';
  if (has('Reclaim Policy') && has('Claim')) return 'persistentvolume';
  if (has('Provisioner')) return 'storageclass';
  if (has('Selector') && has('Pods Status') && has('Update Strategy')) return 'statefulset';
  if (has('Node-Selector') && has('Desired Number of Nodes Scheduled')) return 'daemonset';
  if (has('Controlled By') && has('Replicas') && has('Pod Template')) return 'replicaset';
  if (has('TargetPort') || (has('Endpoints') && has('Type'))) return 'service';
  if (ctx.kind) return ctx.kind;
  return 'resource';
}

function collectMulti(lines: Line[], key: string): string[] {
  const i = lines.findIndex((l) => l.indent === 0 && l.key === key);
  if (i < 0) return [];
  const out = [lines[i]!.value];
  for (let j = i + 1; j < lines.length; j++) {
    const l = lines[j]!;
    if (l.indent === 0 || !l.raw.trim()) break;
    if (l.key && l.indent === 0) break;
    out.push(l.raw.trim());
  }
  return out.filter(Boolean);
}

function collectUntilKey(lines: Line[], from: number, indent: number): string[] {
  const out: string[] = [];
  for (let j = from; j < lines.length; j++) {
    const l = lines[j]!;
    if (l.indent <= indent) break;
    out.push(l.raw.trim());
  }
  return out;
}

function stateRef(c: ContainerView, _which: 'state'): StateView | undefined {
  return c.waiting ?? c.terminated;
}

function setState(c: ContainerView, which: 'state' | 'last', value: string) {
  const word = value.split(/\s/)[0] ?? '';
  if (which === 'last') {
    if (/^Terminated/i.test(word)) c.last = {};
    return;
  }
  if (/^Waiting/i.test(word)) c.waiting = {};
  else if (/^Terminated/i.test(word)) c.terminated = {};
}
