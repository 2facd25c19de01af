/**
 * The round20 network-path and DNS rules (r20net), each with its near miss, on real-shaped API
 * objects:
 * - an error burst that stopped long ago (CoreDNS logs only its errors, so its log ends with them)
 *   whose clients recovered since is history, not a current upstream failure;
 * - external-dns skipping a record whose TXT registry owner is another --txt-owner-id;
 * - every cluster DNS replica on a node that is NotReady takes DNS down for the whole cluster;
 * - an ingress NetworkPolicy that admits other namespaces by a label the namespace no longer
 *   carries drops the ingress controller's connections (504).
 */
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  deploymentObj,
  investigateAt,
  podObj,
  serviceObj,
  stamp,
  type ApiWorld,
} from './spec-world';

type Obj = Record<string, unknown>;

const nodeObj = (name: string, ready: 'True' | 'False' | 'Unknown', labels: Obj = {}): Obj => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: {
    name,
    labels: { 'kubernetes.io/hostname': name, ...labels },
    creationTimestamp: ago(60 * 24 * 200),
  },
  spec: {},
  status: {
    conditions: [
      {
        type: 'Ready',
        status: ready,
        reason: ready === 'True' ? 'KubeletReady' : 'NodeStatusUnknown',
        message:
          ready === 'True'
            ? 'kubelet is posting ready status'
            : 'Kubelet stopped posting node status.',
        lastTransitionTime: ago(ready === 'True' ? 60 * 24 * 30 : 6),
      },
    ],
    nodeInfo: { kubeletVersion: 'v1.30.4' },
  },
});

const labelledNs = (name: string, labels: Obj = {}, created = 60 * 24 * 300): Obj => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: {
    name,
    labels: { 'kubernetes.io/metadata.name': name, ...labels },
    creationTimestamp: ago(created),
  },
  spec: { finalizers: ['kubernetes'] },
  status: { phase: 'Active' },
});

const corednsPod = (name: string, node: string, ready = true) =>
  podObj({
    name,
    ns: 'kube-system',
    labels: { 'k8s-app': 'kube-dns' },
    owner: { kind: 'ReplicaSet', name: 'coredns-5d78c9869d' },
    boxes: [{ name: 'coredns', image: 'registry.k8s.io/coredns/coredns:v1.11.1', ready }],
    node,
    created: 60 * 24 * 20,
  });

describe('r20net: an error burst that stopped hours ago, whose clients recovered, is history', () => {
  const coredns = ['coredns-5d78c9869d-q2x7k', 'coredns-5d78c9869d-w9f4m'];
  const client = 'payment-worker-7b9c6d5f4-k8s2p';
  const timeout = (m: number, q: string, port: number) =>
    `${stamp(m)} [ERROR] plugin/errors: 2 ${q}. A: read udp 10.0.12.77:${port}->10.0.0.2:53: i/o timeout`;
  const world = (lastErrorMinutesAgo: number, clientRecovered: boolean): ApiWorld => {
    const start = lastErrorMinutesAgo + 8;
    const burst = [
      `${stamp(60 * 24 * 9)} .:53`,
      `${stamp(60 * 24 * 9)} CoreDNS-1.11.1`,
      timeout(start, 'api.stripe.com', 43824),
      timeout(start - 2, 'api.stripe.com', 51352),
      timeout(start - 5, 'sqs.eu-west-1.amazonaws.com', 56807),
      timeout(lastErrorMinutesAgo, 'api.stripe.com', 50615),
    ].join('\n');
    return {
      objects: [
        labelledNs('kube-system'),
        labelledNs('payments'),
        nodeObj('ip-10-0-12-41', 'True'),
        deploymentObj('coredns', 'kube-system', ['registry.k8s.io/coredns/coredns:v1.11.1'], 2, 2),
        ...coredns.map((n) => corednsPod(n, 'ip-10-0-12-41')),
        deploymentObj(
          'payment-worker',
          'payments',
          ['registry.example.net/payment-worker:3.2.0'],
          1,
          1,
        ),
        {
          apiVersion: 'batch/v1',
          kind: 'Job',
          metadata: {
            name: 'fx-sync-29857155',
            namespace: 'payments',
            creationTimestamp: ago(start + 1),
            labels: { 'batch.kubernetes.io/job-name': 'fx-sync-29857155' },
          },
          spec: { backoffLimit: 3, completions: 1, parallelism: 1 },
          status: {
            startTime: ago(start + 1),
            ...(clientRecovered
              ? { succeeded: 1, failed: 1, completionTime: ago(start - 3) }
              : { failed: 1, active: 1 }),
          },
        },
        podObj({
          name: 'fx-sync-29857155-6csjz',
          ns: 'payments',
          labels: { 'batch.kubernetes.io/job-name': 'fx-sync-29857155' },
          owner: { kind: 'Job', name: 'fx-sync-29857155' },
          phase: 'Failed',
          restartPolicy: 'Never',
          created: start + 1,
          boxes: [
            {
              name: 'fx-sync',
              image: 'registry.example.net/fx-sync:1.3.0',
              state: {
                terminated: {
                  reason: 'Error',
                  exitCode: 1,
                  startedAt: ago(start + 1),
                  finishedAt: ago(start - 1),
                },
              },
            },
          ],
        }),
        ...(clientRecovered
          ? [
              podObj({
                name: 'fx-sync-29857155-hcp26',
                ns: 'payments',
                labels: { 'batch.kubernetes.io/job-name': 'fx-sync-29857155' },
                owner: { kind: 'Job', name: 'fx-sync-29857155' },
                phase: 'Succeeded',
                restartPolicy: 'Never',
                created: start - 1,
                boxes: [
                  {
                    name: 'fx-sync',
                    image: 'registry.example.net/fx-sync:1.3.0',
                    state: {
                      terminated: {
                        reason: 'Completed',
                        exitCode: 0,
                        startedAt: ago(start - 1),
                        finishedAt: ago(start - 3),
                      },
                    },
                  },
                ],
              }),
            ]
          : []),
        podObj({
          name: client,
          ns: 'payments',
          labels: { app: 'payment-worker' },
          owner: { kind: 'ReplicaSet', name: 'payment-worker-7b9c6d5f4' },
          boxes: [{ name: 'payment-worker', image: 'registry.example.net/payment-worker:3.2.0' }],
          node: 'ip-10-0-12-41',
        }),
      ],
      logs: {
        'fx-sync-29857155-6csjz': [
          `${stamp(start + 1)} INFO fetching https://api.exchangerates.example/v1/latest`,
          `${stamp(start - 1)} ERROR request failed: getaddrinfo EAI_AGAIN api.exchangerates.example (attempt 3/3)`,
        ].join('\n'),
        'fx-sync-29857155-hcp26': `${stamp(start - 3)} INFO upserted 168 rows into fx_rates`,
        [coredns[0]!]: burst,
        [coredns[1]!]: burst,
        [client]: [
          `${stamp(start + 1)} level=INFO msg="payment captured" payment_id=pay_1`,
          `${stamp(start - 2)} level=WARN msg="psp call failed, will retry" err="dial tcp: lookup api.stripe.com on 172.20.0.10:53: read udp 10.0.14.60:37711->172.20.0.10:53: i/o timeout"`,
          ...(clientRecovered
            ? [
                `${stamp(lastErrorMinutesAgo - 2)} level=INFO msg="payment captured" payment_id=pay_2`,
              ]
            : []),
        ].join('\n'),
      },
    };
  };
  const ask = (w: ApiWorld) =>
    investigateAt(
      apiTools(w),
      'CoreDNSErrorsHigh fired for coredns in kube-system and resolved by itself; payment-worker in payments retried. Is cluster DNS healthy now?',
      NOW,
      'kube-system',
    );

  // an alert on the environment: the failed Job pod (a client) and coredns are both read
  const askClient = (w: ApiWorld) =>
    investigateAt(
      apiTools(w),
      'CoreDNSErrorsHigh fired for prod-eu last night and resolved by itself. Is cluster DNS healthy now, and is there anything left to fix from it?',
      NOW,
    );

  it('coredns timeouts to its upstream that ended six hours ago, a client served since: no problem', async () => {
    const { result } = await askClient(world(6 * 60, true));
    expect(result.root_cause.description).toMatch(/^No problem found/);
  });

  it('near miss: the same burst ended ten minutes ago: the upstream resolver is the cause', async () => {
    const { result } = await askClient(world(10, true));
    const text = answerOf(result);
    expect(text).not.toMatch(/^No problem found/);
    expect(text).toMatch(/upstream resolver 10\.0\.0\.2/);
  });

  it('near miss: ended hours ago but no client logged anything since: not called history', async () => {
    const { result } = await ask(world(6 * 60, false));
    expect(answerOf(result)).toMatch(/upstream resolver 10\.0\.0\.2/);
  });
});

describe('r20net: external-dns skips a record another --txt-owner-id owns', () => {
  const pod = 'external-dns-6f8d9c7b5-dfz74';
  const skip = (host: string, target: string, found: string, required: string) =>
    `time="${ago(2)}" level=debug msg="Skipping endpoint ${host} 300 IN CNAME ${target} [] because owner id does not match, found: \\"${found}\\", required: \\"${required}\\""`;
  const world = (lines: string[]): ApiWorld => ({
    objects: [
      labelledNs('partners'),
      labelledNs('external-dns'),
      nodeObj('ip-10-42-11-87', 'True'),
      deploymentObj('partners-api', 'partners', ['registry.example.net/partners-api:2.4.1'], 1, 1),
      podObj({
        name: 'partners-api-5c7d8f9b6-vm844',
        ns: 'partners',
        labels: { app: 'partners-api' },
        owner: { kind: 'ReplicaSet', name: 'partners-api-5c7d8f9b6' },
        boxes: [{ name: 'partners-api', image: 'registry.example.net/partners-api:2.4.1' }],
        node: 'ip-10-42-11-87',
      }),
      deploymentObj(
        'external-dns',
        'external-dns',
        ['registry.k8s.io/external-dns/external-dns:v0.15.0'],
        1,
        1,
      ),
      podObj({
        name: pod,
        ns: 'external-dns',
        labels: { app: 'external-dns' },
        owner: { kind: 'ReplicaSet', name: 'external-dns-6f8d9c7b5' },
        boxes: [
          { name: 'external-dns', image: 'registry.k8s.io/external-dns/external-dns:v0.15.0' },
        ],
        node: 'ip-10-42-11-87',
      }),
    ],
    logs: {
      [pod]: lines.join('\n'),
      'partners-api-5c7d8f9b6-vm844': `{"time":"${ago(3)}","level":"INFO","msg":"stats","requests":0}`,
    },
  });
  const ask = (w: ApiWorld) =>
    investigateAt(
      apiTools(w),
      'partners.example.io stopped working this morning (clients get DNS errors). The partners-api pods look fine. What is wrong?',
      NOW,
      'partners',
    );

  it('the record is owned by the old cluster: external-dns, both owner ids and the stale target are named', async () => {
    const { result } = await ask(
      world([
        `time="${ago(2)}" level=debug msg="Endpoints generated from ingress: partners/partners-api: [partners.example.io 0 IN CNAME lb-green.elb.example.com []]"`,
        skip('partners.example.io', 'lb-blue.elb.example.com', 'prod-blue', 'prod-green'),
        `time="${ago(2)}" level=info msg="All records are already up to date"`,
      ]),
    );
    const text = answerOf(result);
    expect(text).toMatch(/external-dns/);
    expect(text).toMatch(/owner id "prod-blue"/);
    expect(text).toMatch(/--txt-owner-id=prod-green/);
    expect(text).toMatch(/lb-blue\.elb\.example\.com/);
  });

  it('near miss: external-dns updates the record itself: no owner mismatch is claimed', async () => {
    const { result } = await ask(
      world([
        `time="${ago(2)}" level=info msg="Desired change: UPSERT partners.example.io CNAME"`,
        `time="${ago(2)}" level=info msg="2 record(s) were successfully updated"`,
      ]),
    );
    expect(answerOf(result)).not.toMatch(/owner id/);
  });
});

describe('r20net: every cluster DNS replica on a node that is NotReady', () => {
  const client = 'orders-api-6d5c4b3a2-56g89';
  const world = (secondOn: string): ApiWorld => ({
    objects: [
      labelledNs('kube-system'),
      labelledNs('orders'),
      nodeObj('cp-1', 'Unknown', { 'node-role.kubernetes.io/control-plane': '' }),
      nodeObj('worker-1', 'True'),
      deploymentObj('coredns', 'kube-system', ['registry.k8s.io/coredns/coredns:v1.11.1'], 2, 0),
      corednsPod('coredns-5d78c9869d-gllvb', 'cp-1', false),
      corednsPod('coredns-5d78c9869d-w5frw', secondOn, secondOn !== 'cp-1'),
      deploymentObj('orders-api', 'orders', ['registry.example.net/orders-api:5.1.0'], 1, 1),
      podObj({
        name: client,
        ns: 'orders',
        labels: { app: 'orders-api' },
        owner: { kind: 'ReplicaSet', name: 'orders-api-6d5c4b3a2' },
        boxes: [{ name: 'orders-api', image: 'registry.example.net/orders-api:5.1.0' }],
        node: 'worker-1',
      }),
    ],
    logs: {
      [client]: [4, 3, 2, 1]
        .map(
          (m) =>
            `{"level":"error","ts":"${ago(m)}","msg":"query failed","error":"hostname resolving error (lookup orders-db.orders.svc.cluster.local on 10.96.0.10:53: read udp 10.244.6.28:44968->10.96.0.10:53: i/o timeout)"}`,
        )
        .join('\n'),
    },
  });
  const ask = (w: ApiWorld) =>
    investigateAt(
      apiTools(w),
      'orders-api returns 5xx since a few minutes, apps log name resolution errors. What broke?',
      NOW,
      'orders',
    );

  it('both coredns replicas on the NotReady node: cluster DNS is down, the node named', async () => {
    const { result } = await ask(world('cp-1'));
    const text = answerOf(result);
    expect(text).toMatch(/both coredns replicas/);
    expect(text).toMatch(/run on cp-1, which is NotReady/);
    expect(text).toMatch(/no ready endpoints/);
  });

  it('near miss: one replica still runs on a Ready node: not blamed on the node', async () => {
    const { result } = await ask(world('worker-1'));
    expect(answerOf(result)).not.toMatch(/coredns replicas .* run on/);
  });
});

describe('r20net: an ingress NetworkPolicy names a namespace label the namespace does not carry', () => {
  const ns = 'billing';
  const policy = (name: string, spec: Obj): Obj => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name, namespace: ns, creationTimestamp: ago(60 * 24 * 40) },
    spec,
  });
  const world = (controllerNsLabels: Obj): ApiWorld => ({
    objects: [
      labelledNs(ns),
      labelledNs('ingress-nginx', controllerNsLabels, 45),
      labelledNs('monitoring'),
      nodeObj('ip-10-8-14-52', 'True'),
      deploymentObj('billing-portal', ns, ['registry.example.net/billing-portal:3.0.2'], 1, 1),
      podObj({
        name: 'billing-portal-7f6e5d4c3-sxqnl',
        ns,
        labels: { app: 'billing-portal' },
        owner: { kind: 'ReplicaSet', name: 'billing-portal-7f6e5d4c3' },
        boxes: [
          {
            name: 'billing-portal',
            image: 'registry.example.net/billing-portal:3.0.2',
            ports: [{ name: 'http', containerPort: 8080 }],
          },
        ],
        node: 'ip-10-8-14-52',
      }),
      serviceObj('billing-portal', ns, { app: 'billing-portal' }, 8080, { port: 80 }),
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        metadata: { name: 'billing-portal', namespace: ns, creationTimestamp: ago(60 * 24 * 90) },
        spec: {
          ingressClassName: 'nginx',
          rules: [
            {
              host: 'billing.example.com',
              http: {
                paths: [
                  {
                    path: '/',
                    pathType: 'Prefix',
                    backend: { service: { name: 'billing-portal', port: { number: 80 } } },
                  },
                ],
              },
            },
          ],
        },
      },
      policy('default-deny-ingress', { podSelector: {}, policyTypes: ['Ingress'] }),
      policy('allow-same-namespace', {
        podSelector: {},
        ingress: [{ from: [{ podSelector: {} }] }],
        policyTypes: ['Ingress'],
      }),
      policy('allow-from-ingress-nginx', {
        podSelector: { matchLabels: { app: 'billing-portal' } },
        ingress: [
          {
            from: [{ namespaceSelector: { matchLabels: { name: 'ingress-nginx' } } }],
            ports: [{ protocol: 'TCP', port: 8080 }],
          },
        ],
        policyTypes: ['Ingress'],
      }),
      policy('allow-prometheus-scrape', {
        podSelector: {},
        ingress: [
          {
            from: [
              {
                namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } },
              },
            ],
            ports: [{ protocol: 'TCP', port: 9090 }],
          },
        ],
        policyTypes: ['Ingress'],
      }),
    ],
    logs: {
      'billing-portal-7f6e5d4c3-sxqnl': `${stamp(50)} INFO GET /healthz 200 1ms kube-probe/1.31`,
    },
  });
  const ask = (w: ApiWorld) =>
    investigateAt(
      apiTools(w),
      'billing.example.com has been returning 504 Gateway Time-out for an hour. The billing-portal pods are Running and Ready. Why?',
      NOW,
      ns,
    );

  it('the recreated controller namespace lacks name=ingress-nginx: the policy and the label are named', async () => {
    const { result } = await ask(world({}));
    const text = answerOf(result);
    expect(text).toMatch(/NetworkPolicy allow-from-ingress-nginx/);
    expect(text).toMatch(/labelled name=ingress-nginx/);
    expect(text).toMatch(
      /namespace ingress-nginx has only the labels kubernetes\.io\/metadata\.name=ingress-nginx/,
    );
  });

  it('near miss: the controller namespace carries the label: the policy is not blamed', async () => {
    const { result } = await ask(world({ name: 'ingress-nginx' }));
    expect(answerOf(result)).not.toMatch(/allow-from-ingress-nginx/);
  });
});
