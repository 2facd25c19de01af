/**
 * The engine rules of 0f0967d, one test per rule, each with a world where the rule must not fire,
 * on outputs shaped like real ones (Kubernetes API objects and events, the logs of a musl binary,
 * Elasticsearch, a Spring Kafka producer and a Kafka broker's authorizer, the DataStax driver,
 * Prometheus, boto3, a Go client, metrics-server, node's net module, nginx and ZooKeeper): a
 * shared library missing from an Alpine image, vm.max_map_count below Elasticsearch's bootstrap
 * check, Kafka ACLs refusing a renamed principal, Cassandra with two of three members down, a
 * corrupt WAL after an OOM kill, an NFS server that does not answer the mount, a deleted
 * PriorityClass, IRSA without the cluster's OIDC provider, coredns OOMKilled at its limit, a
 * dependency named by its ClusterIP, metrics-server refusing kubelet certificates, an egress
 * NetworkPolicy that does not open a new port, nginx out of worker_connections behind a
 * LoadBalancer Service, and ZooKeeper members unresolvable behind a headless Service.
 */
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  deploymentObj,
  hpaObj,
  investigateAt,
  namespaceObj,
  podObj,
  serviceObj,
  warningEvent,
  statefulSetObj,
  withEnv,
  type ApiWorld,
  type Box,
} from './spec-world';

type Obj = Record<string, unknown>;

const NODE = 'ip-10-31-4-52.eu-central-1.compute.internal';

/** a container waiting in CrashLoopBackOff after its last run ended with `exitCode` */
const crashing = (
  name: string,
  image: string,
  last: { reason: string; exitCode: number; message?: string },
  limits?: Record<string, string>,
  restarts = 11,
): Box => ({
  name,
  image,
  ready: false,
  restarts,
  state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off 5m0s restarting ${name}` } },
  lastState: { terminated: { ...last, startedAt: ago(7), finishedAt: ago(6) } },
  ...(limits ? { resources: { limits, requests: limits } } : {}),
});

/** one pod of a Deployment's ReplicaSet */
const deployPod = (
  app: string,
  hash: string,
  suffix: string,
  ns: string,
  boxes: Box[],
  more: { podIP?: string; created?: number } = {},
): Obj =>
  podObj({
    name: `${app}-${hash}-${suffix}`,
    ns,
    labels: { app, 'pod-template-hash': hash },
    owner: { kind: 'ReplicaSet', name: `${app}-${hash}` },
    node: NODE,
    created: more.created ?? 60 * 5,
    podIP: more.podIP ?? '10.31.7.40',
    boxes,
  });

/** a StatefulSet of `n` members, `ready` of them ready; `member` changes member i */
const statefulSet = (
  name: string,
  ns: string,
  image: string,
  n: number,
  ready: number,
  member?: (i: number) => Partial<Parameters<typeof podObj>[0]>,
): Obj[] =>
  statefulSetObj(name, ns, image, n, {
    ready,
    member,
    node: NODE,
    age: 200,
    podAge: 9,
    ipPrefix: '10.31.9',
  });

const backOff = (ns: string, pod: string, container: string) =>
  warningEvent(
    ns,
    { kind: 'Pod', name: pod },
    'BackOff',
    `Back-off restarting failed container ${container} in pod ${pod}`,
    90,
    1,
    38,
  );

// ------------------------------------------------------------------------------------------------

describe('rules of 0f0967d', () => {
  it('exit 127 with "Error loading shared library libstdc++.so.6": the library and the base image, not "command not found"; exec: "…": executable file not found: command not found, no library', async () => {
    const ns = 'cartography';
    const image = 'registry.example.io/maps/glyph-renderer:3.1.0-alpine';
    const hash = '7b9c6d5f48';
    const pod = `glyph-renderer-${hash}-w4k7n`;
    /** the last run's end (and the log it left, when it ran at all) */
    const world = (last: { reason: string; exitCode: number; message?: string }, line = '') => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('glyph-renderer', ns, [image], 1, 0, [], { created: 60 * 24 * 60 }),
        deployPod('glyph-renderer', hash, 'w4k7n', ns, [crashing('glyph-renderer', image, last)]),
      ],
      events: [backOff(ns, pod, 'glyph-renderer')],
      previous: { [pod]: line },
    });
    const ask = 'glyph-renderer in cartography keeps crashing since the 3.1.0 rollout';

    const lib = await investigateAt(
      apiTools(
        world(
          { reason: 'Error', exitCode: 127 },
          'Error loading shared library libstdc++.so.6: No such file or directory (needed by /usr/local/bin/glyph-renderer)',
        ),
      ),
      ask,
      NOW,
      ns,
    );
    const a = answerOf(lib.result);
    expect(a).toContain('libstdc++.so.6');
    expect(a).toMatch(/shared library/);
    expect(a).toMatch(/base image/);
    expect(a).not.toMatch(/cannot start its command/);

    const cmd = await investigateAt(
      apiTools(
        world({
          reason: 'StartError',
          exitCode: 128,
          message:
            'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "glyph-renderer": executable file not found in $PATH: unknown',
        }),
      ),
      ask,
      NOW,
      ns,
    );
    expect(answerOf(cmd.result)).toMatch(/cannot start its command glyph-renderer/);
    expect(cmd.text).not.toMatch(/shared library|libstdc/);
  });

  it('Elasticsearch\'s "vm.max_map_count [65530] is too low" in a crash-looping StatefulSet member: vm.max_map_count; the file-descriptor bootstrap check: no max_map_count claim', async () => {
    const ns = 'logsearch';
    const image = 'docker.elastic.co/elasticsearch/elasticsearch:8.15.3';
    const check = (line: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        ...statefulSet('es-hot', ns, image, 3, 2, (i) =>
          i === 2
            ? {
                created: 40,
                node: 'ip-10-31-12-9.eu-central-1.compute.internal',
                boxes: [crashing('es-hot', image, { reason: 'Error', exitCode: 78 })],
              }
            : {},
        ),
      ],
      events: [backOff(ns, 'es-hot-2', 'es-hot')],
      previous: {
        'es-hot-2': [
          '{"@timestamp":"2026-03-10T11:53:02.114Z", "log.level": "INFO", "message":"bound or publishing to a non-loopback address, enforcing bootstrap checks", "ecs.version": "1.2.0","service.name":"ES_ECS","event.dataset":"elasticsearch.server","process.thread.name":"main","log.logger":"org.elasticsearch.bootstrap.BootstrapChecks","elasticsearch.node.name":"es-hot-2","elasticsearch.cluster.name":"logsearch"}',
          `{"@timestamp":"2026-03-10T11:53:02.120Z", "log.level":"ERROR", "message":"node validation exception\\n[1] bootstrap checks failed. You must address the points described in the following [1] lines before starting Elasticsearch.\\nbootstrap check failure [1] of [1]: ${line}", "ecs.version": "1.2.0","service.name":"ES_ECS","event.dataset":"elasticsearch.server","process.thread.name":"main","log.logger":"org.elasticsearch.bootstrap.Elasticsearch","elasticsearch.node.name":"es-hot-2","elasticsearch.cluster.name":"logsearch"}`,
          `ERROR: [1] bootstrap checks failed. You must address the points described in the following [1] lines before starting Elasticsearch.`,
          `bootstrap check failure [1] of [1]: ${line}`,
        ].join('\n'),
      },
    });
    const ask = 'es-hot-2 in logsearch is crash looping since it moved to the new node';

    const low = await investigateAt(
      apiTools(
        check(
          'max virtual memory areas vm.max_map_count [65530] is too low, increase to at least [262144]',
        ),
      ),
      ask,
      NOW,
      ns,
    );
    const a = answerOf(low.result);
    expect(a).toContain('vm.max_map_count');
    expect(a).toContain('65530');
    expect(low.text).toMatch(/sysctl -w vm\.max_map_count=262144/);

    const fds = await investigateAt(
      apiTools(
        check(
          'max file descriptors [4096] for elasticsearch process is too low, increase to at least [65535]',
        ),
      ),
      ask,
      NOW,
      ns,
    );
    expect(fds.text).not.toMatch(/max_map_count/);
  });

  describe('a Kafka producer refused by the brokers', () => {
    const ns = 'settlement';
    const image = 'registry.example.io/settle/ledger-publisher:4.2.0';
    const hash = '5f7d8c9b63';
    const pod = `ledger-publisher-${hash}-h2q9r`;
    const kafkaImage = 'docker.io/bitnami/kafka:3.7.1';
    const world = (error: string, brokerLog: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('ledger-publisher', ns, [image], 1, 0, [], { created: 60 * 24 * 90 }),
        withEnv(
          deployPod('ledger-publisher', hash, 'h2q9r', ns, [
            crashing('ledger-publisher', image, { reason: 'Error', exitCode: 1 }),
          ]),
          {
            SPRING_KAFKA_BOOTSTRAP_SERVERS: `kafka.${ns}.svc.cluster.local:9092`,
            SPRING_KAFKA_PROPERTIES_SASL_MECHANISM: 'SCRAM-SHA-512',
          },
        ),
        serviceObj('kafka', ns, { app: 'kafka' }, 9092, { clusterIP: '172.20.61.12' }),
        ...statefulSet('kafka', ns, kafkaImage, 3, 3),
      ],
      events: [backOff(ns, pod, 'ledger-publisher')],
      previous: {
        [pod]: [
          '2026-03-10 11:52:40.118  INFO 1 --- [           main] o.a.k.c.s.a.SaslClientAuthenticator      : [Producer clientId=ledger-publisher-1] Set SASL client state to SEND_HANDSHAKE_REQUEST',
          // the metadata warning comes with an authorization error only
          ...(/AuthorizationException/.test(error)
            ? [
                '2026-03-10 11:52:41.902  WARN 1 --- [ad | producer-1] o.a.k.c.NetworkClient                    : [Producer clientId=ledger-publisher-1] Error while fetching metadata with correlation id 4 : {ledger.entries.posted=TOPIC_AUTHORIZATION_FAILED}',
              ]
            : []),
          '2026-03-10 11:52:41.911 ERROR 1 --- [           main] o.s.b.SpringApplication                  : Application run failed',
          error,
          '\tat org.springframework.kafka.core.KafkaTemplate.doSend(KafkaTemplate.java:801)',
        ].join('\n'),
      },
      logs: brokerLog
        ? {
            'kafka-0': [
              '[2026-03-10 11:52:30,004] INFO [KafkaServer id=0] started (kafka.server.KafkaServer)',
              '[2026-03-10 11:52:41,899] INFO Principal = User:svc-ledger-pub is Denied operation = DESCRIBE from host = 10.31.7.40 on resource = Topic:LITERAL:ledger.entries.posted for request = Metadata with resourceRefCount = 1 based on rule DefaultDeny (kafka.authorizer.logger)',
            ].join('\n'),
          }
        : {},
    });
    const ask = 'ledger-publisher in settlement crashes on startup since the credentials rotation';
    const denied =
      'org.apache.kafka.common.errors.TopicAuthorizationException: Not authorized to access topics: [ledger.entries.posted]';

    it('TopicAuthorizationException: Kafka ACLs, and the principal the authorizer denies when a broker log is read; SaslAuthenticationException: no ACL claim', async () => {
      const acl = await investigateAt(apiTools(world(denied, false)), ask, NOW, ns);
      const a = answerOf(acl.result);
      expect(a).toMatch(/Kafka brokers' ACLs/);
      expect(a).toContain('Not authorized to access topics');

      const named = await investigateAt(apiTools(world(denied, true)), ask, NOW, ns);
      expect(named.text).toContain(
        'denies User:svc-ledger-pub (DESCRIBE on Topic ledger.entries.posted)',
      );

      const login = await investigateAt(
        apiTools(
          world(
            'org.apache.kafka.common.errors.SaslAuthenticationException: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512',
            false,
          ),
        ),
        ask,
        NOW,
        ns,
      );
      expect(login.text).toContain('SaslAuthenticationException');
      expect(login.text).not.toMatch(/ACL/);
    });
  });

  it('"Not enough replicas available for query at consistency QUORUM" with two of three Cassandra members down: both named; all ready and no such log: no Cassandra claim', async () => {
    const ns = 'social';
    const image = 'registry.example.io/social/feed-timeline:8.0.2';
    const hash = '6c8d7f9b24';
    const pod = `feed-timeline-${hash}-x7m3p`;
    const cassandra = 'docker.io/library/cassandra:4.1.7';
    const world = (down: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('feed-timeline', ns, [image], 1, 1, [], { created: 60 * 24 * 120 }),
        withEnv(deployPod('feed-timeline', hash, 'x7m3p', ns, [{ name: 'feed-timeline', image }]), {
          CASSANDRA_CONTACT_POINTS: `cassandra.${ns}.svc.cluster.local:9042`,
        }),
        serviceObj('cassandra', ns, { app: 'cassandra' }, 9042, {
          clusterIP: 'None',
          portName: 'cql',
        }),
        ...statefulSet('cassandra', ns, cassandra, 3, down ? 1 : 3, (i) =>
          !down || i === 0
            ? {}
            : i === 1
              ? {
                  phase: 'Pending',
                  scheduled: false,
                  boxes: [{ name: 'cassandra', image: cassandra }],
                }
              : {
                  boxes: [crashing('cassandra', cassandra, { reason: 'Error', exitCode: 3 })],
                },
        ),
      ],
      events: down
        ? [
            warningEvent(
              ns,
              { kind: 'Pod', name: 'cassandra-1' },
              'FailedScheduling',
              '0/6 nodes are available: 3 node(s) had volume node affinity conflict, 3 node(s) were unschedulable. preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling.',
              50,
              2,
              19,
              'default-scheduler',
            ),
            backOff(ns, 'cassandra-2', 'cassandra'),
          ]
        : [],
      logs: {
        [pod]: [
          '11:40:02.311 [main] INFO  c.e.s.FeedTimelineApplication - Started FeedTimelineApplication in 9.2 seconds',
          ...(down
            ? [0, 1, 2].map(
                (i) =>
                  `11:5${i}:1${i}.402 [http-nio-8080-exec-${3 + i}] ERROR c.e.s.timeline.TimelineRepository - read of timeline u-${55120 + i} failed: com.datastax.oss.driver.api.core.servererrors.UnavailableException: Not enough replicas available for query at consistency QUORUM (2 required but only 1 alive)`,
              )
            : [
                '11:50:10.402 [http-nio-8080-exec-3] INFO  c.e.s.timeline.TimelineRepository - served timeline u-55120 in 14 ms',
              ]),
        ].join('\n'),
      },
    });
    const ask = 'feed-timeline in social fails to load timelines since 11:45';

    const two = await investigateAt(apiTools(world(true)), ask, NOW, ns);
    const a = answerOf(two.result);
    expect(a).toMatch(/too few replicas up for the consistency level/);
    expect(a).toContain('2 of 3 of its pods are down');
    expect(a).toContain('cassandra-1');
    expect(a).toContain('cassandra-2');

    const fine = await investigateAt(apiTools(world(false)), ask, NOW, ns);
    expect(fine.text).not.toMatch(/consistency level|Not enough replicas|of its pods are down/);
  });

  it('Prometheus "opening storage failed … corruption in segment … unexpected EOF" after an OOM kill: the corrupt WAL outranks the OOM; a plain OOMKilled pod: OOM only', async () => {
    const ns = 'observability';
    const image = 'quay.io/prometheus/prometheus:v2.53.2';
    const world = (corrupt: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        ...statefulSet('prom-main', ns, image, 1, 0, () => ({
          boxes: [
            crashing(
              'prom-main',
              image,
              corrupt ? { reason: 'Error', exitCode: 1 } : { reason: 'OOMKilled', exitCode: 137 },
              { cpu: '2', memory: '6Gi' },
            ),
          ],
        })),
      ],
      events: [
        backOff(ns, 'prom-main-0', 'prom-main'),
        ...(corrupt
          ? [
              warningEvent(
                ns,
                { kind: 'Pod', name: 'prom-main-0' },
                'OOMKilling',
                'Memory cgroup out of memory: Killed process 30112 (prometheus) total-vm:7340032kB, anon-rss:6282240kB, file-rss:0kB, shmem-rss:0kB, UID:65534 pgtables:12544kB oom_score_adj:992',
                95,
                95,
                1,
              ),
            ]
          : []),
      ],
      previous: {
        'prom-main-0': [
          'ts=2026-03-10T11:53:10.013Z caller=main.go:645 level=info msg="Starting Prometheus Server" mode=server version="(version=2.53.2, branch=HEAD)"',
          'ts=2026-03-10T11:53:10.951Z caller=head.go:721 level=info msg="Replaying WAL, this may take a while" component=tsdb',
          ...(corrupt
            ? [
                'ts=2026-03-10T11:53:14.002Z caller=db.go:902 level=warn msg="Encountered WAL read error, attempting repair" component=tsdb err="read records: corruption in segment /prometheus/wal/00002291 at 58720256: unexpected EOF"',
                'ts=2026-03-10T11:53:14.118Z caller=main.go:1089 level=error err="opening storage failed: repair corrupted WAL: cannot handle error: corruption in segment /prometheus/wal/00002291 at 58720256: unexpected EOF"',
              ]
            : [
                'ts=2026-03-10T11:53:40.833Z caller=head.go:793 level=info msg="WAL segment loaded" component=tsdb segment=2290 maxSegment=2291',
              ]),
        ].join('\n'),
      },
    });
    const ask = 'prom-main in observability is down, no metrics for 25 minutes';

    const wal = await investigateAt(apiTools(world(true)), ask, NOW, ns);
    const a = answerOf(wal.result);
    expect(a).toMatch(/cannot replay its write-ahead \(commit\) log/);
    expect(a).toContain('corruption in segment /prometheus/wal/00002291');
    expect(a).not.toMatch(/is being OOMKilled/);

    const oom = await investigateAt(apiTools(world(false)), ask, NOW, ns);
    expect(answerOf(oom.result)).toMatch(/OOMKilled/);
    expect(oom.text).not.toMatch(/write-ahead|corrupt/);
  });

  it('FailedMount "mount failed: exit status 32 … -t nfs 10.0.61.14:/exports/…": the NFS server and export named; a FailedMount for a missing ConfigMap: no NFS claim', async () => {
    const ns = 'media';
    const image = 'registry.example.io/media/thumb-server:2.7.1';
    const hash = '9d5c7b8f61';
    const pod = `thumb-server-${hash}-q8v2z`;
    const world = (message: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('thumb-server', ns, [image], 1, 0, [], { created: 60 * 24 * 300 }),
        deployPod('thumb-server', hash, 'q8v2z', ns, [
          {
            name: 'thumb-server',
            image,
            ready: false,
            state: { waiting: { reason: 'ContainerCreating' } },
          },
        ]),
      ],
      events: [warningEvent(ns, { kind: 'Pod', name: pod }, 'FailedMount', message, 42, 1, 21)],
    });
    const ask = 'thumb-server in media is stuck in ContainerCreating after the node rotation';

    const nfs = await investigateAt(
      apiTools(
        world(
          [
            'MountVolume.SetUp failed for volume "thumb-originals" : mount failed: exit status 32',
            'Mounting command: mount',
            `Mounting arguments: -t nfs 10.0.61.14:/exports/thumb-originals /var/lib/kubelet/pods/4f1c2a9e-7b3d-4e8a-9c61-2d5f8b7a1e03/volumes/kubernetes.io~nfs/thumb-originals`,
            'Output: mount.nfs: Connection timed out',
          ].join('\n'),
        ),
      ),
      ask,
      NOW,
      ns,
    );
    const a = answerOf(nfs.result);
    expect(a).toMatch(/cannot mount its NFS volume thumb-originals/);
    expect(a).toContain('10.0.61.14 (export 10.0.61.14:/exports/thumb-originals)');

    const cm = await investigateAt(
      apiTools(
        world(
          'MountVolume.SetUp failed for volume "thumb-config" : configmap "thumb-server-config" not found',
        ),
      ),
      ask,
      NOW,
      ns,
    );
    expect(cm.text).toContain('thumb-server-config');
    expect(cm.text).not.toMatch(/NFS/);
  });

  it('FailedCreate "no PriorityClass with name batch-critical was found": priorityClassName named; an exceeded quota: no PriorityClass claim', async () => {
    const ns = 'billing';
    const image = 'registry.example.io/billing/invoice-mailer:5.4.0';
    const rs = 'invoice-mailer-84d6c9f7b5';
    const world = (message: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('invoice-mailer', ns, [image], 2, 0, [], {
          created: 60 * 24 * 200,
          conditions: [
            {
              type: 'ReplicaFailure',
              status: 'True',
              reason: 'FailedCreate',
              message,
              lastTransitionTime: ago(35),
            },
          ],
        }),
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: {
            name: rs,
            namespace: ns,
            labels: { app: 'invoice-mailer', 'pod-template-hash': '84d6c9f7b5' },
            creationTimestamp: ago(35),
            ownerReferences: [
              {
                apiVersion: 'apps/v1',
                kind: 'Deployment',
                name: 'invoice-mailer',
                controller: true,
              },
            ],
          },
          spec: { replicas: 2 },
          status: { replicas: 0 },
        },
      ],
      events: [
        warningEvent(
          ns,
          { kind: 'ReplicaSet', name: rs },
          'FailedCreate',
          message,
          35,
          2,
          17,
          'replicaset-controller',
        ),
      ],
    });
    const ask = 'invoice-mailer in billing has no pods since the 5.4.0 deploy';

    const pc = await investigateAt(
      apiTools(
        world(
          `Error creating: pods "${rs}-" is forbidden: no PriorityClass with name batch-critical was found`,
        ),
      ),
      ask,
      NOW,
      ns,
    );
    const a = answerOf(pc.result);
    expect(a).toContain('priorityClassName batch-critical');
    expect(a).toMatch(/refused at admission/);

    const quota = await investigateAt(
      apiTools(
        world(
          `Error creating: pods "${rs}-m2x8k" is forbidden: exceeded quota: billing-compute, requested: limits.memory=1Gi, used: limits.memory=16Gi, limited: limits.memory=16Gi`,
        ),
      ),
      ask,
      NOW,
      ns,
    );
    expect(quota.text).toContain('exceeded quota');
    expect(quota.text).not.toMatch(/PriorityClass/i);
  });

  it('"InvalidIdentityToken: No OpenIDConnect provider found": IRSA and the OIDC provider; an S3 AccessDenied: no OIDC claim', async () => {
    const ns = 'records';
    const image = 'registry.example.io/records/scan-archiver:1.12.0';
    const hash = '7c5f9d8b42';
    const pod = `scan-archiver-${hash}-t6n4d`;
    const world = (error: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('scan-archiver', ns, [image], 1, 1, [], { created: 60 * 24 * 100 }),
        deployPod('scan-archiver', hash, 't6n4d', ns, [{ name: 'scan-archiver', image }]),
      ],
      logs: {
        [pod]: [
          '[2026-03-10 11:40:01,002] INFO archiver: listening on :8000',
          ...[0, 1, 2].map(
            (i) =>
              `[2026-03-10 11:4${5 + i}:3${i},511] ERROR archiver.store: upload of scan ${88120 + i} failed: botocore.exceptions.ClientError: ${error}`,
          ),
        ].join('\n'),
      },
    });
    const ask = 'scan-archiver in records fails every upload since the cluster was rebuilt';

    const oidc = await investigateAt(
      apiTools(
        world(
          'An error occurred (InvalidIdentityToken) when calling the AssumeRoleWithWebIdentity operation: No OpenIDConnect provider found in your account for https://oidc.eks.eu-central-1.amazonaws.com/id/9F3C1A7E52B84D06A1C2E9B7D5F30A18',
        ),
      ),
      ask,
      NOW,
      ns,
    );
    const a = answerOf(oidc.result);
    expect(a).toMatch(/IRSA/);
    expect(a).toMatch(/OpenIDConnect \(OIDC\) provider/);

    const s3 = await investigateAt(
      apiTools(
        world(
          'An error occurred (AccessDenied) when calling the PutObject operation: Access Denied',
        ),
      ),
      ask,
      NOW,
      ns,
    );
    expect(s3.text).toContain('AccessDenied');
    expect(s3.text).not.toMatch(/OIDC|OpenIDConnect|STS does not trust/);
  });

  it('lookups timing out while a coredns pod is OOMKilled at its 170Mi limit: the DNS answer says OOMKilled and 170Mi; coredns crash-looping with exit 1: no OOM claim', async () => {
    const ns = 'checkout';
    const image = 'registry.example.io/checkout/cart-api:11.3.0';
    const hash = '5b8c7d9f36';
    const pod = `cart-api-${hash}-r3w8k`;
    const dnsImage = 'registry.k8s.io/coredns/coredns:v1.11.1';
    const coredns = (suffix: string, last: { reason: string; exitCode: number }, ok: boolean) =>
      podObj({
        name: `coredns-6f9c8d7b5-${suffix}`,
        ns: 'kube-system',
        labels: { 'k8s-app': 'kube-dns', 'pod-template-hash': '6f9c8d7b5' },
        owner: { kind: 'ReplicaSet', name: 'coredns-6f9c8d7b5' },
        node: NODE,
        created: 60 * 24 * 30,
        boxes: [
          ok
            ? {
                name: 'coredns',
                image: dnsImage,
                restarts: 17,
                lastState: { terminated: { ...last, startedAt: ago(30), finishedAt: ago(24) } },
                resources: {
                  limits: { memory: '170Mi' },
                  requests: { cpu: '100m', memory: '70Mi' },
                },
              }
            : crashing('coredns', dnsImage, last, { memory: '170Mi' }, 21),
        ],
      });
    const world = (last: { reason: string; exitCode: number }): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('kube-system'),
        deploymentObj('cart-api', ns, [image], 1, 1, [], { created: 60 * 24 * 150 }),
        deployPod('cart-api', hash, 'r3w8k', ns, [{ name: 'cart-api', image }]),
        deploymentObj('coredns', 'kube-system', [dnsImage], 2, 1),
        coredns('j8x2m', last, false),
        coredns('p4t7q', last, true),
      ],
      events: [backOff('kube-system', 'coredns-6f9c8d7b5-j8x2m', 'coredns')],
      logs: {
        [pod]: [0, 1, 2]
          .map(
            (i) =>
              `{"level":"error","ts":"2026-03-10T11:4${4 + i}:0${i}Z","msg":"price lookup failed","error":"Get \\"http://price-book.${ns}.svc.cluster.local:8080/v2/prices\\": dial tcp: lookup price-book.${ns}.svc.cluster.local on 10.96.0.10:53: read udp 10.31.7.40:4${1200 + i}->10.96.0.10:53: i/o timeout"}`,
          )
          .join('\n'),
      },
    });
    const ask = 'cart-api in checkout gets i/o timeout errors since 11:40, network issue?';

    const oom = await investigateAt(
      apiTools(world({ reason: 'OOMKilled', exitCode: 137 })),
      ask,
      NOW,
    );
    const a = answerOf(oom.result);
    expect(a).toMatch(/cannot resolve/);
    expect(a).toMatch(/OOMKilled/);
    expect(a).toContain('170Mi');

    const other = await investigateAt(apiTools(world({ reason: 'Error', exitCode: 1 })), ask, NOW);
    expect(other.text).toMatch(/coredns/);
    expect(other.text).not.toMatch(/OOM/);
  });

  it('"connect ECONNREFUSED 172.20.88.17:9200" where a Service has that clusterIP: its crashing pods are read and their cause answers; an IP no Service has: no such dependency', async () => {
    const ns = 'storefront';
    const image = 'registry.example.io/storefront/product-search:6.8.1';
    const hash = '8f6d9c7b52';
    const pod = `product-search-${hash}-b9k3s`;
    const esImage = 'docker.elastic.co/elasticsearch/elasticsearch:8.14.3';
    const world = (ip: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('product-search', ns, [image], 1, 1, [], { created: 60 * 24 * 150 }),
        deployPod('product-search', hash, 'b9k3s', ns, [{ name: 'product-search', image }]),
        serviceObj('catalog-index', ns, { app: 'catalog-index' }, 9200, {
          clusterIP: '172.20.88.17',
          portName: 'http',
        }),
        ...statefulSet('catalog-index', ns, esImage, 2, 0, () => ({
          boxes: [
            crashing(
              'catalog-index',
              esImage,
              { reason: 'OOMKilled', exitCode: 137 },
              { memory: '2Gi' },
            ),
          ],
        })),
      ],
      events: [backOff(ns, 'catalog-index-0', 'catalog-index')],
      logs: {
        [pod]: [0, 1, 2]
          .map(
            (i) =>
              `2026-03-10T11:4${5 + i}:12.40${i}Z ERROR [search] query "winter boots" failed: ConnectionError: connect ECONNREFUSED ${ip}:9200`,
          )
          .join('\n'),
      },
    });
    const ask = 'product-search in storefront returns errors for every search since 11:40';

    const viaIp = await investigateAt(apiTools(world('172.20.88.17')), ask, NOW, ns);
    const a = answerOf(viaIp.result);
    expect(a).toContain('catalog-index');
    expect(a).toMatch(/OOMKilled/);
    expect(viaIp.gateway.calls.some((c) => /catalog-index-\d/.test(JSON.stringify(c.params)))).toBe(
      true,
    );

    const unknown = await investigateAt(apiTools(world('172.20.99.203')), ask, NOW, ns);
    expect(unknown.text).toContain('ECONNREFUSED');
    expect(unknown.text).not.toMatch(/catalog-index|OOMKilled/);
  });

  it("an HPA with FailedGetResourceMetric: metrics-server's log is read and quoted (x509 … IP SANs); an HPA that reads its metrics: metrics-server's log not read", async () => {
    const ns = 'orders';
    const image = 'registry.example.io/orders/order-router:9.1.4';
    const hash = '6d9b8c7f53';
    const ms = 'metrics-server-5c7d9f8b64-z2k6w';
    const world = (failing: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('kube-system'),
        deploymentObj('order-router', ns, [image], 3, 3, [], { created: 60 * 24 * 200 }),
        ...['f2k8m', 'n7q4x', 'w3c9v'].map((s, i) =>
          deployPod('order-router', hash, s, ns, [{ name: 'order-router', image }], {
            podIP: `10.31.7.${50 + i}`,
          }),
        ),
        hpaObj('order-router', ns, 'order-router', {
          min: 3,
          max: 12,
          cpu: 60,
          current: 3,
          conditions: failing
            ? [
                { type: 'AbleToScale', status: 'True', reason: 'SucceededGetScale' },
                {
                  type: 'ScalingActive',
                  status: 'False',
                  reason: 'FailedGetResourceMetric',
                  message:
                    'the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server is currently unable to handle the request (get pods.metrics.k8s.io)',
                },
              ]
            : [
                { type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale' },
                {
                  type: 'ScalingActive',
                  status: 'True',
                  reason: 'ValidMetricFound',
                  message:
                    'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
                },
              ],
        }),
        podObj({
          name: ms,
          ns: 'kube-system',
          labels: { 'k8s-app': 'metrics-server', 'pod-template-hash': '5c7d9f8b64' },
          owner: { kind: 'ReplicaSet', name: 'metrics-server-5c7d9f8b64' },
          node: NODE,
          created: 60 * 30,
          boxes: [
            {
              name: 'metrics-server',
              image: 'registry.k8s.io/metrics-server/metrics-server:v0.7.1',
              ready: !failing,
            },
          ],
        }),
      ],
      logs: {
        [ms]: [
          'I0310 11:30:02.101122       1 secure_serving.go:213] Serving securely on [::]:10250',
          ...[0, 1].map(
            (i) =>
              `E0310 11:5${i}:15.64${i}512       1 scraper.go:149] "Failed to scrape node" err="Get \\"https://10.31.4.${52 + i}:10250/metrics/resource\\": tls: failed to verify certificate: x509: cannot validate certificate for 10.31.4.${52 + i} because it doesn't contain any IP SANs" node="ip-10-31-4-${52 + i}.eu-central-1.compute.internal"`,
          ),
        ].join('\n'),
      },
    });
    const ask = 'order-router in orders is slow at peak and the HPA stays at 3 replicas';

    const stuck = await investigateAt(apiTools(world(true)), ask, NOW, ns);
    expect(stuck.text).toMatch(/cannot read its metrics/);
    expect(stuck.text).toMatch(/metrics-server logs "/);
    expect(stuck.text).toContain(
      "x509: cannot validate certificate for 10.31.4.52 because it doesn't contain any IP SANs",
    );

    const readLog = (calls: { tool: string; params: Record<string, unknown> }[]) =>
      calls.filter((c) => c.tool.endsWith('pods_log') && c.params['name'] === ms);
    expect(readLog(stuck.gateway.calls)).not.toEqual([]);

    const fine = await investigateAt(apiTools(world(false)), ask, NOW, ns);
    expect(readLog(fine.gateway.calls)).toEqual([]);
    expect(fine.text).not.toMatch(/IP SANs/);
  });

  describe('connections timing out to a port egress NetworkPolicies do not open', () => {
    const ns = 'invoicing';
    const image = 'registry.example.io/invoicing/invoice-api:12.0.0';
    const hash = '9b7c6d8f25';
    const pod = `invoice-api-${hash}-k5p8m`;
    const policy = (name: string, egress: Obj[]): Obj => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name, namespace: ns, creationTimestamp: ago(60 * 24 * 40) },
      spec: {
        podSelector: { matchLabels: { app: 'invoice-api' } },
        policyTypes: ['Egress'],
        egress,
      },
    });
    const dns = {
      to: [{ namespaceSelector: {}, podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } } }],
      ports: [
        { protocol: 'UDP', port: 53 },
        { protocol: 'TCP', port: 53 },
      ],
    };
    const db = (ports: number[]) => ({
      to: [{ ipBlock: { cidr: '10.44.18.0/24' } }],
      ports: ports.map((port) => ({ protocol: 'TCP', port })),
    });
    const world = (egress: Obj[]): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('invoice-api', ns, [image], 1, 1, [], { created: 60 * 24 * 300 }),
        deployPod('invoice-api', hash, 'k5p8m', ns, [{ name: 'invoice-api', image }]),
        policy('invoice-api-egress', egress),
      ],
      logs: {
        [pod]: [
          '{"level":30,"time":1773143400000,"msg":"pool: connecting to pgbouncer.db.internal:6432"}',
          ...[0, 1, 2].map(
            (i) =>
              `{"level":50,"time":${1773143460000 + i * 60000},"msg":"request failed","err":"connect ETIMEDOUT 10.44.18.9:6432"}`,
          ),
        ].join('\n'),
      },
    });
    const ask = 'invoice-api in invoicing times out since the database cutover this morning';

    it('a policy opening only 53 and 5432: the policy and port 6432 named; with 6432 open, or a rule without ports: no policy claim', async () => {
      const cut = await investigateAt(apiTools(world([dns, db([5432])])), ask, NOW, ns);
      const a = answerOf(cut.result);
      expect(a).toContain('invoice-api-egress');
      expect(a).toContain('do not open port 6432');

      const open = await investigateAt(apiTools(world([dns, db([5432, 6432])])), ask, NOW, ns);
      expect(open.text).toContain('ETIMEDOUT');
      expect(open.text).not.toMatch(/do not open port|invoice-api-egress/);

      const any = await investigateAt(
        apiTools(world([dns, { to: [{ ipBlock: { cidr: '10.44.18.0/24' } }] }])),
        ask,
        NOW,
        ns,
      );
      expect(any.text).not.toMatch(/do not open port|invoice-api-egress/);
    });
  });

  it('500s at a public host while the named service is healthy and no ingress controller runs: the nginx behind a LoadBalancer Service in another namespace, worker_connections and its namespace; its logs normal: no problem found', async () => {
    const app = 'registry.example.io/pay/charge-api:4.9.2';
    const proxy = 'docker.io/library/nginx:1.27.2';
    const world = (exhausted: boolean): ApiWorld => ({
      objects: [
        namespaceObj('payments'),
        namespaceObj('edge'),
        deploymentObj('charge-api', 'payments', [app], 2, 2, [], { created: 60 * 24 * 200 }),
        ...['c4m8x', 'h2v7n'].map((s, i) =>
          deployPod(
            'charge-api',
            '7d8c9b6f54',
            s,
            'payments',
            [{ name: 'charge-api', image: app }],
            {
              podIP: `10.31.7.${60 + i}`,
            },
          ),
        ),
        serviceObj('charge-api', 'payments', { app: 'charge-api' }, 8080, {
          clusterIP: '172.20.40.11',
        }),
        deploymentObj('front-door', 'edge', [proxy], 2, 2, [], { created: 60 * 24 * 400 }),
        ...['q9r2t', 'x5k3b'].map((s, i) =>
          deployPod('front-door', '5f9d8c7b46', s, 'edge', [{ name: 'front-door', image: proxy }], {
            podIP: `10.31.8.${10 + i}`,
            created: 60 * 24 * 6,
          }),
        ),
        serviceObj('front-door', 'edge', { app: 'front-door' }, 8080, {
          port: 443,
          clusterIP: '172.20.7.99',
          spec: { type: 'LoadBalancer' },
        }),
      ],
      logs: Object.fromEntries(
        ['q9r2t', 'x5k3b'].map((s, k) => [
          `front-door-5f9d8c7b46-${s}`,
          [0, 1, 2]
            .map((i) =>
              exhausted
                ? `2026/03/10 11:4${i + 2}:0${k} [alert] 23#23: *${90210 + i} 1024 worker_connections are not enough while connecting to upstream, client: 203.0.113.${40 + i}, server: pay.example.org, request: "POST /v1/charges HTTP/1.1", upstream: "http://172.20.40.11:8080/v1/charges", host: "pay.example.org"`
                : `203.0.113.${40 + i} - - [10/Mar/2026:11:4${i + 2}:0${k} +0000] "POST /v1/charges HTTP/1.1" 200 412 "-" "shop-client/2.1" rt=0.041 uct=0.001 urt=0.040`,
            )
            .join('\n'),
        ]),
      ),
    });
    const ask = 'pay.example.org throwing 500s since 10:35, charge-api dashboards look fine';

    const full = await investigateAt(apiTools(world(true)), ask, NOW);
    const a = answerOf(full.result);
    expect(a).toContain('front-door');
    expect(a).toContain('worker_connections');
    expect(a).toMatch(/\bedge\b/);
    expect(a).not.toMatch(/in the same namespace/);

    const calm = await investigateAt(apiTools(world(false)), ask, NOW);
    expect(calm.text).toMatch(/No problem found/);
    expect(calm.text).not.toMatch(/worker_connections/);
  });

  it('ZooKeeper members that cannot resolve a not-ready peer behind a headless Service without publishNotReadyAddresses: publishNotReadyAddresses said; with it true: not said', async () => {
    const ns = 'coord';
    const image = 'docker.io/library/zookeeper:3.9.2';
    const world = (publish: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        serviceObj('ensemble-hs', ns, { app: 'ensemble' }, 2888, {
          clusterIP: 'None',
          portName: 'peer',
          spec: publish ? { publishNotReadyAddresses: true } : {},
        }),
        ...statefulSet('ensemble', ns, image, 3, 0, (i) => ({
          created: 25,
          boxes: [
            { name: 'ensemble', image, ready: false, started: true, restarts: i === 1 ? 0 : 4 },
          ],
        })),
      ],
      logs: Object.fromEntries(
        [0, 2].map((i) => [
          `ensemble-${i}`,
          [
            `2026-03-10 11:50:0${i},114 [myid:${i + 1}] - INFO  [QuorumPeer[myid=${i + 1}](plain=0.0.0.0:2181)(secure=disabled):o.a.z.s.q.QuorumPeer@1476] - LOOKING`,
            `2026-03-10 11:50:0${i},402 [myid:${i + 1}] - WARN  [QuorumConnectionThreadFaultTolerant-${i + 1}:o.a.z.s.q.QuorumCnxManager@401] - Cannot open channel to 2 at election address ensemble-1.ensemble-hs.${ns}.svc.cluster.local:3888`,
            `java.net.UnknownHostException: ensemble-1.ensemble-hs.${ns}.svc.cluster.local`,
            '\tat java.base/java.net.InetAddress$CachedLookup.get(InetAddress.java:988)',
          ].join('\n'),
        ]),
      ),
    });
    const ask =
      'the zookeeper ensemble in coord has no quorum since the restart, pods never get ready';

    const hidden = await investigateAt(apiTools(world(false)), ask, NOW, ns);
    const a = answerOf(hidden.result);
    expect(a).toContain('ensemble-1.ensemble-hs');
    expect(a).toMatch(/publishNotReadyAddresses/);
    expect(a).toMatch(/running but not ready/);

    const published = await investigateAt(apiTools(world(true)), ask, NOW, ns);
    expect(published.text).not.toMatch(/publishNotReadyAddresses/);
  });
});
