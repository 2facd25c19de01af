import { parseAllDocuments } from 'yaml';
import { kindOf } from './tool-profile';
import { parseDescribeAll } from './observe/describe';
import { fromKubeEvent, fromKubeObject, stateOf } from './observe/kube-objects';
import { looksLikeLog, parseLogLine } from './observe/logs';
import { fromMetricsObject } from './observe/metrics';
import { isTableHeader, parseTables } from './observe/tables';
import {
  arr,
  empty,
  emptyContainer,
  newObject,
  num,
  parseTime,
  rec,
  str,
  strMap,
  type CallContext,
  type Observed,
} from './observe/views';

/**
 * Reads real tool outputs into one shape: Kubernetes objects (JSON, YAML, `kubectl describe`
 * text, `kubectl get` tables, custom JSON), events, log lines and metrics. Bounded: huge or
 * hostile outputs are cut, never trusted. The parts: observe/kube-objects.ts (API objects),
 * observe/describe.ts (`kubectl describe`), observe/tables.ts (`kubectl get`), observe/logs.ts,
 * observe/metrics.ts (the metrics API's objects).
 */

export * from './observe/views';
export { parseLogLine } from './observe/logs';
export { ageToTime } from './observe/tables';
export { podStatusText } from './observe/kube-objects';

const MAX_TEXT = 400_000;
const MAX_LINES = 5_000;
const MAX_NODES = 20_000;

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
  if (fromMetricsObject(o, ctx, out)) return;
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
    // a list of names only ({"namespaces": ["shop", "payments"]}): the namespaces exist
    if (
      LIST_KIND_KEYS[k.toLowerCase()] === 'namespace' &&
      Array.isArray(val) &&
      val.length &&
      val.every((x) => typeof x === 'string')
    ) {
      for (const name of (val as string[]).slice(0, 2000))
        customObject({ name }, 'namespace', ctx, out, undefined);
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
    // a document inside a wrapper ({"success": true, "description": "Name: ...\nNamespace: ..."}):
    // a kubectl description, a table or YAML is read as such
    if (typeof val === 'string' && val.includes('\n') && embeddedDocument(val)) {
      parseText(val, ctx, out);
      continue;
    }
    if (
      typeof val === 'string' &&
      val.length > 30 &&
      !/^(name|namespace|image|url|id|uid)$/i.test(k)
    )
      out.texts.push(val.slice(0, 2000));
  }
  // an event on its own ({reason, message, type, involvedObject: {kind, name}}), as servers that
  // answer one content item per event give it
  if ((o['involvedObject'] || o['regarding']) && (o['message'] !== undefined || o['reason']))
    return fromKubeEvent(o, ctx, out);
  // an object that is itself a resource ({name, status, containers...}), or one row of a listing
  // of a known kind that gives little more than names ({name, namespace, ready_replicas})
  if (
    typeof o['name'] === 'string' &&
    (o['status'] !== undefined ||
      o['containers'] ||
      o['restarts'] !== undefined ||
      o['phase'] ||
      (ctx.kind && LISTING_VERBS.has(ctx.verb) && listingRow(o)))
  )
    customObject(o, ctx.kind ?? guessKind(o), ctx, out, str(o['namespace']));
}

const LISTING_VERBS = new Set(['list', 'get', 'find', 'namespaces']);

/** a listing's row: a name and a few plain values (no nested documents beyond short lists) */
function listingRow(o: Record<string, unknown>): boolean {
  const values = Object.values(o);
  return (
    values.length <= 16 &&
    values.every(
      (v) =>
        v === null ||
        typeof v !== 'object' ||
        (Array.isArray(v) && v.every((x) => typeof x !== 'object')) ||
        Object.values(rec(v)).every((x) => typeof x !== 'object'),
    )
  );
}

/** text that is a kubectl description, a `kubectl get` table or a YAML object */
function embeddedDocument(text: string): boolean {
  const t = text.trimStart();
  return (
    (/^Name:\s+\S/m.test(t) &&
      /^(Namespace|Labels|Annotations|CreationTimestamp|Roles):/m.test(t)) ||
    isTableHeader(t.split('\n', 1)[0] ?? '') ||
    /^(apiVersion|kind):\s/m.test(t.slice(0, 400))
  );
}

function guessKind(r: Record<string, unknown>): string {
  // a row that says its kind ({kind: "Pod", name, ...}, as searches answer)
  const said = typeof r['kind'] === 'string' ? kindOf(r['kind']) : undefined;
  if (said) return said;
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
  // a Service's listing row ({name, type, clusterIP, ports}): its type; a LoadBalancer's address
  // is not in it (its status was not listed)
  if (v.kind === 'service' && typeof r['type'] === 'string' && r['type']) {
    v.fields['type'] = r['type'];
    const ip = str(r['clusterIP']);
    if (ip) v.fields['clusterIP'] = ip;
    if (r['type'] === 'LoadBalancer' && r['status'] === undefined)
      v.fields['addressUnlisted'] = 'true';
  }
  // {desired_replicas: 3, ready_replicas: 0}: the listing's READY "0/3"
  const desired = num(r['desired_replicas'] ?? r['desiredReplicas']);
  const readyCount = num(r['ready_replicas'] ?? r['readyReplicas']);
  if (desired !== undefined) {
    v.fields['replicas'] ??= String(desired);
    if (readyCount !== undefined && v.fields['ready'] === undefined)
      v.fields['ready'] = `${readyCount}/${desired}`;
  }
  const created = parseTime(r['created_at'] ?? r['creationTimestamp'] ?? r['created']);
  if (created !== undefined) v.created ??= created;
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
  // "images": ["app=registry/app:1.2"] (container=image)
  for (const x of arr(r['images']).map(str)) if (x) v.images.push(x.replace(/^[a-z0-9-]+=/, ''));
  v.fields['revision'] = str(r['revision']) ?? '';
  const rs = str(r['replicaset'] ?? r['replicaSet'] ?? r['replica_set']);
  if (rs) v.fields['replicaset'] = rs;
  if (r['current'] === true) v.fields['current'] = 'true';
  const replicas = str(r['replicas']);
  if (replicas) v.fields['replicas'] = replicas;
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
  // an event that names only itself: the API names an event "<object>.<hex>"
  const own = !object ? /^([a-z0-9][a-z0-9.-]*?)\.[0-9a-f]{8,}$/.exec(str(r['name']) ?? '') : null;
  if (own) object = { name: own[1]! };
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
  if (isTableHeader(firstLine)) return parseTables(t, ctx, out, parseText);
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
