/**
 * Four kinds of question, each asked in words other than the bench's and answered from outputs
 * shaped like real ones (Kubernetes API objects as JSON or YAML, `kubectl get` tables and
 * `kubectl describe` text): which containers run privileged or as root, which Services open node
 * ports, which pods use hostNetwork, and a Deployment's rollout history after a rollback.
 */
import { scopeIncident } from './scope';
import {
  NOW,
  ago,
  apiTools,
  investigateAt,
  table,
  textTools,
  yamlTools,
  type ApiWorld,
  type TextWorld,
} from './spec-world';

type Obj = Record<string, unknown>;

/** a running Pod as the API returns it */
function pod(p: {
  name: string;
  ns: string;
  owner: { kind: string; name: string };
  containers: Obj[];
  initContainers?: Obj[];
  podSecurity?: Obj;
  hostNetwork?: boolean;
}): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: p.name,
      namespace: p.ns,
      labels: { app: p.owner.name.replace(/-[a-z0-9]{8,10}$/, '') },
      creationTimestamp: ago(60 * 24),
      ownerReferences: [{ apiVersion: 'apps/v1', kind: p.owner.kind, name: p.owner.name }],
    },
    spec: {
      nodeName: 'ip-10-40-1-17.eu-west-1.compute.internal',
      ...(p.hostNetwork ? { hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet' } : {}),
      ...(p.podSecurity ? { securityContext: p.podSecurity } : {}),
      ...(p.initContainers ? { initContainers: p.initContainers } : {}),
      containers: p.containers,
    },
    status: {
      phase: 'Running',
      ...(p.hostNetwork ? { podIP: '10.40.1.17' } : { podIP: '10.244.3.9' }),
      containerStatuses: p.containers.map((c) => ({
        name: c['name'],
        image: c['image'],
        ready: true,
        restartCount: 0,
        state: { running: { startedAt: ago(60 * 24) } },
      })),
    },
  };
}

const ctr = (name: string, securityContext?: Obj): Obj => ({
  name,
  image: `registry.example.org/${name}:1.0`,
  ...(securityContext ? { securityContext } : {}),
});

describe('questions of round 12', () => {
  it('"anything running as root in dmz?": privileged containers (init ones too) and runAsUser 0, from the pod specs', async () => {
    const ns = 'dmz';
    const world: ApiWorld = {
      objects: [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
        pod({
          name: 'gateway-6f7d8c9b5-x2k4p',
          ns,
          owner: { kind: 'ReplicaSet', name: 'gateway-6f7d8c9b5' },
          containers: [
            ctr('haproxy', { runAsUser: 99, runAsNonRoot: true }),
            ctr('packet-capture', { privileged: true }),
          ],
        }),
        pod({
          name: 'gateway-6f7d8c9b5-q9r7t',
          ns,
          owner: { kind: 'ReplicaSet', name: 'gateway-6f7d8c9b5' },
          containers: [
            ctr('haproxy', { runAsUser: 99, runAsNonRoot: true }),
            ctr('packet-capture', { privileged: true }),
          ],
        }),
        pod({
          name: 'ftp-bridge-7c8d9f6b4-m3n8v',
          ns,
          owner: { kind: 'ReplicaSet', name: 'ftp-bridge-7c8d9f6b4' },
          podSecurity: { runAsUser: 0 },
          containers: [ctr('vsftpd')],
        }),
        pod({
          name: 'shield-5b6c7d8e9-h4j6k',
          ns,
          owner: { kind: 'ReplicaSet', name: 'shield-5b6c7d8e9' },
          podSecurity: { runAsUser: 101, runAsNonRoot: true },
          initContainers: [ctr('kernel-tuner', { privileged: true, runAsUser: 0 })],
          containers: [ctr('coraza')],
        }),
        pod({
          name: 'quota-api-8d9e6f7a5-p2s5w',
          ns,
          owner: { kind: 'ReplicaSet', name: 'quota-api-8d9e6f7a5' },
          podSecurity: { runAsUser: 1000, runAsNonRoot: true },
          containers: [ctr('quota-api', { allowPrivilegeEscalation: false })],
        }),
      ],
    };
    const { text } = await investigateAt(apiTools(world), 'anything running as root in dmz?', NOW);
    expect(text).toMatch(/\b3 containers (?:in namespace dmz )?run privileged or as root/);
    expect(text).toMatch(/container packet-capture of deployment gateway \(privileged: true/);
    expect(text).toMatch(/container vsftpd of deployment ftp-bridge \(runAsUser: 0/);
    expect(text).toMatch(/init container kernel-tuner of deployment shield \(privileged: true/);
    expect(text).not.toMatch(/haproxy of|coraza of|quota-api of/);
  });

  it('"which pods are privileged?" over a listing table and YAML objects (kubernetes-mcp-server)', async () => {
    const ns = 'edge';
    const world = {
      objects: [
        pod({
          name: 'sniffer-4d5e6f7a8-b1c2d',
          ns,
          owner: { kind: 'ReplicaSet', name: 'sniffer-4d5e6f7a8' },
          containers: [ctr('tcpdump', { privileged: true })],
        }),
        pod({
          name: 'web-9a8b7c6d5-e3f4g',
          ns,
          owner: { kind: 'ReplicaSet', name: 'web-9a8b7c6d5' },
          containers: [ctr('web', { runAsUser: 101, runAsNonRoot: true })],
        }),
      ],
    };
    const { text } = await investigateAt(yamlTools(world), 'which pods are privileged?', NOW, ns);
    expect(text).toMatch(/\b1 container (?:in namespace edge )?runs privileged or as root/);
    expect(text).toContain('container tcpdump of deployment sniffer (privileged: true');
    expect(text).not.toContain('web of deployment');
  });

  it('"what node ports are open in shop?": NodePort Services and their node ports from `kubectl get svc`, a LoadBalancer\'s told apart', async () => {
    const world: TextWorld = {
      tables: {
        pod: table(
          ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
          [['storefront-7d8f9c6b5-a1b2c', '1/1', 'Running', '0', '3d']],
        ),
        service: table(
          ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE'],
          [
            ['storefront', 'ClusterIP', '172.20.14.3', '<none>', '80/TCP', '40d'],
            ['kiosk-sync', 'NodePort', '172.20.99.1', '<none>', '7000:30700/TCP', '40d'],
            [
              'label-printer',
              'NodePort',
              '172.20.7.44',
              '<none>',
              '9100:31100/TCP,515:31515/TCP',
              '12d',
            ],
            [
              'public-api',
              'LoadBalancer',
              '172.20.3.8',
              'a1b2.elb.eu-west-1.amazonaws.com',
              '443:30443/TCP',
              '90d',
            ],
          ],
        ),
      },
      describe: {},
    };
    const { text } = await investigateAt(
      textTools(world),
      'what node ports are open in shop?',
      NOW,
      'shop',
    );
    expect(text).toMatch(/\b2 Services are of type NodePort/);
    expect(text).toMatch(/kiosk-sync on node port 30700\/TCP/);
    expect(text).toMatch(
      /label-printer on node port 31100\/TCP \(service port 9100\), node port 31515/,
    );
    expect(text).toMatch(
      /LoadBalancer Service also opens node ports[^.]*public-api on node port 30443/,
    );
    expect(text).not.toMatch(/storefront on node port/);
  });

  it('"who uses host networking, apart from kube-system?": the pods whose spec sets hostNetwork, the excluded namespace left out', async () => {
    const world: ApiWorld = {
      objects: [
        ...['kube-system', 'monitoring', 'shop'].map((name) => ({
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name },
        })),
        pod({
          name: 'kube-proxy-7xk2p',
          ns: 'kube-system',
          owner: { kind: 'DaemonSet', name: 'kube-proxy' },
          hostNetwork: true,
          containers: [ctr('kube-proxy', { privileged: true })],
        }),
        ...['n4c8d', 'r7t2w'].map((s) =>
          pod({
            name: `node-exporter-${s}`,
            ns: 'monitoring',
            owner: { kind: 'DaemonSet', name: 'node-exporter' },
            hostNetwork: true,
            containers: [ctr('node-exporter')],
          }),
        ),
        pod({
          name: 'grafana-5c6d7e8f9-k3m4n',
          ns: 'monitoring',
          owner: { kind: 'ReplicaSet', name: 'grafana-5c6d7e8f9' },
          containers: [ctr('grafana')],
        }),
        pod({
          name: 'cart-6d7e8f9a1-p5q6r',
          ns: 'shop',
          owner: { kind: 'ReplicaSet', name: 'cart-6d7e8f9a1' },
          containers: [ctr('cart')],
        }),
      ],
    };
    const { text } = await investigateAt(
      apiTools(world),
      'who uses host networking, apart from kube-system?',
      NOW,
    );
    expect(text).toMatch(/\b2 pods outside kube-system run with hostNetwork: true/);
    expect(text).toContain('node-exporter-n4c8d');
    expect(text).toContain('node-exporter-r7t2w');
    expect(text).not.toContain('kube-proxy-7xk2p');
    expect(text).not.toMatch(/grafana-5c6d7e8f9-k3m4n|cart-6d7e8f9a1-p5q6r/);
  });

  it('"show me the rollout history of checkout-api": revisions, images and the current one after a rollback, from the ReplicaSets read whole', async () => {
    const ns = 'shop';
    const rs = (
      hash: string,
      revision: number,
      tag: string,
      replicas: number,
      extra: Obj = {},
    ) => ({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `checkout-api-${hash}`,
        namespace: ns,
        creationTimestamp: ago(60 * 24 * (10 - revision)),
        annotations: { 'deployment.kubernetes.io/revision': String(revision), ...extra },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'checkout-api' }],
      },
      spec: {
        replicas,
        template: {
          spec: {
            containers: [{ name: 'app', image: `registry.example.org/checkout-api:${tag}` }],
          },
        },
      },
      status: { replicas, readyReplicas: replicas },
    });
    const world: ApiWorld = {
      objects: [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: {
            name: 'checkout-api',
            namespace: ns,
            annotations: { 'deployment.kubernetes.io/revision': '7' },
          },
          spec: {
            replicas: 2,
            template: {
              spec: {
                containers: [{ name: 'app', image: 'registry.example.org/checkout-api:2.3.0' }],
              },
            },
          },
          status: { replicas: 2, readyReplicas: 2, availableReplicas: 2 },
        },
        rs('5f6a7b8c9d', 4, '2.2.0', 0),
        rs('6a7b8c9d0e', 6, '2.4.0', 0),
        rs('7b8c9d0e1f', 7, '2.3.0', 2, { 'deployment.kubernetes.io/revision-history': '5' }),
        pod({
          name: 'checkout-api-7b8c9d0e1f-a1b2c',
          ns,
          owner: { kind: 'ReplicaSet', name: 'checkout-api-7b8c9d0e1f' },
          containers: [{ name: 'app', image: 'registry.example.org/checkout-api:2.3.0' }],
        }),
      ],
    };
    const { text } = await investigateAt(
      apiTools(world),
      'show me the rollout history of checkout-api',
      NOW,
      ns,
    );
    expect(text).toMatch(/revision 4: registry\.example\.org\/checkout-api:2\.2\.0/);
    expect(text).toMatch(/revision 6: registry\.example\.org\/checkout-api:2\.4\.0/);
    expect(text).toMatch(/revision 7 \(current\): registry\.example\.org\/checkout-api:2\.3\.0/);
    expect(text).toMatch(/Revision 7 was revision 5 before/);
  });

  it('"what revisions does billing have?" from `kubectl get rs` and `kubectl describe rs` text (annotations)', async () => {
    const describeRs = (
      hash: string,
      revision: number,
      tag: string,
      replicas: number,
      history?: string,
    ) =>
      [
        `Name:           billing-${hash}`,
        'Namespace:      finance',
        `Selector:       app=billing,pod-template-hash=${hash}`,
        'Labels:         app=billing',
        `Annotations:    deployment.kubernetes.io/desired-replicas: 2`,
        '                deployment.kubernetes.io/max-replicas: 3',
        `                deployment.kubernetes.io/revision: ${revision}`,
        ...(history
          ? [`                deployment.kubernetes.io/revision-history: ${history}`]
          : []),
        'Controlled By:  Deployment/billing',
        `Replicas:       ${replicas} current / ${replicas} desired`,
        `Pods Status:    ${replicas} Running / 0 Waiting / 0 Succeeded / 0 Failed`,
        'Pod Template:',
        '  Labels:  app=billing',
        '  Containers:',
        '   billing:',
        `    Image:        registry.example.org/billing:${tag}`,
        '    Port:         8080/TCP',
        'Events:          <none>',
        '',
      ].join('\n');
    const world: TextWorld = {
      tables: {
        pod: table(
          ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
          [['billing-8c9d0e1f2a-x1y2z', '1/1', 'Running', '0', '2h']],
        ),
        deployment: table(
          ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'],
          [['billing', '2/2', '2', '2', '90d']],
        ),
        replicaset: table(
          ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE'],
          [
            ['billing-7b8c9d0e1f', '0', '0', '0', '3d'],
            ['billing-8c9d0e1f2a', '2', '2', '2', '10d'],
            ['billing-worker-9d0e1f2a3b', '1', '1', '1', '10d'],
          ],
        ),
      },
      describe: {
        'replicaset/billing-7b8c9d0e1f': describeRs('7b8c9d0e1f', 3, '1.9.0', 0),
        'replicaset/billing-8c9d0e1f2a': describeRs('8c9d0e1f2a', 4, '1.8.2', 2, '2'),
        // another Deployment's, whose name starts with billing-
        'replicaset/billing-worker-9d0e1f2a3b': describeRs('9d0e1f2a3b', 9, '7.7.7', 1)
          .replace(/^Name:(\s+)billing-/, 'Name:$1billing-worker-')
          .replace('Deployment/billing', 'Deployment/billing-worker'),
      },
    };
    const { text } = await investigateAt(
      textTools(world),
      'what revisions does billing have?',
      NOW,
      'finance',
    );
    expect(text).toMatch(/revision 3: registry\.example\.org\/billing:1\.9\.0/);
    expect(text).toMatch(/revision 4 \(current\): registry\.example\.org\/billing:1\.8\.2/);
    expect(text).toMatch(/Revision 4 was revision 2 before/);
    expect(text).not.toContain('7.7.7');
  });

  it.each([
    ['anything running as root?', 'privileged'],
    ['which pods are privileged in payments', 'privileged'],
    ['security audit: list containers that run as root', 'privileged'],
    ['what node ports are open?', 'node_ports'],
    ['which services use a nodeport in retail?', 'node_ports'],
    ['who uses host networking?', 'host_network'],
    ['which pods have hostNetwork enabled outside kube-system?', 'host_network'],
    ['show me the rollout history of checkout-api', 'rollout_history'],
    ['what revisions does checkout-api have?', 'rollout_history'],
    ['what does the deployment history of cart-svc look like?', 'rollout_history'],
  ])('"%s" asks a %s question', (message, type) => {
    expect(scopeIncident(message, {}, NOW).question?.type).toBe(type);
  });

  it.each([
    'what is the root cause of the checkout-api outage?',
    'why is the pod rejected? it says: violates PodSecurity "restricted": privileged',
    'checkout-api crashes since revision 12, why?',
  ])('"%s" is no such question', (message) => {
    expect(['privileged', 'node_ports', 'host_network', 'rollout_history']).not.toContain(
      scopeIncident(message, {}, NOW).question?.type,
    );
  });

  it('"not counting kube-system" leaves that namespace out of a hostNetwork question', () => {
    expect(
      scopeIncident('which pods run with hostNetwork: true, not counting kube-system?', {}, NOW)
        .question,
    ).toMatchObject({ type: 'host_network', excluded: ['kube-system'] });
  });
});
