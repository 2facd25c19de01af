/**
 * The engine rules of round29 (r29b): what a process model shares or withholds (catalog block
 * "round29 (r29b)" in cause-catalog.data.ts, variables in finding-vars-r29b.ts, the question in
 * questions-r29b.ts), one test per rule, each with a near miss where it must not fire: a logged
 * phrase followed by "do we have a problem?" is a health check, not a count of lines; a JVM out of
 * heap at its default 25% max heap (no heap flag, its start log's "Heap Max Capacity"); libpq's
 * "SSL error: decryption failed or bad record mac" from a connection shared by forked workers
 * (gunicorn --preload); uWSGI's "listen queue ... full" while every worker waits on a slow call;
 * "which Java workloads set no heap size?".
 */
import {
  NOW,
  answerOf,
  apiTools,
  deploymentObj,
  investigateAt,
  namespaceObj,
  podObj,
  stamped,
  type ApiWorld,
  type Box,
} from './spec-world';

type Obj = Record<string, unknown>;

const answer = async (world: ApiWorld, ask: string, ns: string) =>
  answerOf((await investigateAt(apiTools(world), ask, NOW, ns)).result);

/** a pod of a Deployment whose first container has this environment (and arguments) */
const appPod = (
  name: string,
  app: string,
  ns: string,
  box: Partial<Box> & { image: string },
  env: Record<string, string> = {},
  args?: string[],
): Obj => {
  const o = podObj({
    name,
    ns,
    labels: { app },
    owner: { kind: 'ReplicaSet', name: name.replace(/-[a-z0-9]{5}$/, '') },
    boxes: [{ name: app, ...box }],
  });
  const c = ((o['spec'] as Obj)['containers'] as Obj[])[0]!;
  c['env'] = Object.entries(env).map(([k, value]) => ({ name: k, value }));
  if (args) c['args'] = args;
  return o;
};

describe('round29 rules (r29b)', () => {
  it('"X logs say \'Worker was sent SIGKILL! Perhaps out of memory?\' from last night. Do we have a memory problem?" with no restart since: no problem found; "how many times did X log ..." stays a count', async () => {
    const ns = 'billing';
    const pod = 'billing-api-7b5d9c6f84-f2n8q';
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        deploymentObj('billing-api', ns, ['registry.example.com/billing-api:3.1.0'], 1, 1),
        appPod(pod, 'billing-api', ns, {
          image: 'registry.example.com/billing-api:3.1.0',
          resources: { limits: { memory: '1Gi' } },
        }),
      ],
      logs: {
        [pod]: stamped([
          [420, 'ERROR app.db: query failed, retrying: could not receive data from server'],
          [419, '[1] [CRITICAL] WORKER TIMEOUT (pid:12)'],
          [419, '[1] [ERROR] Worker (pid:12) was sent SIGKILL! Perhaps out of memory?'],
          [419, '[88] [INFO] Booting worker with pid: 88'],
          [5, '10.0.20.51 - - "GET /v1/invoices/118233 HTTP/1.1" 200 2198'],
        ]),
      },
    };
    const ask = (q: string) =>
      investigateAt(apiTools(world), q, NOW, ns).then((r) => r.result.root_cause.description);
    const health = await ask(
      "billing-api logs say 'Worker was sent SIGKILL! Perhaps out of memory?' from last night. Do we have a memory problem there?",
    );
    expect(health).toMatch(/^No problem found/);
    // near miss: a count of the lines is asked
    const count = await ask(
      "how many times did billing-api log 'Perhaps out of memory?' since yesterday?",
    );
    expect(count).toMatch(/pod\(s\) whose logs I read logged/);
  });

  it('a JVM out of heap with no heap flag and "Heap Max Capacity: 512M" under a 2Gi limit: its default 25% max heap is named; with -Xmx512m set: the flag, not the default', async () => {
    const ns = 'logistics';
    const pod = 'route-planner-5f7c8d9b66-j8w4t';
    const world = (opts: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('route-planner', ns, ['registry.example.com/route-planner:5.3.1'], 1, 0),
        appPod(
          pod,
          'route-planner',
          ns,
          {
            image: 'registry.example.com/route-planner:5.3.1',
            resources: { limits: { memory: '2Gi' }, requests: { memory: '2Gi' } },
            restarts: 6,
            ready: false,
            state: { waiting: { reason: 'CrashLoopBackOff' } },
            lastState: { terminated: { reason: 'Error', exitCode: 3 } },
          },
          { JAVA_TOOL_OPTIONS: opts },
        ),
      ],
      previous: {
        [pod]: stamped([
          [12, `Picked up JAVA_TOOL_OPTIONS: ${opts}`],
          [12, '[gc,init] Memory: 2048M'],
          [12, '[gc,init] Heap Max Capacity: 512M'],
          [10, 'INFO graph loader: loading 9840277 nodes ...'],
          [9, 'Terminating due to java.lang.OutOfMemoryError: Java heap space'],
        ]),
      },
    });
    const bad = await answer(
      world('-XX:+ExitOnOutOfMemoryError -Xlog:gc+init'),
      'route-planner is crashlooping',
      ns,
    );
    expect(bad).toMatch(/Java heap space/);
    expect(bad).toMatch(/default max heap: 25% of the container limit/);
    expect(bad).toMatch(/Heap Max Capacity: 512M/);
    // near miss: the heap is set by a flag
    const set = await answer(
      world('-XX:+ExitOnOutOfMemoryError -Xmx512m -Xlog:gc+init'),
      'route-planner is crashlooping',
      ns,
    );
    expect(set).toMatch(/Java heap space/);
    expect(set).not.toMatch(/default max heap/);
    expect(set).toMatch(/-Xmx512m/);
  });

  it('"SSL error: decryption failed or bad record mac" from psycopg2 with GUNICORN_CMD_ARGS --preload: a connection shared by the forked workers, naming --preload; "SSL SYSCALL error: EOF detected" alone: not this rule', async () => {
    const ns = 'accounts';
    const pod = 'profile-svc-84f6b7c9d5-b7x2k';
    const world = (error: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('profile-svc', ns, ['registry.example.com/profile-svc:2.7.0'], 1, 1),
        appPod(
          pod,
          'profile-svc',
          ns,
          { image: 'registry.example.com/profile-svc:2.7.0' },
          { GUNICORN_CMD_ARGS: '--preload --workers 4 --bind 0.0.0.0:8080', PGSSLMODE: 'require' },
        ),
      ],
      logs: {
        [pod]: stamped([
          [180, '[1] [INFO] Starting gunicorn 22.0.0'],
          [180, '[7] [INFO] Booting worker with pid: 7'],
          [20, '10.0.20.51 - - "GET /v2/profiles/90215 HTTP/1.1" 200 1432'],
          [6, 'ERROR profiles.app: Exception on /v2/profiles/90214 [GET]'],
          [6, 'Traceback (most recent call last):'],
          [6, `psycopg2.OperationalError: ${error}`],
          [6, `sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) ${error}`],
          [6, '10.0.20.51 - - "GET /v2/profiles/90214 HTTP/1.1" 500 265'],
        ]),
      },
    });
    const ask = "profile-svc throws random 500s since this morning. What's going on?";
    const bad = await answer(world('SSL error: decryption failed or bad record mac'), ask, ns);
    expect(bad).toMatch(/decryption failed or bad record mac/);
    expect(bad).toMatch(/GUNICORN_CMD_ARGS sets gunicorn's --preload/);
    expect(bad).toMatch(/forks? (?:its )?workers/);
    // near miss: a connection the server closed is not a shared one
    const eof = await answer(world('SSL SYSCALL error: EOF detected'), ask, ns);
    expect(eof).not.toMatch(/--preload|shared by them/);
  });

  it('uWSGI\'s "listen queue of socket ... full !!! (101/100)" with its workers\' "call still waiting" lines: every worker busy, the call named; its start banner about the backlog alone: not this rule', async () => {
    const ns = 'catalog';
    const pod = 'search-web-6c4d8b9f57-8mzq4';
    const banner: [number, string][] = [
      [3000, 'your server socket listen backlog is limited to 100 connections'],
      [3000, 'spawned uWSGI worker 1 (pid: 9, cores: 1)'],
      [3000, 'spawned uWSGI worker 2 (pid: 10, cores: 1)'],
      [3000, 'spawned uWSGI worker 3 (pid: 11, cores: 1)'],
    ];
    const world = (lines: [number, string][]): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('search-web', ns, ['registry.example.com/search-web:4.0.0'], 1, 1),
        appPod(pod, 'search-web', ns, { image: 'registry.example.com/search-web:4.0.0' }),
      ],
      logs: { [pod]: stamped([...banner, ...lines]) },
    });
    const busy = await answer(
      world([
        [
          12,
          '{"level":"WARNING","msg":"stock call still waiting","url":"http://stock-levels.inventory.svc.cluster.local:8080/v1/levels?sku=1","elapsed_s":30.1}',
        ],
        [
          12,
          '{"level":"WARNING","msg":"stock call still waiting","url":"http://stock-levels.inventory.svc.cluster.local:8080/v1/levels?sku=2","elapsed_s":30.4}',
        ],
        [10, '*** uWSGI listen queue of socket ":8000" (fd: 3) full !!! (101/100) ***'],
        [9, '*** uWSGI listen queue of socket ":8000" (fd: 3) full !!! (101/100) ***'],
      ]),
      'search-web returns 504s, what is going on?',
      ns,
    );
    expect(busy).toMatch(/listen queue/);
    expect(busy).toMatch(/all 3 of its uWSGI workers are busy/);
    expect(busy).toMatch(/waiting on calls to stock-levels/);
    // near miss: the banner names the backlog, nothing is full
    const fine = await answer(
      world([[10, '[pid: 9|app: 0|req: 1/1] GET /api/search => generated 1840 bytes in 84 msecs']]),
      'search-web returns 504s, what is going on?',
      ns,
    );
    expect(fine).not.toMatch(/listen queue is full|uWSGI workers are busy/);
  });

  it('"which Java services in ns set no heap size?": the JVMs without -Xmx/MaxRAMPercentage (env, arguments, their logged options), not those with one nor a Node service; another question is not this one', async () => {
    const ns = 'fulfilment';
    const image = (n: string) => `registry.example.com/${n}:1.0.0`;
    const lim = { limits: { memory: '2Gi' } };
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        appPod(
          'pick-api-8d6c7b5f49-c5c5z',
          'pick-api',
          ns,
          { image: image('pick-api'), resources: lim },
          {
            JAVA_TOOL_OPTIONS: '-XX:MaxRAMPercentage=75.0',
          },
        ),
        appPod(
          'pack-svc-6b9f8d4c57-9ead8',
          'pack-svc',
          ns,
          { image: image('pack-svc'), resources: lim },
          {},
          ['java', '-Xmx1g', '-jar', '/app/pack.jar'],
        ),
        appPod(
          'label-print-7f5d9b8c46-e5cf4',
          'label-print',
          ns,
          { image: image('label-print'), resources: lim },
          {
            JAVA_TOOL_OPTIONS: '-XX:+ExitOnOutOfMemoryError',
          },
        ),
        appPod('carrier-link-5c8d7f6b94-98af4', 'carrier-link', ns, {
          image: image('carrier-link'),
          resources: lim,
        }),
        appPod(
          'dock-ui-5f4b8c9d67-m4t8s',
          'dock-ui',
          ns,
          { image: image('dock-ui'), resources: lim },
          {
            NODE_OPTIONS: '--max-old-space-size=384',
          },
        ),
      ],
      logs: {
        'carrier-link-5c8d7f6b94-98af4': stamped([
          [
            600,
            'INFO 1 --- [main] c.e.CarrierLink : Starting CarrierLink v1.1 using Java 21.0.5 with PID 1',
          ],
        ]),
        'dock-ui-5f4b8c9d67-m4t8s': stamped([
          [600, '{"msg":"listening on :3000","node":"v20.18.1"}'],
        ]),
      },
    };
    const a = await answer(
      world,
      "Which Java services in fulfilment don't set any heap size (no -Xmx, no MaxRAMPercentage)?",
      ns,
    );
    expect(a).toMatch(/2 Java workloads in namespace fulfilment set no heap size/);
    expect(a).toMatch(/label-print \(JAVA_TOOL_OPTIONS/);
    expect(a).toMatch(/carrier-link \(no JVM options set; a JVM by its log \("[^"]*using Java 21/);
    expect(a).toMatch(/The others set one: .*pack-svc \(-Xmx1g in its arguments\)/);
    expect(a).toMatch(/pick-api \(-XX:MaxRAMPercentage=75.0 in JAVA_TOOL_OPTIONS\)/);
    expect(a).toMatch(/Not Java \(no JVM seen\): Deployment dock-ui/);
    // near miss: a question about memory limits is not this one
    const other = await answer(world, 'Which pods in fulfilment have no memory limit?', ns);
    expect(other).not.toMatch(/Java workloads/);
  });
});
