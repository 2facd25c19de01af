/**
 * Failure signatures the deterministic engine looks for in tool outputs. This is data: add an
 * entry to teach the engine a new failure. `patterns` are case-insensitive regular expressions
 * tested against each value (and each object as compact text) of a tool output. `{entity}` in
 * texts is replaced by the affected resource when one is known.
 *
 * kind: `cause` explains an incident; `symptom` is seen with many causes (weaker); `change` is a
 * deploy or config change, strong when it precedes the first error.
 */
export interface SignatureEntry {
  id: string;
  title: string;
  kind: 'cause' | 'symptom' | 'change';
  /** 0..1: how much one match supports this as the root cause */
  strength: number;
  patterns: string[];
  rootCause: string;
  recommendations: { priority: 'high' | 'medium' | 'low'; action: string }[];
}

export const SIGNATURE_CATALOG: SignatureEntry[] = [
  {
    id: 'oom_killed',
    title: 'Container killed for exceeding its memory (OOMKilled)',
    kind: 'cause',
    strength: 0.9,
    patterns: [
      '\\boomkilled\\b',
      'exit[ _-]?code["\':= ]{0,4}137\\b',
      'out of memory: kill(ed)? process',
      '\\bOOM[ -]?killer\\b',
    ],
    rootCause:
      '{entity} was killed by the kernel OOM killer (exit code 137): its memory limit is below what its workload needs, or it leaks memory.',
    recommendations: [
      {
        priority: 'high',
        action:
          'Raise the memory limit of {entity} (or roll back the change that increased its memory use).',
      },
      {
        priority: 'medium',
        action:
          'Compare memory usage of {entity} before the kill with its limit; look for a leak or a larger working set.',
      },
    ],
  },
  {
    id: 'crash_loop',
    title: 'Container in CrashLoopBackOff',
    kind: 'symptom',
    strength: 0.6,
    patterns: ['crashloopbackoff', 'back-off restarting failed container'],
    rootCause: '{entity} keeps crashing on start and Kubernetes is backing off its restarts.',
    recommendations: [
      {
        priority: 'high',
        action:
          'Read the logs of the previous container of {entity} (kubectl logs --previous) for the crash reason.',
      },
      {
        priority: 'medium',
        action: 'Check recent changes to the image, configuration and secrets of {entity}.',
      },
    ],
  },
  {
    id: 'image_pull',
    title: 'Image cannot be pulled (ImagePullBackOff)',
    kind: 'cause',
    strength: 0.85,
    patterns: [
      'imagepullbackoff',
      'errimagepull',
      'manifest (for .* )?(not found|unknown)',
      'pull access denied',
    ],
    rootCause:
      'The image of {entity} cannot be pulled: wrong tag, missing image or registry credentials.',
    recommendations: [
      {
        priority: 'high',
        action:
          'Verify the image name and tag of {entity} exist in the registry and the pull secret is valid.',
      },
      { priority: 'medium', action: 'Roll back {entity} to the last image that ran.' },
    ],
  },
  {
    id: 'failed_scheduling',
    title: 'Pods cannot be scheduled (insufficient resources)',
    kind: 'cause',
    strength: 0.8,
    patterns: [
      'failedscheduling',
      'insufficient (cpu|memory|nvidia)',
      '\\d+/\\d+ nodes are available',
      'unschedulable',
    ],
    rootCause:
      'Pods of {entity} cannot be scheduled: the cluster has no node with enough free resources (or matching constraints).',
    recommendations: [
      { priority: 'high', action: 'Add node capacity or lower the resource requests of {entity}.' },
      {
        priority: 'medium',
        action: 'Check node selectors, taints and affinity rules of {entity}.',
      },
    ],
  },
  {
    id: 'probe_failure',
    title: 'Liveness or readiness probe failing',
    kind: 'symptom',
    strength: 0.55,
    patterns: [
      '(liveness|readiness|startup) probe failed',
      'unhealthy.*probe',
      'probe.*(failed|timeout)',
    ],
    rootCause: 'Health probes of {entity} fail, so it is restarted or taken out of load balancing.',
    recommendations: [
      {
        priority: 'high',
        action:
          'Check why the health endpoint of {entity} fails or is slow; adjust probe timeouts only if the service is healthy.',
      },
    ],
  },
  {
    id: 'eviction_pressure',
    title: 'Pods evicted under node disk or memory pressure',
    kind: 'cause',
    strength: 0.75,
    patterns: [
      '\\bevicted\\b',
      '(disk|memory|pid)pressure',
      'the node was low on resource',
      'no space left on device',
    ],
    rootCause:
      'Node resources ran out (disk or memory pressure) and pods of {entity} were evicted.',
    recommendations: [
      {
        priority: 'high',
        action:
          'Free disk or memory on the affected nodes (logs, images, ephemeral storage) and set ephemeral-storage limits.',
      },
      { priority: 'medium', action: 'Alert on node pressure conditions before evictions start.' },
    ],
  },
  {
    id: 'connection_refused',
    title: 'Connections refused or timing out to a dependency',
    kind: 'symptom',
    strength: 0.6,
    patterns: [
      'connection refused',
      'econnrefused',
      'connection (timed out|reset)',
      'etimedout',
      'econnreset',
      'upstream connect error',
      'i/o timeout',
    ],
    rootCause: '{entity} cannot reach a dependency: connections are refused or time out.',
    recommendations: [
      {
        priority: 'high',
        action:
          'Check the health and endpoints of the dependency {entity} calls, and network policies between them.',
      },
    ],
  },
  {
    id: 'dns_failure',
    title: 'DNS resolution failures',
    kind: 'cause',
    strength: 0.75,
    patterns: [
      'no such host',
      'enotfound',
      'nxdomain',
      'name resolution',
      'could not resolve host',
      'server misbehaving',
    ],
    rootCause:
      'Name resolution fails for {entity}: a DNS record is missing or the cluster DNS is unhealthy.',
    recommendations: [
      {
        priority: 'high',
        action: 'Check the DNS record and the cluster DNS (CoreDNS) pods and their logs.',
      },
    ],
  },
  {
    id: 'tls_expiry',
    title: 'TLS certificate expired or invalid',
    kind: 'cause',
    strength: 0.85,
    patterns: [
      'x509',
      'certificate (has )?expired',
      'certificate is not valid',
      'cert_has_expired',
      'ssl handshake failed',
      'tls handshake (error|failure)',
    ],
    rootCause: 'TLS fails for {entity}: a certificate has expired or does not match.',
    recommendations: [
      {
        priority: 'high',
        action:
          'Renew or replace the certificate used by {entity} and check automatic renewal (cert-manager).',
      },
    ],
  },
  {
    id: 'http_5xx',
    title: 'Spike of HTTP 5xx errors',
    kind: 'symptom',
    strength: 0.5,
    patterns: [
      '\\b(http|status)[ _:="]{0,3}5\\d\\d\\b',
      '\\b5\\d\\d (internal server error|bad gateway|service unavailable|gateway timeout)',
      'error.?rate',
    ],
    rootCause: '{entity} answers a high share of requests with HTTP 5xx errors.',
    recommendations: [
      {
        priority: 'medium',
        action: 'Find the first failing dependency of {entity} from its error logs and traces.',
      },
    ],
  },
  {
    id: 'throttling_quota',
    title: 'Throttling or quota exhausted',
    kind: 'cause',
    strength: 0.7,
    patterns: [
      'throttl(ed|ing)',
      'rate.?limit(ed)? exceeded',
      'quota exceeded',
      'too many requests',
      'limitexceeded',
      'requestlimitexceeded',
      '\\b429\\b',
    ],
    rootCause:
      '{entity} is throttled: a rate limit or quota of a provider or dependency is exhausted.',
    recommendations: [
      {
        priority: 'high',
        action: 'Raise the quota or rate limit, or reduce and back off the calls made by {entity}.',
      },
    ],
  },
  {
    id: 'recent_change',
    title: 'Recent deploy or configuration change',
    kind: 'change',
    strength: 0.45,
    patterns: [
      '\\b(deploy(ed|ment)? (of|to)|rolled out|rollout|scaled|release[d]?|upgraded?|config(uration)? (change|update)d?|image (changed|updated))\\b',
      'scalingreplicaset',
      '\\bcommit [0-9a-f]{7,40}\\b',
    ],
    rootCause:
      'A change to {entity} (deploy or configuration) shortly before the first error is the likely trigger.',
    recommendations: [
      {
        priority: 'high',
        action: 'Roll back the recent change to {entity} and confirm the errors stop.',
      },
      {
        priority: 'medium',
        action: 'Review the diff of the change to {entity} for the failing behaviour.',
      },
    ],
  },
  {
    id: 'database_errors',
    title: 'Database connection pool exhausted or database errors',
    kind: 'cause',
    strength: 0.65,
    patterns: [
      'too many connections',
      'connection pool (exhausted|timeout)',
      'deadlock detected',
      'remaining connection slots',
      'lock wait timeout',
    ],
    rootCause:
      'The database used by {entity} rejects or stalls connections (pool exhausted, locks).',
    recommendations: [
      {
        priority: 'high',
        action:
          'Check database connections and long-running queries; size the pool of {entity} to what the database allows.',
      },
    ],
  },
  {
    id: 'high_latency',
    title: 'High latency or slow responses',
    kind: 'symptom',
    strength: 0.35,
    patterns: [
      'latency (spike|increase|high)',
      'p9[59] latency',
      'slow (query|response)',
      'deadline exceeded',
      'timed out after',
    ],
    rootCause: '{entity} responds slowly: latency rose above normal.',
    recommendations: [
      {
        priority: 'medium',
        action: 'Trace slow requests of {entity} to the slowest dependency or query.',
      },
    ],
  },
];
