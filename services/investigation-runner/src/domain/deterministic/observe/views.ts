/** What a run has read from tool outputs, in one shape (see observe.ts). */

export interface StateView {
  reason?: string;
  message?: string;
  exitCode?: number;
  at?: number;
}

export interface ContainerView {
  name: string;
  /** an init container (runs to completion before the others start) */
  init?: boolean;
  image?: string;
  /** the image as the pod spec names it, when the status names it otherwise ("nginx" for docker.io/library/nginx:latest) */
  specImage?: string;
  /** the digest the image reference resolved to when the container started (status imageID) */
  imageID?: string;
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
  /** names of the declared ports ("http"), what a Service's named targetPort resolves against */
  portNames?: string[];
  /** `ENV_NAME <- configmap x key y`, `envFrom secret z` */
  envRefs: string[];
  env: Record<string, string>;
}

/** A hostPath volume of a pod spec (fields.hostPaths holds them as JSON; [] when none) */
export interface HostPathView {
  volume: string;
  /** the node's directory or file */
  path: string;
  /** HostPathType: Directory, DirectoryOrCreate, File, Socket... (unset: no check) */
  type?: string;
  /** where the containers mount it, "(ro)" when read-only */
  mounts?: string[];
}

/** One path of an Ingress rule and the Service port it routes to. */
export interface IngressBackend {
  host: string;
  path: string;
  service: string;
  port: string;
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
  /** the output was a `kubectl describe` text with its Events section (`<none>` included) */
  describedEvents?: boolean;
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

export const str = (v: unknown): string | undefined =>
  typeof v === 'string'
    ? v
    : typeof v === 'number' || typeof v === 'boolean'
      ? String(v)
      : undefined;
export const rec = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const num = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};
export const strMap = (v: unknown): Record<string, string> => {
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

export function emptyContainer(name: string): ContainerView {
  return { name, limits: {}, requests: {}, probes: [], ports: [], envRefs: [], env: {} };
}

/**
 * A ConfigMap value as kept: its first 200 characters; a longer one without its comment and blank
 * lines first (a redis.conf's settings may follow a page of comments), up to 400.
 */
export function keptConfigValue(x: string): string {
  if (x.length <= 200) return x;
  // (r31a) an OpenTelemetry Collector's config: its pipelines come last, after every component
  const cap = /^service:/m.test(x) && /^\s+pipelines:/m.test(x) ? 3000 : 400;
  return x
    .split('\n')
    .filter((l) => l.trim() && !/^\s*[#;]/.test(l))
    .join('\n')
    .slice(0, cap);
}
