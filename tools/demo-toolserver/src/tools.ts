import { ToolError, type ToolDefinition } from '@inquest/toolserver-kit';
import type { Environment, Pod } from './environment';

/** A tool definition as the tool-server contract returns it (plus MCP-style annotations). */
export type { ToolDefinition };

type Params = Record<string, unknown>;
type Handler = (env: Environment, p: Params, now: number) => Record<string, unknown>;

const str = (description: string, extra: Record<string, unknown> = {}) => ({
  type: 'string',
  description,
  ...extra,
});
const int = (description: string, minimum: number, maximum: number) => ({
  type: 'integer',
  description,
  minimum,
  maximum,
});
const READ = { readOnlyHint: true, destructiveHint: false };

const iso = (now: number, minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
const age = (minutes: number) =>
  minutes < 60
    ? `${Math.max(1, Math.round(minutes))}m`
    : minutes < 60 * 48
      ? `${Math.round(minutes / 60)}h`
      : `${Math.round(minutes / 1440)}d`;

function findPod(env: Environment, pod: string, namespace?: unknown): Pod {
  const found = env.pods.find(
    (p) => p.name === pod && (namespace === undefined || p.namespace === namespace),
  );
  if (!found) throw new ToolError(404, `pod ${String(namespace ?? '*')}/${pod} not found`);
  return found;
}

function requireNamespace(env: Environment, ns: unknown): string {
  const namespace = String(ns);
  if (!env.namespaces.includes(namespace)) {
    throw new ToolError(
      404,
      `namespace ${namespace} not found (namespaces: ${env.namespaces.join(', ')})`,
    );
  }
  return namespace;
}

export const TOOLS: Array<ToolDefinition & { handler: Handler }> = [
  {
    name: 'list_namespaces',
    description: 'List Kubernetes namespaces of the production cluster.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    annotations: READ,
    handler: (env) => ({ cluster: 'prod-us-east-1', namespaces: env.namespaces }),
  },
  {
    name: 'list_pods',
    description:
      'List pods of a namespace with status, readiness, restarts and last termination reason.',
    parameters: {
      type: 'object',
      properties: {
        namespace: str('Kubernetes namespace, e.g. shop'),
        label_selector: str('Only pods of this app, e.g. app=checkout-api'),
      },
      required: ['namespace'],
      additionalProperties: false,
    },
    annotations: READ,
    handler: (env, p) => {
      const namespace = requireNamespace(env, p.namespace);
      const app =
        typeof p.label_selector === 'string' ? p.label_selector.replace(/^app=/, '') : undefined;
      const pods = env.pods.filter(
        (x) => x.namespace === namespace && (!app || x.deployment === app),
      );
      return {
        namespace,
        pods: pods.map((x) => ({
          name: x.name,
          app: x.deployment,
          status: x.status,
          ready: x.ready,
          restarts: x.restarts,
          age: age(x.startedMinutesAgo),
          node: x.node,
          ...(x.lastTermination ? { last_termination_reason: x.lastTermination.reason } : {}),
        })),
      };
    },
  },
  {
    name: 'describe_pod',
    description:
      'Describe one pod: containers, image, limits, environment, last state and recent events.',
    parameters: {
      type: 'object',
      properties: {
        namespace: str('Namespace of the pod'),
        pod: str('Pod name as returned by list_pods'),
      },
      required: ['namespace', 'pod'],
      additionalProperties: false,
    },
    annotations: READ,
    handler: (env, p, now) => {
      const pod = findPod(env, String(p.pod), p.namespace);
      return {
        name: pod.name,
        namespace: pod.namespace,
        node: pod.node,
        status: pod.status,
        labels: { app: pod.deployment },
        containers: [
          {
            name: pod.deployment,
            image: pod.image,
            ready: pod.ready === '1/1',
            restart_count: pod.restarts,
            limits: pod.limits,
            requests: pod.requests,
            env: pod.env,
            state:
              pod.status === 'Running'
                ? { running: { started_at: iso(now, pod.startedMinutesAgo) } }
                : { waiting: { reason: pod.status } },
            ...(pod.lastTermination
              ? {
                  last_state: {
                    terminated: {
                      reason: pod.lastTermination.reason,
                      exit_code: pod.lastTermination.exitCode,
                      finished_at: iso(now, pod.lastTermination.minutesAgo),
                    },
                  },
                }
              : {}),
          },
        ],
        events: env.events
          .filter((e) => e.object === `pod/${pod.name}`)
          .map((e) => ({
            type: e.type,
            reason: e.reason,
            message: e.message,
            count: e.count,
            last_seen: iso(now, e.minutesAgo),
          })),
      };
    },
  },
  {
    name: 'get_pod_logs',
    description:
      'Recent log lines of a pod (newest last). Use previous=true for the last terminated container.',
    parameters: {
      type: 'object',
      properties: {
        pod: str('Pod name'),
        namespace: str('Namespace of the pod'),
        tail_lines: int('How many lines, newest last', 1, 1000),
        previous: { type: 'boolean', description: 'Logs of the previous (terminated) container' },
      },
      required: ['pod'],
      additionalProperties: false,
    },
    annotations: READ,
    handler: (env, p, now) => {
      const pod = findPod(env, String(p.pod), p.namespace);
      const tail = typeof p.tail_lines === 'number' ? p.tail_lines : 100;
      const lines = env.logs
        .filter((l) => l.pod === pod.name)
        .sort((a, b) => b.minutesAgo - a.minutesAgo)
        .map((l) => `${iso(now, l.minutesAgo)} ${l.level} ${l.message}`);
      return {
        pod: pod.name,
        namespace: pod.namespace,
        previous: p.previous === true,
        lines: lines.slice(-tail),
      };
    },
  },
  {
    name: 'get_events',
    description: 'Kubernetes events of a namespace, newest first.',
    parameters: {
      type: 'object',
      properties: {
        namespace: str('Namespace'),
        involved_object: str(
          'Only events about this object, e.g. pod/checkout-api-abc or deployment/frontend',
        ),
        since_minutes: int('Only events newer than this', 1, 10080),
      },
      required: ['namespace'],
      additionalProperties: false,
    },
    annotations: READ,
    handler: (env, p, now) => {
      const namespace = requireNamespace(env, p.namespace);
      const since = typeof p.since_minutes === 'number' ? p.since_minutes : 60 * 24 * 7;
      const events = env.events
        .filter((e) => e.namespace === namespace && e.minutesAgo <= since)
        .filter((e) => p.involved_object === undefined || e.object === p.involved_object)
        .sort((a, b) => a.minutesAgo - b.minutesAgo);
      return {
        namespace,
        events: events.map((e) => ({
          type: e.type,
          reason: e.reason,
          object: e.object,
          message: e.message,
          count: e.count,
          last_seen: iso(now, e.minutesAgo),
        })),
      };
    },
  },
  {
    name: 'get_deployments',
    description: 'Deployments of a namespace with replicas, image and last rollout time.',
    parameters: {
      type: 'object',
      properties: { namespace: str('Namespace') },
      required: ['namespace'],
      additionalProperties: false,
    },
    annotations: READ,
    handler: (env, p, now) => {
      const namespace = requireNamespace(env, p.namespace);
      return {
        namespace,
        deployments: env.deployments
          .filter((d) => d.namespace === namespace)
          .map((d) => {
            const pods = env.pods.filter((x) => x.deployment === d.name);
            const last = d.revisions[d.revisions.length - 1];
            return {
              name: d.name,
              image: d.image,
              replicas: d.replicas,
              ready_replicas: pods.filter((x) => x.ready === '1/1').length,
              revision: last?.revision,
              last_rollout: last ? iso(now, last.minutesAgo) : null,
            };
          }),
      };
    },
  },
  {
    name: 'rollout_history',
    description: 'Rollout history of a deployment: revisions, images and change causes.',
    parameters: {
      type: 'object',
      properties: { namespace: str('Namespace'), deployment: str('Deployment name') },
      required: ['namespace', 'deployment'],
      additionalProperties: false,
    },
    annotations: READ,
    handler: (env, p, now) => {
      const d = env.deployments.find((x) => x.namespace === p.namespace && x.name === p.deployment);
      if (!d)
        throw new ToolError(
          404,
          `deployment ${String(p.namespace)}/${String(p.deployment)} not found`,
        );
      return {
        deployment: d.name,
        namespace: d.namespace,
        revisions: d.revisions.map((r) => ({
          revision: r.revision,
          image: r.image,
          change_cause: r.changeCause,
          deployed_at: iso(now, r.minutesAgo),
        })),
      };
    },
  },
  {
    name: 'restart_deployment',
    description: 'Rolling restart of a deployment (kubectl rollout restart). Changes production.',
    parameters: {
      type: 'object',
      properties: { namespace: str('Namespace'), deployment: str('Deployment name') },
      required: ['namespace', 'deployment'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, title: 'Restart deployment' },
    handler: (env, p, now) => {
      const d = env.deployments.find((x) => x.namespace === p.namespace && x.name === p.deployment);
      if (!d)
        throw new ToolError(
          404,
          `deployment ${String(p.namespace)}/${String(p.deployment)} not found`,
        );
      return {
        deployment: d.name,
        namespace: d.namespace,
        restarted_at: iso(now, 0),
        message: `deployment.apps/${d.name} restarted`,
      };
    },
  },
  {
    name: 'get_metrics',
    description: 'A metric time series of a service, one point per minute.',
    parameters: {
      type: 'object',
      properties: {
        service: str('Service name, e.g. checkout-api'),
        metric: str('Metric', {
          enum: ['cpu', 'memory', 'error_rate', 'latency_p99', 'disk_usage', 'request_rate'],
        }),
        minutes: int('Window length in minutes', 1, 360),
      },
      required: ['service', 'metric'],
      additionalProperties: false,
    },
    annotations: READ,
    handler: (env, p, now) => {
      const minutes = typeof p.minutes === 'number' ? p.minutes : 60;
      const service = String(p.service);
      const metric = String(p.metric);
      if (env.metric(service, metric, 0) === undefined)
        throw new ToolError(404, `no metric ${metric} for service ${service}`);
      const units: Record<string, string> = {
        cpu: 'percent',
        memory: 'percent_of_limit',
        error_rate: 'percent',
        latency_p99: 'ms',
        disk_usage: 'percent',
        request_rate: 'req/s',
      };
      const points = [];
      for (let m = minutes; m >= 0; m--)
        points.push({ t: iso(now, m), v: env.metric(service, metric, m) ?? 0 });
      const values = points.map((x) => x.v);
      return {
        service,
        metric,
        unit: units[metric],
        points,
        max: Math.max(...values),
        min: Math.min(...values),
        latest: values[values.length - 1],
      };
    },
  },
  {
    name: 'cloud_status',
    description: 'Cloud provider service health for a region.',
    parameters: {
      type: 'object',
      properties: { region: str('Region, e.g. us-east-1') },
      additionalProperties: false,
    },
    annotations: READ,
    handler: (env, p) => {
      const region = typeof p.region === 'string' ? p.region : 'us-east-1';
      return { region, services: env.cloud.filter((c) => c.region === region) };
    },
  },
  {
    name: 'list_alarms',
    description: 'Monitoring alarms and their state.',
    parameters: {
      type: 'object',
      properties: { state: str('Filter by state', { enum: ['ALARM', 'OK', 'ALL'] }) },
      additionalProperties: false,
    },
    annotations: READ,
    handler: (env, p, now) => {
      const state = typeof p.state === 'string' ? p.state : 'ALARM';
      return {
        alarms: env.alarms
          .filter((a) => state === 'ALL' || a.state === state)
          .map((a) => ({
            name: a.name,
            service: a.service,
            metric: a.metric,
            state: a.state,
            threshold: a.threshold,
            since: iso(now, a.sinceMinutesAgo),
            description: a.description,
          })),
      };
    },
  },
  {
    name: 'recent_commits',
    description: 'Recent commits of a repository, newest first.',
    parameters: {
      type: 'object',
      properties: {
        repo: str('Repository, e.g. acme/checkout-api'),
        since_hours: int('Only commits newer than this', 1, 720),
      },
      required: ['repo'],
      additionalProperties: false,
    },
    annotations: READ,
    handler: (env, p, now) => {
      const since = (typeof p.since_hours === 'number' ? p.since_hours : 72) * 60;
      const known =
        env.deployments.some((d) => d.repo === p.repo) ||
        env.commits.some((c) => c.repo === p.repo);
      if (!known) throw new ToolError(404, `repository ${String(p.repo)} not found`);
      return {
        repo: p.repo,
        commits: env.commits
          .filter((c) => c.repo === p.repo && c.minutesAgo <= since)
          .sort((a, b) => a.minutesAgo - b.minutesAgo)
          .map((c) => ({
            sha: c.sha,
            author: c.author,
            message: c.message,
            committed_at: iso(now, c.minutesAgo),
            files_changed: c.files.length,
          })),
      };
    },
  },
  {
    name: 'diff_commit',
    description: 'The diff of one commit.',
    parameters: {
      type: 'object',
      properties: {
        repo: str('Repository'),
        sha: str('Commit sha (prefix allowed, at least 7 characters)', { minLength: 7 }),
      },
      required: ['repo', 'sha'],
      additionalProperties: false,
    },
    annotations: READ,
    handler: (env, p) => {
      const c = env.commits.find((x) => x.repo === p.repo && x.sha.startsWith(String(p.sha)));
      if (!c) throw new ToolError(404, `commit ${String(p.sha)} not found in ${String(p.repo)}`);
      return { repo: c.repo, sha: c.sha, message: c.message, author: c.author, files: c.files };
    },
  },
  {
    name: 'search_logs',
    description:
      'Full-text search over the logs of every service (case-insensitive), newest first.',
    parameters: {
      type: 'object',
      properties: {
        query: str('Text to find', { minLength: 1 }),
        service: str('Only this service'),
        minutes: int('Look back this many minutes', 1, 1440),
        limit: int('Maximum hits', 1, 500),
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: READ,
    handler: (env, p, now) => {
      const q = String(p.query).toLowerCase();
      const minutes = typeof p.minutes === 'number' ? p.minutes : 60;
      const limit = typeof p.limit === 'number' ? p.limit : 50;
      const hits = env.logs
        .filter(
          (l) => l.minutesAgo <= minutes && (p.service === undefined || l.service === p.service),
        )
        .filter((l) => l.message.toLowerCase().includes(q) || l.level.toLowerCase() === q)
        .sort((a, b) => a.minutesAgo - b.minutesAgo);
      return {
        query: p.query,
        total: hits.length,
        hits: hits.slice(0, limit).map((l) => ({
          timestamp: iso(now, l.minutesAgo),
          service: l.service,
          pod: l.pod,
          level: l.level,
          message: l.message,
        })),
      };
    },
  },
  {
    name: 'http_check',
    description:
      "Synthetic HTTP check of one of the environment's service endpoints (status, latency, TLS).",
    parameters: {
      type: 'object',
      properties: {
        url: str('Endpoint URL, e.g. https://checkout-api.shop.acme.internal:8080/healthz'),
      },
      required: ['url'],
      additionalProperties: false,
    },
    annotations: READ,
    handler: (env, p) => {
      // Synthetic on purpose: a demo server must never fetch arbitrary URLs for its callers.
      const url = String(p.url);
      const ep = env.endpoints.find(
        (e) => e.url === url || e.service === url || url.includes(`//${e.service}.`),
      );
      if (!ep)
        return {
          url,
          ok: false,
          error: 'unknown endpoint (the demo environment only knows its own services)',
          known: env.endpoints.map((e) => e.url),
        };
      return {
        url: ep.url,
        ok: ep.status >= 200 && ep.status < 300,
        status: ep.status || null,
        latency_ms: ep.latencyMs,
        ...(ep.tls
          ? { tls: { valid_to: ep.tls.validTo, ...(ep.tls.error ? { error: ep.tls.error } : {}) } }
          : {}),
      };
    },
  },
];

export const TOOL_DEFINITIONS: ToolDefinition[] = TOOLS.map(({ handler: _h, ...def }) => def);
