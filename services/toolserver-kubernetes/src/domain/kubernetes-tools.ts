import Ajv, { type ValidateFunction } from 'ajv';
import { forbidden, invalidField, invalidRequest, isDomainError, notFound } from '@inquest/errors';
import {
  KINDS,
  age,
  builtinKindOf,
  describe,
  formatTabs,
  getTable,
  parseLabelSelector,
  resolveKind,
  selectorRequirements,
  formatSelector,
  tableRows,
  toDate,
  toYaml,
  topTable,
  parseQuantity,
  type KindInfo,
  type KubeObject,
  type NodeMetrics,
  type PodMetrics,
} from '@inquest/kube';
import { KindCatalogue } from './kind-catalogue';
import type { KubeReader } from './kube-reader';
import {
  DEFAULT_LIMIT,
  DEFAULT_TAIL_LINES,
  MAX_LIMIT,
  MAX_TAIL_LINES,
  TOOL_DEFINITIONS,
  type ToolDefinition,
} from './tool-definitions';

export interface KubernetesToolsOptions {
  reader: KubeReader;
  /** the current time, for ages (a benchmark passes its scenario's `now`) */
  now?: () => Date;
  /** namespaces the tools may read; empty or absent = every namespace */
  namespaces?: readonly string[];
  /** list Secrets' names and keys (never values) */
  secrets?: boolean;
  /** show ConfigMap values */
  configMapValues?: boolean;
  /** how long the API server's discovery (custom resource kinds) is cached; default 5 min */
  discoveryTtlMs?: number;
}

type Params = Record<string, unknown>;
type Output = Record<string, unknown>;

/** How many items one name-fragment scan reads from the API before it gives up (bounded work). */
const SCAN_PAGE = 500;
const SCAN_PAGES = 10;
/** A log answer never exceeds this, whatever the lines. */
const LOG_LIMIT_BYTES = 4 * 1024 * 1024;

const FIND_KINDS = [
  'Pod',
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'CronJob',
  'Service',
  'Ingress',
  'ConfigMap',
  'PersistentVolumeClaim',
  'HorizontalPodAutoscaler',
  'Node',
];

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const bytes = (b64: unknown) => Buffer.from(String(b64 ?? ''), 'base64').length;
const columnKey = (h: string) =>
  h
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/_$/, '');

function kindRef(info: KindInfo): string {
  return info.group ? `${info.plural}.${info.group}` : info.plural;
}

/**
 * The read-only Kubernetes tools: definitions, input checks and answers. Domain errors out
 * (@inquest/errors): invalid_input for bad parameters and unknown kinds, forbidden for RBAC
 * denials, disabled Secrets and namespaces outside the allow-list, not_found, unavailable.
 */
export class KubernetesTools {
  readonly definitions: readonly ToolDefinition[] = TOOL_DEFINITIONS;
  private readonly validators: Map<string, ValidateFunction>;
  private readonly reader: KubeReader;
  private readonly now: () => Date;
  private readonly allowed: readonly string[] | undefined;
  private readonly secrets: boolean;
  private readonly configMapValues: boolean;
  private readonly handlers: Record<string, (p: Params) => Promise<Output>>;
  /** built-in kinds, and custom resources by the API server's discovery */
  readonly catalogue: KindCatalogue;

  constructor(opts: KubernetesToolsOptions) {
    this.reader = opts.reader;
    this.catalogue = new KindCatalogue({
      discover: () => this.reader.discover(),
      ...(opts.discoveryTtlMs !== undefined ? { ttlMs: opts.discoveryTtlMs } : {}),
    });
    this.now = opts.now ?? (() => new Date());
    this.allowed = opts.namespaces?.length ? [...opts.namespaces] : undefined;
    this.secrets = opts.secrets ?? false;
    this.configMapValues = opts.configMapValues ?? false;
    const ajv = new Ajv({ allErrors: false, strict: false });
    this.validators = new Map(this.definitions.map((d) => [d.name, ajv.compile(d.parameters)]));
    this.handlers = {
      list_namespaces: () => this.listNamespaces(),
      list_resources: (p) => this.listResources(p),
      get_resource: (p) => this.getResource(p),
      describe_resource: (p) => this.describeResource(p),
      find_resources: (p) => this.findResources(p),
      get_events: (p) => this.getEvents(p),
      get_pod_logs: (p) => this.getPodLogs(p),
      rollout_history: (p) => this.rolloutHistory(p),
      top_pods: (p) => this.topPods(p),
      top_nodes: (p) => this.topNodes(p),
    };
  }

  /** Runs one tool: checks its parameters against the schema, then answers. */
  async call(name: string, parameters: unknown): Promise<Output> {
    const handler = this.handlers[name];
    const validate = this.validators.get(name);
    if (!handler || !validate) {
      throw notFound(
        `unknown tool "${name}" (tools: ${this.definitions.map((d) => d.name).join(', ')})`,
      );
    }
    const params = parameters ?? {};
    if (!validate(params)) {
      const e = validate.errors?.[0];
      const where = e?.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : '';
      const extra =
        e?.keyword === 'additionalProperties'
          ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})`
          : e?.keyword === 'enum'
            ? ` (${((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).join(', ')})`
            : '';
      throw invalidField(
        where || 'parameters',
        `invalid parameters: ${where ? `${where} ` : ''}${e?.message ?? 'invalid'}${extra}`,
      );
    }
    return handler(params as Params);
  }

  // ------------------------------------------------------------------ policy

  private async kind(input: unknown): Promise<KindInfo> {
    const { info, discoveryError } = await this.catalogue.resolve(String(input));
    if (!info) {
      throw invalidField(
        'kind',
        `unknown kind "${String(input)}": not a built-in kind (${KINDS.map((k) => k.plural).join(', ')}) ` +
          (discoveryError
            ? `and the API server's discovery, where custom resource kinds are looked up, could not be read (${discoveryError})`
            : `and not a custom resource kind the API server's discovery lists (custom resources are looked up by discovery: give the Kind, its plural or plural.group, e.g. applications.argoproj.io, kustomizations.kustomize.toolkit.fluxcd.io, certificates.cert-manager.io)`),
      );
    }
    if (info.kind === 'Secret' && info.group === '' && !this.secrets) {
      throw forbidden(
        'Secrets are off on this tool server (the default). An operator can set INQUEST_KUBE_SECRETS=true to list their names and keys; values are never returned.',
      );
    }
    return info;
  }

  private checkNamespace(ns: string): string {
    if (this.allowed && !this.allowed.includes(ns)) {
      throw forbidden(
        `namespace "${ns}" is outside this tool server's namespace allow-list (allowed: ${this.allowed.join(', ')})`,
      );
    }
    return ns;
  }

  /** The namespaces a query covers: one, the allow-list, or every namespace (undefined). */
  private scope(info: KindInfo, ns: unknown): Array<string | undefined> {
    if (!info.namespaced) return [undefined];
    if (typeof ns === 'string') return [this.checkNamespace(ns)];
    return this.allowed ? [...this.allowed] : [undefined];
  }

  /** Removes what must not leave the server: Secret values, ConfigMap values unless allowed. */
  private sanitize(obj: KubeObject): KubeObject {
    const o: KubeObject = { ...obj, metadata: { ...(obj.metadata ?? {}) } };
    delete o.metadata!.managedFields;
    const hideValues = o.kind === 'Secret' || (o.kind === 'ConfigMap' && !this.configMapValues);
    if (hideValues && o.metadata!.annotations?.[LAST_APPLIED]) {
      const { [LAST_APPLIED]: _dropped, ...rest } = o.metadata!.annotations;
      o.metadata!.annotations = rest;
    }
    if (o.kind === 'Secret') {
      const sizes: Record<string, string> = {};
      for (const [k, v] of Object.entries((o.data ?? {}) as Record<string, unknown>))
        sizes[k] = `<${bytes(v)} bytes, value never shown>`;
      for (const [k, v] of Object.entries((o.stringData ?? {}) as Record<string, unknown>))
        sizes[k] = `<${Buffer.byteLength(String(v))} bytes, value never shown>`;
      delete o.stringData;
      o.data = sizes;
    } else if (o.kind === 'ConfigMap' && !this.configMapValues) {
      const hide = (m: Record<string, unknown> | undefined, b64: boolean) =>
        m
          ? Object.fromEntries(
              Object.entries(m).map(([k, v]) => [
                k,
                `<${b64 ? bytes(v) : Buffer.byteLength(String(v))} bytes, value hidden: this server does not show ConfigMap values>`,
              ]),
            )
          : undefined;
      if (o.data) o.data = hide(o.data, false);
      if (o.binaryData) o.binaryData = hide(o.binaryData, true);
    }
    return o;
  }

  /**
   * Objects of a kind over the query's scope, bounded: at most `limit`, `truncated` when there
   * were more. A name fragment is matched here (the API cannot), over a bounded scan.
   */
  private async collect(
    info: KindInfo,
    q: {
      namespace?: unknown;
      labelSelector?: string;
      fieldSelector?: string;
      nameContains?: string;
      limit: number;
    },
  ): Promise<{ items: KubeObject[]; truncated: boolean }> {
    if (q.labelSelector) parseLabelSelector(q.labelSelector);
    const fragment = q.nameContains?.toLowerCase();
    const items: KubeObject[] = [];
    let truncated = false;
    const scope = this.scope(info, q.namespace);
    for (const [i, ns] of scope.entries()) {
      let token: string | undefined;
      let pages = 0;
      do {
        const need = q.limit - items.length;
        const page = await this.reader.list(info, {
          ...(ns ? { namespace: ns } : {}),
          ...(q.labelSelector ? { labelSelector: q.labelSelector } : {}),
          ...(q.fieldSelector ? { fieldSelector: q.fieldSelector } : {}),
          limit: fragment ? SCAN_PAGE : Math.max(need, 1),
          ...(token ? { continueToken: token } : {}),
        });
        pages++;
        let got = page.items;
        if (info.kind === 'Namespace' && this.allowed)
          got = got.filter((o) => this.allowed!.includes(o.metadata?.name ?? ''));
        if (fragment)
          got = got.filter((o) => (o.metadata?.name ?? '').toLowerCase().includes(fragment));
        if (got.length > need) truncated = true;
        items.push(...got.slice(0, Math.max(need, 0)));
        token = page.continueToken;
        if (items.length >= q.limit) {
          if (token) truncated = true;
          break;
        }
        if (fragment && pages >= SCAN_PAGES && token) {
          truncated = true;
          break;
        }
      } while (token);
      if (items.length >= q.limit) {
        // other namespaces of the allow-list were not read
        if (i < scope.length - 1) truncated = true;
        break;
      }
    }
    return { items, truncated };
  }

  /** Finds a namespaced object by name when the caller did not say where it lives. */
  private async locate(info: KindInfo, name: string, ns: unknown): Promise<KubeObject> {
    if (!info.namespaced) return this.reader.get(info, name);
    if (typeof ns === 'string') return this.reader.get(info, name, this.checkNamespace(ns));
    const { items } = await this.collect(info, {
      fieldSelector: `metadata.name=${name}`,
      limit: 20,
    });
    if (items.length === 0) {
      throw notFound(
        `${kindRef(info)} "${name}" not found in ${this.allowed ? `namespaces ${this.allowed.join(', ')}` : 'any namespace'}`,
      );
    }
    if (items.length > 1) {
      throw invalidField(
        'namespace',
        `${kindRef(info)} "${name}" exists in several namespaces (${items.map((o) => o.metadata?.namespace).join(', ')}): give a namespace`,
      );
    }
    return items[0]!;
  }

  // ------------------------------------------------------------------ tools

  private async listNamespaces(): Promise<Output> {
    const info = resolveKind('Namespace')!;
    const now = this.now();
    let items: KubeObject[];
    let truncated = false;
    let note: string | undefined;
    try {
      ({ items, truncated } = await this.collect(info, { limit: MAX_LIMIT }));
    } catch (e) {
      if (!(isDomainError(e) && e.kind === 'forbidden' && this.allowed)) throw e;
      // a namespaced Role cannot list namespaces; the allow-list still says which exist for us
      items = this.allowed.map((n) => ({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: n },
        status: {},
      }));
      note = 'this server may not list namespaces; these are its allow-list';
    }
    return {
      namespaces: items.map((n) => ({
        name: n.metadata?.name,
        status: n.status?.phase ?? 'Unknown',
        age: age(n.metadata?.creationTimestamp, now),
      })),
      count: items.length,
      truncated,
      ...(this.allowed ? { allow_list: this.allowed } : {}),
      ...(note ? { note } : {}),
      text: getTable(info, items, { now }),
    };
  }

  private async listResources(p: Params): Promise<Output> {
    const info = await this.kind(p.kind);
    const limit = (p.limit as number | undefined) ?? DEFAULT_LIMIT;
    const ns = p.namespace as string | undefined;
    const { items, truncated } = await this.collect(info, {
      namespace: ns,
      labelSelector: p.label_selector as string | undefined,
      fieldSelector: p.field_selector as string | undefined,
      nameContains: p.name_contains as string | undefined,
      limit,
    });
    const now = this.now();
    const all = info.namespaced && !ns;
    const opts = {
      now,
      wide: Boolean(p.wide),
      allNamespaces: all,
      ...(ns ? { namespace: ns } : {}),
    };
    const { headers, rows } = tableRows(info, items, opts);
    const keys = headers.map(columnKey);
    return {
      kind: info.kind,
      ...(info.namespaced
        ? { namespace: ns ?? (this.allowed ? this.allowed.join(',') : 'all') }
        : {}),
      count: items.length,
      truncated,
      items: rows.map((r) => Object.fromEntries(r.map((c, i) => [keys[i]!, c]))),
      text:
        getTable(info, items, opts) +
        (truncated ? `... truncated at ${limit} items; narrow the query or raise limit\n` : ''),
    };
  }

  private async getResource(p: Params): Promise<Output> {
    const info = await this.kind(p.kind);
    const obj = this.sanitize(await this.locate(info, String(p.name), p.namespace));
    return {
      kind: info.kind,
      name: obj.metadata?.name,
      ...(obj.metadata?.namespace ? { namespace: obj.metadata.namespace } : {}),
      text: toYaml(obj),
      object: obj,
    };
  }

  /** Objects a description mentions; what RBAC refuses is left out, as kubectl does. */
  private async relatedTo(obj: KubeObject): Promise<KubeObject[]> {
    const ns = obj.metadata?.namespace;
    const name = obj.metadata?.name ?? '';
    const quiet = async (
      kind: string,
      q: { namespace?: string; labelSelector?: string; fieldSelector?: string },
    ) => {
      try {
        const info = resolveKind(kind)!;
        if (info.namespaced && q.namespace && this.allowed && !this.allowed.includes(q.namespace))
          return [];
        return (await this.collect(info, { ...q, limit: 500 })).items;
      } catch (e) {
        if (
          isDomainError(e) &&
          (e.kind === 'forbidden' || e.kind === 'not_found' || e.kind === 'invalid_input')
        )
          return [];
        throw e;
      }
    };
    const selector = (s: unknown) => {
      const reqs = selectorRequirements(s);
      return reqs && reqs.length ? formatSelector(s) : undefined;
    };
    // a custom resource (also one reusing a built-in kind's name) mentions nothing kubectl reads
    if (!builtinKindOf(obj)) return [];
    switch (obj.kind) {
      case 'Deployment':
        return (
          await quiet('ReplicaSet', { namespace: ns, labelSelector: selector(obj.spec?.selector) })
        ).filter((rs) =>
          (rs.metadata?.ownerReferences ?? []).some(
            (r: { kind: string; name: string }) => r.kind === 'Deployment' && r.name === name,
          ),
        );
      case 'ReplicaSet':
      case 'StatefulSet':
      case 'DaemonSet':
      case 'Job': {
        const sel = selector(obj.spec?.selector);
        return sel ? quiet('Pod', { namespace: ns, labelSelector: sel }) : [];
      }
      case 'CronJob':
        return quiet('Job', { namespace: ns });
      case 'Node':
        return quiet('Pod', { fieldSelector: `spec.nodeName=${name}` });
      case 'Ingress':
        return quiet('Endpoints', { namespace: ns });
      case 'Service':
        return quiet('Endpoints', { namespace: ns, fieldSelector: `metadata.name=${name}` });
      case 'PersistentVolumeClaim':
        return quiet('Pod', { namespace: ns });
      case 'Namespace':
        return [
          ...(await quiet('ResourceQuota', { namespace: name })),
          ...(await quiet('LimitRange', { namespace: name })),
        ];
      default:
        return [];
    }
  }

  private async eventsAbout(who: {
    kind: string;
    name: string;
    namespace?: string;
  }): Promise<KubeObject[]> {
    const info = resolveKind('Event')!;
    const io = [`involvedObject.name=${who.name}`, `involvedObject.kind=${who.kind}`];
    if (who.namespace) io.push(`involvedObject.namespace=${who.namespace}`);
    try {
      return (
        await this.collect(info, {
          ...(who.namespace ? { namespace: who.namespace } : {}),
          fieldSelector: io.join(','),
          limit: 500,
        })
      ).items;
    } catch (e) {
      if (isDomainError(e) && e.kind === 'forbidden') return [];
      throw e;
    }
  }

  private async describeResource(p: Params): Promise<Output> {
    const info = await this.kind(p.kind);
    const name = String(p.name);
    // where the object lives is known up front: ask for its events at the same time
    const located = !info.namespaced || typeof p.namespace === 'string';
    const early = located
      ? this.eventsAbout({
          kind: info.kind,
          name,
          ...(info.namespaced ? { namespace: this.checkNamespace(String(p.namespace)) } : {}),
        })
      : undefined;
    early?.catch(() => undefined);
    let obj = await this.locate(info, name, p.namespace);
    if (obj.kind === 'ConfigMap' && !this.configMapValues) obj = this.sanitize(obj);
    const who = {
      kind: info.kind,
      name: obj.metadata?.name ?? name,
      ...(obj.metadata?.namespace ? { namespace: obj.metadata.namespace } : {}),
    };
    const [events, related] = await Promise.all([
      early ?? this.eventsAbout(who),
      this.relatedTo(obj),
    ]);
    return {
      kind: info.kind,
      name: obj.metadata?.name,
      ...(obj.metadata?.namespace ? { namespace: obj.metadata.namespace } : {}),
      events: events.length,
      text: describe(obj, { events, related, now: this.now() }),
    };
  }

  private async findResources(p: Params): Promise<Output> {
    const fragment = p.name_contains as string | undefined;
    const labels = p.label_selector as string | undefined;
    if (!fragment && !labels) throw invalidRequest('give name_contains, label_selector or both');
    if (labels) parseLabelSelector(labels);
    if (typeof p.namespace === 'string') this.checkNamespace(p.namespace);
    const kinds = p.kinds
      ? await Promise.all((p.kinds as string[]).map((k) => this.kind(k)))
      : [...FIND_KINDS, ...(this.secrets ? ['Secret'] : [])].map((k) => resolveKind(k)!);
    const limit = (p.limit as number | undefined) ?? DEFAULT_LIMIT;
    const now = this.now();
    const skipped: Array<{ kind: string; error: string }> = [];
    const found = await Promise.all(
      kinds.map(async (info) => {
        if (!info.namespaced && typeof p.namespace === 'string')
          return { info, items: [] as KubeObject[], truncated: false };
        try {
          return {
            info,
            ...(await this.collect(info, {
              namespace: p.namespace,
              labelSelector: labels,
              nameContains: fragment,
              limit,
            })),
          };
        } catch (e) {
          if (isDomainError(e) && e.kind !== 'invalid_input') {
            skipped.push({ kind: info.kind, error: e.message });
            return { info, items: [] as KubeObject[], truncated: false };
          }
          throw e;
        }
      }),
    );
    const matches: Array<Record<string, string>> = [];
    let truncated = found.some((f) => f.truncated);
    for (const { info, items } of found) {
      const { headers, rows } = tableRows(info, items, { now });
      rows.forEach((row, i) => {
        const summary = headers
          .map((h, j) => (h === 'NAME' || h === 'AGE' ? '' : `${h}=${row[j]}`))
          .filter(Boolean)
          .join(' ');
        const o = items[i]!;
        matches.push({
          kind: info.kind,
          ...(o.metadata?.namespace ? { namespace: o.metadata.namespace } : {}),
          name: o.metadata?.name ?? '',
          summary,
          age: age(o.metadata?.creationTimestamp, now),
        });
      });
    }
    if (matches.length > limit) truncated = true;
    const bounded = matches.slice(0, limit);
    const table = bounded.length
      ? getTableLike(
          ['KIND', 'NAMESPACE', 'NAME', 'AGE', 'SUMMARY'],
          bounded.map((m) => [m.kind!, m.namespace ?? '', m.name!, m.age!, m.summary!]),
        )
      : 'No resources found\n';
    return {
      count: bounded.length,
      truncated,
      matches: bounded,
      ...(skipped.length ? { skipped } : {}),
      text: table + skipped.map((s) => `(${s.kind} skipped: ${s.error})\n`).join(''),
    };
  }

  private async getEvents(p: Params): Promise<Output> {
    const info = resolveKind('Event')!;
    const fields: string[] = [];
    let involvedInfo: KindInfo | undefined;
    if (p.kind !== undefined || p.name !== undefined) {
      if (p.kind === undefined || p.name === undefined)
        throw invalidRequest('give both kind and name for the events of one object');
      involvedInfo = await this.kind(p.kind);
      fields.push(
        `involvedObject.kind=${involvedInfo.kind}`,
        `involvedObject.name=${String(p.name)}`,
      );
      if (involvedInfo.namespaced && typeof p.namespace === 'string')
        fields.push(`involvedObject.namespace=${p.namespace}`);
    }
    if (p.type) fields.push(`type=${String(p.type)}`);
    if (p.reason) fields.push(`reason=${String(p.reason)}`);
    const limit = (p.limit as number | undefined) ?? DEFAULT_LIMIT;
    const namespace =
      involvedInfo && !involvedInfo.namespaced ? undefined : (p.namespace as string | undefined);
    const { items, truncated: scanTruncated } = await this.collect(info, {
      namespace,
      ...(fields.length ? { fieldSelector: fields.join(',') } : {}),
      limit: 5000,
    });
    const now = this.now();
    const since = p.since_minutes
      ? now.getTime() - (p.since_minutes as number) * 60_000
      : undefined;
    const folded = new Map<string, KubeObject>();
    const when = (e: KubeObject, first: boolean) =>
      (first
        ? (toDate(e.firstTimestamp) ?? toDate(e.eventTime) ?? toDate(e.lastTimestamp))
        : (toDate(e.lastTimestamp) ??
          toDate(e.series?.lastObservedTime) ??
          toDate(e.eventTime) ??
          toDate(e.firstTimestamp))
      )?.getTime() ?? 0;
    for (const e of items) {
      if (since !== undefined && when(e, false) < since) continue;
      const io = e.involvedObject ?? {};
      const key = [
        io.kind,
        io.namespace ?? e.metadata?.namespace,
        io.name,
        e.type,
        e.reason,
        String(e.message ?? '').trim(),
      ].join('\u0000');
      const count = e.series?.count ?? e.count ?? 1;
      const prev = folded.get(key);
      if (!prev) {
        folded.set(key, {
          ...e,
          count,
          firstTimestamp: new Date(when(e, true)).toISOString(),
          lastTimestamp: new Date(when(e, false)).toISOString(),
          series: undefined,
          eventTime: undefined,
        });
      } else {
        prev.count = (prev.count ?? 1) + count;
        if (when(e, true) < when(prev, true))
          prev.firstTimestamp = new Date(when(e, true)).toISOString();
        if (when(e, false) > when(prev, false))
          prev.lastTimestamp = new Date(when(e, false)).toISOString();
      }
    }
    const sorted = [...folded.values()].sort((a, b) => when(a, false) - when(b, false));
    const truncated = scanTruncated || sorted.length > limit;
    const shown = sorted.slice(-limit);
    const events = shown.map((e) => ({
      type: e.type,
      reason: e.reason,
      object: `${String(e.involvedObject?.kind ?? '').toLowerCase()}/${e.involvedObject?.name ?? ''}`,
      ...(e.involvedObject?.namespace || e.metadata?.namespace
        ? { namespace: e.involvedObject?.namespace ?? e.metadata?.namespace }
        : {}),
      count: e.count,
      first_seen: e.firstTimestamp,
      last_seen: e.lastTimestamp,
      age: age(e.lastTimestamp, now),
      from: e.source?.component || e.reportingComponent || '',
      message: String(e.message ?? '').trim(),
    }));
    return {
      count: events.length,
      truncated,
      events,
      text: getTable(info, shown, {
        now,
        allNamespaces: !namespace && !involvedInfo,
        ...(namespace ? { namespace } : {}),
      }),
    };
  }

  private async getPodLogs(p: Params): Promise<Output> {
    const namespace = this.checkNamespace(String(p.namespace));
    const podName = String(p.pod);
    let container = p.container as string | undefined;
    if (!container) {
      const pod = await this.reader.get(resolveKind('Pod')!, podName, namespace);
      const names: string[] = (pod.spec?.containers ?? []).map((c: { name: string }) => c.name);
      container =
        pod.metadata?.annotations?.['kubectl.kubernetes.io/default-container'] ?? names[0];
      if (!container) throw invalidRequest(`pod ${namespace}/${podName} has no containers`);
    }
    const grep = p.grep as string | undefined;
    const tail =
      (p.tail_lines as number | undefined) ?? (grep ? MAX_TAIL_LINES : DEFAULT_TAIL_LINES);
    const raw = await this.reader.logs({
      namespace,
      pod: podName,
      container,
      ...(p.previous ? { previous: true } : {}),
      tailLines: tail,
      ...(p.since_seconds !== undefined ? { sinceSeconds: p.since_seconds as number } : {}),
      ...(p.timestamps ? { timestamps: true } : {}),
      limitBytes: LOG_LIMIT_BYTES,
    });
    let lines = raw.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const total = lines.length;
    if (grep) {
      const needles = grep
        .toLowerCase()
        .split('|')
        .map((s) => s.trim())
        .filter(Boolean);
      lines = lines.filter((l) => {
        const low = l.toLowerCase();
        return needles.some((n) => low.includes(n));
      });
    }
    const text = lines.join('\n') + (lines.length ? '\n' : '');
    return {
      namespace,
      pod: podName,
      container,
      previous: Boolean(p.previous),
      lines: lines.length,
      ...(grep ? { grep, lines_read: total } : {}),
      // the kubelet had at least this many lines: older ones were left out
      truncated: total >= tail || Buffer.byteLength(raw) >= LOG_LIMIT_BYTES,
      text:
        text ||
        (grep ? `(no line of the last ${total} contains ${grep})\n` : '(the log is empty)\n'),
    };
  }

  private async rolloutHistory(p: Params): Promise<Output> {
    const namespace = this.checkNamespace(String(p.namespace));
    const deployInfo = resolveKind('Deployment')!;
    const deployment = await this.reader.get(deployInfo, String(p.name), namespace);
    const rss = (await this.relatedTo(deployment)).filter((o) => o.kind === 'ReplicaSet');
    const rev = (o: KubeObject) =>
      Number(o.metadata?.annotations?.['deployment.kubernetes.io/revision'] ?? 0);
    const current = rev(deployment) || Math.max(0, ...rss.map(rev));
    const now = this.now();
    const revisions = rss
      .sort((a, b) => rev(a) - rev(b))
      .map((rs) => ({
        revision: rev(rs),
        replicaset: rs.metadata?.name ?? '',
        images: (rs.spec?.template?.spec?.containers ?? []).map(
          (c: { name: string; image: string }) => `${c.name}=${c.image}`,
        ),
        change_cause: rs.metadata?.annotations?.['kubernetes.io/change-cause'] ?? '<none>',
        created: toDate(rs.metadata?.creationTimestamp)?.toISOString() ?? '',
        age: age(rs.metadata?.creationTimestamp, now),
        replicas: `${rs.status?.readyReplicas ?? 0}/${rs.spec?.replicas ?? 0}`,
        current: rev(rs) === current,
      }));
    const text =
      `deployment.apps/${deployment.metadata?.name}\n` +
      (revisions.length
        ? getTableLike(
            ['REVISION', 'CHANGE-CAUSE', 'IMAGES', 'REPLICASET', 'CREATED', 'READY'],
            revisions.map((r) => [
              `${r.revision}${r.current ? ' (current)' : ''}`,
              r.change_cause,
              r.images.join(','),
              r.replicaset,
              `${r.age} ago`,
              r.replicas,
            ]),
          )
        : 'No rollout history found (no ReplicaSets owned by this deployment)\n');
    return {
      kind: 'Deployment',
      name: deployment.metadata?.name,
      namespace,
      current_revision: current,
      revisions,
      text,
    };
  }

  private async topPods(p: Params): Promise<Output> {
    const labels = p.label_selector as string | undefined;
    if (labels) parseLabelSelector(labels);
    const scope =
      typeof p.namespace === 'string'
        ? [this.checkNamespace(p.namespace)]
        : (this.allowed ?? [undefined]);
    let pods: PodMetrics[] = [];
    for (const ns of scope) pods.push(...(await this.reader.podMetrics(ns, labels)));
    const cpu = (m: PodMetrics) =>
      m.containers.reduce((s, c) => s + (parseQuantity(c.cpu) ?? 0), 0);
    const mem = (m: PodMetrics) =>
      m.containers.reduce((s, c) => s + (parseQuantity(c.memory) ?? 0), 0);
    if (p.sort_by === 'cpu') pods.sort((a, b) => cpu(b) - cpu(a));
    if (p.sort_by === 'memory') pods.sort((a, b) => mem(b) - mem(a));
    const limit = (p.limit as number | undefined) ?? DEFAULT_LIMIT;
    const truncated = pods.length > limit;
    pods = pods.slice(0, limit);
    return {
      count: pods.length,
      truncated,
      pods: pods.map((m) => ({
        namespace: m.namespace,
        name: m.name,
        cpu_millicores: Math.round(cpu(m) * 1000),
        memory_mib: Math.floor(mem(m) / 2 ** 20),
        ...(p.containers ? { containers: m.containers } : {}),
      })),
      text: topTable('pods', pods, {
        containers: Boolean(p.containers),
        allNamespaces: scope.length !== 1 || scope[0] === undefined,
      }),
    };
  }

  private async topNodes(p: Params): Promise<Output> {
    const metrics: NodeMetrics[] = await this.reader.nodeMetrics();
    let nodes: KubeObject[] = [];
    try {
      nodes = (await this.collect(resolveKind('Node')!, { limit: 1000 })).items;
    } catch (e) {
      if (!(isDomainError(e) && e.kind === 'forbidden')) throw e;
    }
    const cpu = (m: NodeMetrics) => parseQuantity(m.cpu) ?? 0;
    const mem = (m: NodeMetrics) => parseQuantity(m.memory) ?? 0;
    if (p.sort_by === 'cpu') metrics.sort((a, b) => cpu(b) - cpu(a));
    if (p.sort_by === 'memory') metrics.sort((a, b) => mem(b) - mem(a));
    const pct = (used: number, alloc: unknown) => {
      const a = parseQuantity(alloc);
      return a ? Math.floor((used / a) * 100) : undefined;
    };
    return {
      count: metrics.length,
      nodes: metrics.map((m) => {
        const node = nodes.find((n) => n.metadata?.name === m.name);
        return {
          name: m.name,
          cpu_millicores: Math.round(cpu(m) * 1000),
          cpu_percent: pct(cpu(m), node?.status?.allocatable?.cpu),
          memory_mib: Math.floor(mem(m) / 2 ** 20),
          memory_percent: pct(mem(m), node?.status?.allocatable?.memory),
        };
      }),
      text: topTable('nodes', metrics, { nodes }),
    };
  }
}

/** A kubectl-looking table for answers that are not one kind's list. */
function getTableLike(headers: string[], rows: string[][]): string {
  const text = [headers, ...rows]
    .map((r) => r.map((c) => c.replace(/[\t\n]/g, ' ')).join('\t'))
    .join('\n');
  return formatTabs(text, { minWidth: 6, padding: 3 }) + '\n';
}
