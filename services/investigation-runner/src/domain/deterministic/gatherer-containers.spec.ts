/**
 * Logs of a pod of several containers (gatherer.ts: `logsOfEachContainer` and the previous-run
 * read of `inspect`), each with a near miss: the Kubernetes API refuses a pod's logs without a
 * container when it has several ("a container name must be specified for pod web-1, choose one
 * of: [app proxy]"), and kubectl, asked without one, answers the first container's (often a
 * healthy sidecar's) instead of the one that crashed.
 */
import { invalidRequest } from '@inquest/errors';
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  deploymentObj,
  investigateAt,
  metaOf,
  namespaceObj,
  podObj,
  type ApiWorld,
  type Box,
  str,
  type FakeTool,
} from './spec-world';

type Obj = Record<string, unknown>;
const ns = 'shop';
const image = 'registry.example.com/orders-api:4.2.0';
const proxy: Box = { name: 'proxy', image: 'envoyproxy/envoy:v1.31.0', ready: true };

/** one orders-api pod with the proxy sidecar first and `app` second */
function world(app: Box, logs: Record<string, string>, previous: Record<string, string> = {}) {
  const pod = podObj({
    name: 'orders-api-6c9f7d8b5-x2k4q',
    ns,
    labels: { app: 'orders-api', 'pod-template-hash': '6c9f7d8b5' },
    owner: { kind: 'ReplicaSet', name: 'orders-api-6c9f7d8b5' },
    created: 300,
    boxes: [proxy, app],
  });
  const w: ApiWorld = {
    objects: [namespaceObj(ns), deploymentObj('orders-api', ns, [image], 1, 1), pod],
    logs,
    previous,
  };
  return w;
}

/**
 * The logs tools of `apiTools` for a pod of several containers, answering as `mode` does: the API's
 * refusal, kubectl's default to the first container, or another error. With `separatePrevious`, the
 * previous run comes from a tool of its own (`pods_previous_log`, no `previous` switch), as
 * several servers offer it.
 */
function withLogs(
  w: ApiWorld,
  mode: 'refuse' | 'first' | 'other-error',
  separatePrevious = false,
): FakeTool[] {
  const containersOf = (pod: unknown) => {
    const o = w.objects.find((x) => x['kind'] === 'Pod' && metaOf(x)['name'] === pod);
    const spec = (o?.['spec'] ?? {}) as { containers?: Obj[] };
    return (spec.containers ?? []).map((c) => String(c['name']));
  };
  const answer = (p: Obj, previous: boolean) => {
    const names = containersOf(p['name']);
    const src = (previous ? w.previous : w.logs) ?? {};
    if (p['container']) return src[`${String(p['name'])}/${String(p['container'])}`] ?? '';
    if (names.length < 2) return src[`${String(p['name'])}/${names[0]}`] ?? '';
    // as the tool server proxy passes a tool's error on
    const failed = (m: string) => invalidRequest(`tool server k8s: tool pods_log failed: ${m}`);
    if (mode === 'refuse')
      throw failed(
        `a container name must be specified for pod ${String(p['name'])}, choose one of: [${names.join(' ')}]`,
      );
    if (mode === 'other-error') throw failed(`pods "${String(p['name'])}" is forbidden`);
    // kubectl: "Defaulted container" to the first one
    return src[`${String(p['name'])}/${names[0]}`] ?? '';
  };
  const tools = apiTools(w).map((t) =>
    t.name !== 'pods_log'
      ? t
      : separatePrevious
        ? {
            ...t,
            description: 'Logs of a pod container',
            properties: { name: str, namespace: str, container: str },
            handler: (p: Obj) => answer(p, false),
          }
        : { ...t, handler: (p: Obj) => answer(p, p['previous'] === true) },
  );
  if (separatePrevious)
    tools.push({
      name: 'pods_previous_log',
      description: 'Logs of the previous container instance of a pod (after it crashed)',
      properties: { name: str, namespace: str, container: str },
      required: ['name'],
      handler: (p: Obj) => answer(p, true),
    });
  return tools;
}

const pod = 'orders-api-6c9f7d8b5-x2k4q';
const refusedLine = `${ago(3)} ERROR create order failed: dial tcp 10.96.14.7:5432: connect: connection refused`;

describe('logs of a pod of several containers', () => {
  it('a logs tool that refuses a pod of several containers without one is asked again for each container it names; another error is not retried', async () => {
    const app: Box = { name: 'app', image, ready: true };
    const w = world(app, {
      [`${pod}/app`]: refusedLine,
      [`${pod}/proxy`]: `${ago(3)} [info] upstream ok`,
    });
    const ask = 'orders-api returns 500 on every order since 11:50, why?';
    const got = await investigateAt(withLogs(w, 'refuse'), ask, NOW, ns);
    expect(answerOf(got.result)).toContain('10.96.14.7:5432');
    const asked = got.gateway.calls.filter((c) => c.tool.endsWith('pods_log'));
    expect(asked.map((c) => c.params['container'])).toEqual(
      expect.arrayContaining(['proxy', 'app']),
    );

    const near = await investigateAt(withLogs(w, 'other-error'), ask, NOW, ns);
    expect(answerOf(near.result)).not.toContain('10.96.14.7:5432');
    expect(
      near.gateway.calls.filter((c) => c.tool.endsWith('pods_log') && c.params['container']),
    ).toEqual([]);
  });

  it("the previous run of the container that restarted is read by name (kubectl would answer the first container's); a pod of one container is asked without", async () => {
    const app: Box = {
      name: 'app',
      image,
      ready: false,
      restarts: 7,
      state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting app' } },
      lastState: {
        terminated: { reason: 'Error', exitCode: 1, startedAt: ago(4), finishedAt: ago(4) },
      },
    };
    const w = world(
      app,
      { [`${pod}/proxy`]: `${ago(2)} [info] upstream connect error` },
      {
        [`${pod}/app`]: [
          `${ago(4)} INFO starting orders-api 4.2.0`,
          `${ago(4)} FATAL ${refusedLine.slice(refusedLine.indexOf('create'))}`,
        ].join('\n'),
      },
    );
    const ask = 'orders-api keeps crashlooping, why?';
    const got = await investigateAt(withLogs(w, 'first', true), ask, NOW, ns);
    expect(answerOf(got.result)).toContain('10.96.14.7:5432');
    expect(
      got.gateway.calls.some(
        (c) => c.tool.endsWith('pods_previous_log') && c.params['container'] === 'app',
      ),
    ).toBe(true);

    // one container: the previous run is asked for without naming it
    const single = world(app, {}, { [`${pod}/app`]: refusedLine });
    single.objects[2] = podObj({
      name: pod,
      ns,
      labels: { app: 'orders-api', 'pod-template-hash': '6c9f7d8b5' },
      owner: { kind: 'ReplicaSet', name: 'orders-api-6c9f7d8b5' },
      created: 300,
      boxes: [app],
    });
    const one = await investigateAt(withLogs(single, 'first', true), ask, NOW, ns);
    const prev = one.gateway.calls.filter((c) => c.tool.endsWith('pods_previous_log'));
    expect(prev.length).toBeGreaterThan(0);
    expect(prev.every((c) => c.params['container'] === undefined)).toBe(true);
  });
});
