import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDomainError } from '@inquest/errors';
import type { KindInfo } from '../kinds';
import type { KubeObject, WorldIndex } from '../world';

/** An RBAC denial the fake server answers with 403 (verb defaults to every read verb). */
export interface ForbiddenRule {
  verb?: 'get' | 'list' | 'watch';
  /** plural resource, with a subresource where it applies: `pods`, `pods/log`, `secrets` */
  resource: string;
  /** only in this namespace (default: everywhere) */
  namespace?: string;
}

export interface FakeKubeApiServerOptions {
  forbidden?: ForbiddenRule[];
  /** wait this long before every answer */
  latencyMs?: number;
  /** the user named in 403 messages */
  user?: string;
}

export interface FakeKubeApiServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `METHOD /path?query` of every request, in order */
  requests: string[];
  /** TCP connections accepted so far (shows whether a client reuses connections) */
  readonly connections: number;
  close(): Promise<void>;
}

const SERVICE_ACCOUNT_USER = 'system:serviceaccount:inquest:toolserver';
const METRICS_GROUP = 'metrics.k8s.io';
const METRICS_VERSION = 'v1beta1';

interface Answer {
  status: number;
  body: unknown;
  contentType?: string;
}

function status(code: number, reason: string, message: string, details?: object): Answer {
  return {
    status: code,
    body: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      reason,
      ...(details ? { details } : {}),
      code,
    },
  };
}

const notFoundPath = () =>
  status(404, 'NotFound', 'the server could not find the requested resource', {});

function groupVersions(world: WorldIndex): Array<{ group: string; versions: string[] }> {
  const groups = new Map<string, Set<string>>();
  // the built-in groups, then the groups of the world's custom resources
  for (const k of world.kinds()) {
    if (!k.group) continue;
    const set = groups.get(k.group) ?? new Set<string>();
    set.add(k.version);
    groups.set(k.group, set);
  }
  const out = [...groups].map(([group, versions]) => ({ group, versions: [...versions] }));
  if (world.hasMetrics()) out.push({ group: METRICS_GROUP, versions: [METRICS_VERSION] });
  return out;
}

function resourceList(groupVersion: string, kinds: readonly KindInfo[]) {
  const resources = kinds.flatMap((k) => {
    const main = {
      name: k.plural,
      singularName: k.singular ?? k.kind.toLowerCase(),
      namespaced: k.namespaced,
      kind: k.kind,
      verbs: ['get', 'list', 'watch'],
      ...(k.shortNames.length ? { shortNames: k.shortNames } : {}),
    };
    if (k.kind !== 'Pod') return [main];
    return [
      main,
      { name: 'pods/log', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get'] },
    ];
  });
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources };
}

/** A list item as the API serves it: without kind/apiVersion (they are on the list). */
function item(obj: KubeObject): KubeObject {
  const { kind: _kind, apiVersion: _apiVersion, ...rest } = obj;
  return rest;
}

function listAnswer(info: KindInfo, items: KubeObject[], query: URLSearchParams): Answer {
  const limit = Number(query.get('limit') ?? '0');
  const offset = query.get('continue')
    ? Number(Buffer.from(query.get('continue')!, 'base64').toString('utf8'))
    : 0;
  if (!Number.isInteger(offset) || offset < 0) {
    return status(400, 'BadRequest', 'continue key is not valid');
  }
  const page = limit > 0 ? items.slice(offset, offset + limit) : items.slice(offset);
  const rest = items.length - offset - page.length;
  const metadata: Record<string, unknown> = { resourceVersion: '4242' };
  if (limit > 0 && rest > 0) {
    metadata.continue = Buffer.from(String(offset + page.length)).toString('base64');
    metadata.remainingItemCount = rest;
  }
  return {
    status: 200,
    body: {
      kind: `${info.kind}List`,
      apiVersion: info.apiVersion,
      metadata,
      items: page.map(item),
    },
  };
}

/**
 * A loopback HTTP server speaking the read side of the Kubernetes REST API over a scenario
 * world, as @kubernetes/client-node calls it: discovery, list/get of every kind (any
 * apiVersion/kind of the world that is not built-in is served as a custom resource; label and
 * field selectors, limit/continue), pod logs, metrics.k8s.io (absent when the world has no
 * metrics, as without metrics-server), errors as `Status` objects, and 405 for every write.
 * The only fake in the Kubernetes tests: everything else is real.
 */
export async function startFakeKubeApiServer(
  world: WorldIndex,
  opts: FakeKubeApiServerOptions = {},
): Promise<FakeKubeApiServer> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const user = opts.user ?? SERVICE_ACCOUNT_USER;

  const forbidden = (
    verb: string,
    resource: string,
    group: string,
    namespace: string | undefined,
    name?: string,
  ): Answer | undefined => {
    const rule = (opts.forbidden ?? []).find(
      (r) =>
        r.resource === resource &&
        (!r.verb || r.verb === verb) &&
        (!r.namespace || r.namespace === namespace),
    );
    if (!rule) return undefined;
    const subject = name ? `${resource.split('/')[0]} "${name}"` : resource;
    const scope = namespace ? `in the namespace "${namespace}"` : 'at the cluster scope';
    return status(
      403,
      'Forbidden',
      `${subject} is forbidden: User "${user}" cannot ${verb} resource "${resource}" in API group "${group}" ${scope}`,
      { ...(name ? { name } : {}), kind: resource.split('/')[0] },
    );
  };

  const metrics = (segments: string[], query: URLSearchParams): Answer => {
    if (!world.hasMetrics()) return notFoundPath();
    const timestamp = world.now.toISOString();
    const apiVersion = `${METRICS_GROUP}/${METRICS_VERSION}`;
    let ns: string | undefined;
    let rest = segments;
    if (rest[0] === 'namespaces' && rest.length >= 3) {
      ns = rest[1];
      rest = rest.slice(2);
    }
    const [resource, name] = rest;
    if (resource === 'nodes' && !ns) {
      const deny = forbidden(name ? 'get' : 'list', 'nodes', METRICS_GROUP, undefined, name);
      if (deny) return deny;
      const toItem = (n: { name: string; cpu: string; memory: string }) => ({
        metadata: { name: n.name, creationTimestamp: timestamp },
        timestamp,
        window: '20.05s',
        usage: { cpu: n.cpu, memory: n.memory },
      });
      if (name) {
        const n = world.nodeMetrics().find((m) => m.name === name);
        if (!n)
          return status(404, 'NotFound', `nodemetrics.metrics.k8s.io "${name}" not found`, {
            name,
            group: METRICS_GROUP,
            kind: 'nodes',
          });
        return { status: 200, body: { kind: 'NodeMetrics', apiVersion, ...toItem(n) } };
      }
      return {
        status: 200,
        body: {
          kind: 'NodeMetricsList',
          apiVersion,
          metadata: {},
          items: world.nodeMetrics().map(toItem),
        },
      };
    }
    if (resource === 'pods') {
      const deny = forbidden(name ? 'get' : 'list', 'pods', METRICS_GROUP, ns, name);
      if (deny) return deny;
      const toItem = (p: {
        namespace: string;
        name: string;
        containers: Array<{ name: string; cpu: string; memory: string }>;
      }) => ({
        metadata: { name: p.name, namespace: p.namespace, creationTimestamp: timestamp },
        timestamp,
        window: '18.2s',
        containers: p.containers.map((c) => ({
          name: c.name,
          usage: { cpu: c.cpu, memory: c.memory },
        })),
      });
      let pods = world.podMetrics(ns);
      if (name) {
        const p = pods.find((m) => m.name === name);
        if (!p)
          return status(404, 'NotFound', `podmetrics.metrics.k8s.io "${name}" not found`, {
            name,
            group: METRICS_GROUP,
            kind: 'pods',
          });
        return { status: 200, body: { kind: 'PodMetrics', apiVersion, ...toItem(p) } };
      }
      const selector = query.get('labelSelector');
      if (selector) {
        const names = new Set(
          world
            .list('Pod', { namespace: ns, labelSelector: selector })
            .map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`),
        );
        pods = pods.filter((p) => names.has(`${p.namespace}/${p.name}`));
      }
      return {
        status: 200,
        body: { kind: 'PodMetricsList', apiVersion, metadata: {}, items: pods.map(toItem) },
      };
    }
    return notFoundPath();
  };

  const logs = (ns: string, name: string, query: URLSearchParams): Answer => {
    const deny = forbidden('get', 'pods/log', '', ns, name);
    if (deny) return deny;
    const num = (key: string): number | undefined | 'bad' => {
      const v = query.get(key);
      if (v === null || v === '') return undefined;
      const n = Number(v);
      return Number.isInteger(n) ? n : 'bad';
    };
    const tailLines = num('tailLines');
    const sinceSeconds = num('sinceSeconds');
    if (tailLines === 'bad' || sinceSeconds === 'bad') {
      return status(400, 'BadRequest', 'tailLines and sinceSeconds must be integers');
    }
    if (sinceSeconds !== undefined && sinceSeconds < 1) {
      return status(
        422,
        'Invalid',
        `PodLogOptions "${name}" is invalid: sinceSeconds: Invalid value: ${sinceSeconds}: must be greater than 0`,
      );
    }
    if (tailLines !== undefined && tailLines < 0) {
      return status(
        422,
        'Invalid',
        `PodLogOptions "${name}" is invalid: tailLines: Invalid value: ${tailLines}: must be greater than or equal to 0`,
      );
    }
    try {
      const text = world.logs({
        namespace: ns,
        pod: name,
        container: query.get('container') || undefined,
        previous: query.get('previous') === 'true',
        tailLines,
        sinceSeconds,
        timestamps: query.get('timestamps') === 'true',
      });
      const limitBytes = Number(query.get('limitBytes') ?? '0');
      const body =
        limitBytes > 0 ? Buffer.from(text).subarray(0, limitBytes).toString('utf8') : text;
      return { status: 200, body, contentType: 'text/plain' };
    } catch (e) {
      if (isDomainError(e) && e.kind === 'not_found')
        return status(404, 'NotFound', e.message, { name, kind: 'pods' });
      if (isDomainError(e)) return status(400, 'BadRequest', e.message);
      throw e;
    }
  };

  const resources = (info: KindInfo, segments: string[], query: URLSearchParams): Answer => {
    // segments after the group/version: [namespaces, ns, plural, name?, sub?] or [plural, name?]
    let ns: string | undefined;
    let rest = segments;
    if (rest[0] === 'namespaces' && rest.length >= 3) {
      ns = rest[1];
      rest = rest.slice(2);
    }
    return resourceAt(info, ns, rest, query);
  };

  const resourceAt = (
    groupInfo: KindInfo,
    ns: string | undefined,
    rest: string[],
    query: URLSearchParams,
  ): Answer => {
    const [plural, name, sub, ...extra] = rest;
    const info = world
      .kinds()
      .find(
        (k) =>
          k.group === groupInfo.group && k.version === groupInfo.version && k.plural === plural,
      );
    if (!info || extra.length > 0) return notFoundPath();
    if (ns !== undefined && !info.namespaced) return notFoundPath();
    if (sub !== undefined) {
      if (info.kind === 'Pod' && sub === 'log' && ns && name) return logs(ns, name, query);
      return notFoundPath();
    }
    if (name === undefined) {
      const deny = forbidden(
        query.get('watch') === 'true' ? 'watch' : 'list',
        info.plural,
        info.group,
        ns,
      );
      if (deny) return deny;
      if (query.get('watch') === 'true') {
        return status(405, 'MethodNotAllowed', 'watch is not supported by this server');
      }
      try {
        const items = world.list(info, {
          namespace: ns,
          labelSelector: query.get('labelSelector') || undefined,
          fieldSelector: query.get('fieldSelector') || undefined,
        });
        return listAnswer(info, items, query);
      } catch (e) {
        if (isDomainError(e)) return status(400, 'BadRequest', e.message);
        throw e;
      }
    }
    const deny = forbidden('get', info.plural, info.group, ns, name);
    if (deny) return deny;
    const obj = world.get(info, name, info.namespaced ? ns : undefined);
    if (!obj || (info.namespaced && obj.metadata?.namespace !== ns)) {
      return status(
        404,
        'NotFound',
        `${info.plural}${info.group ? `.${info.group}` : ''} "${name}" not found`,
        {
          name,
          ...(info.group ? { group: info.group } : {}),
          kind: info.plural,
        },
      );
    }
    return { status: 200, body: { apiVersion: info.apiVersion, kind: info.kind, ...obj } };
  };

  const route = (method: string, url: URL): Answer => {
    if (method !== 'GET') {
      return status(
        405,
        'MethodNotAllowed',
        `the server does not allow this method on the requested resource (${method} is refused: this API server is read-only)`,
      );
    }
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const q = url.searchParams;
    if (url.pathname === '/version') {
      return {
        status: 200,
        body: {
          major: '1',
          minor: '30',
          gitVersion: 'v1.30.4',
          gitCommit: 'a51b3b711150f57ffc1f526a640ec058514ed596',
          gitTreeState: 'clean',
          buildDate: '2024-08-14T19:04:14Z',
          goVersion: 'go1.22.5',
          compiler: 'gc',
          platform: 'linux/amd64',
        },
      };
    }
    if (url.pathname === '/healthz' || url.pathname === '/readyz' || url.pathname === '/livez') {
      return { status: 200, body: 'ok', contentType: 'text/plain' };
    }
    if (parts[0] === 'api') {
      if (parts.length === 1) {
        return {
          status: 200,
          body: {
            kind: 'APIVersions',
            versions: ['v1'],
            serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: url.host }],
          },
        };
      }
      if (parts[1] !== 'v1') return notFoundPath();
      if (parts.length === 2)
        return {
          status: 200,
          body: resourceList(
            'v1',
            world.kinds().filter((k) => k.group === ''),
          ),
        };
      const core = world.kinds().find((k) => k.kind === 'Pod')!;
      // /api/v1/namespaces/{name} is a get of a Namespace, not a namespace prefix
      if (parts[2] === 'namespaces' && parts.length === 4) {
        return resourceAt(core, undefined, ['namespaces', parts[3]!], q);
      }
      return resources(core, parts.slice(2), q);
    }
    if (parts[0] === 'apis') {
      const groups = groupVersions(world);
      if (parts.length === 1) {
        return {
          status: 200,
          body: {
            kind: 'APIGroupList',
            apiVersion: 'v1',
            groups: groups.map((g) => ({
              name: g.group,
              versions: g.versions.map((v) => ({ groupVersion: `${g.group}/${v}`, version: v })),
              preferredVersion: {
                groupVersion: `${g.group}/${g.versions[0]}`,
                version: g.versions[0],
              },
            })),
          },
        };
      }
      const g = groups.find((x) => x.group === parts[1]);
      if (!g) return notFoundPath();
      if (parts.length === 2) {
        return {
          status: 200,
          body: {
            kind: 'APIGroup',
            apiVersion: 'v1',
            name: g.group,
            versions: g.versions.map((v) => ({ groupVersion: `${g.group}/${v}`, version: v })),
            preferredVersion: {
              groupVersion: `${g.group}/${g.versions[0]}`,
              version: g.versions[0],
            },
          },
        };
      }
      const version = parts[2]!;
      if (!g.versions.includes(version)) return notFoundPath();
      if (g.group === METRICS_GROUP) {
        if (parts.length === 3) {
          return {
            status: 200,
            body: {
              kind: 'APIResourceList',
              apiVersion: 'v1',
              groupVersion: `${METRICS_GROUP}/${METRICS_VERSION}`,
              resources: [
                {
                  name: 'nodes',
                  singularName: '',
                  namespaced: false,
                  kind: 'NodeMetrics',
                  verbs: ['get', 'list'],
                },
                {
                  name: 'pods',
                  singularName: '',
                  namespaced: true,
                  kind: 'PodMetrics',
                  verbs: ['get', 'list'],
                },
              ],
            },
          };
        }
        return metrics(parts.slice(3), q);
      }
      const kinds = world.kinds().filter((k) => k.group === g.group && k.version === version);
      if (parts.length === 3)
        return { status: 200, body: resourceList(`${g.group}/${version}`, kinds) };
      return resources(kinds[0]!, parts.slice(3), q);
    }
    return notFoundPath();
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    requests.push(`${method} ${req.url ?? '/'}`);
    req.resume();
    req.on('end', () => {
      let answer: Answer;
      try {
        answer = route(method, new URL(req.url ?? '/', 'http://localhost'));
      } catch (e) {
        answer = status(
          500,
          'InternalError',
          `fake API server: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
      const send = () => {
        const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
        res.writeHead(answer.status, {
          'content-type': answer.contentType ?? 'application/json',
          'content-length': Buffer.byteLength(text),
        });
        res.end(text);
      };
      if (opts.latencyMs) setTimeout(send, opts.latencyMs);
      else send();
    });
  });
  let connections = 0;
  server.on('connection', (s: Socket) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Writes a kubeconfig for `url` (one cluster, one token user, one context named `fake`) into a
 * temporary directory removed at exit, and returns its path.
 */
export function writeKubeconfig(
  url: string,
  opts: { context?: string; namespace?: string; token?: string } = {},
): string {
  const context = opts.context ?? 'fake';
  const dir = mkdtempSync(join(tmpdir(), 'inquest-kubeconfig-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'config');
  const yaml = [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: fake',
    '  cluster:',
    `    server: ${url}`,
    // client-node refuses plain http unless TLS verification is explicitly off
    '    insecure-skip-tls-verify: true',
    'users:',
    '- name: toolserver',
    '  user:',
    `    token: ${opts.token ?? 'fake-token'}`,
    'contexts:',
    `- name: ${context}`,
    '  context:',
    '    cluster: fake',
    '    user: toolserver',
    ...(opts.namespace ? [`    namespace: ${opts.namespace}`] : []),
    `current-context: ${context}`,
    '',
  ].join('\n');
  writeFileSync(file, yaml, { mode: 0o600 });
  return file;
}
