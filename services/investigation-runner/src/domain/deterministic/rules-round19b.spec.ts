/**
 * The engine rules of d66e761 (7a45efa), one describe per rule, each with a near-miss world where
 * it must not fire, on real-shaped API objects and outputs: a certificate cert-manager does not
 * renew because the HTTP-01 self check is answered 401 by an Ingress that asks for authentication
 * (with http01-edit-in-place), and a StatefulSet whose first member is not Ready, so that
 * OrderedReady never creates the others it waits for (a deadlock).
 */
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  investigateAt,
  namespaceObj,
  podObj,
  stamped,
  statefulSetObj,
  warningEvent,
  type ApiWorld,
} from './spec-world';

type Obj = Record<string, unknown>;
type Calls = { tool: string; params: Obj }[];

/** minutes in a day */
const DAY = 60 * 24;

describe('rules of d66e761 (7a45efa)', () => {
  // ---------------------------------------------------------------- 1. a renewal the solver path refuses
  describe('1. a certificate cert-manager does not renew: the HTTP-01 path behind an Ingress that asks for authentication', () => {
    const ns = 'partner-hub';
    const cert = 'partner-hub-tls';
    const host = 'partners.orchard-freight.example';
    const challenge = `${cert}-3-2719480365-1184037726`;
    const cmPod = 'cert-manager-6f8d9b7c54-qv7ld';
    const ingressObj = (name: string, annotations: Record<string, string>): Obj => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: {
        name,
        namespace: ns,
        creationTimestamp: ago(DAY * 200),
        annotations,
      },
      spec: {
        ingressClassName: 'nginx',
        tls: [{ hosts: [host], secretName: cert }],
        rules: [
          {
            host,
            http: {
              paths: [
                {
                  path: '/',
                  pathType: 'Prefix',
                  backend: { service: { name: 'partner-portal', port: { number: 8080 } } },
                },
              ],
            },
          },
        ],
      },
    });
    const certificateObj: Obj = {
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name: cert, namespace: ns, creationTimestamp: ago(DAY * 200) },
      spec: {
        secretName: cert,
        dnsNames: [host],
        issuerRef: { name: 'letsencrypt-prod', kind: 'ClusterIssuer' },
      },
      status: {
        notAfter: new Date(NOW + 6 * DAY * 60_000).toISOString(),
        renewalTime: ago(DAY * 24),
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'Ready',
            message: 'Certificate is up to date and has not expired',
            lastTransitionTime: ago(DAY * 84),
          },
          {
            type: 'Issuing',
            status: 'True',
            reason: 'Renewing',
            message:
              'Renewing certificate as renewal was scheduled at 2026-02-14 09:30:00 +0000 UTC',
            lastTransitionTime: ago(DAY * 24),
          },
        ],
      },
    };
    /** cert-manager's klog line about the Challenge, the self check answered `code` */
    const klog = (m: number, code: string) => {
      const t = new Date(NOW - m * 60_000);
      const hh = String(t.getUTCHours()).padStart(2, '0');
      const mm = String(t.getUTCMinutes()).padStart(2, '0');
      return `E0310 ${hh}:${mm}:07.604218       1 sync.go:190] "propagation check failed" err="wrong status code '${code}', expected '200'" logger="cert-manager.controller" resource_name="${challenge}" resource_namespace="${ns}" resource_kind="Challenge" resource_version="v1" dnsName="${host}" type="HTTP-01"`;
    };
    const world = (annotations: Record<string, string>, code = '401'): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        namespaceObj('cert-manager'),
        certificateObj,
        ingressObj('partner-portal', annotations),
        ingressObj('partner-status', { 'cert-manager.io/cluster-issuer': 'letsencrypt-prod' }),
        podObj({
          name: cmPod,
          ns: 'cert-manager',
          labels: { 'app.kubernetes.io/name': 'cert-manager', 'pod-template-hash': '6f8d9b7c54' },
          owner: { kind: 'ReplicaSet', name: 'cert-manager-6f8d9b7c54' },
          created: DAY * 40,
          boxes: [
            {
              name: 'cert-manager-controller',
              image: 'quay.io/jetstack/cert-manager-controller:v1.15.3',
            },
          ],
        }),
      ],
      logs: {
        [cmPod]: stamped([
          [
            47,
            `I0310 11:13:02.551870       1 conditions.go:203] Setting lastTransitionTime for Certificate "${cert}" condition "Issuing" to 2026-03-10 11:13:02.551861 +0000 UTC m=+3456010.31`,
          ],
          [33, klog(33, code)],
          [18, klog(18, code)],
          [3, klog(3, code)],
        ]),
      },
    });
    const guarding = {
      'cert-manager.io/cluster-issuer': 'letsencrypt-prod',
      'acme.cert-manager.io/http01-edit-in-place': 'true',
      'nginx.ingress.kubernetes.io/auth-type': 'basic',
      'nginx.ingress.kubernetes.io/auth-secret': 'partner-portal-htpasswd',
      'nginx.ingress.kubernetes.io/auth-realm': 'Partners only',
    };
    const open = {
      'cert-manager.io/cluster-issuer': 'letsencrypt-prod',
      'acme.cert-manager.io/http01-edit-in-place': 'true',
      'nginx.ingress.kubernetes.io/proxy-body-size': '20m',
    };
    const ask = `cert-manager still hasn't renewed ${cert} in ${ns}, it runs out in 6 days`;
    const readCertManagerLog = (calls: Calls) =>
      calls.some((c) => c.tool === 'k8s:pods_log' && c.params['name'] === cmPod);
    const listedIngresses = (calls: Calls) =>
      calls.some(
        (c) =>
          (c.tool === 'k8s:resources_list' || c.tool === 'k8s:resources_get') &&
          String(c.params['kind']).toLowerCase() === 'ingress',
      );

    it("\"wrong status code '401'\" for its Challenge, Ingress partner-portal with auth-type basic and http01-edit-in-place: cert-manager's log and the Ingresses are read, the Certificate is named and the Ingress asking for authentication is why the path answers 401", async () => {
      const r = await investigateAt(apiTools(world(guarding)), ask, NOW, ns);
      expect(readCertManagerLog(r.gateway.calls)).toBe(true);
      expect(listedIngresses(r.gateway.calls)).toBe(true);
      const a = answerOf(r.result);
      expect(a).toContain(`certificate ${cert} cannot be renewed`);
      expect(a).toContain(
        'the HTTP-01 challenge path answers 401 because Ingress partner-portal asks for authentication (nginx.ingress.kubernetes.io/auth-type: basic, nginx.ingress.kubernetes.io/auth-secret: partner-portal-htpasswd)',
      );
      expect(a).toContain(
        'with acme.cert-manager.io/http01-edit-in-place: "true", cert-manager serves the solver path through that very Ingress',
      );
    });

    it('the same 401 and an Ingress asking for authentication without http01-edit-in-place: the Ingress named, nothing about edit-in-place', async () => {
      const { 'acme.cert-manager.io/http01-edit-in-place': _inPlace, ...separate } = guarding;
      const r = await investigateAt(apiTools(world(separate)), ask, NOW, ns);
      const a = answerOf(r.result);
      expect(a).toContain('because Ingress partner-portal asks for authentication');
      expect(r.text).not.toContain('http01-edit-in-place');
    });

    it('near miss: the same 401, no Ingress of the namespace asks for authentication: the Certificate and the failed check, no Ingress blamed', async () => {
      const r = await investigateAt(apiTools(world(open)), ask, NOW, ns);
      const a = answerOf(r.result);
      expect(a).toContain(`certificate ${cert} cannot be renewed`);
      expect(a).toContain("wrong status code '401'");
      expect(r.text).not.toMatch(/asks for authentication|answers 401 because/);
    });

    it('near miss: "wrong status code \'404\'" with Ingress partner-portal asking for authentication: not an authentication refusal, no Ingress blamed', async () => {
      const r = await investigateAt(apiTools(world(guarding, '404')), ask, NOW, ns);
      const a = answerOf(r.result);
      expect(a).toContain(`certificate ${cert} cannot be renewed`);
      expect(a).toContain("wrong status code '404'");
      expect(r.text).not.toMatch(/asks for authentication|answers 40\d because/);
    });
  });

  // ---------------------------------------------------------------- 2. OrderedReady waiting on member 0
  describe('2. a StatefulSet stuck at its first member under OrderedReady', () => {
    const ns = 'settlement';
    const sts = 'ledger-raft';
    const image = 'registry.example.net/settlement/ledger-raft:3.2.1';
    const first = `${sts}-0`;
    /** the set of 3 with `exist` members, the last of them not Ready (readiness fails) */
    const world = (o: { exist: number; policy?: 'Parallel' | 'OrderedReady'; log: string[] }) => {
      const [set, ...pods] = statefulSetObj(sts, ns, image, 3, {
        ready: 0,
        age: 2,
        podAge: 2,
        ipPrefix: '10.61.4',
        member: (i) =>
          i === o.exist - 1
            ? { boxes: [{ name: sts, image, ready: false, started: true }], created: 95 }
            : {},
      });
      const spec = set!['spec'] as Obj;
      if (o.policy) spec['podManagementPolicy'] = o.policy;
      set!['status'] = {
        replicas: o.exist,
        readyReplicas: o.exist - 1,
        currentReplicas: o.exist,
        updatedReplicas: o.exist,
        availableReplicas: o.exist - 1,
      };
      const last = `${sts}-${o.exist - 1}`;
      return {
        objects: [namespaceObj(ns), set!, ...pods.slice(0, o.exist)],
        events: [
          warningEvent(
            ns,
            { kind: 'Pod', name: last },
            'Unhealthy',
            'Readiness probe failed: HTTP probe failed with statuscode: 503',
            90,
            1,
            541,
          ),
        ],
        logs: {
          [last]: stamped(o.log.map((l, i): [number, string] => [60 - i * 15, l])),
        },
      } satisfies ApiWorld;
    };
    const peerless = [
      '{"level":"info","ts":"2026-03-10T10:31:12.004Z","msg":"starting raft node","id":"ledger-raft-0","cluster-size":3}',
      '{"level":"warn","ts":"2026-03-10T10:46:12.118Z","msg":"cannot reach peer ledger-raft-1.ledger-raft.settlement.svc.cluster.local:7400: lookup ledger-raft-1.ledger-raft.settlement.svc.cluster.local: no such host"}',
      '{"level":"warn","ts":"2026-03-10T11:01:12.406Z","msg":"no leader elected after 1800s, readiness stays unready","term":212}',
    ];
    const quiet = [
      '{"level":"info","ts":"2026-03-10T10:31:12.004Z","msg":"starting raft node","id":"ledger-raft-0","cluster-size":3}',
      '{"level":"info","ts":"2026-03-10T10:46:12.118Z","msg":"replaying snapshot","index":88201}',
    ];
    const ask = `${sts} in ${ns} never gets past its first pod, 0/3 ready since the rollout`;

    it('3 desired, only ledger-raft-0 (Running, readiness failing), no podManagementPolicy (OrderedReady by default), its log cannot reach its peers: OrderedReady waits for ledger-raft-0 before ledger-raft-1 and ledger-raft-2, a deadlock, Parallel suggested', async () => {
      const r = await investigateAt(apiTools(world({ exist: 1, log: peerless })), ask, NOW, ns);
      const a = answerOf(r.result);
      expect(a).toContain(
        `StatefulSet ${sts} has 1 of its 3 members: with podManagementPolicy OrderedReady (the default) it creates ${sts}-1 and ${sts}-2 only once ${first} is Ready, and ${first} is not`,
      );
      expect(a).toContain('Readiness probe failed');
      expect(a).toContain('it waits for the peers that are never created');
      expect(a).toContain('a deadlock');
      expect(r.text).toContain('podManagementPolicy: Parallel');
    });

    it('the same set whose member says nothing of its peers: OrderedReady waits for ledger-raft-0, no deadlock claimed', async () => {
      const r = await investigateAt(apiTools(world({ exist: 1, log: quiet })), ask, NOW, ns);
      const a = answerOf(r.result);
      expect(a).toContain(`only once ${first} is Ready`);
      expect(a).not.toContain('deadlock');
    });

    it('near miss: podManagementPolicy Parallel (the members are created together, none waits): no OrderedReady claim', async () => {
      const r = await investigateAt(
        apiTools(world({ exist: 1, policy: 'Parallel', log: peerless })),
        ask,
        NOW,
        ns,
      );
      // the answer is about the set (its member's failing lookups), only not about OrderedReady
      expect(answerOf(r.result)).toContain(sts);
      expect(r.text).not.toMatch(/OrderedReady|only once \S+ is Ready|deadlock/);
    });

    it('near miss: all 3 members exist, ledger-raft-2 not Ready (nothing waits to be created): no OrderedReady claim', async () => {
      const r = await investigateAt(apiTools(world({ exist: 3, log: peerless })), ask, NOW, ns);
      // the answer is about the set (its member's failing lookups), only not about OrderedReady
      expect(answerOf(r.result)).toContain(sts);
      expect(r.text).not.toMatch(/OrderedReady|only once \S+ is Ready|deadlock/);
    });
  });
});
