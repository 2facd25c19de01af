/**
 * The engine rules of round24 (r24b) (cause-catalog.data.ts, its "round24 (r24b)" block; their
 * variables in finding-vars-r24b.ts, the comparing rule in diagnose-r24b.ts), one test per rule,
 * each with a near miss where it must not fire: a JVM told (by a ConfigMap's JAVA_TOOL_OPTIONS)
 * to load a -javaagent jar its image lacks, and a Secret only a SecretProviderClass syncs while no
 * pod mounts that class's CSI volume.
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
  warningEvent,
  type ApiWorld,
  type Box,
} from './spec-world';

const answer = async (world: ApiWorld, ask: string, ns: string) =>
  answerOf((await investigateAt(apiTools(world), ask, NOW, ns)).result);

type Obj = Record<string, unknown>;
const containersOf = (o: Obj) =>
  (((o['spec'] as Obj)['template'] as Obj | undefined)?.['spec'] as Obj | undefined)?.[
    'containers'
  ] as Obj[] | undefined;

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
});
