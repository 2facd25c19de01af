/**
 * A synthetic production environment (a small shop on Kubernetes) and the incident scenarios
 * that can be played on it. Everything is derived from the scenario and the current time, so
 * answers are deterministic for a given scenario and always look recent.
 */

export const SCENARIOS = [
  'oom-after-deploy',
  'bad-config-5xx',
  'dependency-timeout',
  'disk-full',
  'expired-cert',
  'healthy',
] as const;
export type Scenario = (typeof SCENARIOS)[number];
export const DEFAULT_SCENARIO: Scenario = 'oom-after-deploy';

export function isScenario(s: unknown): s is Scenario {
  return typeof s === 'string' && (SCENARIOS as readonly string[]).includes(s);
}

export interface Pod {
  name: string;
  namespace: string;
  deployment: string;
  status: 'Running' | 'CrashLoopBackOff' | 'Pending' | 'Error';
  ready: string;
  restarts: number;
  node: string;
  image: string;
  startedMinutesAgo: number;
  lastTermination?: { reason: string; exitCode: number; minutesAgo: number };
  limits: { cpu: string; memory: string };
  requests: { cpu: string; memory: string };
  env: Record<string, string>;
}

export interface Deployment {
  name: string;
  namespace: string;
  replicas: number;
  image: string;
  revisions: Array<{ revision: number; image: string; minutesAgo: number; changeCause: string }>;
  endpoint: string;
  repo: string;
}

export interface K8sEvent {
  namespace: string;
  type: 'Normal' | 'Warning';
  reason: string;
  object: string;
  message: string;
  minutesAgo: number;
  count: number;
}

export interface LogLine {
  service: string;
  pod: string;
  minutesAgo: number;
  level: 'INFO' | 'WARN' | 'ERROR';
  message: string;
}

export interface Commit {
  repo: string;
  sha: string;
  author: string;
  message: string;
  minutesAgo: number;
  files: Array<{ path: string; additions: number; deletions: number; patch: string }>;
}

export interface Alarm {
  name: string;
  service: string;
  metric: string;
  state: 'ALARM' | 'OK';
  threshold: string;
  sinceMinutesAgo: number;
  description: string;
}

export interface Environment {
  scenario: Scenario;
  summary: string;
  namespaces: string[];
  deployments: Deployment[];
  pods: Pod[];
  events: K8sEvent[];
  logs: LogLine[];
  commits: Commit[];
  alarms: Alarm[];
  cloud: Array<{
    service: string;
    region: string;
    status: 'operational' | 'degraded' | 'outage';
    note?: string;
  }>;
  /** metric name -> service -> function of minutes ago */
  metric(service: string, metric: string, minutesAgo: number): number | undefined;
  endpoints: Array<{
    url: string;
    service: string;
    status: number;
    latencyMs: number;
    tls?: { validTo: string; error?: string };
  }>;
}

const NODES = [
  'ip-10-0-1-23.ec2.internal',
  'ip-10-0-2-47.ec2.internal',
  'ip-10-0-3-11.ec2.internal',
];

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

function noise(key: string, minutesAgo: number, amplitude: number): number {
  return ((hash(`${key}:${minutesAgo}`) % 1000) / 1000 - 0.5) * 2 * amplitude;
}

function suffix(seed: string, len: number): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let h = hash(seed);
  let out = '';
  for (let i = 0; i < len; i++) {
    out += alphabet[h % alphabet.length];
    h = Math.floor(h / alphabet.length) || hash(`${seed}${i}`);
  }
  return out;
}

interface ServiceSpec {
  name: string;
  namespace: string;
  replicas: number;
  repo: string;
  versions: string[];
  memory: string;
  cpu: string;
  port: number;
}

const SERVICES: ServiceSpec[] = [
  {
    name: 'checkout-api',
    namespace: 'shop',
    replicas: 3,
    repo: 'acme/checkout-api',
    versions: ['2.13.2', '2.13.4', '2.14.0'],
    memory: '512Mi',
    cpu: '500m',
    port: 8080,
  },
  {
    name: 'payments-api',
    namespace: 'payments',
    replicas: 3,
    repo: 'acme/payments-api',
    versions: ['5.2.0', '5.2.1', '5.3.0'],
    memory: '768Mi',
    cpu: '750m',
    port: 8443,
  },
  {
    name: 'inventory-svc',
    namespace: 'shop',
    replicas: 2,
    repo: 'acme/inventory-svc',
    versions: ['1.8.0', '1.8.1', '1.9.0'],
    memory: '384Mi',
    cpu: '250m',
    port: 8080,
  },
  {
    name: 'frontend',
    namespace: 'web',
    replicas: 4,
    repo: 'acme/storefront',
    versions: ['3.40.1', '3.41.0', '3.41.2'],
    memory: '256Mi',
    cpu: '200m',
    port: 3000,
  },
  {
    name: 'search-indexer',
    namespace: 'search',
    replicas: 1,
    repo: 'acme/search-indexer',
    versions: ['0.9.3', '0.9.4', '0.9.5'],
    memory: '1Gi',
    cpu: '1',
    port: 9200,
  },
  {
    name: 'auth-gateway',
    namespace: 'edge',
    replicas: 2,
    repo: 'acme/auth-gateway',
    versions: ['4.0.0', '4.0.1', '4.1.0'],
    memory: '256Mi',
    cpu: '250m',
    port: 443,
  },
];

/** Which service each scenario breaks, and when (minutes ago) the trouble began. */
const CULPRIT: Record<Scenario, { service: string; startedMinutesAgo: number } | null> = {
  'oom-after-deploy': { service: 'checkout-api', startedMinutesAgo: 38 },
  'bad-config-5xx': { service: 'payments-api', startedMinutesAgo: 22 },
  'dependency-timeout': { service: 'inventory-svc', startedMinutesAgo: 31 },
  'disk-full': { service: 'search-indexer', startedMinutesAgo: 17 },
  'expired-cert': { service: 'auth-gateway', startedMinutesAgo: 12 },
  healthy: null,
};

export function buildEnvironment(scenario: Scenario): Environment {
  const culprit = CULPRIT[scenario];
  const deployments: Deployment[] = [];
  const pods: Pod[] = [];
  const events: K8sEvent[] = [];
  const logs: LogLine[] = [];
  const commits: Commit[] = [];
  const alarms: Alarm[] = [];

  for (const svc of SERVICES) {
    const broken = culprit?.service === svc.name;
    // The bad deploy of oom-after-deploy / bad-config-5xx is the newest revision; elsewhere the
    // newest revision is days old and harmless.
    const lastDeployAgo =
      broken && (scenario === 'oom-after-deploy' || scenario === 'bad-config-5xx')
        ? culprit.startedMinutesAgo + 3
        : 60 * 24 * 3 + (hash(svc.name) % 600);
    const revisions = svc.versions.map((v, i) => ({
      revision: 10 + i,
      image: `registry.acme.io/${svc.name}:${v}`,
      minutesAgo:
        i === svc.versions.length - 1
          ? lastDeployAgo
          : lastDeployAgo + (svc.versions.length - 1 - i) * 60 * 24 * 4,
      changeCause:
        i === svc.versions.length - 1 && broken && scenario === 'bad-config-5xx'
          ? `config: rotate gateway endpoint (${v})`
          : `release ${v}`,
    }));
    const image = revisions[revisions.length - 1]?.image ?? '';
    deployments.push({
      name: svc.name,
      namespace: svc.namespace,
      replicas: svc.replicas,
      image,
      revisions,
      endpoint: `https://${svc.name}.${svc.namespace}.acme.internal${svc.name === 'auth-gateway' ? '' : ':' + svc.port}/healthz`,
      repo: svc.repo,
    });

    for (let i = 0; i < svc.replicas; i++) {
      const name = `${svc.name}-${suffix(svc.name + image, 10).slice(0, 9)}-${suffix(`${svc.name}${i}`, 5)}`;
      const pod: Pod = {
        name,
        namespace: svc.namespace,
        deployment: svc.name,
        status: 'Running',
        ready: '1/1',
        restarts: 0,
        node: NODES[(hash(name) % NODES.length) | 0] ?? 'node-1',
        image,
        startedMinutesAgo: Math.min(lastDeployAgo, 60 * 24 * 2) - i,
        limits: { cpu: svc.cpu, memory: svc.memory },
        requests: { cpu: svc.cpu, memory: svc.memory },
        env: {
          LOG_LEVEL: 'info',
          PORT: String(svc.port),
          ...(svc.name === 'payments-api'
            ? {
                PAYMENT_GATEWAY_URL: broken
                  ? 'htps://gateway.stripe-proxy.internal/v2'
                  : 'https://gateway.stripe-proxy.internal/v2',
                DB_POOL_SIZE: '20',
              }
            : {}),
          ...(svc.name === 'checkout-api'
            ? { CART_CACHE_MAX_ENTRIES: broken ? '2000000' : '200000', JAVA_OPTS: '-Xmx448m' }
            : {}),
          ...(svc.name === 'inventory-svc'
            ? {
                WAREHOUSE_DB_HOST: 'warehouse-db.cluster-c9x2.us-east-1.rds.amazonaws.com',
                DB_TIMEOUT_MS: '2000',
              }
            : {}),
        },
      };
      if (broken && scenario === 'oom-after-deploy') {
        pod.status = i === 0 ? 'CrashLoopBackOff' : 'Running';
        pod.ready = i === 0 ? '0/1' : '1/1';
        pod.restarts = 7 - i * 2;
        pod.startedMinutesAgo = 2 + i * 3;
        pod.lastTermination = { reason: 'OOMKilled', exitCode: 137, minutesAgo: 2 + i * 3 };
      }
      if (broken && scenario === 'disk-full') {
        pod.status = 'Error';
        pod.ready = '0/1';
        pod.restarts = 4;
        pod.lastTermination = { reason: 'Error', exitCode: 1, minutesAgo: 3 };
      }
      pods.push(pod);
    }
  }

  const podsOf = (svc: string) => pods.filter((p) => p.deployment === svc);
  const now = (m: number) => m;
  // Background noise every environment has.
  for (const p of pods) {
    logs.push(
      {
        service: p.deployment,
        pod: p.name,
        minutesAgo: 55,
        level: 'INFO',
        message: `started ${p.image.split(':')[1] ?? ''} on port ${p.env.PORT ?? ''}`,
      },
      {
        service: p.deployment,
        pod: p.name,
        minutesAgo: 20,
        level: 'INFO',
        message: 'GET /healthz 200 2ms',
      },
      {
        service: p.deployment,
        pod: p.name,
        minutesAgo: 4,
        level: 'INFO',
        message: 'GET /healthz 200 1ms',
      },
    );
  }
  events.push({
    namespace: 'shop',
    type: 'Normal',
    reason: 'ScalingReplicaSet',
    object: 'deployment/frontend',
    message: 'Scaled up replica set frontend-7d9f to 4',
    minutesAgo: 300,
    count: 1,
  });

  switch (scenario) {
    case 'oom-after-deploy': {
      const [crashing, second] = podsOf('checkout-api');
      for (const p of podsOf('checkout-api')) {
        events.push(
          {
            namespace: 'shop',
            type: 'Warning',
            reason: 'OOMKilling',
            object: `pod/${p.name}`,
            message: `Memory cgroup out of memory: Killed process 1 (java) total-vm:1843200kB, anon-rss:524288kB`,
            minutesAgo: p.lastTermination?.minutesAgo ?? 5,
            count: p.restarts,
          },
          {
            namespace: 'shop',
            type: 'Warning',
            reason: 'BackOff',
            object: `pod/${p.name}`,
            message: 'Back-off restarting failed container checkout-api',
            minutesAgo: 1,
            count: p.restarts,
          },
        );
        for (const m of [30, 18, 9, p.lastTermination?.minutesAgo ?? 3]) {
          logs.push(
            {
              service: 'checkout-api',
              pod: p.name,
              minutesAgo: m + 1,
              level: 'WARN',
              message: 'GC overhead: old gen 97% after full GC (cart cache entries=1843211)',
            },
            {
              service: 'checkout-api',
              pod: p.name,
              minutesAgo: m,
              level: 'ERROR',
              message:
                'java.lang.OutOfMemoryError: Java heap space at com.acme.checkout.cart.CartCache.put(CartCache.java:88)',
            },
          );
        }
      }
      events.push({
        namespace: 'shop',
        type: 'Normal',
        reason: 'ScalingReplicaSet',
        object: 'deployment/checkout-api',
        message: 'Scaled up replica set checkout-api to 3 (registry.acme.io/checkout-api:2.14.0)',
        minutesAgo: 41,
        count: 1,
      });
      commits.push({
        repo: 'acme/checkout-api',
        sha: 'e41c9a7d2b',
        author: 'dana.k@acme.io',
        message: 'perf: raise cart cache size to cut DB reads (release 2.14.0)',
        minutesAgo: 95,
        files: [
          {
            path: 'src/main/resources/application.yaml',
            additions: 1,
            deletions: 1,
            patch:
              '@@ -12,7 +12,7 @@ cart:\n   cache:\n-    max-entries: 200000\n+    max-entries: 2000000\n     ttl: 30m',
          },
          {
            path: 'deploy/values.yaml',
            additions: 1,
            deletions: 1,
            patch:
              '@@ -30,4 +30,4 @@ env:\n-  CART_CACHE_MAX_ENTRIES: "200000"\n+  CART_CACHE_MAX_ENTRIES: "2000000"',
          },
        ],
      });
      alarms.push({
        name: 'checkout-api-pod-restarts',
        service: 'checkout-api',
        metric: 'kube_pod_container_status_restarts_total',
        state: 'ALARM',
        threshold: '> 3 restarts in 15 min',
        sinceMinutesAgo: 25,
        description: 'checkout-api pods restarting repeatedly',
      });
      alarms.push({
        name: 'checkout-api-5xx',
        service: 'checkout-api',
        metric: 'error_rate',
        state: 'ALARM',
        threshold: '> 2% for 5 min',
        sinceMinutesAgo: 20,
        description: 'checkout 5xx rate high while pods restart',
      });
      void crashing;
      void second;
      break;
    }
    case 'bad-config-5xx': {
      for (const p of podsOf('payments-api')) {
        for (const m of [21, 14, 7, 2]) {
          logs.push({
            service: 'payments-api',
            pod: p.name,
            minutesAgo: m,
            level: 'ERROR',
            message:
              'POST /v1/charges 502 upstream error: invalid URL scheme "htps" for PAYMENT_GATEWAY_URL',
          });
        }
      }
      for (const p of podsOf('checkout-api')) {
        logs.push({
          service: 'checkout-api',
          pod: p.name,
          minutesAgo: 10,
          level: 'WARN',
          message: 'payment authorization failed: payments-api answered 502',
        });
      }
      events.push({
        namespace: 'payments',
        type: 'Normal',
        reason: 'ScalingReplicaSet',
        object: 'deployment/payments-api',
        message: 'Scaled up replica set payments-api to 3 (config change: PAYMENT_GATEWAY_URL)',
        minutesAgo: 25,
        count: 1,
      });
      commits.push({
        repo: 'acme/payments-api',
        sha: '7b20fd13aa',
        author: 'ops-bot@acme.io',
        message: 'config: rotate payment gateway endpoint',
        minutesAgo: 30,
        files: [
          {
            path: 'deploy/values-prod.yaml',
            additions: 1,
            deletions: 1,
            patch:
              '@@ -8,3 +8,3 @@ env:\n-  PAYMENT_GATEWAY_URL: https://gateway.stripe-proxy.internal/v2\n+  PAYMENT_GATEWAY_URL: htps://gateway.stripe-proxy.internal/v2',
          },
        ],
      });
      alarms.push({
        name: 'payments-api-5xx',
        service: 'payments-api',
        metric: 'error_rate',
        state: 'ALARM',
        threshold: '> 1% for 5 min',
        sinceMinutesAgo: 19,
        description: 'payments-api returning 502 on charges',
      });
      break;
    }
    case 'dependency-timeout': {
      for (const p of podsOf('inventory-svc')) {
        for (const m of [30, 24, 16, 8, 3]) {
          logs.push({
            service: 'inventory-svc',
            pod: p.name,
            minutesAgo: m,
            level: 'ERROR',
            message:
              'query stock_levels failed: timeout after 2000ms connecting to warehouse-db.cluster-c9x2.us-east-1.rds.amazonaws.com:5432',
          });
        }
      }
      for (const p of podsOf('checkout-api')) {
        logs.push({
          service: 'checkout-api',
          pod: p.name,
          minutesAgo: 12,
          level: 'WARN',
          message: 'inventory check slow (4.1s), falling back to cached stock',
        });
      }
      alarms.push({
        name: 'inventory-latency-p99',
        service: 'inventory-svc',
        metric: 'latency_p99',
        state: 'ALARM',
        threshold: '> 1500 ms for 5 min',
        sinceMinutesAgo: 28,
        description: 'inventory-svc p99 latency high',
      });
      alarms.push({
        name: 'warehouse-db-connections',
        service: 'warehouse-db',
        metric: 'DatabaseConnections',
        state: 'ALARM',
        threshold: '> 95% of max_connections',
        sinceMinutesAgo: 33,
        description: 'RDS warehouse-db connection saturation',
      });
      break;
    }
    case 'disk-full': {
      for (const p of podsOf('search-indexer')) {
        logs.push(
          {
            service: 'search-indexer',
            pod: p.name,
            minutesAgo: 18,
            level: 'WARN',
            message: 'disk usage of /var/lib/indexer at 96% (segments not merged)',
          },
          {
            service: 'search-indexer',
            pod: p.name,
            minutesAgo: 16,
            level: 'ERROR',
            message: 'failed to flush segment _4f2: java.io.IOException: No space left on device',
          },
          {
            service: 'search-indexer',
            pod: p.name,
            minutesAgo: 3,
            level: 'ERROR',
            message:
              'shutting down: write failed on /var/lib/indexer/data: No space left on device',
          },
        );
        events.push({
          namespace: 'search',
          type: 'Warning',
          reason: 'BackOff',
          object: `pod/${p.name}`,
          message: 'Back-off restarting failed container search-indexer',
          minutesAgo: 2,
          count: 4,
        });
      }
      events.push({
        namespace: 'search',
        type: 'Warning',
        reason: 'FreeDiskSpaceFailed',
        object: `node/${NODES[1] ?? ''}`,
        message:
          'failed to garbage collect required amount of images. Wanted to free 4.2GB, but freed 0B',
        minutesAgo: 15,
        count: 6,
      });
      alarms.push({
        name: 'search-indexer-disk',
        service: 'search-indexer',
        metric: 'disk_usage',
        state: 'ALARM',
        threshold: '> 90%',
        sinceMinutesAgo: 17,
        description: 'indexer volume nearly full',
      });
      break;
    }
    case 'expired-cert': {
      for (const p of podsOf('frontend')) {
        logs.push({
          service: 'frontend',
          pod: p.name,
          minutesAgo: 9,
          level: 'ERROR',
          message:
            'login failed: upstream auth-gateway TLS handshake error: certificate has expired',
        });
      }
      for (const p of podsOf('auth-gateway')) {
        logs.push({
          service: 'auth-gateway',
          pod: p.name,
          minutesAgo: 12,
          level: 'WARN',
          message:
            'serving certificate CN=auth.acme.io expired (notAfter reached); cert-manager renewal failed: ACME challenge 403',
        });
      }
      events.push({
        namespace: 'edge',
        type: 'Warning',
        reason: 'CertificateRenewalFailed',
        object: 'certificate/auth-acme-io',
        message: 'Failed to renew certificate: ACME http-01 challenge answered 403',
        minutesAgo: 60 * 24 * 2,
        count: 12,
      });
      alarms.push({
        name: 'login-success-rate',
        service: 'frontend',
        metric: 'error_rate',
        state: 'ALARM',
        threshold: 'login success < 90%',
        sinceMinutesAgo: 11,
        description: 'users cannot log in',
      });
      break;
    }
    case 'healthy':
      break;
  }
  // A harmless commit in every environment so an agent must tell signal from noise.
  commits.push({
    repo: 'acme/storefront',
    sha: '19ad3c0e55',
    author: 'lee.m@acme.io',
    message: 'chore: bump eslint',
    minutesAgo: 60 * 7,
    files: [
      {
        path: 'package.json',
        additions: 1,
        deletions: 1,
        patch: '-    "eslint": "9.38.0"\n+    "eslint": "9.39.1"',
      },
    ],
  });
  alarms.push({
    name: 'frontend-availability',
    service: 'frontend',
    metric: 'availability',
    state: scenario === 'expired-cert' ? 'ALARM' : 'OK',
    threshold: '< 99.5%',
    sinceMinutesAgo: 600,
    description: 'synthetic checks on the storefront',
  });

  const cloud: Environment['cloud'] = [
    { service: 'EC2', region: 'us-east-1', status: 'operational' },
    { service: 'EKS', region: 'us-east-1', status: 'operational' },
    {
      service: 'RDS',
      region: 'us-east-1',
      status: scenario === 'dependency-timeout' ? 'degraded' : 'operational',
      ...(scenario === 'dependency-timeout'
        ? { note: 'Increased connection latency for some Aurora PostgreSQL clusters in us-east-1' }
        : {}),
    },
    { service: 'S3', region: 'us-east-1', status: 'operational' },
    { service: 'ELB', region: 'us-east-1', status: 'operational' },
  ];

  const metric = (service: string, name: string, minutesAgo: number): number | undefined => {
    const spec =
      SERVICES.find((s) => s.name === service) ??
      (service === 'warehouse-db' ? { name: 'warehouse-db' } : undefined);
    if (!spec) return undefined;
    const since = culprit?.service === service ? culprit.startedMinutesAgo : -1;
    const during = minutesAgo <= since;
    const n = (a: number) => noise(`${service}:${name}`, minutesAgo, a);
    switch (name) {
      case 'cpu':
        return round(
          25 +
            n(5) +
            (during && scenario === 'dependency-timeout' ? -10 : 0) +
            (during && scenario === 'oom-after-deploy' ? 45 : 0),
        );
      case 'memory':
        if (during && scenario === 'oom-after-deploy')
          return round(Math.min(100, 70 + ((since - minutesAgo) % 6) * 6 + n(2)));
        return round(45 + n(4));
      case 'error_rate':
        if (during && scenario === 'bad-config-5xx') return round(38 + n(4));
        if (during && scenario === 'oom-after-deploy') return round(6 + n(2));
        if (during && scenario === 'dependency-timeout') return round(12 + n(3));
        if (
          scenario === 'expired-cert' &&
          (service === 'frontend' || service === 'auth-gateway') &&
          minutesAgo <= 12
        )
          return round(64 + n(5));
        return round(Math.max(0, 0.3 + n(0.2)));
      case 'latency_p99':
        if (during && scenario === 'dependency-timeout') return round(4100 + n(300));
        return round(180 + n(30));
      case 'disk_usage':
        if (service === 'search-indexer' && scenario === 'disk-full')
          return round(Math.min(100, 100 - Math.max(0, minutesAgo - 17) * 0.4));
        return round(41 + n(1));
      case 'request_rate':
        return round(120 + n(15));
      default:
        return undefined;
    }
  };

  const endpoints: Environment['endpoints'] = deployments.map((d) => {
    const broken = culprit?.service === d.name;
    if (d.name === 'auth-gateway') {
      const expired = scenario === 'expired-cert';
      return {
        url: d.endpoint,
        service: d.name,
        status: expired ? 0 : 200,
        latencyMs: 35,
        tls: expired
          ? {
              validTo: new Date(Date.now() - 12 * 60_000).toISOString(),
              error: 'CERT_HAS_EXPIRED: certificate has expired',
            }
          : { validTo: new Date(Date.now() + 54 * 24 * 3600_000).toISOString() },
      };
    }
    const status = broken
      ? scenario === 'bad-config-5xx'
        ? 502
        : scenario === 'oom-after-deploy'
          ? 503
          : scenario === 'disk-full'
            ? 503
            : 200
      : 200;
    return {
      url: d.endpoint,
      service: d.name,
      status,
      latencyMs: broken && scenario === 'dependency-timeout' ? 4100 : 12 + (hash(d.name) % 20),
    };
  });
  void now;

  const summaries: Record<Scenario, string> = {
    'oom-after-deploy':
      'checkout-api 2.14.0 raised its cart cache tenfold; pods are OOMKilled in a loop',
    'bad-config-5xx':
      'payments-api config change set a malformed PAYMENT_GATEWAY_URL; charges fail with 502',
    'dependency-timeout': 'warehouse-db (RDS) is saturated; inventory-svc queries time out',
    'disk-full': 'search-indexer volume is full; the indexer crashes on write',
    'expired-cert': 'auth-gateway serving certificate expired after failed renewals; logins fail',
    healthy: 'no incident',
  };

  return {
    scenario,
    summary: summaries[scenario],
    namespaces: [...new Set(SERVICES.map((s) => s.namespace))],
    deployments,
    pods,
    events,
    logs,
    commits,
    alarms,
    cloud,
    metric,
    endpoints,
  };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
