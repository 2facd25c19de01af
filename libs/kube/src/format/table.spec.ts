import { WorldIndex, type KubeObject } from '../world';
import { aScenarioWorld } from '../testing/a-scenario-world';
import { getTable, podStatus, topTable } from './table';

const w = new WorldIndex(aScenarioWorld());
const now = w.now;

function pod(
  status: Record<string, unknown>,
  spec: Record<string, unknown> = {},
  meta: Record<string, unknown> = {},
): KubeObject {
  return {
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'x', creationTimestamp: '2026-03-12T10:00:00Z', ...meta },
    spec: { containers: [{ name: 'app' }], ...spec },
    status,
  };
}

describe('getTable (kubectl get)', () => {
  it('prints pods with READY, STATUS, RESTARTS as kubectl computes them', () => {
    expect(getTable('pods', w.list('pods', { namespace: 'shop' }), { now })).toBe(
      [
        'NAME                            READY   STATUS             RESTARTS        AGE',
        'checkout-7d9f8b6c5-x2x4z        0/1     CrashLoopBackOff   5 (2m17s ago)   25m',
        'nightly-report-29554680-q7k2m   0/1     Error              0               8h',
        'reports-6f7c9d8b5-abcde         0/1     Pending            0               10m',
        '',
      ].join('\n'),
    );
  });

  it('computes every pod STATUS kubectl shows', () => {
    const term = (reason: string, exitCode: number) => ({
      terminated: { reason, exitCode, finishedAt: '2026-03-12T10:28:00Z' },
    });
    expect(
      podStatus(
        pod({
          phase: 'Running',
          containerStatuses: [
            {
              name: 'app',
              state: term('OOMKilled', 137),
              restartCount: 3,
              lastState: term('OOMKilled', 137),
            },
          ],
        }),
        now,
      ),
    ).toMatchObject({ status: 'OOMKilled', restarts: '3 (2m ago)' });
    expect(
      podStatus(
        pod({
          phase: 'Pending',
          containerStatuses: [
            { name: 'app', state: { waiting: { reason: 'ImagePullBackOff' } }, restartCount: 0 },
          ],
        }),
        now,
      ).status,
    ).toBe('ImagePullBackOff');
    expect(
      podStatus(
        pod({
          phase: 'Succeeded',
          containerStatuses: [{ name: 'app', state: term('Completed', 0) }],
        }),
        now,
      ).status,
    ).toBe('Completed');
    expect(
      podStatus(
        pod(
          {
            phase: 'Running',
            containerStatuses: [{ name: 'app', ready: true, state: { running: {} } }],
          },
          {},
          { deletionTimestamp: '2026-03-12T10:29:00Z' },
        ),
        now,
      ).status,
    ).toBe('Terminating');
    expect(
      podStatus(
        pod(
          {
            phase: 'Pending',
            initContainerStatuses: [
              { name: 'init', state: { waiting: { reason: 'PodInitializing' } } },
            ],
          },
          { initContainers: [{ name: 'init' }] },
        ),
        now,
      ).status,
    ).toBe('Init:0/1');
    expect(
      podStatus(
        pod(
          {
            phase: 'Pending',
            initContainerStatuses: [
              { name: 'init', state: { waiting: { reason: 'CrashLoopBackOff' } }, restartCount: 2 },
            ],
          },
          { initContainers: [{ name: 'init' }] },
        ),
        now,
      ),
    ).toMatchObject({ status: 'Init:CrashLoopBackOff', restarts: '2' });
    expect(
      podStatus(
        pod({
          phase: 'Running',
          containerStatuses: [{ name: 'app', ready: true, state: { running: {} } }],
        }),
        now,
      ),
    ).toMatchObject({ status: 'Running', ready: '1/1' });
    expect(
      podStatus(
        pod({
          phase: 'Failed',
          reason: 'Evicted',
          message: 'The node was low on resource: memory.',
        }),
        now,
      ).status,
    ).toBe('Evicted');
  });

  it('prints wide and all-namespace columns', () => {
    const text = getTable('po', w.list('po', { fieldSelector: 'status.phase=Running' }), {
      now,
      wide: true,
      allNamespaces: true,
    });
    expect(text.split('\n')[0]).toBe(
      'NAMESPACE     NAME                       READY   STATUS             RESTARTS        AGE   IP            NODE     NOMINATED NODE   READINESS GATES',
    );
    expect(text).toContain(
      'kube-system   coredns-76f75df574-9xk2p   1/1     Running            0               70d   10.244.1.2    node-a   <none>           <none>',
    );
  });

  it('prints deployments, nodes, jobs, pvcs, hpas, services and events', () => {
    expect(getTable('deploy', w.list('deploy', { namespace: 'shop' }), { now })).toBe(
      'NAME       READY   UP-TO-DATE   AVAILABLE   AGE\ncheckout   0/1     1            0           39d\n',
    );
    expect(getTable('no', w.list('no'), { now })).toBe(
      'NAME     STATUS     ROLES    AGE   VERSION\nnode-a   Ready      worker   70d   v1.30.4\nnode-b   NotReady   worker   70d   v1.30.4\n',
    );
    expect(getTable('job', w.list('job'), { now })).toBe(
      'NAME                      STATUS   COMPLETIONS   DURATION   AGE\nnightly-report-29554680   Failed   0/1           8h         8h\n',
    );
    expect(getTable('pvc', w.list('pvc'), { now })).toBe(
      'NAME        STATUS    VOLUME     CAPACITY   ACCESS MODES   STORAGECLASS   AGE\ndata-db-0   Pending                                        fast-ssd       40m\nuploads     Bound     pvc-3b1f   5Gi        RWO            standard       39d\n',
    );
    expect(getTable('hpa', w.list('hpa'), { now })).toBe(
      'NAME       REFERENCE             TARGETS        MINPODS   MAXPODS   REPLICAS   AGE\ncheckout   Deployment/checkout   cpu: 12%/70%   1         5         1          39d\n',
    );
    expect(getTable('svc', w.list('svc'), { now })).toBe(
      'NAME       TYPE        CLUSTER-IP    EXTERNAL-IP   PORT(S)   AGE\ncheckout   ClusterIP   10.96.12.34   <none>        80/TCP    39d\n',
    );
    const ev = getTable('ev', w.events({ namespace: 'shop' }), { now });
    expect(ev.split('\n')[0]).toBe(
      'LAST SEEN             TYPE      REASON                 OBJECT                            MESSAGE',
    );
    expect(ev).toContain(
      '50s (x27 over 24m)    Warning   BackOff                pod/checkout-7d9f8b6c5-x2x4z      Back-off restarting failed container app',
    );
    expect(getTable('sc', w.list('sc'), { now })).toContain(
      'standard (default)   rancher.io/local-path',
    );
  });

  it('says when there is nothing, and refuses unknown kinds', () => {
    expect(getTable('pods', [], { now, namespace: 'empty' })).toBe(
      'No resources found in empty namespace.\n',
    );
    expect(getTable('nodes', [], { now })).toBe('No resources found\n');
    expect(() => getTable('widgets', [], { now })).toThrow(
      `the server doesn't have a resource type "widgets"`,
    );
  });
});

describe('topTable (kubectl top)', () => {
  it('prints pod and node usage', () => {
    expect(topTable('pods', w.podMetrics('shop'))).toBe(
      'NAME                       CPU(cores)   MEMORY(bytes)\ncheckout-7d9f8b6c5-x2x4z   1m           12Mi\n',
    );
    expect(
      topTable('pods', w.podMetrics(), { containers: true, allNamespaces: true }).split('\n')[0],
    ).toBe('NAMESPACE     POD                        NAME      CPU(cores)   MEMORY(bytes)');
    expect(topTable('nodes', w.nodeMetrics(), { nodes: w.list('nodes') })).toBe(
      'NAME     CPU(cores)   CPU%        MEMORY(bytes)   MEMORY%\nnode-a   412m         10%         3120Mi          20%\nnode-b   <unknown>    <unknown>   <unknown>       <unknown>\n',
    );
  });
});

describe('getTable: custom resources', () => {
  const w = new WorldIndex(aScenarioWorld({ customResources: true }));
  const now = w.now;
  const table = (kind: string, opts: { wide?: boolean; allNamespaces?: boolean } = {}) => {
    const info = w.resolve(kind)!;
    return getTable(info, w.list(info), { now, ...opts });
  };

  it("prints well-known CRDs' printer columns", () => {
    expect(table('applications.argoproj.io', { wide: true })).toBe(
      'NAME          SYNC STATUS   HEALTH STATUS   REVISION\npricing-api   OutOfSync     Degraded        9f2c1e7\n',
    );
    expect(table('kustomization', { allNamespaces: true })).toBe(
      'NAMESPACE     NAME   AGE   READY   STATUS\nflux-system   apps   55d   False   Deployment/shop/checkout dry-run failed: Deployment.apps "checkout" is invalid: spec.selector: Invalid value: field is immutable\n',
    );
    expect(table('clusterissuer')).toBe(
      'NAME               READY   AGE\nletsencrypt-prod   True    61d\n',
    );
  });

  it('prints READY and STATUS for other custom kinds that report them, else NAME and AGE', () => {
    const world = aScenarioWorld();
    world.objects.push(
      {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w1', namespace: 'shop', creationTimestamp: '2026-03-12T10:00:00Z' },
        status: { conditions: [{ type: 'Ready', status: 'False', reason: 'BrokenGear' }] },
      },
      {
        apiVersion: 'example.com/v1',
        kind: 'Gadget',
        metadata: { name: 'g1', namespace: 'shop', creationTimestamp: '2026-03-12T10:00:00Z' },
      },
    );
    const ix = new WorldIndex(world);
    expect(getTable(ix.resolve('widgets')!, ix.list('widgets'), { now })).toBe(
      'NAME   READY   STATUS       AGE\nw1     False   BrokenGear   30m\n',
    );
    expect(getTable(ix.resolve('gadget')!, ix.list('gadget'), { now })).toBe(
      'NAME   AGE\ng1     30m\n',
    );
  });
});
