/**
 * The engine rules of round22 (r22i) (cause-catalog.data.ts, its "round22 (r22i)" block,
 * variables in finding-vars-r22i.ts), one test per rule, each with a near miss where it must not
 * fire: a LoadBalancer Service the in-tree cloud controller finds no suitable subnets for (its
 * address stays pending), and probes that time out in pods whose CPU limit a LimitRange default
 * set at admission (the LimitRanger annotation says so).
 */
import {
  NOW,
  answerOf,
  apiTools,
  deploymentObj,
  investigateAt,
  kubeEvent,
  namespaceObj,
  podObj,
  serviceObj,
  warningEvent,
  ago,
  stamped,
  type ApiWorld,
} from './spec-world';

describe('round22 rules (r22i): what a controller or admission set that nobody wrote', () => {
  it('a LoadBalancer Service with "could not find any suitable subnets": the answer quotes it and names the internal annotation the in-tree controller reads; a throttled sync that later succeeded: not this rule', async () => {
    const ns = 'partners';
    const world = (message: string, address: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('edge-gw', ns, ['registry.example.com/edge-gw:2.0.0'], 2, 2),
        podObj({
          name: 'edge-gw-7c9d8f6b5a-k2m4p',
          ns,
          labels: { app: 'edge-gw' },
          owner: { kind: 'ReplicaSet', name: 'edge-gw-7c9d8f6b5a' },
          boxes: [{ name: 'app', image: 'registry.example.com/edge-gw:2.0.0' }],
        }),
        {
          ...serviceObj('edge-gw', ns, { app: 'edge-gw' }, 8443, {
            port: 443,
            spec: { type: 'LoadBalancer' },
          }),
          metadata: {
            name: 'edge-gw',
            namespace: ns,
            creationTimestamp: new Date(NOW - 50 * 60_000).toISOString(),
            annotations: { 'service.beta.kubernetes.io/aws-load-balancer-scheme': 'internal' },
          },
          status: { loadBalancer: address ? { ingress: [{ hostname: 'a1b2.elb.example' }] } : {} },
        },
      ],
      events: [
        kubeEvent(
          ns,
          { kind: 'Service', name: 'edge-gw' },
          'Normal',
          'EnsuringLoadBalancer',
          'Ensuring load balancer',
          50,
          2,
          12,
          'service-controller',
        ),
        warningEvent(
          ns,
          { kind: 'Service', name: 'edge-gw' },
          'SyncLoadBalancerFailed',
          message,
          50,
          2,
          12,
          'service-controller',
        ),
      ],
    });
    const ask =
      'partners cannot connect to the new edge-gw endpoint, EXTERNAL-IP is <pending>. what blocks it?';
    const subnets = answerOf(
      (
        await investigateAt(
          apiTools(
            world(
              'Error syncing load balancer: failed to ensure load balancer: could not find any suitable subnets for creating the ELB',
              false,
            ),
          ),
          ask,
          NOW,
          ns,
        )
      ).result,
    );
    expect(subnets).toContain('could not find any suitable subnets for creating the ELB');
    expect(subnets).toContain('aws-load-balancer-internal');
    expect(subnets).toContain('aws-load-balancer-scheme: internal');
    const throttled = answerOf(
      (
        await investigateAt(
          apiTools(
            world(
              'Error syncing load balancer: failed to ensure load balancer: Throttling: Rate exceeded',
              true,
            ),
          ),
          ask,
          NOW,
          ns,
        )
      ).result,
    );
    expect(throttled).not.toContain('suitable subnets');
    expect(throttled).not.toContain('aws-load-balancer-internal');
  });

  it('liveness probes time out in pods whose CPU limit a LimitRange default set: the answer names the LimitRange, the limit and the throttling; a CPU limit in the pod spec itself: not said', async () => {
    const ns = 'search';
    const world = (ranger: boolean): ApiWorld => {
      const pods = ['p8d2x', 'w4k7n'].map((s) =>
        podObj({
          name: `finder-7f5b8d9c6d-${s}`,
          ns,
          labels: { app: 'finder' },
          owner: { kind: 'ReplicaSet', name: 'finder-7f5b8d9c6d' },
          created: 40,
          ...(ranger
            ? {
                annotations: {
                  'kubernetes.io/limit-ranger':
                    'LimitRanger plugin set: cpu limit for container app',
                },
              }
            : {}),
          boxes: [
            {
              name: 'app',
              image: 'registry.example.com/finder:3.8.1',
              restarts: 3,
              ready: false,
              ports: [{ containerPort: 8080, name: 'http' }],
              resources: { requests: { cpu: '250m' }, limits: { cpu: '500m' } },
              lastState: {
                terminated: {
                  exitCode: 143,
                  reason: 'Error',
                  finishedAt: new Date(NOW - 5 * 60_000).toISOString(),
                },
              },
            },
          ],
        }),
      );
      return {
        objects: [
          namespaceObj(ns),
          {
            apiVersion: 'v1',
            kind: 'LimitRange',
            metadata: {
              name: 'container-defaults',
              namespace: ns,
              creationTimestamp: new Date(NOW - 20 * 3600_000).toISOString(),
            },
            spec: {
              limits: [
                { type: 'Container', default: { cpu: '500m' }, defaultRequest: { cpu: '100m' } },
              ],
            },
          },
          deploymentObj('finder', ns, ['registry.example.com/finder:3.8.1'], 2, 2, ['app']),
          ...pods,
        ],
        events: pods.flatMap((p) => {
          const name = String((p['metadata'] as Record<string, unknown>)['name']);
          return [
            warningEvent(
              ns,
              { kind: 'Pod', name },
              'Unhealthy',
              'Liveness probe failed: Get "http://10.20.10.31:8080/actuator/health/liveness": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
              35,
              2,
              9,
            ),
            kubeEvent(
              ns,
              { kind: 'Pod', name },
              'Normal',
              'Killing',
              'Container app failed liveness probe, will be restarted',
              30,
              3,
              3,
            ),
          ];
        }),
      };
    };
    const ask =
      'finder p99 went to seconds after the 3.8.1 deploy and pods keep restarting. roll back?';
    const set = answerOf((await investigateAt(apiTools(world(true)), ask, NOW, ns)).result);
    expect(set).toMatch(/LimitRange/);
    expect(set).toContain('LimitRanger plugin set: cpu limit for container app');
    expect(set).toContain('500m');
    expect(set).toContain('throttled');
    const own = answerOf((await investigateAt(apiTools(world(false)), ask, NOW, ns)).result);
    expect(own).toMatch(/probe/i);
    expect(own).not.toMatch(/LimitRange/);
  });

  it('"x509: certificate is valid for *.corp.example.net ..., not api.pay.example.io" in a pod whose dnsConfig searches corp.example.net with ndots 5: the answer names the search domain and the address dialled; no dnsConfig: the mismatch without a search-domain claim', async () => {
    const ns = 'payments';
    const pod = 'payout-6f9d4c7b58-k7w2p';
    const world = (dns: boolean): ApiWorld => {
      const p = podObj({
        name: pod,
        ns,
        labels: { app: 'payout' },
        owner: { kind: 'ReplicaSet', name: 'payout-6f9d4c7b58' },
        created: 200,
        boxes: [{ name: 'app', image: 'registry.example.com/payout:3.2.0' }],
      });
      if (dns)
        (p['spec'] as Record<string, unknown>)['dnsConfig'] = {
          searches: ['corp.example.net'],
          options: [{ name: 'ndots', value: '5' }],
        };
      return {
        objects: [
          namespaceObj(ns),
          deploymentObj('payout', ns, ['registry.example.com/payout:3.2.0'], 1, 1, ['app']),
          p,
        ],
        logs: {
          [pod]: stamped(
            [40, 20, 5].flatMap((m): [number, string][] => [
              [
                m,
                `{"level":"debug","msg":"dialing upstream","host":"api.pay.example.io","addr":"10.40.8.15:443"}`,
              ],
              [
                m,
                `{"level":"error","msg":"payout request failed","error":"Post \\"https://api.pay.example.io/v2/payouts\\": tls: failed to verify certificate: x509: certificate is valid for *.corp.example.net, corp.example.net, not api.pay.example.io"}`,
              ],
            ]),
          ),
        },
      };
    };
    const ask =
      'payout has not sent a single payout since this morning, every call fails with an x509 error. did the provider break their certificate?';
    const search = answerOf((await investigateAt(apiTools(world(true)), ask, NOW, ns)).result);
    expect(search).toContain('certificate is valid for *.corp.example.net');
    expect(search).toContain('search domain corp.example.net');
    expect(search).toContain('ndots 5');
    expect(search).toContain('10.40.8.15:443');
    const plain = answerOf((await investigateAt(apiTools(world(false)), ask, NOW, ns)).result);
    expect(plain).toContain('certificate is valid for *.corp.example.net');
    expect(plain).not.toContain('search domain');
  });

  it('ingress-nginx refused by a pod being stopped (SIGTERM in its log) that has no preStop hook: the answer names the pod, SIGTERM and the missing preStop; the same refusals with a preStop hook: not said', async () => {
    const ns = 'web';
    const app = 'account-ui';
    const image = 'registry.example.com/account-ui:2026.09.23';
    const controller = 'ingress-nginx-controller-5b8f6c9d7c-7101b';
    const old = `${app}-58d9b7c6f4-v4tq7`;
    const fresh = [`${app}-6c7f9d5b84-r2m8k`, `${app}-6c7f9d5b84-x7c4q`];
    const world = (preStop: boolean): ApiWorld => {
      const stopping = podObj({
        name: old,
        ns,
        labels: { app },
        owner: { kind: 'ReplicaSet', name: `${app}-58d9b7c6f4` },
        created: 120,
        podIP: '10.12.70.154',
        boxes: [{ name: 'app', image, ports: [{ containerPort: 3000, name: 'http' }] }],
      });
      (stopping['metadata'] as Record<string, unknown>)['deletionTimestamp'] = ago(1);
      if (preStop)
        (stopping['spec'] as { containers: Record<string, unknown>[] }).containers[0]![
          'lifecycle'
        ] = { preStop: { exec: { command: ['sleep', '10'] } } };
      return {
        objects: [
          namespaceObj(ns),
          namespaceObj('ingress-nginx'),
          deploymentObj(app, ns, [image], 2, 2, ['app']),
          stopping,
          ...fresh.map((name, i) =>
            podObj({
              name,
              ns,
              labels: { app },
              owner: { kind: 'ReplicaSet', name: `${app}-6c7f9d5b84` },
              created: 3,
              podIP: `10.12.34.${140 + i}`,
              boxes: [{ name: 'app', image, ports: [{ containerPort: 3000, name: 'http' }] }],
            }),
          ),
          serviceObj(app, ns, { app }, 3000, { port: 80 }),
          {
            apiVersion: 'networking.k8s.io/v1',
            kind: 'Ingress',
            metadata: { name: app, namespace: ns, creationTimestamp: ago(60 * 24 * 40) },
            spec: {
              ingressClassName: 'nginx',
              rules: [
                {
                  host: 'account.example.com',
                  http: {
                    paths: [
                      {
                        path: '/',
                        pathType: 'Prefix',
                        backend: { service: { name: app, port: { number: 80 } } },
                      },
                    ],
                  },
                },
              ],
            },
            status: { loadBalancer: { ingress: [{ ip: '34.120.7.19' }] } },
          },
          podObj({
            name: controller,
            ns: 'ingress-nginx',
            labels: {
              'app.kubernetes.io/name': 'ingress-nginx',
              'app.kubernetes.io/component': 'controller',
            },
            owner: { kind: 'ReplicaSet', name: 'ingress-nginx-controller-5b8f6c9d7c' },
            boxes: [
              { name: 'controller', image: 'registry.k8s.io/ingress-nginx/controller:v1.11.3' },
            ],
          }),
        ],
        events: [
          kubeEvent(
            ns,
            { kind: 'Deployment', name: app },
            'Normal',
            'ScalingReplicaSet',
            `Scaled down replica set ${app}-58d9b7c6f4 to 0 from 1`,
            1,
            1,
            1,
            'deployment-controller',
          ),
          kubeEvent(
            ns,
            { kind: 'Deployment', name: app },
            'Normal',
            'ScalingReplicaSet',
            `Scaled down replica set ${app}-7f6b5d8c9b to 0 from 1`,
            90,
            90,
            1,
            'deployment-controller',
          ),
          kubeEvent(
            ns,
            { kind: 'Pod', name: old },
            'Normal',
            'Killing',
            'Stopping container app',
            1,
            1,
            1,
          ),
        ],
        logs: {
          [old]: [
            `{"level":30,"time":"${ago(100)}","msg":"listening","port":3000}`,
            `{"level":30,"time":"${ago(1)}","msg":"SIGTERM received, closing http server"}`,
            `{"level":30,"time":"${ago(1)}","msg":"http server closed, 0 open connections"}`,
          ].join('\n'),
          [controller]: [1, 1, 1]
            .map(
              (m, i) =>
                `${ago(m).slice(0, 19).replace(/-/g, '/').replace('T', ' ')} [error] 31#31: *${482110 + i} connect() failed (111: Connection refused) while connecting to upstream, client: 81.14.7.20, server: account.example.com, request: "GET /account/orders HTTP/2.0", upstream: "http://10.12.70.154:3000/account/orders", host: "account.example.com"`,
            )
            .join('\n'),
        },
      };
    };
    const ask =
      'every time we deploy account-ui we get a spike of 502s for a few seconds. what is going on?';
    const bare = answerOf((await investigateAt(apiTools(world(false)), ask, NOW, ns)).result);
    expect(bare).toContain(
      `pod ${old}, which was being stopped ("SIGTERM received, closing http server")`,
    );
    expect(bare).toContain('no preStop hook');
    const hooked = answerOf((await investigateAt(apiTools(world(true)), ask, NOW, ns)).result);
    expect(hooked).toContain('Connection refused');
    expect(hooked).not.toContain('preStop');
  });

  it("ingress-nginx upstream timeouts while Calico's felix set the VXLAN tunnel MTU to 1500: the answer names the MTU, VXLAN and felix's line; a tunnel MTU of 1450: not said", async () => {
    const ns = 'shop';
    const app = 'catalog';
    const image = 'registry.example.com/catalog:4.2.0';
    const controller = 'ingress-nginx-controller-7d5c9c8b9f-7101b';
    const calico = 'calico-node-4xq8n';
    const pods = [`${app}-5f8b7c6d9d-89b92`, `${app}-5f8b7c6d9d-zb890`];
    const world = (mtu: number): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('ingress-nginx'),
        namespaceObj('kube-system'),
        deploymentObj(app, ns, [image], 2, 2, ['app']),
        ...pods.map((name, i) =>
          podObj({
            name,
            ns,
            labels: { app },
            owner: { kind: 'ReplicaSet', name: `${app}-5f8b7c6d9d` },
            podIP: `10.244.${2 + i}.31`,
            boxes: [{ name: 'app', image, ports: [{ containerPort: 8080, name: 'http' }] }],
          }),
        ),
        serviceObj(app, ns, { app }, 8080, { port: 80 }),
        {
          apiVersion: 'networking.k8s.io/v1',
          kind: 'Ingress',
          metadata: { name: app, namespace: ns, creationTimestamp: ago(60 * 24 * 40) },
          spec: {
            ingressClassName: 'nginx',
            rules: [
              {
                host: 'shop.example.com',
                http: {
                  paths: [
                    {
                      path: '/',
                      pathType: 'Prefix',
                      backend: { service: { name: app, port: { number: 80 } } },
                    },
                  ],
                },
              },
            ],
          },
          status: { loadBalancer: { ingress: [{ ip: '34.120.7.19' }] } },
        },
        podObj({
          name: controller,
          ns: 'ingress-nginx',
          labels: {
            'app.kubernetes.io/name': 'ingress-nginx',
            'app.kubernetes.io/component': 'controller',
          },
          owner: { kind: 'ReplicaSet', name: 'ingress-nginx-controller-7d5c9c8b9f' },
          boxes: [
            { name: 'controller', image: 'registry.k8s.io/ingress-nginx/controller:v1.11.3' },
          ],
        }),
        podObj({
          name: calico,
          ns: 'kube-system',
          labels: { 'k8s-app': 'calico-node' },
          owner: { kind: 'DaemonSet', name: 'calico-node' },
          created: 30,
          boxes: [{ name: 'calico-node', image: 'docker.io/calico/node:v3.28.1' }],
        }),
      ],
      logs: {
        [calico]: [
          `${ago(29).slice(0, 19).replace('T', ' ')}.118 [INFO][63] felix/config_params.go 566: Parsed value for VXLANMTU: ${mtu} (from environment variable)`,
          `${ago(29).slice(0, 19).replace('T', ' ')}.640 [INFO][63] felix/vxlan_mgr.go 468: VXLAN device MTU needs to be updated device="vxlan.calico" new=${mtu} old=${mtu === 1500 ? 1450 : 1500}`,
        ].join('\n'),
        [controller]: [20, 12, 4]
          .map(
            (m, i) =>
              `${ago(m).slice(0, 19).replace(/-/g, '/').replace('T', ' ')} [error] 38#38: *${912737 + i} upstream timed out (110: Operation timed out) while reading upstream, client: 10.60.1.5, server: shop.example.com, request: "GET /api/catalog/products HTTP/1.1", upstream: "http://10.244.${2 + (i % 2)}.31:8080/api/catalog/products", host: "shop.example.com"`,
          )
          .join('\n'),
      },
    });
    const ask = 'catalog in shop answers 504 on product list pages, they time out after 60s';
    const big = answerOf((await investigateAt(apiTools(world(1500)), ask, NOW, ns)).result);
    expect(big).toContain('upstream timed out');
    expect(big).toContain('VXLAN tunnel MTU is 1500');
    expect(big).toContain('new=1500 old=1450');
    const fine = answerOf((await investigateAt(apiTools(world(1450)), ask, NOW, ns)).result);
    expect(fine).toContain('upstream timed out');
    expect(fine).not.toContain('MTU');
  });

  it('question: which ingress paths point at a Service that does not exist or a port it does not have: the path, the Service and the port; every backend present: none named', async () => {
    const ns = 'web';
    const ingress = (name: string, paths: [string, string, number | string][]) => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name, namespace: ns, creationTimestamp: ago(60 * 24 * 40) },
      spec: {
        ingressClassName: 'nginx',
        rules: [
          {
            host: `${name}.example.com`,
            http: {
              paths: paths.map(([path, svc, port]) => ({
                path,
                pathType: 'Prefix',
                backend: {
                  service: {
                    name: svc,
                    port: typeof port === 'number' ? { number: port } : { name: port },
                  },
                },
              })),
            },
          },
        ],
      },
    });
    const world = (broken: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        serviceObj('shop-web', ns, { app: 'shop-web' }, 8080, { port: 80 }),
        serviceObj('shop-api', ns, { app: 'shop-api' }, 8080, { port: 80 }),
        serviceObj('offers-web', ns, { app: 'offers-web' }, 8080, { port: 80 }),
        ingress('shop', [
          ['/', 'shop-web', 'http'],
          ['/api/v2', 'shop-api', broken ? 'grpc' : 'http'],
        ]),
        ingress('offers', [['/deals', broken ? 'deals-web' : 'offers-web', 80]]),
      ],
    });
    const ask =
      "after yesterday's cleanup in the web namespace: which ingress paths now point at a Service that doesn't exist, or at a port the Service doesn't have?";
    const bad = (await investigateAt(apiTools(world(true)), ask, NOW, ns)).text;
    expect(bad).toContain('/deals -> deals-web:80 (no Service deals-web in namespace web exists)');
    expect(bad).toContain(
      '/api/v2 -> shop-api:grpc (Service shop-api exposes only port 80 (http))',
    );
    const good = (await investigateAt(apiTools(world(false)), ask, NOW, ns)).text;
    expect(good).toContain('No Ingress path in namespace web points at a missing Service or port');
  });
});
