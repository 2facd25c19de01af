/**
 * The engine rules of round23 (r23b) (cause-catalog.data.ts, its "round23 (r23b)" block; their
 * variables in finding-vars-r23b.ts), one test per rule, each with a near miss where it must not
 * fire: a TLS Secret whose certificate is not PEM, an OpenTelemetry Collector config naming a
 * component type its version no longer ships, a Liquibase changelog lock nobody releases, and two
 * HorizontalPodAutoscalers over the same pods (AmbiguousSelector) of a workload an alert names in
 * another namespace than its own.
 */
import {
  NOW,
  ago,
  answerOf,
  apiTools,
  deploymentObj,
  findingsOf,
  hpaObj,
  investigateAt,
  namespaceObj,
  podObj,
  warningEvent,
  type ApiWorld,
  type Box,
} from './spec-world';
import { scopeIncident } from './scope';

const answer = async (world: ApiWorld, ask: string, ns: string) =>
  answerOf((await investigateAt(apiTools(world), ask, NOW, ns)).result);

const logFindings = (pod: string, ns: string, lines: string[], id: string) =>
  findingsOf([
    { output: lines.join('\n'), ctx: { pod, namespace: ns, verb: 'logs' as const } },
  ]).findings.filter((f) => f.entry.id === id);

describe('round23 rules (r23b)', () => {
  it('ingress-nginx finding no PEM data in a TLS Secret: this rule; a Secret that is simply missing: the missing-Secret rule, not this one', () => {
    const pod = 'ingress-nginx-controller-7d9f8c6b5-x2k9q';
    const notPem = logFindings(
      pod,
      'ingress-nginx',
      [
        "W0310 11:51:13.402118       7 backend_ssl.go:47] Error obtaining X.509 certificate: unexpected error creating SSL Cert: no certificate PEM data found, make sure certificate content starts with 'BEGIN CERTIFICATE'",
        'W0310 11:51:13.455630       7 controller.go:1400] Error getting SSL certificate "shop/shop-tls": local SSL certificate shop/shop-tls was not found. Using default certificate',
      ],
      'ingress_tls_secret_not_pem',
    );
    expect(notPem).toHaveLength(1);
    expect(notPem[0]!.fact).toContain('no certificate PEM data found');
    const missing = logFindings(
      pod,
      'ingress-nginx',
      [
        'W0310 11:51:13.455630       7 controller.go:1400] Error getting SSL certificate "shop/shop-tls": local SSL certificate shop/shop-tls was not found. Using default certificate',
      ],
      'ingress_tls_secret_not_pem',
    );
    expect(missing).toHaveLength(0);
  });

  it('an OpenTelemetry Collector refusing a removed exporter type: the answer names the type, the removal and its replacement; a config error of another kind: not this rule', async () => {
    const ns = 'telemetry';
    const app = 'otel-gw';
    const box: Box = {
      name: 'otel-collector',
      image: 'otel/opentelemetry-collector-contrib:0.112.0',
      ready: false,
      restarts: 7,
      state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting' } },
      lastState: {
        terminated: { reason: 'Error', exitCode: 1, startedAt: ago(4), finishedAt: ago(4) },
      },
    };
    const pod = `${app}-6c8d9f7b5-q2w8z`;
    const world = (error: string): ApiWorld => ({
      objects: [
        namespaceObj(ns),
        deploymentObj(app, ns, [box.image], 1, 0, ['otel-collector']),
        podObj({
          name: pod,
          ns,
          labels: { app, 'pod-template-hash': '6c8d9f7b5' },
          owner: { kind: 'ReplicaSet', name: `${app}-6c8d9f7b5` },
          created: 30,
          boxes: [box],
        }),
      ],
      events: [
        warningEvent(
          ns,
          { kind: 'Pod', name: pod },
          'BackOff',
          'Back-off restarting failed container',
          25,
          1,
          9,
        ),
      ],
      previous: {
        [pod]: [
          'Error: failed to get config: cannot unmarshal the configuration: decoding failed due to the following error(s):',
          '',
          error,
        ].join('\n'),
      },
    });
    const ask = `${app} keeps crashing after the upgrade, why?`;
    const removed = await answer(
      world(
        `'exporters' unknown type: "logging" for id: "logging" (valid values: [nop otlp debug otlphttp file])`,
      ),
      ask,
      ns,
    );
    expect(removed).toContain('unknown type: "logging"');
    expect(removed).toContain('exporter "logging"');
    expect(removed).toContain('v0.111.0');
    expect(removed).toContain('debug exporter');
    const other = await answer(
      world(`'service::pipelines::traces' has invalid keys: exporter`),
      ask,
      ns,
    );
    expect(other).not.toContain('a component type this version does not have');
  });

  it('Liquibase waiting for a changelog lock: this rule; Liquibase that got and released the lock: not this rule', () => {
    const ns = 'claims';
    const waiting = findingsOf([
      {
        output: [
          `${ago(9)}  INFO 1 --- [main] liquibase.database : Set default schema name to public`,
          `${ago(8)}  INFO 1 --- [main] liquibase.lockservice : Waiting for changelog lock....`,
          `${ago(7)}  INFO 1 --- [main] liquibase.lockservice : Waiting for changelog lock....`,
        ].join('\n'),
        ctx: { pod: 'claims-api-7f6d5c4b3-abcde', namespace: ns, verb: 'logs' as const },
      },
    ]).findings.filter((f) => f.entry.id === 'liquibase_changelog_lock_held');
    expect(waiting.length).toBeGreaterThan(0);
    const got = findingsOf([
      {
        output: [
          `${ago(9)}  INFO 1 --- [main] liquibase.lockservice : Successfully acquired change log lock`,
          `${ago(8)}  INFO 1 --- [main] liquibase.lockservice : Successfully released change log lock`,
        ].join('\n'),
        ctx: { pod: 'claims-api-7f6d5c4b3-abcde', namespace: ns, verb: 'logs' as const },
      },
    ]).findings.filter((f) => f.entry.id === 'liquibase_changelog_lock_held');
    expect(got).toHaveLength(0);
  });

  it('two HPAs over one Deployment (AmbiguousSelector), the Deployment named by an alert from an empty namespace: found in its own namespace, both HPAs named; HPAs that scale: not this rule', async () => {
    const ns = 'mailers';
    const app = 'mail-relay';
    const ambiguous = (active: boolean) =>
      active
        ? [
            {
              type: 'ScalingActive',
              status: 'True',
              reason: 'ValidMetricFound',
              message: 'the HPA was able to successfully calculate a replica count',
            },
          ]
        : [
            {
              type: 'ScalingActive',
              status: 'False',
              reason: 'AmbiguousSelector',
              message: `pods by selector app=${app} are controlled by multiple HPAs: [${ns}/${app} ${ns}/keda-hpa-${app}]`,
            },
          ];
    const world = (active: boolean): ApiWorld => ({
      objects: [
        namespaceObj('queues'),
        namespaceObj(ns),
        deploymentObj(app, ns, ['registry.example.org/mail-relay:3.2.0'], 2, 2),
        podObj({
          name: `${app}-5f7c9d8b6-k2m4p`,
          ns,
          labels: { app, 'pod-template-hash': '5f7c9d8b6' },
          owner: { kind: 'ReplicaSet', name: `${app}-5f7c9d8b6` },
          created: 600,
          boxes: [{ name: app, image: 'registry.example.org/mail-relay:3.2.0', ready: true }],
        }),
        hpaObj(app, ns, app, {
          min: 2,
          max: 6,
          cpu: 70,
          current: 2,
          conditions: ambiguous(active),
        }),
        hpaObj(`keda-hpa-${app}`, ns, app, {
          min: 2,
          max: 30,
          cpu: 70,
          current: 2,
          conditions: ambiguous(active),
        }),
      ],
    });
    const ask = `[FIRING:1] QueueBacklog namespace=queues queue=mails\nsummary: queue mails has 40000 ready messages; expected KEDA to scale ${app} out`;
    const stuck = await answer(world(false), ask, 'queues');
    expect(stuck).toContain('AmbiguousSelector');
    expect(stuck).toContain(`keda-hpa-${app}`);
    expect(stuck).toContain(`namespace ${ns}`);
    const fine = await answer(world(true), ask, 'queues');
    expect(fine).not.toContain('AmbiguousSelector');
  });

  it('a workload named email-<something> is a subject; "e-mail" alone is not', () => {
    const names = (m: string) => scopeIncident(m, {}, NOW).subjects.map((x) => x.name);
    expect(names('expected KEDA to scale email-sender out')).toContain('email-sender');
    expect(names('the e-mail notifications are late')).not.toContain('e-mail');
  });

  it("a Redis client getting an HTTP 400 back (its sidecar proxies the port as HTTP): this rule; an HTTP client's own 400 answer: not this rule", () => {
    const pod = 'basket-api-6d8f7c9b5-x2k9q';
    const http = logFindings(
      pod,
      'shop',
      [
        '{"level":"INFO","msg":"request","status":200}',
        '{"level":"ERROR","msg":"redis ping failed","err":"redis: invalid reply: \\"HTTP/1.1 400 Bad Request\\""}',
      ],
      'mesh_http_on_tcp_port',
    );
    expect(http).toHaveLength(1);
    const plain = logFindings(
      pod,
      'shop',
      [
        '10.0.3.4 - - [10/Mar/2026:11:59:00 +0000] "POST /v1/basket HTTP/1.1" 400 Bad Request 112',
        '{"level":"WARN","msg":"upstream answered","status":"HTTP/1.1 400 Bad Request"}',
      ],
      'mesh_http_on_tcp_port',
    );
    expect(plain).toHaveLength(0);
  });
});
