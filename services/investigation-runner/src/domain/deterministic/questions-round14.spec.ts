/**
 * Four kinds of question about leftovers and drift in a namespace, each asked in words other than
 * the bench's and answered from outputs shaped like real ones (`kubectl get` tables and `kubectl
 * describe` text as libs/kube prints them, Kubernetes API objects as JSON): which
 * PersistentVolumeClaims no pod mounts, which containers run an image tagged latest or with no
 * tag, which CronJobs are suspended and when each last ran, which pods were created in a window.
 */
import { describe as kubeDescribe, getTable } from '@inquest/kube';
import { scopeIncident } from './scope';
import {
  NOW,
  ago,
  apiTools,
  investigateAt,
  podObj,
  textTools,
  type ApiWorld,
  type TextWorld,
} from './spec-world';

type Obj = Record<string, unknown>;
const now = new Date(NOW);
const described = (o: Obj) => kubeDescribe(o, { events: [], now });
const nameOf = (o: Obj) => String((o['metadata'] as Obj)['name']);
const describedAll = (objs: Obj[]) =>
  Object.fromEntries(
    objs.map((o) => [`${String(o['kind']).toLowerCase()}/${nameOf(o)}`, described(o)]),
  );

function claim(name: string, ns: string, size: string): Obj {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: ns, creationTimestamp: ago(60 * 24 * 40) },
    spec: {
      accessModes: ['ReadWriteOnce'],
      storageClassName: 'gp3',
      volumeName: `pvc-${name}`,
      resources: { requests: { storage: size } },
    },
    status: { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: size } },
  };
}

const pod = (
  name: string,
  ns: string,
  owner: { kind: string; name: string },
  images: string[],
  extra: { claims?: string[]; created?: number } = {},
) =>
  podObj({
    name,
    ns,
    labels: { app: owner.name },
    owner,
    boxes: images.map((image, i) => ({
      name: i ? `sidecar-${i}` : owner.name.replace(/-[a-z0-9]{8,10}$/, ''),
      image,
    })),
    ...extra,
  });

describe('questions of round 14: phrasings', () => {
  it.each([
    ['which PVCs are unused?', 'unmounted_claims'],
    ['any orphaned PVCs in data?', 'unmounted_claims'],
    ['which PVCs are not attached to anything?', 'unmounted_claims'],
    ["which claims there aren't mounted by any pod right now?", 'unmounted_claims'],
    ['anything running :latest?', 'floating_images'],
    ['which images are untagged', 'floating_images'],
    ['which deployments use the latest tag?', 'floating_images'],
    ['any containers without an image tag in tools?', 'floating_images'],
    ['which cronjobs are paused and when did they last run', 'suspended_cronjobs'],
    ['show the suspended cron jobs in finance', 'suspended_cronjobs'],
    ['what pods came up in the last 30 minutes', 'created'],
    ['new pods since 10:00', 'created'],
    ['which pods started in the past 2h?', 'created'],
    ['which deployments were created today?', 'created'],
  ])('"%s" is a %s question', (message, type) => {
    expect(scopeIncident(message, {}, NOW).question?.type).toBe(type);
  });

  it('reads the window and the kind of a "created" question', () => {
    expect(scopeIncident('what pods came up in the last 30 minutes', {}, NOW).question).toEqual(
      expect.objectContaining({ type: 'created', kind: 'pod', since: NOW - 30 * 60_000 }),
    );
    expect(scopeIncident('which deployments were created since 9am?', {}, NOW).question).toEqual(
      expect.objectContaining({
        type: 'created',
        kind: 'deployment',
        since: Date.parse('2026-03-10T09:00:00Z'),
      }),
    );
  });

  it.each([
    'which pods use the data-0 pvc?',
    'pod stuck in ContainerCreating: volume data-0 is not attached',
    'after we deployed the latest image, checkout crashes',
    'is checkout running the latest version?',
    'why did the nightly-report cronjob not run? is it suspended?',
    'which pods restarted in the last hour',
    'latency went up since the new deploy in the last hour',
    'checkout started returning 502s in the last hour',
  ])('"%s" asks no such question', (message) => {
    expect(
      ['unmounted_claims', 'floating_images', 'suspended_cronjobs', 'created'].includes(
        scopeIncident(message, {}, NOW).question?.type ?? '',
      ),
    ).toBe(false);
  });
});

describe('questions of round 14', () => {
  it('"which PVCs are unused?": the claims no pod mounts, from `kubectl get` and each pod described; a StatefulSet scaled below a claim\'s ordinal is named', async () => {
    const ns = 'analytics';
    const sts = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'warehouse-pg', namespace: ns, creationTimestamp: ago(60 * 24 * 90) },
      spec: {
        replicas: 1,
        serviceName: 'warehouse-pg',
        selector: { matchLabels: { app: 'warehouse-pg' } },
        template: {
          metadata: { labels: { app: 'warehouse-pg' } },
          spec: { containers: [{ name: 'pg', image: 'postgres:16.4' }] },
        },
      },
      status: { replicas: 1, readyReplicas: 1, currentReplicas: 1, updatedReplicas: 1 },
    };
    const pods = [
      pod('warehouse-pg-0', ns, { kind: 'StatefulSet', name: 'warehouse-pg' }, ['postgres:16.4'], {
        claims: ['data-warehouse-pg-0'],
      }),
      pod(
        'minio-6d8f9b7c4d-x2x4z',
        ns,
        { kind: 'ReplicaSet', name: 'minio-6d8f9b7c4d' },
        ['minio/minio:RELEASE.2024-10-02T17-50-41Z'],
        { claims: ['minio-data'] },
      ),
      pod('jupyter-alice', ns, { kind: 'Notebook', name: 'alice' }, ['jupyter/base:2024-10'], {
        claims: ['claim-alice'],
      }),
      pod('superset-7f9c8d6b5a-q7dnb', ns, { kind: 'ReplicaSet', name: 'superset-7f9c8d6b5a' }, [
        'apache/superset:4.0.2',
      ]),
    ];
    const claims = [
      claim('data-warehouse-pg-0', ns, '500Gi'),
      claim('data-warehouse-pg-1', ns, '500Gi'),
      claim('minio-data', ns, '200Gi'),
      claim('claim-alice', ns, '10Gi'),
      claim('claim-bob', ns, '10Gi'),
      claim('export-scratch', ns, '100Gi'),
    ];
    const world: TextWorld = {
      tables: {
        pod: getTable('Pod', pods, { now, namespace: ns }),
        persistentvolumeclaim: getTable('PersistentVolumeClaim', claims, { now, namespace: ns }),
        statefulset: getTable('StatefulSet', [sts], { now, namespace: ns }),
      },
      describe: describedAll(pods),
    };
    const { text } = await investigateAt(textTools(world), 'which PVCs are unused?', NOW, ns);
    expect(text).toMatch(
      /3 of the 6 PersistentVolumeClaims in namespace analytics are not mounted by any pod: claim-bob \(10Gi, gp3, Bound\); data-warehouse-pg-1 \(500Gi, gp3, Bound; StatefulSet warehouse-pg runs 1 replica, so ordinal 1 is gone and its claim was kept\); export-scratch \(100Gi, gp3, Bound\)\./,
    );
    expect(text).toMatch(
      /Mounted: claim-alice \(by jupyter-alice\), data-warehouse-pg-0 \(by warehouse-pg-0\), minio-data \(by minio-6d8f9b7c4d-x2x4z\)/,
    );
  });

  it('"which PVCs are not attached to anything?": a pod that cannot be described leaves the claims\' own "Used By" to tell', async () => {
    const ns = 'analytics';
    const pods = [
      pod('jupyter-alice', ns, { kind: 'Notebook', name: 'alice' }, ['jupyter/base:2024-10'], {
        claims: ['claim-alice'],
      }),
      pod('jupyter-carol', ns, { kind: 'Notebook', name: 'carol' }, ['jupyter/base:2024-10'], {
        claims: ['claim-carol'],
      }),
    ];
    const claims = [
      claim('claim-alice', ns, '10Gi'),
      claim('claim-bob', ns, '10Gi'),
      claim('claim-carol', ns, '10Gi'),
    ];
    const describedClaim = (c: Obj) => kubeDescribe(c, { events: [], now, related: pods });
    const world: TextWorld = {
      tables: {
        pod: getTable('Pod', pods, { now, namespace: ns }),
        persistentvolumeclaim: getTable('PersistentVolumeClaim', claims, { now, namespace: ns }),
      },
      // jupyter-carol's description is not served
      describe: {
        'pod/jupyter-alice': described(pods[0]!),
        ...Object.fromEntries(
          claims.map((c) => [`persistentvolumeclaim/${nameOf(c)}`, describedClaim(c)]),
        ),
      },
    };
    const { text } = await investigateAt(
      textTools(world),
      'which PVCs are not attached to anything?',
      NOW,
      ns,
    );
    expect(text).toMatch(
      /1 of the 3 PersistentVolumeClaims in namespace analytics is not mounted by any pod: claim-bob \(10Gi, gp3, Bound\)\. Mounted: claim-alice \(by jupyter-alice\), claim-carol \(by jupyter-carol\)\./,
    );
  });

  it('"any orphaned PVCs in analytics?": a claim of another namespace is left out (API objects)', async () => {
    const ns = 'analytics';
    const world: ApiWorld = {
      objects: [
        pod('jupyter-alice', ns, { kind: 'Notebook', name: 'alice' }, ['jupyter/base:2024-10'], {
          claims: ['claim-alice'],
        }),
        claim('claim-alice', ns, '10Gi'),
        claim('claim-bob', ns, '10Gi'),
        claim('scratch-tmp', 'sandbox', '50Gi'),
      ],
    };
    const { text } = await investigateAt(
      apiTools(world),
      'any orphaned PVCs in analytics?',
      NOW,
      ns,
    );
    expect(text).toMatch(
      /1 of the 2 PersistentVolumeClaims in namespace analytics is not mounted by any pod: claim-bob \(10Gi, gp3, Bound\)\./,
    );
    expect(text).not.toContain('scratch-tmp');
  });

  it('"anything running :latest?": containers whose image has the tag latest or none, per workload; a digest pins, another namespace is left out (API objects, status images resolved)', async () => {
    const ns = 'tools';
    const resolved = (p: Obj, images: string[]) => {
      const st = p['status'] as { containerStatuses: Obj[] };
      st.containerStatuses.forEach((c, i) => (c['image'] = images[i]));
      return p;
    };
    const world: ApiWorld = {
      objects: [
        resolved(
          pod('grafana-5d8f7c6b9a-kf765', ns, { kind: 'ReplicaSet', name: 'grafana-5d8f7c6b9a' }, [
            'grafana/grafana:latest',
            'quay.io/kiwigrid/k8s-sidecar:1.28.0',
          ]),
          ['docker.io/grafana/grafana:latest', 'quay.io/kiwigrid/k8s-sidecar:1.28.0'],
        ),
        resolved(
          pod(
            'docs-site-6c9d8f7b5c-n9gvj',
            ns,
            { kind: 'ReplicaSet', name: 'docs-site-6c9d8f7b5c' },
            ['nginx'],
          ),
          ['docker.io/library/nginx:latest'],
        ),
        pod('metabase-7b6c5d4e3f-659kj', ns, { kind: 'ReplicaSet', name: 'metabase-7b6c5d4e3f' }, [
          'registry.example.org:5000/metabase/metabase:v0.50.3',
        ]),
        pod('pinned-8c7b6a5d4e-abcde', ns, { kind: 'ReplicaSet', name: 'pinned-8c7b6a5d4e' }, [
          'ghcr.io/example/app@sha256:45f64480efcf920fb66560bde4238ae095e00faa465003292fac32d370ebe632',
        ]),
        pod('debug-netshoot', 'default', { kind: 'Node', name: 'x' }, ['nicolaka/netshoot:latest']),
      ],
    };
    const { text } = await investigateAt(apiTools(world), 'anything running :latest?', NOW, ns);
    expect(text).toMatch(
      /2 containers in namespace tools run an image tagged latest or with no tag \(which pulls latest\): deployment docs-site container docs-site: nginx \(no tag, so latest\); deployment grafana container grafana: grafana\/grafana:latest \(tag latest\)\. 3 other containers are pinned/,
    );
    expect(text).not.toMatch(/netshoot|metabase: |pinned container/);
  });

  it('"which images are untagged": the same from `kubectl describe pod`, one pod of each ReplicaSet read', async () => {
    const ns = 'tools';
    const pods = [
      pod('pgadmin-5z9kdt8jc8-5svn4', ns, { kind: 'ReplicaSet', name: 'pgadmin-5z9kdt8jc8' }, [
        'dpage/pgadmin4',
      ]),
      pod('pgadmin-5z9kdt8jc8-7kfmk', ns, { kind: 'ReplicaSet', name: 'pgadmin-5z9kdt8jc8' }, [
        'dpage/pgadmin4',
      ]),
      pod('wiki-6c9d8f7b5c-sthzw', ns, { kind: 'ReplicaSet', name: 'wiki-6c9d8f7b5c' }, [
        'ghcr.io/requarks/wiki:2.5.305',
      ]),
    ];
    const world: TextWorld = {
      tables: { pod: getTable('Pod', pods, { now, namespace: ns }) },
      describe: describedAll(pods),
    };
    const { text, gateway } = await investigateAt(
      textTools(world),
      'which images are untagged',
      NOW,
      ns,
    );
    expect(text).toMatch(
      /1 container in namespace tools runs an image tagged latest or with no tag \(which pulls latest\): deployment pgadmin container pgadmin: dpage\/pgadmin4 \(no tag, so latest\)\. 1 other container is pinned/,
    );
    expect(text).not.toMatch(/could not read/);
    const describedPods = gateway.calls.filter(
      (c) => c.tool === 'k8s:describe_resource' && c.params['kind'] === 'pod',
    );
    expect(
      describedPods.filter((c) => String(c.params['name']).startsWith('pgadmin-')),
    ).toHaveLength(1);
  });

  it('"which cronjobs are paused and when did they last run?": spec.suspend, the last schedule time and how that run ended, "never" for one that never ran (`kubectl get` and describe)', async () => {
    const ns = 'finance';
    const cron = (name: string, suspend: boolean, last?: string): Obj => ({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name, namespace: ns, creationTimestamp: ago(60 * 24 * 200) },
      spec: {
        schedule: '0 2 * * 0',
        suspend,
        jobTemplate: {
          spec: {
            template: {
              spec: {
                restartPolicy: 'OnFailure',
                containers: [{ name: 'run', image: `${name}:1.2.0` }],
              },
            },
          },
        },
      },
      status: last ? { lastScheduleTime: last } : {},
    });
    const job = (cronName: string, at: string, failed: boolean): Obj => ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: `${cronName}-${Date.parse(at) / 60_000}`,
        namespace: ns,
        creationTimestamp: at,
        ownerReferences: [
          { apiVersion: 'batch/v1', kind: 'CronJob', name: cronName, controller: true },
        ],
      },
      spec: { completions: 1, backoffLimit: 2, template: { spec: { containers: [] } } },
      status: failed
        ? {
            startTime: at,
            failed: 3,
            conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' }],
          }
        : {
            startTime: at,
            completionTime: new Date(Date.parse(at) + 14 * 60_000).toISOString(),
            succeeded: 1,
            conditions: [{ type: 'Complete', status: 'True' }],
          },
    });
    const crons = [
      cron('ledger-archive', true, '2026-03-01T02:00:00Z'),
      cron('fx-rates-backfill', true, '2026-02-15T04:30:00Z'),
      cron('year-end-close', true),
      cron('vat-report', false, '2026-03-08T02:00:00Z'),
    ];
    const jobs = [
      job('ledger-archive', '2026-03-01T02:00:00Z', false),
      job('fx-rates-backfill', '2026-02-15T04:30:00Z', true),
      job('vat-report', '2026-03-08T02:00:00Z', false),
    ];
    const world: TextWorld = {
      tables: {
        cronjob: getTable('CronJob', crons, { now, namespace: ns }),
        job: getTable('Job', jobs, { now, namespace: ns }),
      },
      describe: describedAll(crons),
    };
    const { text } = await investigateAt(
      textTools(world),
      'which cronjobs are paused and when did they last run?',
      NOW,
      ns,
    );
    expect(text).toMatch(/3 of the 4 CronJobs in namespace finance are suspended/);
    expect(text).toMatch(
      /fx-rates-backfill last ran 2026-02-15T04:30:00\.000Z \(23 days 7 hours ago\), and that run failed \(Job fx-rates-backfill-29518830\)/,
    );
    expect(text).toMatch(
      /ledger-archive last ran 2026-03-01T02:00:00\.000Z \(9 days 10 hours ago\), and that run succeeded \(Job ledger-archive-29538840\)/,
    );
    expect(text).toMatch(/year-end-close never ran/);
    expect(text).toMatch(/Not suspended: vat-report\./);
    // no description served: the listing's SUSPEND and LAST SCHEDULE (an age) and the Jobs' STATUS
    const { text: listed } = await investigateAt(
      textTools({ ...world, describe: {} }),
      'show the suspended cron jobs',
      NOW,
      ns,
    );
    expect(listed).toMatch(/3 of the 4 CronJobs in namespace finance are suspended/);
    expect(listed).toMatch(
      /ledger-archive last ran about 2026-03-01 \(9 days ago\), and that run succeeded \(Job ledger-archive-29538840\)/,
    );
    expect(listed).toMatch(
      /fx-rates-backfill last ran about 2026-02-15 \([^)]*\), and that run failed/,
    );
    expect(listed).toMatch(/year-end-close never ran/);
  });

  it('"what pods came up in the last 30 minutes": the namespace\'s pods by creation time, older ones left out unnamed (`kubectl get pods` AGE, then API objects)', async () => {
    const ns = 'web';
    const pods = [
      pod(
        'storefront-7d9f8b6c5d-dp5dt',
        ns,
        { kind: 'ReplicaSet', name: 'storefront-7d9f8b6c5d' },
        ['shop/storefront:3.1.0'],
        { created: 12 },
      ),
      pod(
        'cms-preview-79c9d8k7q8-6jgxl',
        ns,
        { kind: 'ReplicaSet', name: 'cms-preview-79c9d8k7q8' },
        ['shop/cms:1.0.0'],
        { created: 25 },
      ),
      pod(
        'search-ui-98c7b6d5e4-b6dpl',
        ns,
        { kind: 'ReplicaSet', name: 'search-ui-98c7b6d5e4' },
        ['shop/search-ui:2.0.1'],
        { created: 41 },
      ),
      pod(
        'cart-api-5c4b3a2d1e-x7jdj',
        ns,
        { kind: 'ReplicaSet', name: 'cart-api-5c4b3a2d1e' },
        ['shop/cart:1.9.0'],
        { created: 60 * 24 * 3 },
      ),
    ];
    const question = 'what pods came up in the last 30 minutes';
    const expected =
      /2 pods were created in namespace web since 2026-03-10T11:30:00\.000Z \(the last 30 min\): storefront-7d9f8b6c5d-dp5dt at 2026-03-10T11:48:00\.000Z \(12 min ago, deployment storefront, Running\); cms-preview-79c9d8k7q8-6jgxl at 2026-03-10T11:35:00\.000Z \(25 min ago, deployment cms-preview, Running\)\. 2 older pods left out\./;
    const text1 = (
      await investigateAt(
        textTools({ tables: { pod: getTable('Pod', pods, { now, namespace: ns }) }, describe: {} }),
        question,
        NOW,
        ns,
      )
    ).text;
    expect(text1).toMatch(expected);
    const { text } = await investigateAt(
      apiTools({
        objects: [
          ...pods,
          pod(
            'ingress-nginx-controller-5b8f7c6d4e-mmf4v',
            'ingress-nginx',
            { kind: 'ReplicaSet', name: 'ingress-nginx-controller-5b8f7c6d4e' },
            ['registry.k8s.io/ingress-nginx/controller:v1.11.3'],
            { created: 5 },
          ),
        ],
      }),
      question,
      NOW,
      ns,
    );
    expect(text).toMatch(expected);
    expect(text).not.toMatch(
      /search-ui-98c7b6d5e4-b6dpl|cart-api-5c4b3a2d1e-x7jdj|ingress-nginx-controller/,
    );
  });
});
