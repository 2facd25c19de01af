/**
 * The engine rules of round19c (cause-catalog.data.ts, its "round19c" block; their variables in
 * finding-vars-round19c.ts), one test per rule, each with a near miss where it must not fire:
 * Elasticsearch's memory lock refused by the container's memlock limit, Spring Boot without a
 * DataSource URL for a renamed profile, STS refusing a token for its audience (the ServiceAccount's
 * eks.amazonaws.com/audience), exec's "no such file or directory" for a mounted CRLF script, a
 * DaemonSet pod with no room on the one node it may run on, and a Helm release left pending by a
 * deploy Job killed at its deadline.
 */
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  deploymentObj,
  investigateAt,
  kubeEvent,
  namespaceObj,
  podObj,
  warningEvent,
  withEnv,
  type ApiWorld,
  type Box,
} from './spec-world';

type Obj = Record<string, unknown>;

/** a container in CrashLoopBackOff after its last run exited `code` */
const crashing = (name: string, image: string, code = 1): Box => ({
  name,
  image,
  ready: false,
  restarts: 9,
  state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off 5m0s restarting ${name}` } },
  lastState: {
    terminated: { reason: 'Error', exitCode: code, startedAt: ago(4), finishedAt: ago(3) },
  },
});

/** a pod of a Deployment's ReplicaSet */
const rsPod = (app: string, hash: string, suffix: string, ns: string, box: Box): Obj =>
  podObj({
    name: `${app}-${hash}-${suffix}`,
    ns,
    labels: { app, 'pod-template-hash': hash },
    owner: { kind: 'ReplicaSet', name: `${app}-${hash}` },
    created: 30,
    boxes: [box],
  });

/** a pod that mounts ConfigMap `cm` at `path` */
function mounting(pod: Obj, cm: string, path: string): Obj {
  const spec = pod['spec'] as { containers: Obj[] };
  return {
    ...pod,
    spec: {
      ...spec,
      containers: spec.containers.map((c) => ({
        ...c,
        volumeMounts: [{ name: 'cfg', mountPath: path }],
      })),
      volumes: [{ name: 'cfg', configMap: { name: cm } }],
    },
  };
}

const configMap = (name: string, ns: string, data: Record<string, string>): Obj => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: ns, creationTimestamp: ago(40) },
  data,
});

const backOff = (ns: string, pod: string) =>
  warningEvent(
    ns,
    { kind: 'Pod', name: pod },
    'BackOff',
    `Back-off restarting failed container in pod ${pod}`,
    25,
    1,
    11,
  );

describe('round19c rules', () => {
  it('Elasticsearch memory locking requested but not locked (memlock): the answer names bootstrap.memory_lock, RLIMIT_MEMLOCK and the pod; another bootstrap check: not this rule', async () => {
    const ns = 'search';
    const world = (line: string): ApiWorld => {
      const members = [0, 1, 2].map((i) =>
        podObj({
          name: `es-logs-${i}`,
          ns,
          labels: { app: 'es-logs' },
          owner: { kind: 'StatefulSet', name: 'es-logs' },
          boxes: [
            i === 2
              ? crashing('elasticsearch', 'elasticsearch:8.13.4', 78)
              : { name: 'elasticsearch', image: 'elasticsearch:8.13.4' },
          ],
        }),
      );
      return {
        objects: [namespaceObj(ns), ...members],
        events: [backOff(ns, 'es-logs-2')],
        previous: {
          'es-logs-2': [
            `${ago(4)} WARN Unable to lock JVM Memory: error=12, reason=Cannot allocate memory`,
            `${ago(4)} WARN Increase RLIMIT_MEMLOCK, soft limit: 8388608, hard limit: 8388608`,
            `${ago(4)} ERROR node validation exception [1] bootstrap checks failed. bootstrap check failure [1] of [1]: ${line}`,
            'ERROR: Elasticsearch exited unexpectedly, with exit code 78',
          ].join('\n'),
        },
      };
    };
    const ask = 'es-logs-2 keeps restarting, why?';
    const bad = answerOf(
      (
        await investigateAt(
          apiTools(
            world('memory locking requested for elasticsearch process but memory is not locked'),
          ),
          ask,
          NOW,
          ns,
        )
      ).result,
    );
    expect(bad).toContain('bootstrap.memory_lock');
    expect(bad).toContain('8388608');
    expect(bad).toContain('es-logs-2');
    const other = answerOf(
      (
        await investigateAt(
          apiTools(
            world(
              'max file descriptors [4096] for elasticsearch process is too low, increase to at least [65535]',
            ),
          ),
          ask,
          NOW,
          ns,
        )
      ).result,
    );
    expect(other).not.toContain('bootstrap.memory_lock');
  });

  it('Spring Boot without a DataSource URL: the active profile has no application-<profile> file in the mounted ConfigMap (renamed from prod); a DataSource that cannot connect: not this rule', async () => {
    const ns = 'shop';
    const world = (failure: string, files: Record<string, string>): ApiWorld => {
      const bad = mounting(
        withEnv(rsPod('cart', '7c9d8f6b5a', 'k2x9q', ns, crashing('cart', 'cart:2.8.0')), {
          SPRING_PROFILES_ACTIVE: 'production',
        }),
        'cart-config',
        '/config',
      );
      const good = mounting(
        withEnv(rsPod('cart', '5b8c7d6e4f', 'p4r7s', ns, { name: 'cart', image: 'cart:2.7.3' }), {
          SPRING_PROFILES_ACTIVE: 'prod',
        }),
        'cart-config',
        '/config',
      );
      return {
        objects: [
          namespaceObj(ns),
          deploymentObj('cart', ns, ['cart:2.8.0'], 2, 1),
          good,
          bad,
          configMap('cart-config', ns, files),
        ],
        events: [backOff(ns, 'cart-7c9d8f6b5a-k2x9q')],
        logs: {
          'cart-5b8c7d6e4f-p4r7s': `${ago(200)}  INFO 1 --- [main] c.a.CartApplication : The following 1 profile is active: "prod"`,
        },
        previous: {
          'cart-7c9d8f6b5a-k2x9q': [
            `${ago(4)}  INFO 1 --- [main] c.a.CartApplication : The following 1 profile is active: "production"`,
            `${ago(4)} ERROR 1 --- [main] o.s.b.d.LoggingFailureAnalysisReporter :`,
            'APPLICATION FAILED TO START',
            failure,
          ].join('\n'),
        },
      };
    };
    const ask = 'cart 2.8.0 rollout fails, new pod in CrashLoopBackOff. is the database down?';
    const files = {
      'application-prod.yml': 'spring:\n  datasource:\n    url: jdbc:postgresql://db:5432/cart\n',
    };
    const bad = answerOf(
      (
        await investigateAt(
          apiTools(
            world(
              "Failed to configure a DataSource: 'url' attribute is not specified and no embedded datasource could be configured.",
              files,
            ),
          ),
          ask,
          NOW,
          ns,
        )
      ).result,
    );
    expect(bad).toContain('"production"');
    expect(bad).toContain('application-prod.yml');
    expect(bad).toContain('`prod`');
    const other = answerOf(
      (
        await investigateAt(
          apiTools(
            world(
              'org.postgresql.util.PSQLException: Connection to db:5432 refused. Check that the hostname and port are correct',
              files,
            ),
          ),
          ask,
          NOW,
          ns,
        )
      ).result,
    );
    expect(other).not.toContain('spring.datasource.url');
  });

  it('STS refuses the web identity token for its audience: the ServiceAccount annotation eks.amazonaws.com/audience is named; a missing OIDC provider: not this rule', async () => {
    const ns = 'media';
    const world = (line: string): ApiWorld => {
      const pod = podObj({
        name: 'resizer-6f4b8c7d95-mpqls',
        ns,
        labels: { app: 'resizer', 'pod-template-hash': '6f4b8c7d95' },
        owner: { kind: 'ReplicaSet', name: 'resizer-6f4b8c7d95' },
        serviceAccount: 'resizer',
        created: 60,
        boxes: [{ name: 'resizer', image: 'resizer:1.9.2' }],
      });
      return {
        objects: [
          namespaceObj(ns),
          deploymentObj('resizer', ns, ['resizer:1.9.2'], 1, 1),
          pod,
          {
            apiVersion: 'v1',
            kind: 'ServiceAccount',
            metadata: {
              name: 'resizer',
              namespace: ns,
              annotations: {
                'eks.amazonaws.com/role-arn': 'arn:aws:iam::111122223333:role/resizer',
                'eks.amazonaws.com/audience': 'vault',
              },
            },
          },
        ],
        logs: {
          'resizer-6f4b8c7d95-mpqls': [10, 8, 6, 4, 2]
            .map((m) => `${ago(m)} ERROR [resizer] failed to poll SQS: ${line}`)
            .join('\n'),
        },
      };
    };
    const ask =
      'resizer logs are full of AWS errors since the deploy, did 1.9.2 break the S3 client?';
    const bad = answerOf(
      (
        await investigateAt(
          apiTools(
            world(
              'botocore.exceptions.ClientError: An error occurred (InvalidIdentityToken) when calling the AssumeRoleWithWebIdentity operation: Incorrect token audience',
            ),
          ),
          ask,
          NOW,
          ns,
        )
      ).result,
    );
    expect(bad).toContain('eks.amazonaws.com/audience: vault');
    expect(bad).toContain('ServiceAccount resizer');
    const other = answerOf(
      (
        await investigateAt(
          apiTools(
            world(
              'An error occurred (InvalidIdentityToken) when calling the AssumeRoleWithWebIdentity operation: No OpenIDConnect provider found in your account for https://oidc.eks.eu-west-1.amazonaws.com/id/ABC',
            ),
          ),
          ask,
          NOW,
          ns,
        )
      ).result,
    );
    expect(other).not.toContain('audience');
  });

  it("exec's no such file or directory for a mounted script with CRLF line endings: the ConfigMap and the carriage return are named; the same script with LF endings: not CRLF; exec format error: not this rule", async () => {
    const ns = 'warehouse';
    const world = (script: string, line: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('printer', ns, ['printer:2.7.4'], 2, 1),
        rsPod('printer', '5b8c7d6e4f', 'p4r7s', ns, { name: 'printer', image: 'printer:2.7.4' }),
        mounting(
          rsPod('printer', '7c9d8f6b5a', 'k2x9q', ns, crashing('printer', 'printer:2.7.4', 255)),
          'printer-entrypoint-9c8f2g6h4m',
          '/scripts',
        ),
        configMap('printer-entrypoint-9c8f2g6h4m', ns, { 'entrypoint.sh': script }),
      ],
      events: [backOff(ns, 'printer-7c9d8f6b5a-k2x9q')],
      previous: { 'printer-7c9d8f6b5a-k2x9q': line },
    });
    const ask = 'the new printer pod keeps restarting, nothing changed in the image';
    const enoent = 'exec /scripts/entrypoint.sh: no such file or directory';
    const crlf = answerOf(
      (
        await investigateAt(
          apiTools(world('#!/bin/sh\r\nset -eu\r\nexec /app/printer\r\n', enoent)),
          ask,
          NOW,
          ns,
        )
      ).result,
    );
    expect(crlf).toContain('CRLF');
    expect(crlf).toContain('ConfigMap printer-entrypoint-9c8f2g6h4m');
    const lf = answerOf(
      (
        await investigateAt(
          apiTools(world('#!/bin/sh\nset -eu\nexec /app/printer\n', enoent)),
          ask,
          NOW,
          ns,
        )
      ).result,
    );
    expect(lf).toContain('no such file or directory');
    expect(lf).not.toContain('ConfigMap printer-entrypoint-9c8f2g6h4m (key');
    const format = answerOf(
      (
        await investigateAt(
          apiTools(world('#!/bin/sh\nexec /app/printer\n', 'exec /app/printer: exec format error')),
          ask,
          NOW,
          ns,
        )
      ).result,
    );
    expect(format).not.toContain('The kernel finds no file to run');
  });

  it('a DaemonSet pod with no room on the one node it may run on: the node and the request are named, not the selector; no node matching the selector at all: not this rule', async () => {
    const ns = 'observability';
    const node = 'ip-10-0-38-204.eu-west-1.compute.internal';
    const world = (message: string): ApiWorld => {
      const pending = podObj({
        name: 'node-agent-q7n4x',
        ns,
        labels: { app: 'node-agent' },
        owner: { kind: 'DaemonSet', name: 'node-agent' },
        phase: 'Pending',
        created: 50,
        boxes: [
          {
            name: 'agent',
            image: 'otel/agent:0.131.1',
            resources: { requests: { cpu: '500m', memory: '256Mi' } },
          },
        ],
      });
      const spec = pending['spec'] as Obj;
      return {
        objects: [
          namespaceObj(ns),
          {
            ...pending,
            spec: {
              ...spec,
              affinity: {
                nodeAffinity: {
                  requiredDuringSchedulingIgnoredDuringExecution: {
                    nodeSelectorTerms: [
                      {
                        matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }],
                      },
                    ],
                  },
                },
              },
            },
          },
        ],
        events: [
          kubeEvent(
            ns,
            { kind: 'Pod', name: 'node-agent-q7n4x' },
            'Warning',
            'FailedScheduling',
            message,
            50,
            1,
            14,
            'default-scheduler',
          ),
        ],
      };
    };
    const ask = 'node-agent rollout has been stuck for an hour';
    const bad = answerOf(
      (
        await investigateAt(
          apiTools(
            world(
              "0/6 nodes are available: 1 Insufficient cpu, 5 node(s) didn't match Pod's node affinity/selector. preemption: 0/6 nodes are available: 1 No preemption victims found for incoming pod, 5 Preemption is not helpful for scheduling.",
            ),
          ),
          ask,
          NOW,
          ns,
        )
      ).result,
    );
    expect(bad).toContain(node);
    expect(bad).toContain('500m');
    expect(bad).not.toMatch(/no node matches its node selector/);
    const other = answerOf(
      (
        await investigateAt(
          apiTools(
            world("0/6 nodes are available: 6 node(s) didn't match Pod's node affinity/selector."),
          ),
          ask,
          NOW,
          ns,
        )
      ).result,
    );
    expect(other).not.toContain('the only node it may run on');
  });

  it('helm finds another operation in progress: the pending release revision and the deploy Job killed at its deadline are named; a helm upgrade that timed out waiting: not this rule', async () => {
    const ns = 'ci';
    const app = 'ledger';
    const job = (name: string, minutes: number, reason: string): Obj => ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name, namespace: ns, creationTimestamp: ago(minutes) },
      spec: {
        activeDeadlineSeconds: 600,
        backoffLimit: 0,
        template: { spec: { containers: [{ name: 'helm', image: 'alpine/helm:3.15.2' }] } },
      },
      status: {
        startTime: ago(minutes),
        failed: 1,
        conditions: [
          {
            type: 'Failed',
            status: 'True',
            reason,
            lastTransitionTime: ago(minutes - 10),
            message: reason,
          },
        ],
      },
    });
    const release = (n: number, status: string): Obj => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: `sh.helm.release.v1.${app}.v${n}`,
        namespace: 'payments',
        labels: { name: app, owner: 'helm', status, version: String(n) },
      },
      type: 'helm.sh/release.v1',
    });
    const world = (line: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('payments'),
        deploymentObj(app, 'payments', ['ledger:3.14.2'], 2, 2),
        release(13, 'deployed'),
        release(14, 'pending-upgrade'),
        job(`deploy-${app}-3-15-0-p1`, 200, 'DeadlineExceeded'),
        job(`deploy-${app}-3-15-0-p2`, 30, 'BackoffLimitExceeded'),
        podObj({
          name: `deploy-${app}-3-15-0-p2-tm99n`,
          ns,
          labels: { 'job-name': `deploy-${app}-3-15-0-p2` },
          owner: { kind: 'Job', name: `deploy-${app}-3-15-0-p2` },
          phase: 'Failed',
          created: 30,
          restartPolicy: 'Never',
          boxes: [
            {
              name: 'helm',
              image: 'alpine/helm:3.15.2',
              state: { terminated: { reason: 'Error', exitCode: 1, finishedAt: ago(29) } },
            },
          ],
        }),
      ],
      logs: {
        [`deploy-${app}-3-15-0-p2-tm99n`]: [
          `${ago(29)} history.go:56: [debug] getting history for release ${app}`,
          `${ago(29)} Error: ${line}`,
        ].join('\n'),
      },
    });
    const ask = `we shipped ${app} 3.15.0 this morning but the pods are still 3.14.2 and the deploy pipeline keeps failing`;
    const bad = answerOf(
      (
        await investigateAt(
          apiTools(
            world('UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress'),
          ),
          ask,
          NOW,
        )
      ).result,
    );
    expect(bad).toContain('pending-upgrade');
    expect(bad).toContain(`sh.helm.release.v1.${app}.v14`);
    expect(bad).toContain('DeadlineExceeded');
    const other = answerOf(
      (await investigateAt(apiTools(world('UPGRADE FAILED: context deadline exceeded')), ask, NOW))
        .result,
    );
    expect(other).not.toContain('pending operation');
  });
});
