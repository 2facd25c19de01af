/**
 * The engine rules of round26 (r26c) (cause-catalog.data.ts, its "round26 (r26c)" block; the
 * findings that compare objects in diagnose-r26c.ts, the drain question in questions-r26c.ts),
 * one test per rule, each with a near miss: a container OOMKilled because its node ran out of
 * memory (the kubelet's SystemOOM); one ReplicaSet's pods on two builds of one tag (the cached
 * one "already present on machine"); mongod refusing its data's featureCompatibilityVersion;
 * which workloads a drain takes fully down; a health check after errors that were logged once.
 */
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  investigateAt,
  kubeEvent,
  namespaceObj,
  podObj,
  warningEvent,
  type ApiWorld,
  type Box,
} from './spec-world';
import { scopeIncident } from './scope';

type Obj = Record<string, unknown>;

const nodeObj = (name: string, cordoned = false): Obj => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: {
    name,
    labels: { 'kubernetes.io/hostname': name },
    creationTimestamp: ago(60 * 24 * 30),
  },
  spec: cordoned
    ? {
        unschedulable: true,
        taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }],
      }
    : {},
  status: {
    conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
    allocatable: { cpu: '3920m', memory: '15084616Ki' },
  },
});

/** a pod of a Deployment's ReplicaSet, on a node */
const rsPod = (
  app: string,
  hash: string,
  suffix: string,
  ns: string,
  node: string,
  box: Box,
  created = 60,
) =>
  podObj({
    name: `${app}-${hash}-${suffix}`,
    ns,
    labels: { app, 'pod-template-hash': hash },
    owner: { kind: 'ReplicaSet', name: `${app}-${hash}` },
    created,
    node,
    boxes: [box],
  });

const answer = async (world: ApiWorld, ask: string, ns: string) =>
  answerOf((await investigateAt(apiTools(world), ask, NOW, ns)).result);

describe('round26 rules (r26c)', () => {
  it('a container OOMKilled without a memory limit on a node with SystemOOM events: the node ran out of memory and the unbounded pod there is named; without SystemOOM: the limit rule', async () => {
    const ns = 'shop';
    const node = 'ip-10-9-1-7.eu-west-1.compute.internal';
    const world = (systemOom: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('batch'),
        nodeObj(node),
        nodeObj('ip-10-9-2-8.eu-west-1.compute.internal'),
        rsPod('basket', '6d9c8b7f5', 'k2qvd', ns, node, {
          name: 'basket',
          image: 'registry.example/basket:4.8.1',
          restarts: 3,
          resources: { requests: { cpu: '200m' }, limits: { cpu: '1' } },
          lastState: {
            terminated: {
              reason: 'OOMKilled',
              exitCode: 137,
              startedAt: ago(40),
              finishedAt: ago(22),
            },
          },
        }),
        rsPod('basket', '6d9c8b7f5', 'w8rnm', ns, 'ip-10-9-2-8.eu-west-1.compute.internal', {
          name: 'basket',
          image: 'registry.example/basket:4.8.1',
          resources: { requests: { cpu: '200m' }, limits: { cpu: '1' } },
        }),
        rsPod('bulk-loader', '7c4f9d8b6', 'q9lmc', 'batch', node, {
          name: 'worker',
          image: 'registry.example/bulk-loader:1.2.0',
          resources: { requests: { cpu: '1', memory: '2Gi' } },
        }),
      ],
      events: systemOom
        ? [30, 22].map((m) => ({
            ...kubeEvent(
              'default',
              { kind: 'Node', name: node },
              'Warning',
              'SystemOOM',
              `System OOM encountered, victim process: node, pid: ${24000 + m}`,
              m,
            ),
            metadata: { name: `${node}.oom${m}`, namespace: 'default' },
          }))
        : [],
    });
    const ask = 'basket restarted 3 times, last state OOMKilled, but it has no memory limit. how?';
    const hit = await answer(world(true), ask, ns);
    expect(hit).toMatch(/ran out of memory/);
    expect(hit).toMatch(/SystemOOM/);
    expect(hit).toMatch(/bulk-loader \(namespace batch\) runs with no memory limit/);
    const miss = await answer(world(false), ask, ns);
    expect(miss).not.toMatch(/SystemOOM/);
    expect(miss).toMatch(/OOMKilled/);
  });

  it('one ReplicaSet on two digests of one tag, the old ones "already present on machine": the stale build is named; one digest everywhere: not this rule', async () => {
    const ns = 'commerce';
    let image = 'registry.example/quotes:stable';
    const oldId = 'registry.example/quotes@sha256:0b3e8d5a7c9f1e2b4d6a8c0e3f5b7d9a1c2e4f6b';
    const newId = 'registry.example/quotes@sha256:c71f2a9e4b6d8f0a1c3e5b7d9f2a4c6e8b0d1f3a';
    const world = (split: boolean): ApiWorld => {
      const pods = [
        ['lq7xz', 'node-a', oldId],
        ['n8sgd', 'node-b', oldId],
        ['t2vmk', 'node-c', split ? newId : oldId],
        ['c5hwp', 'node-d', split ? newId : oldId],
      ] as const;
      return {
        objects: [
          namespaceObj(ns),
          ...pods.map(([s, node, id]) =>
            rsPod('quotes', '7b5f9c6d48', s, ns, node, { name: 'quotes', image, imageID: id }, 50),
          ),
        ],
        events: pods.map(([s, , id], i) =>
          kubeEvent(
            ns,
            { kind: 'Pod', name: `quotes-7b5f9c6d48-${s}` },
            'Normal',
            'Pulled',
            id === oldId && i < 2
              ? `Container image "${image}" already present on machine`
              : `Successfully pulled image "${image}" in 6.4s (6.4s including waiting). Image size: 132871204 bytes.`,
            50,
          ),
        ),
        logs: Object.fromEntries(
          pods.map(([s, , id]) => [
            `quotes-7b5f9c6d48-${s}`,
            `${ago(49)} INFO Starting QuotesApplication v${id === oldId ? '2.4.0' : '2.4.1'} using Java 21\n`,
          ]),
        ),
      };
    };
    const ask =
      'we pushed quotes 2.4.1 as :stable and restarted it, but half the quotes are still wrong. did the deploy not go out?';
    const hit = await answer(world(true), ask, ns);
    expect(hit).toMatch(/already present on machine/);
    expect(hit).toMatch(/stale, old image/);
    expect(hit).toMatch(/version 2\.4\.0/);
    const miss = await answer(world(false), ask, ns);
    expect(miss).not.toMatch(/two builds/);
    // a version tag is pushed once: digests that differ per pod say nothing about a push
    image = 'registry.example/quotes:2.4.1';
    expect(await answer(world(true), ask, ns)).not.toMatch(/two builds/);
  });

  it("mongod's Wrong mongod version over an old featureCompatibilityVersion: the versions are named; another fatal line: not this rule", async () => {
    const ns = 'reviews';
    const fatal = (fcv: boolean) =>
      fcv
        ? `${ago(5)} {"t":{"$date":"${ago(5)}"},"s":"F","c":"CONTROL","id":20573,"ctx":"initandlisten","msg":"Wrong mongod version","attr":{"error":"UPGRADE PROBLEM: Found an invalid featureCompatibilityVersion document (ERROR: Location4926900: Invalid featureCompatibilityVersion document in admin.system.version: { _id: \\"featureCompatibilityVersion\\", version: \\"4.4\\" }. :: caused by :: Invalid feature compatibility version value, expected '5.0' or '5.3' or '6.0. See https://docs.mongodb.com/master/release-notes/5.0-compatibility/#feature-compatibility.)."}}`
        : `${ago(5)} {"t":{"$date":"${ago(5)}"},"s":"F","c":"CONTROL","id":20574,"ctx":"initandlisten","msg":"Error during global initialization","attr":{"error":{"code":2,"codeName":"BadValue","errmsg":"Invalid or no user locale set"}}}`;
    const world = (fcv: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        rsPod('mongodb', '6c8f5d7b9d', 'j4v9s', ns, 'node-a', {
          name: 'mongodb',
          image: 'docker.io/bitnami/mongodb:6.0.13',
          ready: false,
          restarts: 9,
          state: {
            waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting mongodb' },
          },
          lastState: {
            terminated: { reason: 'Error', exitCode: 62, startedAt: ago(6), finishedAt: ago(5) },
          },
        }),
      ],
      events: [
        warningEvent(
          ns,
          { kind: 'Pod', name: 'mongodb-6c8f5d7b9d-j4v9s' },
          'BackOff',
          'Back-off restarting failed container mongodb in pod mongodb-6c8f5d7b9d-j4v9s',
          60,
          1,
          20,
        ),
      ],
      previous: { 'mongodb-6c8f5d7b9d-j4v9s': `${fatal(fcv)}\n` },
    });
    const hit = await answer(world(true), 'mongodb keeps crashing since the upgrade', ns);
    expect(hit).toMatch(/featureCompatibilityVersion is 4\.4/);
    expect(hit).toMatch(/expected '5\.0' or '5\.3' or '6\.0\)/);
    const miss = await answer(world(false), 'mongodb keeps crashing since the upgrade', ns);
    expect(miss).not.toMatch(/featureCompatibilityVersion is/);
  });

  it('which workloads have every pod on the node to be drained: all, part, none; a question about the pods on a node is not this one', async () => {
    const ns = 'payments';
    const node = 'ip-10-0-12-41.eu-west-1.compute.internal';
    const other = 'ip-10-0-25-188.eu-west-1.compute.internal';
    const box = (app: string): Box => ({ name: app, image: `registry.example/${app}:1.0.0` });
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        nodeObj(node, true),
        nodeObj(other),
        rsPod('rates', '5c8f7d6b99', 'd2jrk', ns, node, box('rates')),
        rsPod('rates', '5c8f7d6b99', 'q7lws', ns, node, box('rates')),
        rsPod('gateway', '7b5d9c8f64', 'hq2wz', ns, node, box('gateway')),
        rsPod('gateway', '7b5d9c8f64', 'm8tkc', ns, other, box('gateway')),
        rsPod('ledger', '7d6f8b9c45', 'n4tqx', ns, other, box('ledger')),
      ],
    };
    const hit = await answer(
      world,
      'I cordoned ip-10-0-12-41 and want to drain it. Which deployments in payments have ALL of their pods on that node?',
      ns,
    );
    expect(hit).toMatch(
      /1 workload has every pod on node ip-10-0-12-41[^:]*: rates \(\w+, 2 of 2 pods\)/,
    );
    expect(hit).toMatch(/Only partly there[^:]*: gateway \(\w+, 1 of 2 pods\)/);
    expect(hit).toMatch(/No pod there: ledger/);
    const at = Date.parse('2026-03-10T12:00:00Z');
    expect(
      scopeIncident('which pods run on ip-10-0-12-41 before I drain it?', {}, at).question?.type,
    ).not.toBe('drain_impact');
    expect(
      scopeIncident(
        'I cordoned ip-10-0-12-41 and want to drain it. Which deployments in payments have ALL of their pods on that node?',
        { namespace: 'payments' },
        at,
      ).question,
    ).toEqual({ type: 'drain_impact', node: 'ip-10-0-12-41', namespace: 'payments' });
  });

  it('errors logged once, asked whether it is still broken: a health check, not a count of lines; "how many times did it log" still counts', () => {
    const at = Date.parse('2026-03-10T12:00:00Z');
    const still = scopeIncident(
      'Morning. cart-api logged "READONLY You can\'t write against a read only replica" during the night. Is cart still broken / do we need to do something?',
      { namespace: 'cart' },
      at,
    );
    expect(still.question?.type).not.toBe('log_errors');
    const counted = scopeIncident(
      'which pods of cart-api logged "READONLY You can" since 02:00? is it still broken?',
      { namespace: 'cart' },
      at,
    );
    expect(counted.question?.type).toBe('log_errors');
  });
});
