/**
 * The engine rules of round24 (r24a) (cause-catalog.data.ts, its "round24 (r24a)" block; their
 * variables in finding-vars-r24a.ts; the gatherer's r24aServicePodsByLabels), one test per rule,
 * each with a near miss where it must not fire: PostgreSQL's pg_wal filling its volume, and why
 * (a replication slot whose consumer left, or WAL archiving that fails), and the pods of a failing
 * dependency's Service that a listing without labels does not tie to it.
 */
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  deploymentObj,
  findingsOf,
  investigateAt,
  namespaceObj,
  podObj,
  podsTable,
  serviceObj,
  statefulSetObj,
  withEnv,
  type ApiWorld,
  type Box,
} from './spec-world';
import { scopeIncident } from './scope';

const answer = async (world: ApiWorld, ask: string, ns: string) =>
  answerOf((await investigateAt(apiTools(world), ask, NOW, ns)).result);

const logFindings = (pod: string, ns: string, lines: string[], id: string) =>
  findingsOf([
    { output: lines.join('\n'), ctx: { pod, namespace: ns, verb: 'logs' as const } },
  ]).findings.filter((f) => f.entry.id === id);

const crashing: Box = {
  name: 'postgres',
  image: 'postgres:16.4',
  ready: false,
  restarts: 9,
  state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting' } },
  lastState: {
    terminated: { reason: 'Error', exitCode: 1, startedAt: ago(6), finishedAt: ago(6) },
  },
};

const PANIC =
  '2026-03-10 11:50:31.406 UTC [48211] app@shop PANIC:  could not write to file "pg_wal/xlogtemp.48211": No space left on device';
const FATAL =
  '2026-03-10 11:54:14.071 UTC [28] FATAL:  could not write to file "pg_wal/xlogtemp.28": No space left on device';
const checkpoint = (removed: number) =>
  `2026-03-0${5 + removed} 04:12:41.771 UTC [27] LOG:  checkpoint complete: wrote 21844 buffers (16.7%); 0 WAL file(s) added, ${removed} removed, ${removed} recycled; write=269.811 s`;
const slotStart = [
  '2026-03-01 22:09:12.611 UTC [311] cdc@shop LOG:  received replication command: START_REPLICATION SLOT "cdc_shop" LOGICAL 1A/2F0031B8',
  '2026-03-01 22:09:12.612 UTC [311] cdc@shop LOG:  starting logical decoding for slot "cdc_shop"',
];
const slotGone = [
  '2026-03-01 22:14:58.090 UTC [311] cdc@shop LOG:  could not receive data from client: Connection reset by peer',
  '2026-03-01 22:14:58.090 UTC [311] cdc@shop LOG:  unexpected EOF on standby connection',
];

const dbWorld = (previous: string[]): ApiWorld => ({
  objects: [
    namespaceObj('shop'),
    ...statefulSetObj('shop-db', 'shop', 'postgres:16.4', 1, {
      ready: 0,
      container: 'postgres',
      member: () => ({ boxes: [crashing] }),
    }),
  ],
  previous: { 'shop-db-0': previous.join('\n') },
  logs: { 'shop-db-0': FATAL },
});

describe('round24 rules (r24a)', () => {
  it('pg_wal_full: a WAL write that fails for space, not another ENOSPC', () => {
    expect(logFindings('shop-db-0', 'shop', [PANIC], 'pg_wal_full')).toHaveLength(1);
    expect(
      logFindings(
        'shop-db-0',
        'shop',
        [
          '2026-03-10 11:50:31.406 UTC [48211] ERROR:  could not extend file "base/16384/2619": No space left on device',
        ],
        'pg_wal_full',
      ),
    ).toHaveLength(0);
  });

  it('pg_wal kept by a replication slot whose consumer left: the answer names the slot; a slot still read (checkpoints remove WAL): not the slot', async () => {
    const kept = await answer(
      dbWorld([...slotStart, ...slotGone, checkpoint(0), checkpoint(0), PANIC]),
      'shop-db-0 is crashlooping',
      'shop',
    );
    expect(kept).toContain('replication slot "cdc_shop"');
    expect(kept).toContain('0 removed, 0 recycled');
    const read = await answer(
      dbWorld([...slotStart, checkpoint(3), checkpoint(2), PANIC]),
      'shop-db-0 is crashlooping',
      'shop',
    );
    expect(read).toContain('No space left on device');
    expect(read).not.toContain('retained by the replication slot');
  });

  it('pg_wal kept because archiving fails: the answer quotes the archiver; no failed archive command: not archiving', async () => {
    const archiveFailing = [
      '2026-03-10 11:05:05.102 UTC [3695] LOG:  archive-push: ERROR: archiver exception: An error occurred (InvalidAccessKeyId) when calling the PutObject operation',
      '2026-03-10 11:05:05.412 UTC [27] LOG:  archive command failed with exit code 1',
      '2026-03-10 11:06:05.412 UTC [27] LOG:  archive command failed with exit code 1',
      PANIC,
    ];
    const failing = await answer(dbWorld(archiveFailing), 'shop-db-0 is crashlooping', 'shop');
    expect(failing).toContain('WAL archiving fails');
    expect(failing).toContain('InvalidAccessKeyId');
    const fine = await answer(dbWorld([checkpoint(3), PANIC]), 'shop-db-0 is crashlooping', 'shop');
    expect(fine).not.toContain('WAL archiving fails');
    expect(fine).not.toContain('retained by the replication slot');
  });

  it("a refused dependency's Service whose pods the listing does not tie to it: the pods its selector matches are read; a Service whose pods are healthy: none read", async () => {
    const ns = 'pay';
    const apiBox: Box = { name: 'api', image: 'pay-api:1.0' };
    const world = (dbBroken: boolean): ApiWorld => {
      const db = podObj({
        name: 'pay-pg-1',
        ns,
        labels: { 'cnpg.io/cluster': 'pay-pg', role: 'primary' },
        owner: { kind: 'Cluster', name: 'pay-pg' },
        boxes: [dbBroken ? crashing : { name: 'postgres', image: 'postgres:16.4' }],
      });
      const api = podObj({
        name: 'pay-api-5c7d8f9b6d-2mfxq',
        ns,
        labels: { app: 'pay-api', 'pod-template-hash': '5c7d8f9b6d' },
        owner: { kind: 'ReplicaSet', name: 'pay-api-5c7d8f9b6d' },
        boxes: [apiBox],
      });
      return {
        objects: [
          namespaceObj(ns),
          deploymentObj('pay-api', ns, ['pay-api:1.0'], 1, 1, ['api']),
          api,
          db,
          serviceObj('pay-pg-rw', ns, { 'cnpg.io/cluster': 'pay-pg', role: 'primary' }, 5432, {
            clusterIP: '172.20.92.14',
          }),
        ],
        logs: {
          'pay-api-5c7d8f9b6d-2mfxq':
            'time=2026-03-10T11:42:07Z level=error msg="request failed" status=500 error="dial tcp 172.20.92.14:5432: connect: connection refused"\n'.repeat(
              3,
            ),
          'pay-pg-1': FATAL,
        },
        previous: { 'pay-pg-1': [checkpoint(3), PANIC].join('\n') },
      };
    };
    // the pod listing is a table: no labels, no owners
    const tools = (w: ApiWorld) =>
      apiTools(w).map((t) =>
        t.name === 'pods_list'
          ? {
              ...t,
              handler: () =>
                podsTable([
                  ['pay-api-5c7d8f9b6d-2mfxq', '1/1', 'Running', '0', '20d'],
                  w === broken
                    ? ['pay-pg-1', '0/1', 'CrashLoopBackOff', '9', '20d']
                    : ['pay-pg-1', '1/1', 'Running', '0', '20d'],
                ]),
            }
          : t,
      );
    const broken = world(true);
    const r = await investigateAt(tools(broken), 'pay-api returns 500s', NOW, ns);
    expect(
      r.gateway.calls.some((c) => c.tool.endsWith('pods_log') && c.params['name'] === 'pay-pg-1'),
    ).toBe(true);
    expect(answerOf(r.result)).toContain('No space left on device');
    const healthy = world(false);
    const h = await investigateAt(tools(healthy), 'pay-api returns 500s', NOW, ns);
    expect(
      h.gateway.calls.some((c) => c.tool.endsWith('pods_get') && c.params['name'] === 'pay-pg-1'),
    ).toBe(false);
  });

  it('OOMKilled under a limit the VPA set (vpaUpdates): the answer names the VerticalPodAutoscaler; a pod without that note: not the VPA', async () => {
    const ns = 'reports';
    const box: Box = {
      name: 'app',
      image: 'reports:4.6.1',
      ready: false,
      restarts: 6,
      resources: { requests: { memory: '262144k' }, limits: { memory: '524288k' } },
      state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting' } },
      lastState: {
        terminated: { reason: 'OOMKilled', exitCode: 137, startedAt: ago(9), finishedAt: ago(4) },
      },
    };
    const world = (annotations: Record<string, string>): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('reports', ns, ['reports:4.6.1'], 1, 0, ['app']),
        podObj({
          name: 'reports-7b8bd9c6f-mjnl7',
          ns,
          labels: { app: 'reports', 'pod-template-hash': '7b8bd9c6f' },
          owner: { kind: 'ReplicaSet', name: 'reports-7b8bd9c6f' },
          annotations,
          boxes: [box],
        }),
      ],
    });
    const vpa = await answer(
      world({
        vpaObservedContainers: 'app',
        vpaUpdates:
          'Pod resources updated by reports: container 0: cpu request, memory request, memory limit',
      }),
      'reports is crashlooping',
      ns,
    );
    expect(vpa).toContain('OOMKilled');
    expect(vpa).toContain('VerticalPodAutoscaler reports');
    const plain = await answer(world({}), 'reports is crashlooping', ns);
    expect(plain).toContain('OOMKilled');
    expect(plain).not.toContain('VerticalPodAutoscaler');
  });

  it('Elasticsearch: an election without a quorum on a master StatefulSet scaled below its voting configuration; a data node that only misses the master: not this rule', async () => {
    const ns = 'find';
    const quorumLine =
      '{"@timestamp":"2026-03-10T11:58:52.130Z", "log.level": "WARN", "message":"master not discovered or elected yet, an election requires at least 2 nodes with ids from [Txd, Vmt, KAJ], have only discovered non-quorum [{es-master-0}{Txd}{nQ4}{es-master-0}{10.20.35.120}{10.20.35.120:9300}{m}{8.15.3}]; discovery will continue"}';
    // (a log of one JSON line would read as one JSON document: an info line before it)
    const started =
      '{"@timestamp":"2026-03-10T11:58:42.117Z", "log.level": "INFO", "message":"master node changed {previous [{es-master-1}], current []}"}';
    const dataLine =
      '{"@timestamp":"2026-03-10T11:58:49.003Z", "log.level": "WARN", "message":"master not discovered yet: have discovered [{es-data-0}{Qm3}{x}{es-data-0}{10.20.46.33}{10.20.46.33:9300}{di}{8.15.3}, {es-master-0}{Txd}{nQ4}{es-master-0}{10.20.35.120}{10.20.35.120:9300}{m}{8.15.3}]; discovery will continue"}';
    expect(
      logFindings('es-master-0', ns, [started, quorumLine], 'es_master_no_quorum'),
    ).toHaveLength(1);
    expect(logFindings('es-data-0', ns, [started, dataLine], 'es_master_no_quorum')).toHaveLength(
      0,
    );
    const world = (replicas: number): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        ...statefulSetObj('es-master', ns, 'elasticsearch:8.15.3', replicas, {
          container: 'elasticsearch',
        }),
      ],
      logs: { 'es-master-0': `${started}\n${quorumLine}` },
    });
    const down = await answer(world(1), 'es-master-0 logs master not discovered', ns);
    expect(down).toContain('not a quorum');
    expect(down).toContain('replicas: 1');
    const full = await answer(world(3), 'es-master-0 logs master not discovered', ns);
    expect(full).not.toContain('replicas: 3, fewer');
  });

  it('a client\'s "no master": the master-eligible node a data node\'s "master not discovered" line names is read; none named: no master pod read', async () => {
    const ns = 'find';
    const info = (m: string) =>
      `{"@timestamp":"2026-03-10T11:58:42.117Z", "log.level": "INFO", "message":"${m}"}`;
    const dataLine = (roles: string) =>
      `{"@timestamp":"2026-03-10T11:58:49.003Z", "log.level": "WARN", "message":"master not discovered yet: have discovered [{es-data-0}{Qm3}{x}{es-data-0}{10.20.46.33}{10.20.46.33:9300}{di}{8.15.3}, {es-master-0}{Txd}{nQ4}{es-master-0}{10.20.35.120}{10.20.35.120:9300}{${roles}}{8.15.3}]; discovery will continue"}`;
    const quorumLine =
      '{"@timestamp":"2026-03-10T11:58:52.130Z", "log.level": "WARN", "message":"master not discovered or elected yet, an election requires at least 2 nodes with ids from [Txd, Vmt, KAJ], have only discovered non-quorum [{es-master-0}{Txd}{nQ4}{es-master-0}{10.20.35.120}{10.20.35.120:9300}{m}{8.15.3}]; discovery will continue"}';
    const api = 'search-api-68b7d9f5c7-vtgcx';
    const world = (roles: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('search-api', ns, ['search-api:2.0'], 1, 1, ['api']),
        podObj({
          name: api,
          ns,
          labels: { app: 'search-api', 'pod-template-hash': '68b7d9f5c7' },
          owner: { kind: 'ReplicaSet', name: 'search-api-68b7d9f5c7' },
          boxes: [{ name: 'api', image: 'search-api:2.0' }],
        }),
        serviceObj('elasticsearch', ns, { app: 'es-data' }, 9200),
        ...statefulSetObj('es-data', ns, 'elasticsearch:8.15.3', 1, {
          container: 'elasticsearch',
          ready: 0,
          member: () => ({
            boxes: [{ name: 'elasticsearch', image: 'elasticsearch:8.15.3', ready: false }],
          }),
        }),
      ],
      logs: {
        [api]: Array.from(
          { length: 3 },
          (_, i) =>
            `{"level":50,"time":"2026-03-10T11:5${i}:04.211Z","msg":"search failed","node":"http://elasticsearch:9200","err":{"type":"ResponseError","message":"cluster_block_exception: [cluster_block_exception] Reason: blocked by: [SERVICE_UNAVAILABLE/2/no master];","statusCode":503}}`,
        ).join('\n'),
        'es-data-0': `${info('started')}\n${dataLine(roles)}`,
        'es-master-0': `${info('started')}\n${quorumLine}`,
      },
    });
    // es-master-0 is a pod the listing shows, of no workload the client names
    const withMaster = (w: ApiWorld): ApiWorld => ({
      ...w,
      objects: [
        ...w.objects,
        podObj({
          name: 'es-master-0',
          ns,
          labels: { role: 'master' },
          owner: { kind: 'StatefulSet', name: 'es-master' },
          boxes: [{ name: 'elasticsearch', image: 'elasticsearch:8.15.3' }],
        }),
      ],
    });
    const reads = async (w: ApiWorld) =>
      (await investigateAt(apiTools(w), 'search-api answers 503', NOW, ns)).gateway.calls.some(
        (c) => c.tool.endsWith('pods_log') && c.params['name'] === 'es-master-0',
      );
    expect(await reads(withMaster(world('m')))).toBe(true);
    expect(await reads(withMaster(world('di')))).toBe(false);
  });

  it('"the pricing namespace" names a namespace; "the pricing engine" does not', () => {
    expect(
      scopeIncident('FinOps flagged the billing namespace: billing-engine runs 12 pods', {}, NOW)
        .namespaces,
    ).toContain('billing');
    expect(
      scopeIncident('FinOps flagged the billing engine: it runs 12 pods', {}, NOW).namespaces,
    ).not.toContain('billing');
  });

  it('an HPA held at maxReplicas by its memory metric alone (CPU idle): this rule; at max with CPU above target too: not this rule', async () => {
    const ns = 'prices';
    const world = (cpuNow: number): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('pricer', ns, ['pricer:4.2.0'], 6, 6, ['app']),
        ...Array.from({ length: 6 }, (_, i) =>
          withEnv(
            podObj({
              name: `pricer-6b9d7c5f8d-x${i}`,
              ns,
              labels: { app: 'pricer', 'pod-template-hash': '6b9d7c5f8d' },
              owner: { kind: 'ReplicaSet', name: 'pricer-6b9d7c5f8d' },
              boxes: [
                {
                  name: 'app',
                  image: 'pricer:4.2.0',
                  resources: { requests: { cpu: '500m', memory: '512Mi' } },
                },
              ],
            }),
            { JAVA_TOOL_OPTIONS: '-Xms768m -Xmx1g' },
          ),
        ),
        {
          apiVersion: 'autoscaling/v2',
          kind: 'HorizontalPodAutoscaler',
          metadata: { name: 'pricer', namespace: ns, creationTimestamp: ago(60 * 24 * 30) },
          spec: {
            scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'pricer' },
            minReplicas: 2,
            maxReplicas: 6,
            metrics: [
              {
                type: 'Resource',
                resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } },
              },
              {
                type: 'Resource',
                resource: {
                  name: 'memory',
                  target: { type: 'Utilization', averageUtilization: 75 },
                },
              },
            ],
          },
          status: {
            currentReplicas: 6,
            desiredReplicas: 6,
            currentMetrics: [
              {
                type: 'Resource',
                resource: { name: 'cpu', current: { averageUtilization: cpuNow } },
              },
              {
                type: 'Resource',
                resource: { name: 'memory', current: { averageUtilization: 177 } },
              },
            ],
          },
        },
      ],
    });
    const ask = 'pricer runs 6 pods all night with no traffic, is the autoscaler broken?';
    const pinned = await answer(world(5), ask, ns);
    expect(pinned).toContain('memory metric alone');
    expect(pinned).toContain('-Xms768m');
    const busy = await answer(world(85), ask, ns);
    expect(busy).not.toContain('memory metric alone');
  });

  it('"which workloads have no IRSA role?": the workloads whose ServiceAccount has no role-arn annotation (the default one included); all annotated: none named', async () => {
    const ns = 'etl';
    const sa = (name: string, role?: string) => ({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: {
        name,
        namespace: ns,
        ...(role ? { annotations: { 'eks.amazonaws.com/role-arn': role } } : {}),
      },
    });
    const deploy = (name: string, account?: string) => {
      const d = deploymentObj(name, ns, [`${name}:1.0`], 1, 1);
      const tpl = (d['spec'] as { template: { spec: Record<string, unknown> } }).template.spec;
      if (account) tpl['serviceAccountName'] = account;
      return d;
    };
    const world = (annotated: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploy('loader', 'loader'),
        deploy('uploader', 'uploader'),
        deploy('scheduler'),
        sa('default', annotated ? 'arn:aws:iam::111122223333:role/etl-default' : undefined),
        sa('loader', 'arn:aws:iam::111122223333:role/etl-loader'),
        sa('uploader', annotated ? 'arn:aws:iam::111122223333:role/etl-uploader' : undefined),
      ],
    });
    const ask =
      'we block IMDS next week: which workloads in the etl namespace have no IRSA role and still rely on the node role?';
    expect(scopeIncident(ask, {}, NOW).question).toEqual({
      type: 'workloads_without_irsa',
      namespace: 'etl',
    });
    expect(
      scopeIncident('why does uploader get AccessDenied with its IRSA role?', {}, NOW).question
        ?.type,
    ).not.toBe('workloads_without_irsa');
    const some = await answer(world(false), ask, ns);
    expect(some).toContain('2 workloads in namespace etl have no IRSA role');
    expect(some).toContain('scheduler (ServiceAccount default');
    expect(some).toContain('uploader (ServiceAccount uploader');
    const none = await answer(world(true), ask, ns);
    expect(none).toContain('Every workload in namespace etl');
  });
});
