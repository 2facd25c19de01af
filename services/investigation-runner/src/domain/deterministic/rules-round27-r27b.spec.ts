/**
 * The engine rules of round27 (r27b) (cause-catalog.data.ts, its "round27 (r27b)" block; their
 * variables in finding-vars-r27b.ts; the gatherer's r27bFollow), one test per rule, each with a
 * near miss: the workload is healthy and the cause sits in a component beside it (a cert-manager
 * issuer, a store at its shard limit with its cleanup CronJob suspended).
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
  serviceObj,
  stamped,
  type ApiWorld,
} from './spec-world';

const answer = async (world: ApiWorld, ask: string, ns: string) =>
  answerOf((await investigateAt(apiTools(world), ask, NOW, ns)).result);

const readyPod = (app: string, ns: string, suffix: string, image: string) =>
  podObj({
    name: `${app}-6d9f7c-${suffix}`,
    ns,
    labels: { app, 'pod-template-hash': '6d9f7c' },
    owner: { kind: 'ReplicaSet', name: `${app}-6d9f7c` },
    created: 60 * 20,
    boxes: [{ name: app, image }],
  });

describe('round27 rules (r27b)', () => {
  it('a Certificate waiting for a ClusterIssuer whose ACME account registration was refused: the answer names the issuer and the refusal; an issuer that is Ready: not this rule', async () => {
    const ns = 'vendors';
    const world = (refused: boolean, annotated = true): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj('vendor-gw', ns, ['registry.example/vendor-gw:1.4.0'], 2, 2),
        readyPod('vendor-gw', ns, 'a1', 'registry.example/vendor-gw:1.4.0'),
        readyPod('vendor-gw', ns, 'b2', 'registry.example/vendor-gw:1.4.0'),
        serviceObj('vendor-gw', ns, { app: 'vendor-gw' }, 8080),
        {
          apiVersion: 'networking.k8s.io/v1',
          kind: 'Ingress',
          metadata: {
            name: 'vendor-gw',
            namespace: ns,
            creationTimestamp: ago(60 * 15),
            ...(annotated ? { annotations: { 'cert-manager.io/cluster-issuer': 'acme-dns' } } : {}),
          },
          spec: {
            ingressClassName: 'nginx',
            tls: [{ hosts: ['vendors.shop.example'], secretName: 'vendor-gw-tls' }],
            rules: [
              {
                host: 'vendors.shop.example',
                http: {
                  paths: [
                    {
                      path: '/',
                      pathType: 'Prefix',
                      backend: { service: { name: 'vendor-gw', port: { number: 8080 } } },
                    },
                  ],
                },
              },
            ],
          },
        },
        {
          apiVersion: 'cert-manager.io/v1',
          kind: 'Certificate',
          metadata: { name: 'vendor-gw-tls', namespace: ns, creationTimestamp: ago(60 * 15) },
          spec: {
            secretName: 'vendor-gw-tls',
            dnsNames: ['vendors.shop.example'],
            issuerRef: { group: 'cert-manager.io', kind: 'ClusterIssuer', name: 'acme-dns' },
          },
          status: {
            conditions: [
              {
                type: 'Ready',
                status: 'False',
                reason: 'DoesNotExist',
                message: 'Issuing certificate as Secret does not exist',
                lastTransitionTime: ago(60 * 15),
              },
            ],
          },
        },
        {
          apiVersion: 'cert-manager.io/v1',
          kind: 'ClusterIssuer',
          metadata: { name: 'acme-dns', creationTimestamp: ago(60 * 16) },
          spec: { acme: { server: 'https://acme.example/directory' } },
          status: {
            conditions: [
              refused
                ? {
                    type: 'Ready',
                    status: 'False',
                    reason: 'ErrRegisterACMEAccount',
                    message:
                      'Failed to register ACME account: 400 urn:ietf:params:acme:error:invalidContact: Error validating contact(s) :: contact email has forbidden domain "example.org"',
                    lastTransitionTime: ago(60 * 16),
                  }
                : {
                    type: 'Ready',
                    status: 'True',
                    reason: 'ACMEAccountRegistered',
                    message: 'The ACME account was registered with the ACME server',
                    lastTransitionTime: ago(60 * 16),
                  },
            ],
          },
        },
      ],
    });
    const ask =
      'Clients say "x509: certificate is valid for ingress.local, not vendors.shop.example". Why has vendor-gw no proper certificate?';
    const hit = await answer(world(true), ask, ns);
    expect(hit).toMatch(/ClusterIssuer acme-dns/);
    expect(hit).toMatch(/invalidContact/);
    expect(hit).toMatch(/forbidden domain "example\.org"/);
    expect(hit).toMatch(/vendor-gw/);
    // the Ingress's annotations not shown: the Certificate's issuerRef and TLS Secret lead there
    const bare = await answer(world(true, false), ask, ns);
    expect(bare).toMatch(/ClusterIssuer acme-dns/);
    expect(bare).toMatch(/Certificate vendor-gw-tls/);
    const miss = await answer(world(false), ask, ns);
    expect(miss).not.toMatch(/refused to register its account/);
  });

  it('a log shipper whose events Elasticsearch rejects at its shard limit, with a suspended cleanup CronJob: the answer names the limit and the CronJob; another 400 rejection: not this rule', async () => {
    const ns = 'observability';
    const image = 'docker.elastic.co/beats/filebeat:8.14.3';
    const shardLine =
      'WARN [elasticsearch] elasticsearch/client.go:414 Cannot index event (status=400): {"type":"validation_exception","reason":"Validation Failed: 1: this action would add [2] shards, but this cluster currently has [1500]/[1500] maximum normal shards open;"}, dropping event!';
    const otherLine =
      'WARN [elasticsearch] elasticsearch/client.go:414 Cannot index event (status=400): {"type":"mapper_parsing_exception","reason":"failed to parse field [level] of type [long]"}, dropping event!';
    const world = (line: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        ...['x1', 'x2'].map((s) =>
          podObj({
            name: `log-shipper-${s}`,
            ns,
            labels: { app: 'log-shipper' },
            owner: { kind: 'DaemonSet', name: 'log-shipper' },
            created: 60 * 24 * 10,
            boxes: [{ name: 'filebeat', image }],
          }),
        ),
        {
          apiVersion: 'batch/v1',
          kind: 'CronJob',
          metadata: {
            name: 'index-retention',
            namespace: ns,
            creationTimestamp: ago(60 * 24 * 90),
          },
          spec: {
            schedule: '0 2 * * *',
            suspend: true,
            jobTemplate: {
              spec: {
                template: {
                  spec: {
                    restartPolicy: 'Never',
                    containers: [{ name: 'curator', image: 'registry.example/curator:5.8' }],
                  },
                },
              },
            },
          },
          status: { lastScheduleTime: ago(60 * 24 * 40), lastSuccessfulTime: ago(60 * 24 * 40) },
        },
      ],
      logs: {
        'log-shipper-x1': stamped([
          [60 * 9, line],
          [5, line],
        ]),
        'log-shipper-x2': stamped([
          [60 * 9, line],
          [4, line],
        ]),
      },
    });
    const ask =
      'No new logs arrive in Kibana since midnight. The log-shipper pods are running. What broke?';
    const hit = await answer(world(shardLine), ask, ns);
    expect(hit).toMatch(/1500\/1500 shards open/);
    expect(hit).toMatch(/CronJob index-retention is suspended/);
    const miss = await answer(world(otherLine), ask, ns);
    expect(miss).not.toMatch(/shard limit/);
  });
  it('a request that states the Ingress has its load balancer address and asks why a host gives NXDOMAIN, external-dns rejected by the provider on a conflicting CNAME: the answer names the rejected batch and the conflicting host; an AccessDenied instead: not this rule', async () => {
    const ns = 'members';
    const conflict =
      'time="2026-03-10T11:50:12Z" level=error msg="InvalidChangeBatch: [RRSet of type A with DNS name docs.shop.example. is not permitted because a conflicting RRSet of type  CNAME with the same DNS name already exists in zone shop.example.]\\n\\tstatus code: 400, request id: 1"';
    const denied =
      'time="2026-03-10T11:50:12Z" level=error msg="AccessDenied: User: arn:aws:sts::1:assumed-role/dns is not authorized to perform: route53:ChangeResourceRecordSets\\n\\tstatus code: 403, request id: 2"';
    const world = (error: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('external-dns'),
        deploymentObj('club-web', ns, ['registry.example/club-web:3.0.0'], 2, 2),
        readyPod('club-web', ns, 'a1', 'registry.example/club-web:3.0.0'),
        readyPod('club-web', ns, 'b2', 'registry.example/club-web:3.0.0'),
        serviceObj('club-web', ns, { app: 'club-web' }, 8080),
        {
          apiVersion: 'networking.k8s.io/v1',
          kind: 'Ingress',
          metadata: { name: 'club-web', namespace: ns, creationTimestamp: ago(150) },
          spec: {
            ingressClassName: 'nginx',
            rules: [
              {
                host: 'club.shop.example',
                http: {
                  paths: [
                    {
                      path: '/',
                      pathType: 'Prefix',
                      backend: { service: { name: 'club-web', port: { number: 8080 } } },
                    },
                  ],
                },
              },
            ],
          },
          status: { loadBalancer: { ingress: [{ hostname: 'lb-1.elb.example' }] } },
        },
        podObj({
          name: 'external-dns-7f9c8d-q2w3e',
          ns: 'external-dns',
          labels: { app: 'external-dns', 'pod-template-hash': '7f9c8d' },
          owner: { kind: 'ReplicaSet', name: 'external-dns-7f9c8d' },
          created: 60 * 24 * 30,
          boxes: [
            { name: 'external-dns', image: 'registry.k8s.io/external-dns/external-dns:v0.14.0' },
          ],
        }),
      ],
      logs: {
        'external-dns-7f9c8d-q2w3e': [
          'time="2026-03-10T11:50:12Z" level=info msg="Desired change: CREATE docs.shop.example A [Id: /hostedzone/Z1]"',
          'time="2026-03-10T11:50:12Z" level=info msg="Desired change: CREATE club.shop.example A [Id: /hostedzone/Z1]"',
          'time="2026-03-10T11:50:12Z" level=error msg="Failure in zone shop.example. [Id: /hostedzone/Z1]"',
          error,
          'time="2026-03-10T11:50:12Z" level=error msg="failed to submit all changes for the following zones: [/hostedzone/Z1]"',
        ].join('\n'),
      },
    });
    const ask =
      'club.shop.example gives NXDOMAIN. The club-web ingress went live two hours ago and has the load balancer address, pods are ready. Why is there no DNS record?';
    const hit = await answer(world(conflict), ask, ns);
    expect(hit).not.toMatch(/is of type LoadBalancer/);
    expect(hit).toMatch(/InvalidChangeBatch/);
    expect(hit).toMatch(/docs\.shop\.example already has a CNAME record/);
    expect(hit).toMatch(/club\.shop\.example/);
    const miss = await answer(world(denied), ask, ns);
    expect(miss).not.toMatch(/whole change batch/);
  });

  it('a question about load balancers is still one: "which services in shop are exposed through a LoadBalancer, and why?"', async () => {
    const ns = 'shop';
    const world: ApiWorld = {
      objects: [namespaceObj(ns), serviceObj('web', ns, { app: 'web' }, 8080)],
    };
    const said = await answer(
      world,
      'Which services in shop are exposed through a load balancer, and why?',
      ns,
    );
    expect(said).toMatch(/is of type LoadBalancer/);
  });
  it('a public host answering 404 while its pods are ready, ingress-nginx logging a risky annotation for its Ingress: the answer names the snippet, the risk level and the controller version; without that line: not this rule', async () => {
    const ns = 'auth';
    const controllerLog = (risky: boolean) =>
      [
        '-------------------------------------------------------------------------------',
        'NGINX Ingress controller',
        '  Release:       v1.12.1',
        'I0310 10:00:58.805117       7 store.go:440] "Found valid IngressClass" ingress="auth/login" ingressclass="nginx"',
        ...(risky
          ? [
              'E0310 10:00:58.805739       7 store.go:938] annotation group ConfigurationSnippet contains risky annotation based on ingress configuration',
            ]
          : []),
        'I0310 10:01:00.112845       7 controller.go:213] "Backend successfully reloaded"',
        '203.0.113.41 - - [10/Mar/2026:11:50:12 +0000] "GET /realms/main/.well-known/openid-configuration HTTP/2.0" 404 146 "-" "probe" 61 0.000 [upstream-default-backend] [] 127.0.0.1:8181 146 0.000 404 abc',
      ].join('\n');
    const world = (risky: boolean): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('ingress-nginx'),
        deploymentObj('login', ns, ['registry.example/login:25.0.6'], 2, 2),
        readyPod('login', ns, 'a1', 'registry.example/login:25.0.6'),
        readyPod('login', ns, 'b2', 'registry.example/login:25.0.6'),
        serviceObj('login', ns, { app: 'login' }, 8080),
        {
          apiVersion: 'networking.k8s.io/v1',
          kind: 'Ingress',
          metadata: {
            name: 'login',
            namespace: ns,
            creationTimestamp: ago(60 * 24 * 60),
            annotations: {
              'nginx.ingress.kubernetes.io/configuration-snippet':
                'more_set_headers "X-Frame-Options: SAMEORIGIN";\n',
            },
          },
          spec: {
            ingressClassName: 'nginx',
            rules: [
              {
                host: 'login.shop.example',
                http: {
                  paths: [
                    {
                      path: '/',
                      pathType: 'Prefix',
                      backend: { service: { name: 'login', port: { number: 8080 } } },
                    },
                  ],
                },
              },
            ],
          },
        },
        podObj({
          name: 'ingress-nginx-controller-5d6f7-abcde',
          ns: 'ingress-nginx',
          labels: { 'app.kubernetes.io/name': 'ingress-nginx', 'pod-template-hash': '5d6f7' },
          owner: { kind: 'ReplicaSet', name: 'ingress-nginx-controller-5d6f7' },
          created: 60 * 10,
          boxes: [
            { name: 'controller', image: 'registry.k8s.io/ingress-nginx/controller:v1.12.1' },
          ],
        }),
      ],
      logs: { 'ingress-nginx-controller-5d6f7-abcde': controllerLog(risky) },
    });
    const ask =
      '[FIRING:1] BlackboxProbeFailed (https://login.shop.example/realms/main/.well-known/openid-configuration)\nsummary = probe returns HTTP 404 for 15m\nlogin pods are Running and ready.';
    const hit = await answer(world(true), ask, ns);
    expect(hit).toMatch(/configuration-snippet/);
    expect(hit).toMatch(/annotations-risk-level/);
    expect(hit).toMatch(/v1\.12\.1/);
    expect(hit).toMatch(/Ingress login \(namespace auth\)/);
    const miss = await answer(world(false), ask, ns);
    expect(miss).not.toMatch(/annotations-risk-level/);
  });
});
