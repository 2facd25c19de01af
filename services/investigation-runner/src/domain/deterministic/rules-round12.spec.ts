/**
 * The engine rules of 6f67ebc and 19bbb8a, one test per rule, each on a small world of outputs
 * shaped like real ones (Kubernetes API objects and events, kubelet and cluster-autoscaler
 * messages, client logs of Elasticsearch, PHP-FPM/nginx, Django, PostgreSQL, Kafka and Go's
 * resolver): an Ingress whose class no IngressClass defines, a CronJob's schedule and time zone,
 * a data store named by product only, ErrImageNeverPull, an OOMKill at a LimitRange default, the
 * autoscaler at its node group maximum, PHP-FPM pm.max_children in a pod's second container,
 * Django ALLOWED_HOSTS, a hot standby's conflict with recovery, Kafka RecordTooLarge, egress
 * NetworkPolicies that open no port 53, and "cronjob actually".
 */
import { scopeIncident } from './scope';
import {
  NOW,
  ago,
  apiTools,
  findingsOf,
  investigateAt,
  jsonOutputs,
  deploymentObj,
  kubeEvent,
  namespaceObj,
  podObj,
  type ApiWorld,
} from './spec-world';

type Obj = Record<string, unknown>;

// ------------------------------------------------------------------------------------------------

describe('rules of 6f67ebc and 19bbb8a', () => {
  it('an Ingress asking for a class no IngressClass defines, without an address, is unserved; with an address or the class defined it is not', () => {
    const ns = 'tenders';
    const ingress = (status: Obj): Obj => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'bids-portal', namespace: ns, creationTimestamp: ago(60 * 5) },
      spec: {
        ingressClassName: 'internal-haproxy',
        rules: [
          {
            host: 'bids.example.net',
            http: {
              paths: [
                {
                  path: '/',
                  pathType: 'Prefix',
                  backend: { service: { name: 'bids-portal', port: { number: 8080 } } },
                },
              ],
            },
          },
        ],
      },
      status,
    });
    const ingressClass = (name: string, controller: string): Obj => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IngressClass',
      metadata: { name, creationTimestamp: ago(60 * 24 * 300) },
      spec: { controller },
    });
    const classes = [
      ingressClass('nginx', 'k8s.io/ingress-nginx'),
      ingressClass('traefik', 'traefik.io/ingress-controller'),
    ];
    const unserved = (objects: Obj[]) =>
      findingsOf(jsonOutputs({ objects }, ns)).findings.filter(
        (f) => f.entry.id === 'ingress_class_unserved',
      );

    const found = unserved([ingress({ loadBalancer: {} }), ...classes]);
    expect(found).toHaveLength(1);
    expect(found[0]!.groups).toMatchObject({ ingress: 'bids-portal', class: 'internal-haproxy' });
    expect(found[0]!.groups['served']).toContain('nginx (k8s.io/ingress-nginx)');
    expect(found[0]!.fact).toContain('the Ingress has no address');

    const addressed = ingress({ loadBalancer: { ingress: [{ ip: '34.141.20.7' }] } });
    expect(unserved([addressed, ...classes])).toHaveLength(0);
    expect(
      unserved([
        ingress({ loadBalancer: {} }),
        ...classes,
        ingressClass('internal-haproxy', 'haproxy.org/ingress-controller/haproxy'),
      ]),
    ).toHaveLength(0);
  });

  describe('"what time does the cronjob fire, when did it last run?"', () => {
    const ns = 'treasury';
    const cron = (timeZone?: string): Obj => ({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'fx-rates-pull', namespace: ns, creationTimestamp: ago(60 * 24 * 200) },
      spec: {
        schedule: '15 4 * * 1-5',
        ...(timeZone ? { timeZone } : {}),
        concurrencyPolicy: 'Forbid',
        jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure' } } } },
      },
      status: { lastScheduleTime: ago(60 * 7 + 45), lastSuccessfulTime: ago(60 * 7 + 43) },
    });
    const job: Obj = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: 'fx-rates-pull-29553135',
        namespace: ns,
        creationTimestamp: ago(60 * 7 + 45),
        ownerReferences: [
          { apiVersion: 'batch/v1', kind: 'CronJob', name: 'fx-rates-pull', controller: true },
        ],
      },
      spec: { completions: 1, parallelism: 1, backoffLimit: 2 },
      status: {
        startTime: ago(60 * 7 + 45),
        completionTime: ago(60 * 7 + 43),
        succeeded: 1,
        conditions: [{ type: 'Complete', status: 'True' }],
      },
    };
    const ask =
      'what time does the fx-rates-pull cronjob in treasury fire, and when did it last run? we expected it at 04:15 local time';

    it('no timeZone: the controller zone (UTC) is said; spec.timeZone set: that zone is said', async () => {
      const utc = await investigateAt(
        apiTools({ objects: [namespaceObj(ns), cron(), job] }),
        ask,
        NOW,
      );
      expect(utc.text).toContain('CronJob fx-rates-pull runs on schedule "15 4 * * 1-5"');
      expect(utc.text).toContain(
        "with no timeZone set, so in kube-controller-manager's time zone (UTC",
      );

      const zoned = await investigateAt(
        apiTools({ objects: [namespaceObj(ns), cron('Europe/Zurich'), job] }),
        ask,
        NOW,
      );
      expect(zoned.text).toContain('"15 4 * * 1-5" in time zone Europe/Zurich');
      expect(zoned.text).not.toContain('no timeZone set');
    });
  });

  it('a caller logging "elasticsearch ... all shards failed" without a host, while a pod of an es-* StatefulSet of its namespace is Pending: that pod is named as what it calls', async () => {
    const ns = 'library';
    const image = 'registry.example.org/library/book-finder:5.2.1';
    const esImage = 'docker.elastic.co/elasticsearch/elasticsearch:8.13.4';
    const finder = 'book-finder-6c9d7b8f4-h2k5t';
    const esPod = (i: number, pending: boolean) =>
      podObj({
        name: `es-catalog-${i}`,
        ns,
        labels: { app: 'es-catalog' },
        owner: { kind: 'StatefulSet', name: 'es-catalog' },
        boxes: [{ name: 'elasticsearch', image: esImage }],
        phase: pending ? 'Pending' : 'Running',
        created: pending ? 50 : 60 * 24 * 30,
      });
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        deploymentObj('book-finder', ns, [image], 2, 2),
        podObj({
          name: finder,
          ns,
          labels: { app: 'book-finder' },
          owner: { kind: 'ReplicaSet', name: 'book-finder-6c9d7b8f4' },
          boxes: [{ name: 'book-finder', image }],
        }),
        {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          metadata: { name: 'es-catalog', namespace: ns, creationTimestamp: ago(60 * 24 * 30) },
          spec: {
            replicas: 3,
            serviceName: 'es-catalog-headless',
            selector: { matchLabels: { app: 'es-catalog' } },
            template: {
              metadata: { labels: { app: 'es-catalog' } },
              spec: { containers: [{ name: 'elasticsearch', image: esImage }] },
            },
          },
          status: { replicas: 3, readyReplicas: 2, currentReplicas: 3 },
        },
        esPod(0, false),
        esPod(1, false),
        esPod(2, true),
      ],
      events: [
        kubeEvent(
          ns,
          { kind: 'Pod', name: 'es-catalog-2' },
          'Warning',
          'FailedScheduling',
          '0/4 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 3 Insufficient memory. preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.',
          50,
          2,
          14,
          'default-scheduler',
        ),
      ],
      logs: {
        [finder]: [
          '2026-03-10 11:10:02,118 INFO book_finder.api: GET /search?q=dune 200 41ms',
          ...['dune', 'austen', 'le guin', 'tolkien'].flatMap((q, i) => [
            `2026-03-10 11:5${i * 2}:07,344 ERROR book_finder.search: query failed: elasticsearch.ApiError: ApiError(503, 'search_phase_execution_exception', 'all shards failed')`,
            `2026-03-10 11:5${i * 2}:07,351 INFO book_finder.api: GET /search?q=${q.replace(' ', '+')} 500 12ms`,
          ]),
        ].join('\n'),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'book-finder in library answers 500 on every search since 11:10',
      NOW,
      ns,
    );
    expect(text).toMatch(
      /book-finder fails because es-catalog \(pod es-catalog-2\), which it calls/,
    );
    expect(text).toContain('all shards failed');
  });

  it('ErrImageNeverPull ("not present with pull policy of Never"): the pull policy, no pull secret', async () => {
    const ns = 'maps';
    const image = 'registry.example.org/maps/tile-server:4.1.0';
    const podName = 'tile-server-58d4b9c7f6-wq8zj';
    const message = `Container image "${image}" is not present with pull policy of Never`;
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        deploymentObj('tile-server', ns, [image], 1, 0),
        podObj({
          name: podName,
          ns,
          labels: { app: 'tile-server' },
          owner: { kind: 'ReplicaSet', name: 'tile-server-58d4b9c7f6' },
          created: 25,
          boxes: [
            {
              name: 'tile-server',
              image,
              state: { waiting: { reason: 'ErrImageNeverPull', message } },
            },
          ],
        }),
      ],
      events: [
        kubeEvent(
          ns,
          { kind: 'Pod', name: podName },
          'Warning',
          'ErrImageNeverPull',
          message,
          25,
          1,
          118,
        ),
        kubeEvent(
          ns,
          { kind: 'Pod', name: podName },
          'Warning',
          'Failed',
          'Error: ErrImageNeverPull',
          25,
          1,
          118,
        ),
      ],
    };
    const { text } = await investigateAt(
      apiTools(world),
      'tile-server in maps does not start after the 4.1.0 release',
      NOW,
      ns,
    );
    expect(text).toContain('imagePullPolicy is Never');
    expect(text).toContain('IfNotPresent');
    expect(text).not.toMatch(/pull secret/i);
  });

  describe('an OOMKilled container', () => {
    const ns = 'media-tools';
    const image = 'registry.example.org/media/thumbnailer:2.7.3';
    const podName = 'thumbnailer-7b6f5d9c8-r4n2v';
    const world = (admitted: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('thumbnailer', ns, [image], 1, 0),
        {
          apiVersion: 'v1',
          kind: 'LimitRange',
          metadata: { name: 'container-defaults', namespace: ns },
          spec: {
            limits: [
              {
                type: 'Container',
                default: { memory: '160Mi', cpu: '500m' },
                defaultRequest: { memory: '96Mi', cpu: '100m' },
              },
            ],
          },
        },
        podObj({
          name: podName,
          ns,
          labels: { app: 'thumbnailer' },
          owner: { kind: 'ReplicaSet', name: 'thumbnailer-7b6f5d9c8' },
          created: 40,
          ...(admitted
            ? {
                annotations: {
                  'kubernetes.io/limit-ranger':
                    'LimitRanger plugin set: cpu, memory request for container thumbnailer; cpu, memory limit for container thumbnailer',
                },
              }
            : {}),
          boxes: [
            {
              name: 'thumbnailer',
              image,
              resources: {
                limits: { memory: '160Mi', cpu: '500m' },
                requests: { memory: '96Mi', cpu: '100m' },
              },
              restarts: 6,
              state: {
                waiting: {
                  reason: 'CrashLoopBackOff',
                  message: `back-off 2m40s restarting failed container=thumbnailer pod=${podName}`,
                },
              },
              lastState: {
                terminated: {
                  reason: 'OOMKilled',
                  exitCode: 137,
                  startedAt: ago(5),
                  finishedAt: ago(3),
                },
              },
            },
          ],
        }),
      ],
    });
    const ask = 'thumbnailer in media-tools keeps restarting';

    it('with the kubernetes.io/limit-ranger annotation: the LimitRange default, no leak; without it: the usual leak advice', async () => {
      const ranged = await investigateAt(apiTools(world(true)), ask, NOW, ns);
      expect(ranged.text).toContain('OOMKilled');
      expect(ranged.text).toContain("Its pod spec sets no such limit: the namespace's LimitRange");
      expect(ranged.text).toContain('default gave it at admission');
      expect(ranged.text).not.toMatch(/leak/);

      const plain = await investigateAt(apiTools(world(false)), ask, NOW, ns);
      expect(plain.text).toContain('OOMKilled');
      expect(plain.text).toContain('fix the leak / roll back the change');
      expect(plain.text).not.toContain('LimitRange');
    });
  });

  it('Insufficient cpu with a NotTriggerScaleUp "max node group size reached": both said', async () => {
    const ns = 'transcode';
    const image = 'registry.example.org/transcode/render-worker:9.0.2';
    const podName = 'render-worker-5f7c6b8d9-t3x6p';
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        deploymentObj('render-worker', ns, [image], 6, 4),
        podObj({
          name: podName,
          ns,
          labels: { app: 'render-worker' },
          owner: { kind: 'ReplicaSet', name: 'render-worker-5f7c6b8d9' },
          phase: 'Pending',
          created: 35,
          boxes: [
            {
              name: 'render-worker',
              image,
              resources: { requests: { cpu: '3500m', memory: '6Gi' }, limits: { memory: '6Gi' } },
            },
          ],
        }),
      ],
      events: [
        kubeEvent(
          ns,
          { kind: 'Pod', name: podName },
          'Warning',
          'FailedScheduling',
          '0/6 nodes are available: 6 Insufficient cpu. preemption: 0/6 nodes are available: 6 No preemption victims found for incoming pod.',
          35,
          1,
          12,
          'default-scheduler',
        ),
        kubeEvent(
          ns,
          { kind: 'Pod', name: podName },
          'Normal',
          'NotTriggerScaleUp',
          "pod didn't trigger scale-up: 1 max node group size reached",
          34,
          1,
          30,
          'cluster-autoscaler',
        ),
      ],
    };
    const { text } = await investigateAt(
      apiTools(world),
      'two render-worker pods in transcode have been Pending for half an hour',
      NOW,
      ns,
    );
    expect(text).toContain('Insufficient cpu');
    expect(text).toContain(
      'The cluster autoscaler adds no node: the node group is at its max size',
    );
    expect(text).toContain('max node group size reached');
  });

  it('PHP-FPM "server reached pm.max_children" in the second container while nginx logs fastcgi timeouts to 127.0.0.1: the second log is read and pm.max_children named', async () => {
    const ns = 'retail-web';
    const podName = 'shopfront-7c5d8b6f9-z9m4k';
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        deploymentObj(
          'shopfront',
          ns,
          ['nginx:1.27.2-alpine', 'registry.example.org/retail/shopfront-php:8.3-41'],
          1,
          1,
          ['nginx', 'php-fpm'],
        ),
        podObj({
          name: podName,
          ns,
          labels: { app: 'shopfront' },
          owner: { kind: 'ReplicaSet', name: 'shopfront-7c5d8b6f9' },
          boxes: [
            { name: 'nginx', image: 'nginx:1.27.2-alpine' },
            { name: 'php-fpm', image: 'registry.example.org/retail/shopfront-php:8.3-41' },
          ],
        }),
      ],
      logs: {
        // the pod's default (first) container
        [podName]: [
          '10.52.0.1 - - [10/Mar/2026:11:40:12 +0000] "GET /basket HTTP/1.1" 200 5120 "-" "Mozilla/5.0"',
          '2026/03/10 11:51:44 [error] 23#23: *90412 upstream timed out (110: Operation timed out) while reading response header from upstream, client: 10.52.0.1, server: _, request: "GET /checkout HTTP/1.1", upstream: "fastcgi://127.0.0.1:9000", host: "shop.example.com"',
          '10.52.0.1 - - [10/Mar/2026:11:51:44 +0000] "GET /checkout HTTP/1.1" 504 562 "-" "Mozilla/5.0"',
        ].join('\n'),
        [`${podName}/php-fpm`]: [
          '[10-Mar-2026 11:38:02] NOTICE: fpm is running, pid 1',
          '[10-Mar-2026 11:38:02] NOTICE: ready to handle connections',
          '[10-Mar-2026 11:50:31] WARNING: [pool www] server reached pm.max_children setting (6), consider raising it',
        ].join('\n'),
      },
    };
    const { text, gateway } = await investigateAt(
      apiTools(world),
      'shopfront in retail-web returns 504 on checkout since 11:50, CPU looks low',
      NOW,
      ns,
    );
    expect(
      gateway.calls.some((c) => c.tool === 'k8s:pods_log' && c.params['container'] === 'php-fpm'),
    ).toBe(true);
    expect(text).toContain('pm.max_children');
    expect(text).toContain('all 6 of its workers');
  });

  it('Django "Invalid HTTP_HOST header": the host and ALLOWED_HOSTS', async () => {
    const ns = 'care';
    const image = 'registry.example.org/care/clinic-booking:3.4.0';
    const podName = 'clinic-booking-6f9b7c5d8-p7w2q';
    const host = 'booking.example.health';
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        deploymentObj('clinic-booking', ns, [image], 2, 2),
        podObj({
          name: podName,
          ns,
          labels: { app: 'clinic-booking' },
          owner: { kind: 'ReplicaSet', name: 'clinic-booking-6f9b7c5d8' },
          boxes: [{ name: 'clinic-booking', image }],
        }),
      ],
      logs: {
        [podName]: [
          '[2026-03-10 11:30:00 +0000] [1] [INFO] Listening at: http://0.0.0.0:8000 (1)',
          `Invalid HTTP_HOST header: '${host}'. You may need to add '${host}' to ALLOWED_HOSTS.`,
          'Bad Request: /appointments/',
          `10.52.1.4 - - [10/Mar/2026:11:48:09 +0000] "GET /appointments/ HTTP/1.1" 400 143 "-" "Mozilla/5.0"`,
        ].join('\n'),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      `clinic-booking in care: the new domain ${host} answers 400 Bad Request, the old domain still works`,
      NOW,
      ns,
    );
    expect(text).toContain(`answers 400 Bad Request for ${host}`);
    expect(text).toContain('ALLOWED_HOSTS');
  });

  it('"canceling statement due to conflict with recovery" in a Job\'s logs: hot standby, vacuum, max_standby_streaming_delay', async () => {
    const ns = 'insights';
    const jobName = 'churn-report-29553060';
    const podName = `${jobName}-k4d8s`;
    const image = 'registry.example.org/insights/churn-report:1.6.0';
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        {
          apiVersion: 'batch/v1',
          kind: 'Job',
          metadata: {
            name: jobName,
            namespace: ns,
            creationTimestamp: ago(60 * 9),
            ownerReferences: [
              { apiVersion: 'batch/v1', kind: 'CronJob', name: 'churn-report', controller: true },
            ],
          },
          spec: { completions: 1, parallelism: 1, backoffLimit: 0 },
          status: {
            startTime: ago(60 * 9),
            failed: 1,
            conditions: [
              {
                type: 'Failed',
                status: 'True',
                reason: 'BackoffLimitExceeded',
                message: 'Job has reached the specified backoff limit',
              },
            ],
          },
        },
        podObj({
          name: podName,
          ns,
          labels: { 'batch.kubernetes.io/job-name': jobName },
          owner: { kind: 'Job', name: jobName },
          phase: 'Failed',
          created: 60 * 9,
          boxes: [
            {
              name: 'report',
              image,
              state: {
                terminated: {
                  reason: 'Error',
                  exitCode: 1,
                  startedAt: ago(60 * 9),
                  finishedAt: ago(60 * 8 + 20),
                },
              },
            },
          ],
        }),
      ],
      logs: {
        [podName]: [
          '2026-03-10T03:00:04Z INFO churn_report: reading subscriptions from the reporting replica',
          'Traceback (most recent call last):',
          '  File "/app/churn_report/main.py", line 88, in run',
          '    cur.execute(COHORT_SQL)',
          'psycopg2.errors.SerializationFailure: canceling statement due to conflict with recovery',
          'DETAIL:  User query might have needed to see row versions that must be removed.',
        ].join('\n'),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'the churn-report job in insights failed last night',
      NOW,
      ns,
    );
    expect(text).toContain('PostgreSQL hot standby');
    expect(text).toContain('vacuum');
    expect(text).toContain('max_standby_streaming_delay');
    expect(text).toContain('hot_standby_feedback');
  });

  it('Kafka RecordTooLargeException with "(1500000 bytes)" in the log: max.message.bytes and the size', async () => {
    const ns = 'parcels';
    const image = 'registry.example.org/parcels/label-printer:2.11.0';
    const podName = 'label-printer-84c6d9f7b5-s5h8n';
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        deploymentObj('label-printer', ns, [image], 1, 1),
        podObj({
          name: podName,
          ns,
          labels: { app: 'label-printer' },
          owner: { kind: 'ReplicaSet', name: 'label-printer-84c6d9f7b5' },
          boxes: [{ name: 'label-printer', image }],
        }),
      ],
      logs: {
        [podName]: [
          '2026-03-10 11:46:55.201  INFO 1 --- [           main] c.e.p.LabelPrinterApplication            : Started LabelPrinterApplication in 7.912 seconds',
          '2026-03-10 11:48:21.907 ERROR 1 --- [ad | producer-1] c.e.p.LabelPublisher                     : publishing label 8812-XK to labels.rendered failed (1500000 bytes)',
          'org.apache.kafka.common.errors.RecordTooLargeException: The request included a message larger than the max message size the server will accept.',
        ].join('\n'),
      },
    };
    const { text } = await investigateAt(
      apiTools(world),
      'label-printer in parcels stopped publishing labels since 11:45',
      NOW,
      ns,
    );
    expect(text).toContain('max.message.bytes');
    expect(text).toContain('Its log gives a record of 1500000 bytes (1.4 MiB)');
  });

  describe('name lookups timing out from a pod selected by egress NetworkPolicies', () => {
    const ns = 'claims';
    const image = 'registry.example.org/claims/claim-intake:7.0.1';
    const podName = 'claim-intake-5d7f8c9b6-c2v9x';
    const policy = (name: string, selector: Record<string, string>, egress: Obj[]): Obj => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name, namespace: ns, creationTimestamp: ago(70) },
      spec: { podSelector: { matchLabels: selector }, policyTypes: ['Egress'], egress },
    });
    const toDb = policy('claim-intake-egress', { app: 'claim-intake' }, [
      {
        to: [{ podSelector: { matchLabels: { app: 'claims-db' } } }],
        ports: [{ protocol: 'TCP', port: 5432 }],
      },
    ]);
    const dns = policy('allow-cluster-dns', {}, [
      {
        to: [
          {
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
            podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
          },
        ],
        ports: [
          { protocol: 'UDP', port: 53 },
          { protocol: 'TCP', port: 53 },
        ],
      },
    ]);
    const world = (policies: Obj[]): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('claim-intake', ns, [image], 1, 1),
        podObj({
          name: podName,
          ns,
          labels: { app: 'claim-intake' },
          owner: { kind: 'ReplicaSet', name: 'claim-intake-5d7f8c9b6' },
          boxes: [{ name: 'claim-intake', image }],
        }),
        ...policies,
      ],
      logs: {
        [podName]: [
          '{"level":"info","ts":"2026-03-10T10:40:00Z","msg":"intake listening","addr":":8080"}',
          '{"level":"error","ts":"2026-03-10T11:49:12Z","msg":"fetch policy holder","error":"Get \\"http://policy-store.claims.svc.cluster.local:8080/v1/holders/4471\\": dial tcp: lookup policy-store.claims.svc.cluster.local on 10.96.0.10:53: read udp 10.52.4.9:48211->10.96.0.10:53: i/o timeout"}',
        ].join('\n'),
      },
    });
    const ask = 'claim-intake in claims times out on every request since 10:50';

    it('policies that open only 5432/TCP: named, with port 53; with a policy that opens 53/UDP: no such finding', async () => {
      const cut = await investigateAt(apiTools(world([toDb])), ask, NOW, ns);
      expect(cut.text).toContain('claim-intake-egress');
      expect(cut.text).toContain('open only 5432/TCP, not port 53');

      const open = await investigateAt(apiTools(world([toDb, dns])), ask, NOW, ns);
      expect(open.text).toContain('i/o timeout');
      expect(open.text).not.toContain('not port 53');
    });
  });

  it('"cronjob actually" in a message is not an object named "actually"', () => {
    const scope = scopeIncident(
      'the ledger-close cronjob actually fired twice tonight in finance-ops',
      {},
      NOW,
    );
    const names = scope.subjects.map((s) => s.name);
    expect(names).toContain('ledger-close');
    expect(names).not.toContain('actually');
  });
});
