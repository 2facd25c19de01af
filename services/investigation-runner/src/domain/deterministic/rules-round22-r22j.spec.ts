/**
 * The engine rules of round22 (r22j) (cause-catalog.data.ts, its "round22 (r22j)" block;
 * finding-vars-r22j.ts), one test per rule, each with a near miss where it must not fire: a
 * Prometheus that cannot lock its TSDB directory, a Galera cluster with no member safe to
 * bootstrap, a cluster-autoscaler that keeps nodes for pods with local storage.
 */
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  deploymentObj,
  investigateAt,
  namespaceObj,
  podObj,
  statefulSetObj,
  type ApiWorld,
  type Box,
} from './spec-world';

const answer = async (world: ApiWorld, ask: string, ns?: string) =>
  answerOf((await investigateAt(apiTools(world), ask, NOW, ns)).result);

/** a container that keeps exiting at start (or, with `crash` false, runs) */
const box = (name: string, image: string, crash: boolean): Box => ({
  name,
  image,
  restarts: crash ? 9 : 0,
  ...(crash
    ? {
        ready: false,
        state: {
          waiting: { reason: 'CrashLoopBackOff', message: `back-off 5m0s restarting ${name}` },
        },
        lastState: {
          terminated: { reason: 'Error', exitCode: 1, startedAt: ago(6), finishedAt: ago(6) },
        },
      }
    : {}),
});

describe('round22 rules (r22j)', () => {
  it('Prometheus exits with "lock DB directory: resource temporarily unavailable": the answer says another instance (the old pod of the rollout) holds the lock, not a corrupt WAL; a corrupt WAL line: the WAL rule', async () => {
    const ns = 'monitoring';
    const image = 'quay.io/prometheus/prometheus:v2.55.1';
    const world = (line: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('prom', ns, [image], 1, 1, ['prometheus']),
        podObj({
          name: 'prom-6f7d8c9b5-abcde',
          ns,
          labels: { app: 'prom', 'pod-template-hash': '6f7d8c9b5' },
          owner: { kind: 'ReplicaSet', name: 'prom-6f7d8c9b5' },
          created: 600,
          claims: ['prom-data'],
          boxes: [box('prometheus', image, false)],
        }),
        podObj({
          name: 'prom-5d4c3b2a1-fghij',
          ns,
          labels: { app: 'prom', 'pod-template-hash': '5d4c3b2a1' },
          owner: { kind: 'ReplicaSet', name: 'prom-5d4c3b2a1' },
          created: 40,
          claims: ['prom-data'],
          boxes: [box('prometheus', image, true)],
        }),
      ],
      logs: { 'prom-6f7d8c9b5-abcde': 'ts=x level=info msg="Head GC completed"' },
      previous: {
        'prom-5d4c3b2a1-fghij': [
          'ts=x caller=main.go:1160 level=info msg="Starting TSDB ..."',
          `ts=x caller=main.go:1166 level=error err="opening storage failed: ${line}"`,
        ].join('\n'),
      },
    });
    const ask = 'prom keeps crashlooping since the upgrade, why?';
    const bad = await answer(world('lock DB directory: resource temporarily unavailable'), ask, ns);
    expect(bad).toContain('cannot take the lock on its TSDB data directory');
    expect(bad).toContain('prom-6f7d8c9b5-abcde');
    expect(bad).toContain('Recreate');
    expect(bad).not.toContain('corrupt');
    // a corrupt segment is not a lock: the WAL rule answers
    const wal = await answer(world('/data/wal/00000012: corruption in segment'), ask, ns);
    expect(wal).not.toContain('cannot take the lock');
  });

  it('a Galera member logs it is not safe to bootstrap: the answer says no member is safe to bootstrap because all went down together; members that only fail to reach a primary: not this rule', async () => {
    const ns = 'crm';
    const image = 'docker.io/bitnami/mariadb-galera:11.4.3';
    const world = (line: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        ...statefulSetObj('db-galera', ns, image, 3, {
          ready: 0,
          container: 'mariadb-galera',
          member: () => ({ boxes: [box('mariadb-galera', image, true)] }),
        }),
      ],
      previous: {
        'db-galera-0': `mariadb 07:37:00.61 INFO  ==> Using persisted data\n${line}`,
        'db-galera-1':
          '[ERROR] WSREP: failed to open gcomm backend connection: 110: failed to reach primary view',
      },
    });
    const ask = 'db-galera pods keep restarting since this morning, what is going on?';
    const bad = await answer(
      world(
        "mariadb 07:37:03.02 ERROR ==> It is not safe to bootstrap form this node ('safe_to_bootstrap=0' is set in 'grastate.dat'). If you want to force bootstrap, set the environment variable MARIADB_GALERA_FORCE_SAFETOBOOTSTRAP=yes",
      ),
      ask,
      ns,
    );
    expect(bad).toContain('safe_to_bootstrap=0');
    expect(bad).toContain('all 3 members');
    expect(bad).toContain('forceSafeToBootstrap');
    const other = await answer(
      world('mariadb 07:37:03.02 ERROR ==> Galera failed to start'),
      ask,
      ns,
    );
    expect(other).not.toContain('safe to bootstrap');
  });

  it('cluster-autoscaler logs nodes it cannot remove for pods with local storage: the answer names the pods and their workloads; a node kept for its utilization only: not this rule', async () => {
    const ns = 'kube-system';
    const image = 'registry.k8s.io/autoscaling/cluster-autoscaler:v1.30.2';
    const world = (lines: string[]): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('cluster-autoscaler', ns, [image], 1, 1),
        podObj({
          name: 'cluster-autoscaler-7b8c9d6f5-k2m4n',
          ns,
          labels: { app: 'cluster-autoscaler', 'pod-template-hash': '7b8c9d6f5' },
          owner: { kind: 'ReplicaSet', name: 'cluster-autoscaler-7b8c9d6f5' },
          created: 3000,
          boxes: [box('cluster-autoscaler', image, false)],
        }),
      ],
      logs: {
        'cluster-autoscaler-7b8c9d6f5-k2m4n': [
          'I0923 02:27:10.260494 1 static_autoscaler.go:640] Starting scale down',
          ...lines,
        ].join('\n'),
      },
    });
    const ask = "why isn't cluster-autoscaler scaling down the idle batch nodes?";
    const bad = await answer(
      world([
        'I0923 02:27:10.475198 1 cluster.go:175] node node-a cannot be removed: pod with local storage present: resize-worker-5f6g7h8j9-aaaaa',
        'I0923 02:27:10.314328 1 cluster.go:175] node node-b cannot be removed: pod with local storage present: report-export-6a7b8c9d0-bbbbb',
      ]),
      ask,
    );
    expect(bad).toContain('pod with local storage present');
    expect(bad).toContain('resize-worker');
    expect(bad).toContain('report-export');
    expect(bad).toContain('safe-to-evict-local-volumes');
    const busy = await answer(
      world([
        'I0923 02:27:10.968298 1 eligibility.go:112] Node node-c unremovable: cpu requests utilization too high (0.771176)',
      ]),
      ask,
    );
    expect(busy).not.toContain('local storage');
  });
  it('fluent-bit logs Elasticsearch refusing records for an object mapping: the answer names the field, the plain label and Replace_Dots; a record refused for another reason: not this rule', async () => {
    const ns = 'logging';
    const image = 'cr.fluentbit.io/fluent/fluent-bit:3.1.9';
    const world = (reason: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('shop'),
        {
          apiVersion: 'apps/v1',
          kind: 'DaemonSet',
          metadata: { name: 'fluent-bit', namespace: ns, creationTimestamp: ago(90 * 1440) },
          spec: {
            selector: { matchLabels: { 'app.kubernetes.io/name': 'fluent-bit' } },
            template: { spec: { containers: [{ name: 'fluent-bit', image }] } },
          },
          status: {
            desiredNumberScheduled: 1,
            currentNumberScheduled: 1,
            numberReady: 1,
            numberAvailable: 1,
            updatedNumberScheduled: 1,
          },
        },
        podObj({
          name: 'fluent-bit-x7k2p',
          ns,
          labels: { 'app.kubernetes.io/name': 'fluent-bit' },
          owner: { kind: 'DaemonSet', name: 'fluent-bit' },
          created: 5000,
          boxes: [box('fluent-bit', image, false)],
        }),
        podObj({
          name: 'cart-6d5c4b3a2-qwert',
          ns: 'shop',
          labels: { app: 'cart', 'pod-template-hash': '6d5c4b3a2' },
          owner: { kind: 'ReplicaSet', name: 'cart-6d5c4b3a2' },
          created: 900,
          boxes: [box('cart', 'registry.example.org/shop/cart:1.4.0', false)],
        }),
      ],
      logs: {
        'fluent-bit-x7k2p': [
          '[2026/11/05 09:12:00] [error] [output:es:es.0] error: Output',
          `{"errors":true,"took":4,"items":[{"create":{"_index":"logstash-2026.11.05","_id":"gd2f","status":400,"error":{"type":"document_parsing_exception","reason":"${reason}"}}}]}`,
          "[2026/11/05 09:12:01] [warn] [engine] failed to flush chunk '1-1793869000.85.flb', retry in 14 seconds: task_id=1, input=tail.0 > output=es.0 (out_id=0)",
          "[2026/11/05 09:12:30] [error] [engine] chunk '1-1793869000.85.flb' cannot be retried: task_id=1, input=tail.0 > output=es.0",
        ].join('\n'),
      },
    });
    const ask = 'cart logs are missing in Kibana since yesterday, is logging broken?';
    const bad = await answer(
      world(
        '[1:611] object mapping for [kubernetes.labels.app] tried to parse field [app] as object, but found a concrete value',
      ),
      ask,
    );
    expect(bad).toContain('kubernetes.labels.app is mapped as an object');
    expect(bad).toContain('Replace_Dots On');
    expect(bad).toContain('cart');
    const other = await answer(
      world("[1:80] failed to parse field [latency_ms] of type [long] in document with id 'gd2f'"),
      ask,
    );
    expect(other).not.toContain('mapped as an object');
  });
});
