/**
 * The engine rules of round24 (r24b) (cause-catalog.data.ts, its "round24 (r24b)" block; their
 * variables in finding-vars-r24b.ts, the comparing rule in diagnose-r24b.ts), one test per rule,
 * each with a near miss where it must not fire: a JVM told (by a ConfigMap's JAVA_TOOL_OPTIONS)
 * to load a -javaagent jar its image lacks, and a Secret only a SecretProviderClass syncs while no
 * pod mounts that class's CSI volume, and an HPA whose custom metric is missing because Prometheus
 * does not select the workload's ServiceMonitor (a label its serviceMonitorSelector requires), and
 * Airflow waiting for migrations whose Job Argo CD holds back as a PostSync hook.
 */
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  deploymentObj,
  findingsOf,
  hpaObj,
  investigateAt,
  namespaceObj,
  podObj,
  warningEvent,
  type ApiWorld,
  type Box,
} from './spec-world';

const answer = async (world: ApiWorld, ask: string, ns: string) =>
  answerOf((await investigateAt(apiTools(world), ask, NOW, ns)).result);

type Obj = Record<string, unknown>;

describe('round24 rules (r24b)', () => {
  it('a JVM that cannot open its -javaagent jar: the answer names the jar and the ConfigMap whose JAVA_TOOL_OPTIONS sets it; a JVM that loads its agent: not this rule', async () => {
    const ns = 'shop';
    const app = 'stock-api';
    const box: Box = {
      name: app,
      image: 'registry.example.com/stock-api:4.1.0',
      ready: false,
      restarts: 6,
      state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 2m40s restarting' } },
      lastState: {
        terminated: { reason: 'Error', exitCode: 1, startedAt: ago(3), finishedAt: ago(3) },
      },
    };
    const pod = `${app}-5d7c9b8f6-k2m4p`;
    const podWith = () => {
      const p = podObj({
        name: pod,
        ns,
        labels: { app, 'pod-template-hash': '5d7c9b8f6' },
        owner: { kind: 'ReplicaSet', name: `${app}-5d7c9b8f6` },
        created: 20,
        boxes: [box],
      });
      ((p['spec'] as Obj)['containers'] as Obj[])[0]!['envFrom'] = [
        { configMapRef: { name: 'java-common' } },
      ];
      return p;
    };
    const world = (log: string[]): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj(app, ns, [box.image], 1, 0, [app]),
        podWith(),
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'java-common', namespace: ns },
          data: {
            JAVA_TOOL_OPTIONS: '-XX:MaxRAMPercentage=75.0 -javaagent:/opt/apm/apm-agent.jar',
          },
        },
      ],
      events: [
        warningEvent(
          ns,
          { kind: 'Pod', name: pod },
          'BackOff',
          'Back-off restarting failed container',
          15,
          1,
          7,
        ),
      ],
      previous: { [pod]: log.join('\n') },
      logs: { [pod]: log.join('\n') },
    });
    const ask = `${app} crashloops right after the new release, roll back?`;
    const missing = await answer(
      world([
        'Picked up JAVA_TOOL_OPTIONS: -XX:MaxRAMPercentage=75.0 -javaagent:/opt/apm/apm-agent.jar',
        'Error occurred during initialization of VM',
        'Error opening zip file or JAR manifest missing : /opt/apm/apm-agent.jar',
        'agent library failed Agent_OnLoad: instrument',
      ]),
      ask,
      ns,
    );
    expect(missing).toContain('-javaagent jar that is not in the image');
    expect(missing).toContain('/opt/apm/apm-agent.jar');
    expect(missing).toContain('JAVA_TOOL_OPTIONS of ConfigMap java-common');
    const loaded = await answer(
      world([
        'Picked up JAVA_TOOL_OPTIONS: -XX:MaxRAMPercentage=75.0 -javaagent:/opt/apm/apm-agent.jar',
        'Exception in thread "main" java.lang.IllegalStateException: no datasource configured',
      ]),
      ask,
      ns,
    );
    expect(loaded).not.toContain('-javaagent jar that is not in the image');
  });

  it('a Secret declared in a SecretProviderClass whose CSI volume no pod mounts: this rule names the class; a pod that mounts it, or a class that does not declare the Secret: the missing-Secret rule only', async () => {
    const ns = 'billing';
    const app = 'report-sync';
    const box: Box = {
      name: app,
      image: 'registry.example.com/report-sync:1.0.0',
      ready: false,
      state: {
        waiting: {
          reason: 'CreateContainerConfigError',
          message: 'secret "report-sync-db" not found',
        },
      },
    };
    const pod = `${app}-6f8b7c9d5-z7x2w`;
    const podWith = (mounts: boolean) => {
      const p = podObj({
        name: pod,
        ns,
        labels: { app, 'pod-template-hash': '6f8b7c9d5' },
        owner: { kind: 'ReplicaSet', name: `${app}-6f8b7c9d5` },
        created: 25,
        boxes: [box],
      });
      if (mounts)
        (p['spec'] as Obj)['volumes'] = [
          {
            name: 'secrets',
            csi: {
              driver: 'secrets-store.csi.k8s.io',
              readOnly: true,
              volumeAttributes: { secretProviderClass: 'report-sync-vault' },
            },
          },
        ];
      return p;
    };
    const world = (mounts: boolean, declared: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj(app, ns, [box.image], 1, 0, [app]),
        podWith(mounts),
        {
          apiVersion: 'secrets-store.csi.x-k8s.io/v1',
          kind: 'SecretProviderClass',
          metadata: { name: 'report-sync-vault', namespace: ns },
          spec: {
            provider: 'vault',
            secretObjects: [
              {
                secretName: declared,
                type: 'Opaque',
                data: [{ objectName: 'db-password', key: 'password' }],
              },
            ],
          },
        },
      ],
      events: [
        warningEvent(
          ns,
          { kind: 'Pod', name: pod },
          'Failed',
          'Error: secret "report-sync-db" not found',
          24,
          1,
          40,
        ),
      ],
    });
    const ask = `${app} was deployed half an hour ago and never started`;
    const unsynced = await answer(world(false, 'report-sync-db'), ask, ns);
    expect(unsynced).toContain('SecretProviderClass report-sync-vault');
    expect(unsynced).toContain('mount');
    const mounted = await answer(world(true, 'report-sync-db'), ask, ns);
    expect(mounted).toContain('report-sync-db');
    expect(mounted).not.toContain('no pod mounts its CSI volume');
    const other = await answer(world(false, 'other-secret'), ask, ns);
    expect(other).toContain('report-sync-db');
    expect(other).not.toContain('no pod mounts its CSI volume');
  });
  it('an HPA that cannot find its custom metric, its ServiceMonitor lacking the label Prometheus selects by: this rule names the label; a ServiceMonitor that has it: not this rule', async () => {
    const ns = 'store';
    const app = 'basket-api';
    const box: Box = { name: app, image: 'registry.example.com/basket-api:2.0.0' };
    const monitor = (labels: Record<string, string>): Obj => ({
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'ServiceMonitor',
      metadata: { name: app, namespace: ns, labels },
      spec: {
        endpoints: [{ port: 'http', path: '/metrics' }],
        selector: { matchLabels: { 'app.kubernetes.io/name': app } },
      },
    });
    const world = (labels: Record<string, string>): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('observability'),
        deploymentObj(app, ns, [box.image], 3, 3, [app]),
        podObj({
          name: `${app}-7c9d8b6f5-a1b2c`,
          ns,
          labels: { app, 'pod-template-hash': '7c9d8b6f5' },
          owner: { kind: 'ReplicaSet', name: `${app}-7c9d8b6f5` },
          boxes: [box],
        }),
        hpaObj(app, ns, app, {
          min: 3,
          max: 15,
          cpu: 70,
          current: 3,
          conditions: [
            {
              type: 'ScalingActive',
              status: 'False',
              reason: 'FailedGetPodsMetric',
              message:
                'the HPA was unable to compute the replica count: unable to get metric http_requests_per_second: unable to fetch metrics from custom metrics API: the server could not find the metric http_requests_per_second for pods',
            },
          ],
        }),
        monitor(labels),
        {
          apiVersion: 'monitoring.coreos.com/v1',
          kind: 'Prometheus',
          metadata: { name: 'main', namespace: 'observability' },
          spec: { serviceMonitorSelector: { matchLabels: { team: 'platform' } } },
        },
      ],
    });
    const ask = `${app} is not scaling out under load, stuck at 3 pods. what is wrong with the HPA?`;
    const ignored = await answer(world({ 'app.kubernetes.io/name': app }), ask, ns);
    expect(ignored).toContain('"team: platform"');
    expect(ignored).toContain(`ServiceMonitor ${ns}/${app}`);
    expect(ignored).toContain('not scraped');
    const selected = await answer(
      world({ 'app.kubernetes.io/name': app, team: 'platform' }),
      ask,
      ns,
    );
    expect(selected).not.toContain('Prometheus does not select');
    expect(selected).not.toContain('"team: platform"');
  });
  it('Airflow giving up on unapplied migrations: this rule, and with Argo CD holding the migration Job as a PostSync hook the answer names the deadlock; Airflow that finds its migrations applied: not this rule', async () => {
    const lines = (last: string) =>
      findingsOf([
        {
          output: [
            '[2026-03-10T11:38:14.902+00:00] {db.py:1617} INFO - Waiting for migrations... 0 second(s)',
            last,
          ].join('\n'),
          ctx: {
            pod: 'airflow-scheduler-5c6d7f8b9-p7d2j',
            namespace: 'etl',
            verb: 'logs' as const,
          },
        },
      ]).findings.filter((f) => f.entry.id === 'airflow_migrations_never_run');
    expect(
      lines(
        "TimeoutError: There are still unapplied migrations after 60 seconds. MigrationHead(s) in DB: set() | Migration Head(s) in Source Code: {'5f2621c13b39'}",
      ),
    ).toHaveLength(1);
    expect(
      lines('[2026-03-10T11:38:15.100+00:00] {db.py:1630} INFO - DB migrations done'),
    ).toHaveLength(0);

    const ns = 'etl';
    const app = 'airflow-scheduler';
    const box: Box = {
      name: 'scheduler',
      image: 'apache/airflow:2.10.3',
      ready: false,
      restarts: 8,
      state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting' } },
      lastState: {
        terminated: { reason: 'Error', exitCode: 1, startedAt: ago(3), finishedAt: ago(2) },
      },
    };
    const pod = `${app}-5c6d7f8b9-p7d2j`;
    const argoPod = 'argocd-application-controller-0';
    const log = [
      '[2026-03-10T11:38:14.902+00:00] {db.py:1617} INFO - Waiting for migrations... 0 second(s)',
      "TimeoutError: There are still unapplied migrations after 60 seconds. MigrationHead(s) in DB: set() | Migration Head(s) in Source Code: {'5f2621c13b39'}",
    ].join('\n');
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        namespaceObj('argocd'),
        deploymentObj(app, ns, [box.image], 1, 0, ['scheduler']),
        podObj({
          name: pod,
          ns,
          labels: { app, 'pod-template-hash': '5c6d7f8b9' },
          owner: { kind: 'ReplicaSet', name: `${app}-5c6d7f8b9` },
          created: 40,
          boxes: [box],
        }),
        podObj({
          name: argoPod,
          ns: 'argocd',
          labels: { 'app.kubernetes.io/name': 'argocd-application-controller' },
          owner: { kind: 'StatefulSet', name: 'argocd-application-controller' },
          boxes: [
            { name: 'argocd-application-controller', image: 'quay.io/argoproj/argocd:v2.13.1' },
          ],
        }),
      ],
      events: [
        warningEvent(
          ns,
          { kind: 'Pod', name: pod },
          'BackOff',
          'Back-off restarting failed container',
          35,
          1,
          9,
        ),
      ],
      previous: { [pod]: log },
      logs: {
        [pod]: log,
        [argoPod]: [
          `time="${ago(40)}" level=info msg="Tasks (dry-run)" application=argocd/etl-airflow syncId=00001-AbCdE tasks="[Sync/0 resource apps/Deployment:${ns}/${app} nil->obj (,,), PostSync/0 hook batch/Job:${ns}/etl-airflow-run-airflow-migrations nil->nil (,,)]"`,
          `time="${ago(2)}" level=info msg="Resuming in-progress operation. phase: Running, message: waiting for healthy state of apps/Deployment/${app}" application=argocd/etl-airflow`,
        ].join('\n'),
      },
    };
    const said = await answer(
      world,
      `new airflow install via argo is stuck, ${app} never starts`,
      ns,
    );
    expect(said).toContain('There are still unapplied migrations');
    expect(said).toContain('PostSync hook');
    expect(said).toContain('etl-airflow-run-airflow-migrations');
    expect(said).toContain('useHelmHooks');
  });
});
