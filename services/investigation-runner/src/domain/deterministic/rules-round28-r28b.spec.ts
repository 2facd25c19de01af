/**
 * The engine rules of round28 (r28b) (cause-catalog.data.ts, its "round28 (r28b)" block; the
 * findings that compare objects in diagnose-r28b.ts), one test per rule, each with a near miss:
 * a memory limit written in millibytes ("1024m") whose pod cannot mount its token volume; which
 * pods of a namespace are BestEffort (questions-r28b.ts); an init container whose busybox (1.29 or
 * later) nslookup wait loop never resolves the short name of a Service that exists; a Service
 * whose selector also matches another workload's pods, which refuse its targetPort.
 */
import {
  answerOf,
  apiTools,
  deploymentObj,
  investigateAt,
  namespaceObj,
  NOW,
  podObj,
  warningEvent,
  type ApiWorld,
} from './spec-world';

const answer = async (world: ApiWorld, ask: string, ns: string) =>
  answerOf((await investigateAt(apiTools(world), ask, NOW, ns)).result);

describe('round28 rules (r28b)', () => {
  it('a pod stuck in ContainerCreating with "no space left on device" on its token mount and a memory limit in millibytes: the "m" suffix is named, with the previous template\'s value; with a MiB limit: no such cause', async () => {
    const ns = 'docs';
    const world = (limit: string, request: string): ApiWorld => {
      const pod = `pdfgen-7c9d5f8b6-x2k4p`;
      return {
        objects: [
          namespaceObj(ns),
          deploymentObj('pdfgen', ns, ['registry.example.com/pdfgen:2.3.0'], 2, 1),
          podObj({
            name: 'pdfgen-59b8d7c6f4-q8w2n',
            ns,
            labels: { app: 'pdfgen', 'pod-template-hash': '59b8d7c6f4' },
            owner: { kind: 'ReplicaSet', name: 'pdfgen-59b8d7c6f4' },
            created: 600,
            boxes: [
              {
                name: 'pdfgen',
                image: 'registry.example.com/pdfgen:2.2.0',
                resources: { requests: { memory: '512Mi' }, limits: { memory: '2Gi' } },
              },
            ],
          }),
          podObj({
            name: pod,
            ns,
            labels: { app: 'pdfgen', 'pod-template-hash': '7c9d5f8b6' },
            owner: { kind: 'ReplicaSet', name: 'pdfgen-7c9d5f8b6' },
            created: 20,
            phase: 'Pending',
            boxes: [
              {
                name: 'pdfgen',
                image: 'registry.example.com/pdfgen:2.3.0',
                state: { waiting: { reason: 'ContainerCreating' } },
                ready: false,
                resources: { requests: { memory: request }, limits: { memory: limit } },
              },
            ],
          }),
        ],
        events: [
          warningEvent(
            ns,
            { kind: 'Pod', name: pod },
            'FailedMount',
            `MountVolume.SetUp failed for volume "kube-api-access-8mz2x" : write /var/lib/kubelet/pods/0f3c/volumes/kubernetes.io~projected/kube-api-access-8mz2x/..2026_03_10/token: no space left on device`,
            18,
            1,
            12,
          ),
        ],
      };
    };
    const ask = 'the new pdfgen pod is stuck in ContainerCreating: no space left on device?';
    const bad = await answer(world('2048m', '512m'), ask, ns);
    expect(bad).toMatch(/2048m/);
    expect(bad).toMatch(/milli/);
    expect(bad).toMatch(/limit 2Gi/);
    // near miss: the same failure with a limit in MiB is not about the suffix
    const fine = await answer(world('2Gi', '512Mi'), ask, ns);
    expect(fine).not.toMatch(/millibyte|milli/);
    expect(fine).toMatch(/no space left on device/);
  });

  it('"which pods in ns are BestEffort?": the pods whose status.qosClass is BestEffort in that namespace, not those of another namespace; a question without a QoS class is not this one', async () => {
    const qos = (o: Record<string, unknown>, c: string) => {
      (o['status'] as Record<string, unknown>)['qosClass'] = c;
      return o;
    };
    const pod = (name: string, ns: string, c: string) =>
      qos(
        podObj({
          name,
          ns,
          labels: { app: name.split('-')[0]! },
          owner: { kind: 'ReplicaSet', name: name.replace(/-[a-z0-9]{5}$/, '') },
          boxes: [{ name: 'main', image: 'registry.example.com/app:1.0.0' }],
        }),
        c,
      );
    const world: ApiWorld = {
      objects: [
        namespaceObj('etl'),
        namespaceObj('default'),
        pod('loader-6b7c8d9f5-abcde', 'etl', 'BestEffort'),
        pod('loader-6b7c8d9f5-fghij', 'etl', 'Burstable'),
        pod('warehouse-5d6f7c8b9-klmno', 'etl', 'Guaranteed'),
        pod('scratch-7f8d9c6b5-pqrst', 'default', 'BestEffort'),
      ],
    };
    const a = await answer(world, 'Which pods in etl are BestEffort (first to be evicted)?', 'etl');
    expect(a).toMatch(/1 pod is BestEffort in namespace etl/);
    expect(a).toMatch(/loader-6b7c8d9f5-abcde/);
    expect(a).not.toMatch(/scratch-7f8d9c6b5-pqrst/);
    // near miss: no QoS class asked for
    const other = await answer(world, 'Which pods in etl were evicted today?', 'etl');
    expect(other).not.toMatch(/BestEffort/);
  });

  it('a pod stuck initializing whose busybox 1.36 init container logs "server can\'t find <service>: NXDOMAIN" for a Service that exists: the busybox nslookup, with the previous busybox; a name no Service has: not this rule', async () => {
    const ns = 'store';
    const withInit = (
      o: Record<string, unknown>,
      image: string,
      state: Record<string, unknown>,
    ) => {
      const spec = o['spec'] as Record<string, unknown>;
      spec['initContainers'] = [
        {
          name: 'wait-for-db',
          image,
          command: ['sh', '-c', 'until nslookup carts-db; do sleep 2; done'],
        },
      ];
      const status = o['status'] as Record<string, unknown>;
      status['initContainerStatuses'] = [
        {
          name: 'wait-for-db',
          image: `docker.io/library/${image}`,
          ready: false,
          restartCount: 0,
          state,
        },
      ];
      return o;
    };
    const world = (service: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('cart', ns, ['registry.example.com/cart:3.1.0'], 2, 1),
        withInit(
          podObj({
            name: 'cart-5d8f7b6c9-aaaaa',
            ns,
            labels: { app: 'cart', 'pod-template-hash': '5d8f7b6c9' },
            owner: { kind: 'ReplicaSet', name: 'cart-5d8f7b6c9' },
            created: 900,
            boxes: [{ name: 'app', image: 'registry.example.com/cart:3.0.0' }],
          }),
          'busybox:1.28',
          { terminated: { exitCode: 0, reason: 'Completed' } },
        ),
        withInit(
          podObj({
            name: 'cart-7b9c6d5f8-bbbbb',
            ns,
            labels: { app: 'cart', 'pod-template-hash': '7b9c6d5f8' },
            owner: { kind: 'ReplicaSet', name: 'cart-7b9c6d5f8' },
            created: 40,
            phase: 'Pending',
            boxes: [
              {
                name: 'app',
                image: 'registry.example.com/cart:3.1.0',
                state: { waiting: { reason: 'PodInitializing' } },
                ready: false,
              },
            ],
          }),
          'busybox:1.36.1',
          { running: { startedAt: '2026-03-10T11:20:00Z' } },
        ),
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: service, namespace: ns },
          spec: { selector: { app: service }, ports: [{ port: 5432 }] },
        },
      ],
      logs: {
        'cart-7b9c6d5f8-bbbbb/wait-for-db': Array(4)
          .fill(
            "Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n** server can't find carts-db: NXDOMAIN\n\n*** Can't find carts-db: No answer\n\n",
          )
          .join(''),
      },
    });
    const ask = 'cart 3.1.0 is stuck at Init:0/1 for half an hour';
    const a = await answer(world('carts-db'), ask, ns);
    expect(a).toMatch(/nslookup carts-db/);
    expect(a).toMatch(/busybox:1\.36\.1/);
    expect(a).toMatch(/busybox:1\.28/);
    // near miss: no Service of that name: the name is wrong, not busybox
    const other = await answer(world('cart-db'), ask, ns);
    expect(other).not.toMatch(/busybox's nslookup/);
  });

  it('a client refused by a Service whose selector also matches the pods of another workload (not listening on the targetPort): the selector and that workload are named; when that workload lacks the shared label: not this rule', async () => {
    const ns = 'bank';
    const pod = (
      name: string,
      labels: Record<string, string>,
      port: number,
      ip: string,
    ): Record<string, unknown> => {
      const o = podObj({
        name,
        ns,
        labels,
        owner: { kind: 'ReplicaSet', name: name.replace(/-[a-z0-9]{5}$/, '') },
        boxes: [
          {
            name: 'main',
            image: 'registry.example.com/x:1.0.0',
            ports: [{ name: 'p', containerPort: port, protocol: 'TCP' }],
          },
        ],
      });
      (o['status'] as Record<string, unknown>)['podIP'] = ip;
      return o;
    };
    const world = (shared: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('posting-api', ns, ['registry.example.com/x:1.0.0'], 2, 2),
        deploymentObj('posting-batch', ns, ['registry.example.com/x:1.0.0'], 1, 1),
        deploymentObj('wallet', ns, ['registry.example.com/x:1.0.0'], 1, 1),
        pod('posting-api-6c8d9f7b5-aaaaa', { app: 'posting', component: 'api' }, 8080, '10.1.0.10'),
        pod('posting-api-6c8d9f7b5-bbbbb', { app: 'posting', component: 'api' }, 8080, '10.1.0.11'),
        pod(
          'posting-batch-7d9f8c6b4-ccccc',
          shared ? { app: 'posting', component: 'batch' } : { app: 'posting-batch' },
          9090,
          '10.1.0.12',
        ),
        pod('wallet-5b7c8d9f6-ddddd', { app: 'wallet' }, 3000, '10.1.0.13'),
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'posting-api', namespace: ns },
          spec: {
            clusterIP: '10.96.40.7',
            selector: { app: 'posting' },
            ports: [{ name: 'http', port: 80, targetPort: 8080 }],
          },
        },
      ],
      logs: {
        'wallet-5b7c8d9f6-ddddd': Array.from(
          { length: 6 },
          (_, i) =>
            `{"level":"error","time":"2026-03-10T11:5${i}:00Z","msg":"posting failed","err":"connect ECONNREFUSED 10.96.40.7:80"}`,
        ).join('\n'),
      },
    });
    const ask = 'wallet fails a third of its calls to posting-api with connection refused';
    const a = await answer(world(true), ask, ns);
    expect(a).toMatch(/selector app=posting/);
    expect(a).toMatch(/posting-batch/);
    // near miss: the batch pods do not carry the selected label
    const other = await answer(world(false), ask, ns);
    expect(other).not.toMatch(/also matches the pods of/);
  });
});
