/**
 * Four kinds of question about the cluster's layout and what runs unmanaged or degraded, each
 * asked in words other than the bench's and answered from outputs shaped like real ones (`kubectl
 * get` tables and `kubectl describe` text as libs/kube prints them, Kubernetes API objects as
 * JSON): how many nodes run per zone and instance type, which pods no controller owns, which hosts
 * the Ingresses serve with which TLS Secret, which Deployments have fewer ready replicas than
 * desired and since when.
 */
import { describe as kubeDescribe, getTable } from '@inquest/kube';
import { ClusterModel } from './model';
import { observe } from './observe';
import { underReplicated } from './questions-fleet';
import { scopeIncident } from './scope';
import {
  NOW,
  ago,
  apiTools,
  deploymentObj,
  investigateAt,
  podObj,
  textTools,
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

function node(name: string, labels: Record<string, string>, providerID?: string): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      creationTimestamp: ago(60 * 24 * 12),
      labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', ...labels },
    },
    spec: providerID ? { providerID } : {},
    status: {
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: ago(60 * 24 * 12) }],
      allocatable: { cpu: '3920m', memory: '15Gi', pods: '58' },
      capacity: { cpu: '4', memory: '16Gi', pods: '58' },
      nodeInfo: { kubeletVersion: 'v1.30.6' },
    },
  };
}

/** a pod as the API returns it; `owner: undefined` leaves ownerReferences out (a bare pod) */
function pod(
  name: string,
  ns: string,
  owner: { kind: string; name: string } | undefined,
  extra: {
    labels?: Record<string, string>;
    phase?: 'Running' | 'Succeeded';
    ready?: boolean;
    conditions?: Obj[];
  } = {},
): Obj {
  const o = podObj({
    name,
    ns,
    labels: extra.labels ?? { app: name },
    owner: owner ?? { kind: 'ReplicaSet', name: 'none' },
    boxes: [
      {
        name: 'main',
        image: 'busybox:1.36',
        ...(extra.phase === 'Succeeded'
          ? { state: { terminated: { exitCode: 0, reason: 'Completed' } }, ready: false }
          : extra.ready === false
            ? { ready: false }
            : {}),
      },
    ],
    phase: extra.phase,
    ...(extra.conditions ? { conditions: extra.conditions } : {}),
  });
  if (!owner) delete (o['metadata'] as Obj)['ownerReferences'];
  return o;
}

function ingress(
  name: string,
  ns: string,
  rules: [host: string, service: string][],
  tls: [secret: string, hosts: string[]][],
): Obj {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name, namespace: ns, creationTimestamp: ago(60 * 24 * 30) },
    spec: {
      ingressClassName: 'nginx',
      rules: rules.map(([host, service]) => ({
        host,
        http: {
          paths: [
            {
              path: '/',
              pathType: 'Prefix',
              backend: { service: { name: service, port: { number: 80 } } },
            },
          ],
        },
      })),
      ...(tls.length ? { tls: tls.map(([secretName, hosts]) => ({ hosts, secretName })) } : {}),
    },
    status: { loadBalancer: { ingress: [{ hostname: 'lb-1.elb.eu-west-1.amazonaws.com' }] } },
  };
}

describe('questions of round 15: phrasings', () => {
  it.each([
    ['how are our nodes spread across AZs?', 'node_topology'],
    ['what instance types do we run, per zone?', 'node_topology'],
    ['node count per availability zone please', 'node_topology'],
    ['how many spot vs on-demand nodes do we have?', 'node_topology'],
    ['any pods not owned by a deployment?', 'bare_pods'],
    ['list orphan pods in ops-tools', 'bare_pods'],
    ['are there naked pods in the default namespace?', 'bare_pods'],
    ['which standalone pods are running in batch?', 'bare_pods'],
    ['which pods have no controller?', 'bare_pods'],
    ['which domains does the shop ingress serve and with which certificate secret?', 'ingress_tls'],
    ['what hosts are exposed via ingress in shop and what tls certs do they use?', 'ingress_tls'],
    ['which deployments are under-replicated and since when?', 'under_replicated'],
    ['any degraded deployments in storefront?', 'under_replicated'],
    ['which deployments have fewer ready replicas than desired?', 'under_replicated'],
    ['show me deployments that are not fully available', 'under_replicated'],
  ])('"%s" is a %s question', (message, type) => {
    expect(scopeIncident(message, {}, NOW).question?.type).toBe(type);
  });

  it('"from the shop namespace ingresses" names the namespace shop, not "ingresses"', () => {
    const scope = scopeIncident(
      'which hostnames do we serve from the shop namespace ingresses, and which TLS secret does each use?',
      {},
      NOW,
    );
    expect(scope.namespaces).not.toContain('ingresses');
    expect(scope.question).toEqual(
      expect.objectContaining({ type: 'ingress_tls', near: expect.arrayContaining(['shop']) }),
    );
  });

  it.each([
    'checkout deployment not ready, what is wrong?',
    'pods pending: 0/7 nodes are available in zone eu-west-1b, why?',
    'shop.example.com shows a certificate error, which secret is the ingress using?',
    'which PVCs are orphaned?',
    'orders-api is degraded since 10:00',
    'why are the new spot nodes in zone b NotReady?',
    'how many of the web pods run on spot nodes in zone c?',
  ])('"%s" asks no such question', (message) => {
    expect(
      ['node_topology', 'bare_pods', 'ingress_tls', 'under_replicated'].includes(
        scopeIncident(message, {}, NOW).question?.type ?? '',
      ),
    ).toBe(false);
  });
});

describe('questions of round 15', () => {
  it('"how are our nodes spread across AZs?": a listing without labels leaves each node described; the beta labels and the provider ID count too', async () => {
    const nodes = [
      node('ip-10-0-1-10', {
        'topology.kubernetes.io/zone': 'eu-west-1a',
        'node.kubernetes.io/instance-type': 'm6i.xlarge',
        'karpenter.sh/capacity-type': 'on-demand',
      }),
      node('ip-10-0-1-11', {
        'topology.kubernetes.io/zone': 'eu-west-1a',
        'node.kubernetes.io/instance-type': 'm6i.xlarge',
        'karpenter.sh/capacity-type': 'on-demand',
      }),
      // an older node: only the beta labels
      node('ip-10-0-2-20', {
        'failure-domain.beta.kubernetes.io/zone': 'eu-west-1b',
        'beta.kubernetes.io/instance-type': 'r6i.2xlarge',
        'karpenter.sh/capacity-type': 'on-demand',
      }),
      // no zone label: the provider ID says it
      node(
        'ip-10-0-3-30',
        {
          'node.kubernetes.io/instance-type': 'c6i.2xlarge',
          'karpenter.sh/capacity-type': 'spot',
        },
        'aws:///eu-west-1c/i-0abc123def4567890',
      ),
    ];
    const world: TextWorld = {
      tables: { node: getTable('Node', nodes, { now }) },
      describe: describedAll(nodes),
    };
    const { text, gateway } = await investigateAt(
      textTools(world),
      'how are our nodes spread across AZs, and on which instance types?',
      NOW,
    );
    expect(text).toMatch(
      /4 nodes across 3 zones .*Per zone: eu-west-1a: 2 \(2 m6i\.xlarge\); eu-west-1b: 1 \(1 r6i\.2xlarge\); eu-west-1c: 1 \(1 c6i\.2xlarge\)\. Per instance type: m6i\.xlarge 2, c6i\.2xlarge 1, r6i\.2xlarge 1\. By capacity type: 3 on-demand, 1 spot \(ip-10-0-3-30, c6i\.2xlarge in eu-west-1c\)\./,
    );
    expect(
      gateway.calls.filter((c) => c.tool === 'k8s:describe_resource' && c.params['kind'] === 'node')
        .length,
    ).toBe(4);
  });

  it('"any pods not owned by a deployment?": pods without ownerReferences, a Succeeded one too, from JSON objects', async () => {
    const ns = 'ops-tools';
    const objects = [
      pod('runbook-bot-7d9f8c6b5-abcde', ns, { kind: 'ReplicaSet', name: 'runbook-bot-7d9f8c6b5' }),
      pod('bot-cache-0', ns, { kind: 'StatefulSet', name: 'bot-cache' }),
      pod(
        'oncall-sync-29393760-qm99p',
        ns,
        { kind: 'Job', name: 'oncall-sync-29393760' },
        { phase: 'Succeeded' },
      ),
      pod('debug-jdoe', ns, undefined),
      pod('reindex-manual-1118', ns, undefined, { phase: 'Succeeded' }),
      pod('busybox-test', 'sandbox', undefined),
    ];
    const { text } = await investigateAt(
      apiTools({ objects }),
      'any pods in ops-tools not owned by a deployment or any other controller?',
      NOW,
      ns,
    );
    expect(text).toMatch(
      /2 of the 5 pods in namespace ops-tools are not managed by any controller \(no ownerReferences\): debug-jdoe \(Running[^)]*\), reindex-manual-1118 \(Succeeded[^)]*\)\. Nothing recreates them/,
    );
    expect(text).toMatch(/Managed by a controller: .*1 by statefulset bot-cache/);
    expect(text).not.toMatch(/busybox-test/);
  });

  it('"list the naked pods": from `kubectl get` and each pod described (no "Controlled By" line)', async () => {
    const ns = 'batch';
    const pods = [
      pod('etl-6f7d9c8b4-x2x4z', ns, { kind: 'ReplicaSet', name: 'etl-6f7d9c8b4' }),
      pod('pg-client-tmp', ns, undefined),
    ];
    const world: TextWorld = {
      tables: { pod: getTable('Pod', pods, { now, namespace: ns }) },
      describe: describedAll(pods),
    };
    const { text } = await investigateAt(textTools(world), 'list the naked pods in batch', NOW, ns);
    expect(text).toMatch(
      /1 of the 2 pods in namespace batch is not managed by any controller \(no ownerReferences\): pg-client-tmp \(Running/,
    );
    expect(text).toMatch(/Managed by a controller: 1 by replicaset etl-6f7d9c8b4/);
  });

  it('"which domains does the shop ingress serve and with which certificate secret?": each Ingress described, hosts grouped by Secret, a host without TLS said so', async () => {
    const ns = 'shop';
    const ingresses = [
      ingress(
        'storefront',
        ns,
        [
          ['shopwise.io', 'storefront'],
          ['www.shopwise.io', 'storefront'],
        ],
        [['shopwise-io-tls', ['shopwise.io', 'www.shopwise.io']]],
      ),
      ingress(
        'admin-ui',
        ns,
        [['admin.shopwise.io', 'admin-ui']],
        [['shopwise-wildcard-tls', ['admin.shopwise.io']]],
      ),
      ingress('status-page', ns, [['status.shopwise.io', 'status-page']], []),
    ];
    const world: TextWorld = {
      tables: { ingress: getTable('Ingress', ingresses, { now, namespace: ns }) },
      describe: describedAll(ingresses),
    };
    const { text } = await investigateAt(
      textTools(world),
      'which domains does the shop ingress serve and with which certificate secret?',
      NOW,
      ns,
    );
    expect(text).toMatch(
      /3 Ingresses in namespace shop serve 4 hosts: Ingress admin-ui serves admin\.shopwise\.io with TLS Secret shopwise-wildcard-tls\. Ingress status-page serves status\.shopwise\.io without TLS \(no spec\.tls entry: plain HTTP\)\. Ingress storefront serves shopwise\.io and www\.shopwise\.io with TLS Secret shopwise-io-tls\. Host without TLS: status\.shopwise\.io\./,
    );
  });

  it('"what hosts are exposed via ingress in shop and what tls certs do they use?": from JSON objects; a TLS entry without hosts covers the Ingress\'s hosts', async () => {
    const ns = 'shop';
    const api = ingress(
      'shop-api',
      ns,
      [['api.shopwise.io', 'shop-api']],
      [['api-shopwise-io-tls', ['api.shopwise.io']]],
    );
    const docs = ingress('docs', ns, [['docs.shopwise.io', 'docs']], [['docs-tls', []]]);
    const { text } = await investigateAt(
      apiTools({ objects: [api, docs] }),
      'what hosts are exposed via ingress in shop and what tls certs do they use?',
      NOW,
      ns,
    );
    expect(text).toMatch(
      /2 Ingresses in namespace shop serve 2 hosts: Ingress docs serves docs\.shopwise\.io with TLS Secret docs-tls\. Ingress shop-api serves api\.shopwise\.io with TLS Secret api-shopwise-io-tls\. Every host has TLS\./,
    );
  });

  it('"which deployments are under-replicated, and since when?": the Available condition\'s time, else the unready pod\'s Ready condition; scaled to 0 is not below desired', async () => {
    const ns = 'storefront';
    const at = (minutes: number) => ago(minutes);
    const objects = [
      deploymentObj('web', ns, ['web:12.4.0'], 3, 3),
      deploymentObj('recommendations', ns, ['recommendations:0.9.1'], 0, 0),
      deploymentObj('search-ui', ns, ['search-ui:4.2.0'], 3, 2, [], {
        conditions: [
          {
            type: 'Available',
            status: 'False',
            reason: 'MinimumReplicasUnavailable',
            lastTransitionTime: at(138),
          },
          { type: 'Progressing', status: 'True', lastTransitionTime: at(60 * 24 * 9) },
        ],
      }),
      // ten replicas, one short: Available stays True (within maxUnavailable)
      deploymentObj('cart-api', ns, ['cart-api:2.19.0'], 10, 9, [], {
        conditions: [
          { type: 'Available', status: 'True', lastTransitionTime: at(60 * 24 * 9) },
          { type: 'Progressing', status: 'True', lastTransitionTime: at(60 * 24 * 9) },
        ],
      }),
      pod(
        'cart-api-5c7b9d8f6-q7dnb',
        ns,
        { kind: 'ReplicaSet', name: 'cart-api-5c7b9d8f6' },
        {
          labels: { app: 'cart-api' },
          ready: false,
          conditions: [
            { type: 'PodScheduled', status: 'True', lastTransitionTime: at(60 * 24 * 9) },
            { type: 'Ready', status: 'False', lastTransitionTime: at(47) },
          ],
        },
      ),
    ];
    const { text } = await investigateAt(
      apiTools({ objects }),
      'which deployments in storefront are under-replicated, and since when?',
      NOW,
      ns,
    );
    expect(text).toMatch(
      /2 of the 4 Deployments in namespace storefront have fewer ready replicas than desired: cart-api 9\/10 ready, since 2026-03-10 11:13:00 UTC, 47 min ago \(pod cart-api-5c7b9d8f6-q7dnb not Ready\)[^.]*\. search-ui 2\/3 ready, since 2026-03-10 09:42:00 UTC, 2 h 18 min ago \(Available=False \(MinimumReplicasUnavailable\)\)\. Scaled to 0 \(not below desired\): recommendations\./,
    );
  });

  it('"which deployments have fewer ready replicas than desired?": a Deployment read whole keeps its condition\'s time when described again (describe shows none)', () => {
    const ns = 'storefront';
    const dep = deploymentObj('profile-api', ns, ['profile-api:5.0.2'], 2, 1, [], {
      conditions: [
        {
          type: 'Available',
          status: 'False',
          reason: 'MinimumReplicasUnavailable',
          lastTransitionTime: ago(50),
        },
        { type: 'Progressing', status: 'True', lastTransitionTime: ago(60 * 24 * 9) },
      ],
    });
    // read whole (its conditions' times), then described again by another step (no times)
    const model = new ClusterModel();
    const ctx = { tool: 'k8s:get', verb: 'get', kind: 'deployment', namespace: ns, now: NOW };
    model.add(observe(dep, ctx), ctx.tool);
    model.add(
      observe(described(dep), { ...ctx, tool: 'k8s:describe', verb: 'describe' }),
      'k8s:describe',
    );
    expect(model.get('deployment', 'profile-api', ns)?.conditions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'Available', status: 'False', at: NOW - 50 * 60_000 }),
      ]),
    );
    expect(underReplicated(model, 'deployment', ns, NOW)).toMatch(
      /1 of the 1 Deployments in namespace storefront has fewer ready replicas than desired: profile-api 1\/2 ready, since 2026-03-10 11:10:00 UTC, 50 min ago \(Available=False/,
    );
  });
});
