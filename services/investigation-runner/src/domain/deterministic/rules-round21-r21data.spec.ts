/**
 * The engine rules of round21 (r21data) (cause-catalog.data.ts, its "round21 (r21data)" block;
 * diagnose-r21data.ts), one test per rule, each with a near miss where it must not fire: a JVM
 * OOMKilled whose logged maximum heap is above its container's limit, Redis OOMKilled while a
 * background save ran, a database client refused for its password by a database that started on
 * data older than its password Secret.
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

type Obj = Record<string, unknown>;

const answer = async (world: ApiWorld, ask: string, ns: string) =>
  answerOf((await investigateAt(apiTools(world), ask, NOW, ns)).result);

/** a pod of a Deployment's ReplicaSet */
const rsPod = (app: string, hash: string, suffix: string, ns: string, box: Box) =>
  podObj({
    name: `${app}-${hash}-${suffix}`,
    ns,
    labels: { app, 'pod-template-hash': hash },
    owner: { kind: 'ReplicaSet', name: `${app}-${hash}` },
    created: 300,
    boxes: [box],
  });

/** a container that was OOMKilled (or, with `oom` false, runs untroubled) under `limit` */
const jvmBox = (oom: boolean, limit = '1536Mi'): Box => ({
  name: 'app',
  image: 'registry.example.org/billing/ledger:4.12.3',
  resources: { limits: { memory: limit }, requests: { memory: limit } },
  restarts: oom ? 7 : 0,
  ...(oom
    ? {
        ready: false,
        state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting app' } },
        lastState: {
          terminated: {
            reason: 'OOMKilled',
            exitCode: 137,
            startedAt: ago(12),
            finishedAt: ago(3),
          },
        },
      }
    : {}),
});

/** a secret's metadata only (the rule reads its age, never its data) */
const secretObj = (name: string, ns: string, minutesAgo: number): Obj => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: ns, creationTimestamp: ago(minutesAgo) },
  type: 'Opaque',
});

const claimObj = (name: string, ns: string, minutesAgo: number): Obj => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name, namespace: ns, creationTimestamp: ago(minutesAgo) },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '8Gi' } } },
  status: { phase: 'Bound', capacity: { storage: '8Gi' } },
});

describe('round21 rules (r21data)', () => {
  it('a JVM OOMKilled whose logged max heap is above its limit: the answer says it sized the heap from the node, quoting the line and the Java version; a heap below the limit, or no kill: not this rule', async () => {
    const ns = 'billing';
    const world = (heap: string, oom: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj(
          'ledger',
          ns,
          ['registry.example.org/billing/ledger:4.12.3'],
          1,
          oom ? 0 : 1,
          ['app'],
        ),
        rsPod('ledger', '7c9d8b6f54', 'q2x7z', ns, jvmBox(oom)),
      ],
      logs: {
        'ledger-7c9d8b6f54-q2x7z': [
          `${ago(10)} INFO [main] Starting LedgerApplication v4.12.3 using Java 1.8.0_292 with PID 1`,
          `${ago(10)} INFO [main] JVM heap: max=${heap} (MaxRAMPercentage=75.0), available processors=8`,
        ].join('\n'),
      },
    });
    const ask = 'ledger keeps restarting, why?';
    const bad = await answer(world('7.22 GB', true), ask, ns);
    expect(bad).toContain("sized its heap from the node's memory");
    expect(bad).toContain('JVM heap: max=7.22 GB');
    expect(bad).toContain('1536Mi');
    expect(bad).toContain('Java 1.8.0_292 reads only cgroup v1 limits');
    // the heap fits under the limit: the JVM saw the limit, the plain OOM kill stands
    const fits = await answer(world('1.10 GB', true), ask, ns);
    expect(fits).toContain('OOMKilled');
    expect(fits).not.toContain("sized its heap from the node's memory");
    // no kill (a healthy JVM that states a large heap): not this rule
    const calm = await answer(world('7.22 GB', false), ask, ns);
    expect(calm).not.toContain("sized its heap from the node's memory");
  });

  it('Redis OOMKilled while a background save ran: the answer names the fork, its copy-on-write and maxmemory; a killed run whose saves finished: not this rule', async () => {
    const ns = 'web';
    const world = (previous: string[]): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        ...statefulSetObj('cache-redis', ns, 'docker.io/bitnami/redis:7.2.5', 1, {
          container: 'redis',
          member: () => ({
            boxes: [
              {
                name: 'redis',
                image: 'docker.io/bitnami/redis:7.2.5',
                resources: { limits: { memory: '2Gi' } },
                restarts: 4,
                lastState: {
                  terminated: {
                    reason: 'OOMKilled',
                    exitCode: 137,
                    startedAt: ago(40),
                    finishedAt: ago(20),
                  },
                },
              },
            ],
          }),
        }).map((o) =>
          o['kind'] === 'Pod'
            ? {
                ...o,
                spec: {
                  ...(o['spec'] as Obj),
                  containers: ((o['spec'] as Obj)['containers'] as Obj[]).map((c) => ({
                    ...c,
                    args: ['--maxmemory', '1800mb', '--save', '60 10000'],
                  })),
                },
              }
            : o,
        ),
      ],
      logs: { 'cache-redis-0': '1:M 03 Aug 2026 19:41:42.000 * Ready to accept connections tcp' },
      previous: { 'cache-redis-0': previous.join('\n') },
    });
    const ask = 'cache-redis restarts every 20 minutes, why?';
    const bad = await answer(
      world([
        '1:M 03 Aug 2026 19:23:00.000 * Ready to accept connections tcp',
        '1:M 03 Aug 2026 19:24:30.000 * 10000 changes in 60 seconds. Saving...',
        '1:M 03 Aug 2026 19:24:30.000 * Background saving started by pid 23',
        '23:C 03 Aug 2026 19:25:12.000 * Fork CoW for RDB: current 236 MB, peak 236 MB, average 150 MB',
      ]),
      ask,
      ns,
    );
    expect(bad).toContain('during its background saves (BGSAVE/RDB)');
    expect(bad).toContain('Background saving started by pid 23');
    expect(bad).toContain('maxmemory 1800mb');
    expect(bad).toContain('2Gi');
    // its saves finished before it was killed: the fork is not what outgrew the limit
    const saved = await answer(
      world([
        '1:M 03 Aug 2026 19:24:30.000 * Background saving started by pid 23',
        '1:M 03 Aug 2026 19:24:58.000 * Background saving terminated with success',
        '1:M 03 Aug 2026 19:30:00.000 * Client closed connection',
      ]),
      ask,
      ns,
    );
    expect(saved).toContain('OOMKilled');
    expect(saved).not.toContain('background saves');
  });

  it('a client refused for its password by a database that started on data older than its StatefulSet and password Secret: the answer names the kept data and the newer Secret; data as old as the Secret: not this rule', async () => {
    const ns = 'docs';
    const world = (reinstalledMinutesAgo: number, secretAge = reinstalledMinutesAgo): ApiWorld => {
      const [set, ...members] = statefulSetObj(
        'notes-db-postgresql',
        ns,
        'docker.io/bitnami/postgresql:16.4.0',
        1,
        {
          container: 'postgresql',
          age: reinstalledMinutesAgo / (60 * 24),
          member: () => ({
            claims: ['data-notes-db-postgresql-0'],
            created: reinstalledMinutesAgo,
          }),
        },
      );
      const client = rsPod('notes-api', '5bd7f9c6d8', 'k4m2p', ns, {
        name: 'app',
        image: 'registry.example.org/docs/notes-api:2.3.0',
        ready: false,
        restarts: 9,
        state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting app' } },
        lastState: {
          terminated: { reason: 'Error', exitCode: 1, startedAt: ago(4), finishedAt: ago(3) },
        },
      });
      const spec = client['spec'] as { containers: Obj[] };
      spec.containers[0] = {
        ...spec.containers[0],
        env: [
          { name: 'DB_HOST', value: 'notes-db-postgresql' },
          {
            name: 'DB_PASSWORD',
            valueFrom: { secretKeyRef: { name: 'notes-db-postgresql', key: 'password' } },
          },
        ],
      };
      return {
        objects: [
          namespaceObj(ns),
          deploymentObj('notes-api', ns, ['registry.example.org/docs/notes-api:2.3.0'], 1, 0, [
            'app',
          ]),
          client,
          set!,
          ...members,
          claimObj('data-notes-db-postgresql-0', ns, 60 * 24 * 200),
          secretObj('notes-db-postgresql', ns, secretAge),
        ],
        logs: {
          'notes-db-postgresql-0': [
            `${ago(80)} postgresql 07:58:31.31 INFO  ==> Deploying PostgreSQL with persisted data...`,
            `${ago(80)} 2026-03-10 10:40:00.000 GMT [1] LOG:  database system is ready to accept connections`,
            `${ago(3)} 2026-03-10 11:57:00.000 GMT [4100] FATAL:  password authentication failed for user "notes"`,
          ].join('\n'),
          'notes-api-5bd7f9c6d8-k4m2p': '',
        },
        previous: {
          'notes-api-5bd7f9c6d8-k4m2p': `${ago(3)} {"level":60,"msg":"database connection failed, exiting","err":{"message":"password authentication failed for user \\"notes\\"","code":"28P01"}}`,
        },
      };
    };
    const ask = 'notes-api is in CrashLoopBackOff since we reinstalled the database, why?';
    const bad = await answer(world(90), ask, ns);
    expect(bad).toContain('password authentication failed for user "notes" (28P01)');
    expect(bad).toContain('started on existing data ("Deploying PostgreSQL with persisted data');
    expect(bad).toContain('PVC data-notes-db-postgresql-0');
    expect(bad).toContain('Secret notes-db-postgresql');
    // data, StatefulSet and Secret of the same age: a wrong password, not a reinstall on kept data
    const same = await answer(world(60 * 24 * 200), ask, ns);
    expect(same).toContain('password authentication failed');
    expect(same).not.toContain('started on existing data');
    // the StatefulSet recreated, its password Secret as old as the data: the password was kept
    const kept = await answer(world(90, 60 * 24 * 200), ask, ns);
    expect(kept).toContain('password authentication failed');
    expect(kept).not.toContain('started on existing data');
  });
});
