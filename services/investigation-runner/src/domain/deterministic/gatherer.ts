import type { EngineRun } from '../engine';
import { toolSettingsOf } from '../agents';
import { fillFromRequest, type Params } from '../param-filler';
import type { ToolRunner } from '../tool-runner';
import {
  backingWorkload,
  CONNECTION_RESET,
  CSI_NODE_PLUGIN,
  CSI_NOT_REGISTERED,
  failingDependencies,
  INGRESS_CONTROLLER,
  ingressBackends,
  IP_PORT,
  CONNECT_FAILED,
  MESH_PROXY,
  NETWORK_TIMEOUT,
  NO_POD_IP,
  NODE_AGENT,
  podsNamedFor,
} from './dependencies';
import { dedupe } from './collections';
import { budgetNamesWorkload, DRAIN_ENV, DRAIN_LOGGED } from './diagnose';
import { PG_PASSWORD_REFUSED } from './diagnose-r21data';
import { jobFailed, jobSucceeded } from './diagnose-r27a';
import { nslookupInit, nslookupShortName, unreadSelectedPods } from './diagnose-r28b';
import { oomKilledCollector } from './diagnose-r31a';
import { CSI_MOUNT_DEADLINE } from './diagnose-r29c';
import {
  OBJECT_STORE_FULL,
  PG_WAL_REMOVED,
  refusals,
  STREAM_NOT_FOUND,
  TOPIC_MISSING,
} from './diagnose-r30a';
import {
  ACCESS,
  COREDNS_ERROR,
  LOOKUP_FAILED,
  controllerConfig,
  ingressesTo,
  serviceOfUpstream,
  WEBSOCKET_DROPPED,
} from './diagnose-r26b';
import { namesToken } from './text';
import { BLACKHOLE, NO_HEALTHY_UPSTREAM } from './diagnose-r29a';
import { helmNamespaceOf, helmReleaseOf } from './finding-vars-configuration';
import { piledCronRuns } from './finding-vars-r21sched';
import {
  autoscalersOf,
  NOMINATED_NODECLAIM,
  SCALED_DOWN,
  TARGET_HEALTH_GATE,
} from './diagnose-rollouts';
import {
  failsOrRestarts,
  hasCompleted,
  hasFinished,
  healthyTwins,
  isUnhealthy,
  jobEnded,
  podsOnNode,
  unevenLoad,
} from './health';
import {
  configMapNamesOf,
  configMapsOf,
  isCordoned,
  jsonField,
  nodesRefusingDaemonSet,
  type ClusterModel,
} from './model';
import { observe, type CallContext, type ObjectView } from './observe';
import { newObject, type LogView } from './observe/views';
import {
  claimSize,
  LOG_LEVEL_VARIABLE,
  ownHash,
  questionNamespace,
  templateKey,
} from './questions';
import { podsOfWorkload, replicaCounts, unreadyPod } from './questions-fleet';
import { nodeNamed } from './questions-pods-config';
import { qosOf } from './questions-r28b';
import { jobRun, newestFirst, PULL_FAILING } from './questions-activity';
import type { Scope, Subject } from './scope';
import {
  apiVersionOf,
  clusterScoped,
  currentContextOf,
  kindValue,
  servesKind,
  type ToolProfile,
} from './tool-profile';

// ------------------------------------------------------------------------------------------------
// Gathering

/** a DNS name with a public-looking suffix (docs.acme.io, www.shop.example.com) */
const HOST_NAME =
  /\b[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+\.[a-z]{2,}\b/g;

/** a name lookup that got no answer from the DNS server (not one that said "no such host") */
const DNS_TIMEOUT =
  /lookup \S+ on [\d.:[\]]+:53: (?:read udp[^\n]*)?i\/o timeout|connection timed out; no servers could be reached|EAI_AGAIN|Temporary failure in name resolution/;

/** a request an Istio sidecar refused for its AuthorizationPolicy */
const MESH_DENIED = /RBAC: access denied|rbac_access_denied/;
/** (r31a) a request about alerts that never reached their receiver (Slack, PagerDuty, a webhook) */
const ALERTS_NOT_DELIVERED =
  /\b(?:slack|pagerduty|opsgenie|teams|webhook|e-?mail)\b[^.?!\n]{0,80}\b(?:alert|notif|page)|\b(?:alert|notif|page)\w*[^.?!\n]{0,80}\b(?:slack|pagerduty|opsgenie|teams|webhook|receiver)\b|\b(?:no|never|not|missing|stopped)\b[^.?!\n]{0,40}\b(?:alerts?|notifications?)\b[^.?!\n]{0,40}\b(?:arriv|reach|receiv|deliver|sent|fir)/i;
/** (r31a) Alertmanager gave up on a notification */
const NOTIFY_FAILED = /Notify for alerts failed/;
/** cert-manager's controller pod (not its webhook or cainjector) */
const CERT_MANAGER_POD = /^cert-manager-(?!webhook|cainjector)[a-z0-9]+-[a-z0-9]+$/;
/** errors a client-side setting decides: a timeout it sets, the database host it pins */
const SETTING_TIMEOUT =
  /canceling statement due to (?:statement|lock) timeout|running with the --read-only option|\bError 1290\b/i;
/** a request about work piling up that nobody consumes (a queue, a topic, a stream) */
const QUEUE_STARVED =
  /\bno consumers?\b|\bconsumers?\s*(?:==|=|is|are)?\s*(?:0|zero|gone|missing)\b|\bbacklog\b|\b(?:queue|topic|stream)\b[^.?!]{0,40}\b(?:grow\w*|pil\w+ up|stuck|not (?:being )?(?:drain|consum)\w*)|\bnot (?:being )?consumed\b|\bmessages_ready\b/i;
const REDIS_MAXMEMORY =
  /command not allowed when used memory > 'maxmemory'|NOREPLICAS Not enough good replicas/i;
const JWKS_MISS =
  /JWKSNoMatchingKey|ERR_JWKS_NO_MATCHING_KEY|no applicable key found in the JSON Web Key Set|unable to find a signing key that matches/i;
const CONNECTION_LIMIT =
  /too many connections|too many clients already|remaining connection slots are reserved|no more connections allowed \(max_client_conn\)/i;
/** a connection to an address and port that got no answer (an egress policy may drop it) */
const CONNECT_TIMEOUT = /connect ETIMEDOUT|dial tcp [^\n]*i\/o timeout|connect timed out/i;

const viewKey = (o: ObjectView) => `${o.kind}/${o.namespace ?? ''}/${o.name}`;

/** A pod a listing showed by name only: no phase, no node, no containers, no restarts. */
const barePod = (p: ObjectView): boolean =>
  p.status === undefined && !p.node && !p.containers.length && p.restarts === undefined;

/**
 * Feature words of a report and the name parts of the workloads that usually serve them (a
 * workload named "notification-gateway" or "alert-mailer" sends the emails).
 */
const FEATURE_NAMES: [RegExp, string[]][] = [
  [
    /^(e-?mails?|mails?|smtp)$/,
    ['mail', 'email', 'mailer', 'smtp', 'postfix', 'notification', 'notifications', 'notifier'],
  ],
  [
    /^(log-?ins?|sign-?ins?|logging-in|passwords?|sso)$/,
    ['auth', 'login', 'identity', 'sso', 'keycloak', 'oauth', 'oidc', 'accounts', 'session'],
  ],
  [/^(payments?|charges?|refunds?)$/, ['payment', 'payments', 'billing', 'pay', 'stripe']],
  [
    /^(uploads?|thumbnails?|photos?|pictures?|avatars?)$/,
    ['upload', 'uploads', 'uploader', 'media', 'thumbnail', 'thumbnailer', 'thumbs', 'imgproxy'],
  ],
  [
    /^(push|sms|texts|notifications?)$/,
    ['notification', 'notifications', 'notifier', 'push', 'sms'],
  ],
  [
    /^(invoices?|receipts?)$/,
    ['invoice', 'invoices', 'invoicing', 'billing', 'receipt', 'receipts'],
  ],
];
const REFUSED = /connection refused|ECONNREFUSED/i;
/** a connection refused on the pod's own loopback address (localhost, 127.0.0.1, [::1]) */
const LOOPBACK_REFUSED =
  /(?:localhost|127\.0\.0\.1|\[::1\]):\d+[^\n]*(?:connection refused|ECONNREFUSED)|ECONNREFUSED (?:127\.0\.0\.1|::1):\d+/i;
/** the triggers of inspectLineTargets: exec's ENOENT, Spring without a DataSource URL, STS's audience, helm's lock */
const EXEC_ENOENT = /exec \/[\w./-]+: no such file or directory/;
const SPRING_NO_URL = /Failed to configure a DataSource: 'url' attribute is not specified/;
const STS_AUDIENCE = /Incorrect token audience/;
const HELM_LOCKED = /another operation \(install\/upgrade\/rollback\) is in progress/;
const PINNED_SHORT =
  /\d+ Insufficient (?:cpu|memory)\b[^\n]*node\(s\) didn'?t match (?:Pod's )?node (?:affinity\/)?selector/;

/** (r24b) HotSpot cannot open a -javaagent jar */
const JVM_AGENT_MISSING = /Error opening zip file or JAR manifest missing/;
/** (r24b) Airflow's check-migrations giving up: the schema was never migrated */
const MIGRATIONS_PENDING = /There are still unapplied migrations/;
const ARGO_CONTROLLER = /^argocd-application-controller-/;
/** (r24b) an HPA's custom metric the adapter has no series for */
const CUSTOM_METRIC_MISSING = /FailedGet(?:Pods|Object)Metric|could not find the metric/;
/** (r24b) the kubelet's CreateContainerConfigError for a Secret that does not exist */
const SECRET_NOT_FOUND = /\bsecret "[^"]+" not found/i;
/** An object known by name only (named in the request, a backend an Ingress names). */
/** (r29c) Karpenter's refusal to grow a NodePool past its spec.limits */
export const NODEPOOL_LIMITS = /exceed limits for nodepool:? \\?"([\w.-]+)\\?"/;

const named = (kind: string, name: string, namespace?: string): ObjectView => ({
  ...newObject(kind, name, 'scope'),
  namespace,
});

/** round26 (r26a): a cluster member that waits for its peers' tables (RabbitMQ / Mnesia) */
const PEERS_UNREACHABLE = /timeout_waiting_for_tables|Error while waiting for Mnesia tables/i;
/** round26 (r26a): a MySQL client that cannot speak the auth plugin the server asks for */
const MYSQL_AUTH_PLUGIN_REFUSED =
  /ER_NOT_SUPPORTED_AUTH_MODE|Client does not support authentication protocol requested by server/;

export class Gatherer {
  private budget: number;
  /** the kubeconfig context tools that require one are given (the current one) */
  private kubeContext?: string;
  private readonly done = new Set<string>();
  /** objects inspected (kind/namespace/name) */
  private readonly inspected = new Set<string>();
  /** workloads (namespace/name) one of whose pods had all its main containers' logs read */
  private readonly workloadsRead = new Set<string>();
  /** namespaces whose events were read as a whole */
  private readonly namespaceEvents = new Set<string>();
  /** describe tools that answered: whether their text ends with the object's events */
  private readonly described = new Map<string, boolean>();
  /**
   * the clients of a data store said to be overloaded, read on its behalf: when the store looks
   * healthy, they are the first neighbours of a wider conclusion
   */
  private readonly storeClients = new Map<string, Subject>();

  constructor(
    private readonly run: EngineRun,
    private readonly runner: ToolRunner,
    private readonly model: ClusterModel,
    private readonly profiles: ToolProfile[],
    private readonly scope: Scope,
    maxCalls: number,
    private readonly until: number,
    private readonly onDone: (label: string) => void,
    /** the run's current time (epoch ms) */
    private readonly now: number,
  ) {
    this.budget = maxCalls;
  }

  private kube = () => this.profiles.filter((p) => p.kube);

  /** Calls one tool (once per parameter set), reads its output into the model. */
  private async call(
    p: ToolProfile,
    params: Params,
    ctx: Omit<CallContext, 'tool' | 'verb'>,
  ): Promise<boolean> {
    const key = `${p.tool.fullName}|${JSON.stringify(params)}`;
    if (
      this.done.has(key) ||
      this.budget <= 0 ||
      Date.now() > this.until ||
      this.run.signal.aborted
    )
      return false;
    this.done.add(key);
    this.budget--;
    const out = await this.runner.call(p.tool, params);
    this.onDone(p.tool.fullName);
    if (!out.ok) return this.logsOfEachContainer(p, params, ctx, () => out.message);
    // a tool that answers an API refusal as its result (`{"success": false, "error": ...}`)
    if (
      p.verb === 'logs' &&
      (await this.logsOfEachContainer(p, params, ctx, () => refusalIn(out.output)))
    )
      return true;
    // a search that takes no kind answers with objects of any kind: the output says which
    const as = p.verb === 'find' && !p.params.kind ? { ...ctx, kind: undefined } : ctx;
    const seen = observe(out.output, { ...as, tool: p.tool.fullName, verb: p.verb, now: this.now });
    if (p.verb === 'describe') this.described.set(p.tool.fullName, !!seen.describedEvents);
    this.model.add(seen, p.tool.fullName);
    return true;
  }

  /**
   * The Kubernetes API refuses the logs of a pod of several containers when none is named, and
   * names them ("a container name must be specified for pod web-1, choose one of: [app proxy]");
   * a tool that passes the refusal on (as its error or as its result) is asked again for each (at
   * most three, in the pod's order; init containers, listed after "or one of the init containers",
   * are not). True when one answers.
   */
  private async logsOfEachContainer(
    p: ToolProfile,
    params: Params,
    ctx: Omit<CallContext, 'tool' | 'verb'>,
    error: () => string,
  ): Promise<boolean> {
    const param = p.params.container;
    // the result's text is taken only here: a logs call that named its container (most) does not
    // serialise its output again
    if (p.verb !== 'logs' || !param || params[param] !== undefined) return false;
    const named =
      /a container name must be specified for pod \S+, choose one of: \[([^\]]*)\]/.exec(error());
    if (!named) return false;
    const containers = named[1]!
      .split(/[\s,]+/)
      .filter(Boolean)
      .slice(0, 3);
    const read = await Promise.all(
      containers.map((c) => this.call(p, { ...params, [param]: c }, { ...ctx, container: c })),
    );
    return read.some(Boolean);
  }

  /** Parameters for a tool about `target`; undefined when a required one cannot be filled. */
  private params(
    p: ToolProfile,
    t: {
      kind?: string;
      name?: string;
      namespace?: string;
      container?: string;
      previous?: boolean;
      keyword?: string;
      all?: boolean;
      tail?: number;
      /** a listing's wide form (a pod's node) */
      wide?: boolean;
      /** a listing of whole objects (YAML), where a tool offers that format */
      whole?: boolean;
    },
  ): Params | undefined {
    const out: Params = {};
    const props = p.tool.parameters.properties ?? {};
    const set = (role: keyof ToolProfile['params'], v: unknown) => {
      const name = p.params[role];
      if (name && v !== undefined && v !== '') out[name] = coerce(v, schemaType(props[name]));
    };
    // the kubeconfig context a tool requires: the current one, once a contexts tool said it
    if (this.kubeContext) set('kubeContext', this.kubeContext);
    else if (p.contextRequired) return undefined;
    if (t.kind) {
      if (p.params.kind) {
        const kv = kindValue(p, t.kind);
        if (!kv) return undefined;
        set('kind', kv);
      }
      if (p.params.apiVersion) set('apiVersion', apiVersionOf(t.kind));
    }
    // a cluster-scoped kind (a node, a namespace) is asked for without one
    if (!t.kind || !clusterScoped(t.kind))
      set('namespace', t.namespace ?? (t.all ? undefined : this.defaultNamespace(p)));
    if (t.name) {
      // (calls) a named object goes to no tool whose name fixes other kinds (a pod's name to
      // "node_logs", a Deployment's or a node's to "get_pod_events"): it answers "not found"
      if (t.kind && p.kinds.length && !p.kinds.includes(t.kind)) return undefined;
      if (t.kind === 'pod' && p.params.pod) set('pod', t.name);
      else if (t.kind === 'node' && p.params.node) set('node', t.name);
      else if (p.params.name) set('name', t.name);
      else if (p.params.workload && t.kind !== 'pod') set('workload', t.name);
      else if (p.params.involved) set('involved', `${t.kind ?? 'pod'}/${t.name}`);
      // (calls) a pod parameter takes a pod's name, not a Deployment's or a Service's
      else if (p.params.pod && (!t.kind || t.kind === 'pod')) set('pod', t.name);
      else return undefined;
    }
    if (t.container) set('container', t.container);
    if (t.previous && p.params.previous) set('previous', true);
    if (t.keyword) set('keyword', t.keyword);
    if (t.all) set('allNamespaces', true);
    // a Service listing shows its selector only in the wide form, a ReplicaSet's its images
    if (p.params.wide && (t.wide || t.kind === 'service' || t.kind === 'replicaset') && !t.name)
      set('wide', true);
    // a format choice: a listing's wide table (status, restarts, node), an object's whole YAML
    // (a default JSON "summary" may hide both)
    if (p.params.output && (p.verb === 'get' || p.verb === 'list')) {
      const en = props[p.params.output]?.enum;
      const offered = (v: string) => Array.isArray(en) && en.includes(v);
      const want = t.name || t.whole ? ['yaml', 'json'] : ['wide'];
      const v = want.find(offered);
      if (v) set('output', v);
    }
    // a tool that returns the previous and the current containers' logs together (every
    // container's, oldest first) needs more lines to reach back to the crash
    if (p.verb === 'logs' && p.params.tail)
      set('tail', t.tail ?? (p.previousLogs && !p.params.previous ? 1000 : 200));
    if (p.params.service && this.run.context.service && !out[p.params.service])
      set('service', this.run.context.service);
    for (const r of p.required) if (out[r] === undefined) return undefined;
    return out;
  }

  /**
   * Pods a listing named and said nothing else of (at most a phase; no READY, restarts or
   * containers), in the scope's namespaces (else where the subjects are): each described (else
   * read whole by name), the subjects' pods first.
   */
  private async readNamedOnlyPods(): Promise<void> {
    const { model, scope } = this;
    // no READY, no restarts, no containers: at most the phase, which is "Running" for a pod
    // whose container crash-loops
    const bare = (p: ObjectView) =>
      (p.status === undefined || /^(Running|Pending)$/.test(p.status)) &&
      !p.containers.length &&
      p.fields['ready'] === undefined &&
      p.restarts === undefined;
    const nss = scope.namespaces.length
      ? scope.namespaces
      : [
          ...new Set(
            model
              .list('pod')
              .filter((p) => scope.subjects.some((s) => model.matches(p, s)))
              .map((p) => p.namespace),
          ),
        ];
    if (!nss.length) {
      // a question asks what a listing answers, not which pod fails
      if (!scope.question) await this.readUnscopedNamedOnlyPods();
      return;
    }
    const pods = nss
      .slice(0, 2)
      .flatMap((ns) => model.list('pod', ns).filter((p) => p.namespace === ns));
    if (!pods.length || !pods.every(bare)) return;
    const subject = (p: ObjectView) => (scope.subjects.some((s) => model.matches(p, s)) ? 0 : 1);
    const room = Math.max(0, Math.min(16, this.budget - 20));
    await Promise.all(
      [...pods]
        .sort((a, b) => subject(a) - subject(b))
        .slice(0, room)
        .map((p) => this.describe(p)),
    );
  }

  /**
   * A namespace's NetworkPolicies listed, then each whose listing lacks `field` (its rules, its
   * policy types) read whole by name: at most `max`.
   */
  private async readNetworkPolicies(ns: string, field: string, max: number): Promise<void> {
    await this.first(
      this.listers('networkpolicy'),
      { kind: 'networkpolicy', namespace: ns },
      { kind: 'networkpolicy', namespace: ns },
    );
    const readers = this.tools('get', 'networkpolicy').filter((p) => p.params.name);
    await Promise.all(
      this.model
        .list('networkpolicy', ns)
        .filter((n) => n.namespace === ns && n.fields[field] === undefined)
        .slice(0, max)
        .map((n) =>
          this.first(
            readers,
            { kind: 'networkpolicy', name: n.name, namespace: ns },
            { kind: 'networkpolicy', namespace: ns },
          ),
        ),
    );
  }

  /** logs tools that take a pod, a container and the previous-container switch */
  private containerPreviousLogTools(): ToolProfile[] {
    return this.tools('logs').filter(
      (p) => (p.params.pod || p.params.name) && p.params.container && p.params.previous,
    );
  }

  /** The log of a container's previous run (what it said before it restarted). */
  private containerPreviousLog(
    tools: ToolProfile[],
    pod: ObjectView,
    container: string,
  ): Promise<boolean> {
    return this.first(
      tools,
      { kind: 'pod', name: pod.name, namespace: pod.namespace, container, previous: true },
      { kind: 'pod', namespace: pod.namespace, pod: pod.name, container, previous: true },
    );
  }

  /** Every namespace's Ingresses, unless some were listed already. */
  private async listIngressesOnce(): Promise<void> {
    if (!this.model.list('ingress').length)
      await this.first(
        this.listers('ingress'),
        { kind: 'ingress', all: true },
        { kind: 'ingress' },
      );
  }

  /** The current kubeconfig context, from a contexts tool that needs no parameter. */
  private async discoverContext(): Promise<void> {
    for (const p of this.kube().filter((x) => x.verb === 'contexts' && !x.required.length)) {
      if (this.budget <= 0 || this.run.signal.aborted) return;
      this.budget--;
      const out = await this.runner.call(p.tool, {});
      this.onDone(p.tool.fullName);
      const name = out.ok ? currentContextOf(out.output) : undefined;
      if (name) {
        this.kubeContext = name;
        return;
      }
    }
  }

  private defaultNamespace(p: ToolProfile): string | undefined {
    return (
      toolSettingsOf(this.run.effective, p.tool.fullName).defaultNamespace ??
      this.scope.namespaces[0]
    );
  }

  /** tools that list a kind (a get whose name is optional lists too) */
  private listers(kind: string): ToolProfile[] {
    return this.tools(['list', 'get'], kind).filter(
      (p) => !p.params.name || !p.required.includes(p.params.name),
    );
  }

  /** events tools that need nothing but a namespace */
  private namespaceEventTools(): ToolProfile[] {
    return this.tools('events').filter((p) => !p.required.some((r) => r !== p.params.namespace));
  }

  /** logs tools that take a pod (by a pod or name parameter), current logs */
  private podLogTools(): ToolProfile[] {
    return this.podLogReaders().filter((p) => !p.previousLogs);
  }

  /**
   * logs tools that take a pod (by a pod or name parameter), current or previous; (calls) a
   * product's own log tool ("vind_logs") reads that product's view, not a pod's logs: it is
   * among them only where the server has no other
   */
  private podLogReaders(): ToolProfile[] {
    const ps = this.tools('logs').filter((p) => p.params.pod || p.params.name);
    return ps.some((p) => !p.ecosystem) ? ps.filter((p) => !p.ecosystem) : ps;
  }

  private tools(verb: ToolProfile['verb'] | ToolProfile['verb'][], kind?: string): ToolProfile[] {
    const verbs = Array.isArray(verb) ? verb : [verb];
    const ps = this.kube().filter(
      (p) =>
        verbs.includes(p.verb) &&
        (!kind || servesKind(p, kind) || (p.verb === 'events' || p.verb === 'logs' ? true : false)),
    );
    // a tool for exactly this kind before a generic one, the plainer of two first ("get_pods"
    // before "detect_pending_pods")
    // before a generic one; a product's own tool ("cilium_list_nodes") after the cluster's
    return ps.sort(
      (a, b) =>
        Number(a.ecosystem) - Number(b.ecosystem) ||
        (kind && a.kinds.includes(kind) ? 0 : 1) - (kind && b.kinds.includes(kind) ? 0 : 1) ||
        a.extraWords - b.extraWords,
    );
  }

  /** The first tool that can take these parameters. */
  private async first(
    ps: ToolProfile[],
    t: Parameters<Gatherer['params']>[1],
    ctx: Omit<CallContext, 'tool' | 'verb'>,
  ): Promise<boolean> {
    for (const p of ps) {
      const params = this.params(p, t);
      if (!params) continue;
      if (await this.call(p, params, ctx)) return true;
    }
    return false;
  }

  async gather(): Promise<void> {
    const { scope } = this;
    const text =
      `${this.run.message} ${this.run.context.hint ?? ''} ${this.run.context.related_alert ?? ''}`.toLowerCase();
    // generic (non-Kubernetes) tools: called once with what the request fills
    // a PromQL query parameter takes PromQL, not the incident's words: those tools are left to
    // the LLM engine (alerts, rules and targets tools need no query and are called)
    const generic = this.profiles.filter(
      (p) =>
        !p.kube &&
        !(p.params.query && /promql|prometheus/i.test(`${p.tool.name} ${p.tool.description}`)),
    );
    const genericCalls = generic.map(async (p) => {
      const filled = fillFromRequest(
        p.tool,
        this.run.message,
        this.run.context,
        this.defaultNamespace(p),
      );
      if (filled.missing.length === 0)
        await this.call(p, filled.params, { namespace: this.run.context.namespace });
    });

    // observed at once: if a later phase throws (cancel, timeout), a generic call rejecting
    // afterwards must not become an unhandled rejection (it would end the process)
    const genericDone = Promise.all(genericCalls);
    genericDone.catch(() => undefined);

    // tools that require a kubeconfig context: which one is current, first
    if (this.kube().some((p) => p.contextRequired)) await this.discoverContext();
    // 1. discovery
    const nsList = scope.namespaces.length ? scope.namespaces : [undefined];
    const listKinds = ['pod', 'deployment'];
    if (
      /\bjobs?\b|cron|batch|backoff|deadline|\b(?:hourly|nightly|daily|weekly|scheduled)\b/.test(
        text,
      )
    )
      // the CronJobs too: a suspended or never-scheduled one has no Job to list
      listKinds.push('job', 'cronjob');
    if (/\bpvc|volume|storage|claim|disk/.test(text)) listKinds.push('persistentvolumeclaim');
    if (/\bcert|\btls\b|\bssl\b|x509|acme/.test(text)) listKinds.push('certificate');
    // a public host name ("docs.acme.io is 503"): the Ingress that serves it
    const hosts = [...text.matchAll(HOST_NAME)]
      .map((m) => m[0])
      .filter((h) => !/\.svc\b|\.local$|\.internal$/.test(h));
    if (hosts.length) listKinds.push('ingress');
    if (/scal|hpa|autoscal|load|latency|slow|throttl|cpu|saturat|capacity/.test(text))
      listKinds.push('horizontalpodautoscaler');
    // what the workloads depend on: Services (endpoints by name or ClusterIP) and stateful sets
    if (scope.namespaces.length) listKinds.push('statefulset', 'service');
    else {
      if (/statefulset|sts\b|database|db\b/.test(text)) listKinds.push('statefulset');
      // requests that fail while pods look fine: what the Services select
      if (
        /\b50[234](?:s|ing|ed)?\b|unavailable|endpoints?\b|\bsite\b|website|refused|\bdown\b/.test(
          text,
        )
      )
        listKinds.push('service');
    }
    const phase1: Promise<unknown>[] = [];
    if (!scope.namespaces.length) phase1.push(this.first(this.tools('namespaces'), {}, {}));
    phase1.push(
      this.first(
        this.tools(['list', 'get'], 'node').filter(
          (p) => !p.required.some((r) => r !== p.params.kind && r !== p.params.apiVersion),
        ),
        { kind: 'node' },
        { kind: 'node' },
      ),
    );
    for (const ns of nsList.slice(0, 3)) {
      for (const kind of listKinds)
        phase1.push(
          this.first(
            this.listers(kind),
            { kind, namespace: ns, all: !ns },
            { kind, namespace: ns },
          ),
        );
      if (ns) {
        this.namespaceEvents.add(ns);
        phase1.push(this.first(this.namespaceEventTools(), { namespace: ns }, { namespace: ns }));
      }
    }
    for (const s of scope.subjects.slice(0, 2))
      phase1.push(
        this.first(
          this.tools('find'),
          { kind: s.kind ?? 'pod', keyword: s.name },
          { kind: s.kind },
        ),
      );
    await Promise.all(phase1);
    await this.r23bSubjectInAnotherNamespace();
    // namespaces found but pods not listed yet (a pods tool that requires a namespace); pods
    // only named by a log search or an alarm were not listed (nothing says how they are)
    if (
      !scope.namespaces.length &&
      !this.model.list('pod').some((p) => p.status !== undefined || p.containers.length)
    ) {
      const nss = this.model
        .list('namespace')
        .map((n) => n.name)
        .filter((n) => !/^kube-|^default$/.test(n));
      // first the namespaces named like a subject, or where something named like one was seen
      const seenIn = new Set(
        [...this.model.objects.values()]
          .filter((o) => o.namespace && scope.subjects.some((s) => o.name.includes(s.name)))
          .map((o) => o.namespace!),
      );
      const liked = nss.filter(
        (n) =>
          seenIn.has(n) || scope.subjects.some((s) => n.includes(s.name) || s.name.includes(n)),
      );
      await Promise.all(
        [...liked, ...nss.filter((n) => !liked.includes(n))]
          .slice(0, 5)
          .map((ns) =>
            this.first(
              this.tools(['list', 'get'], 'pod'),
              { kind: 'pod', namespace: ns },
              { kind: 'pod', namespace: ns },
            ),
          ),
      );
    }
    const listed = new Set(scope.namespaces);
    this.refineScope();
    if (!scope.namespaces.length) {
      // the subject's namespace, once discovered
      const hit = this.model
        .list()
        .find((o) => o.namespace && scope.subjects.some((s) => this.model.matches(o, s)));
      if (hit?.namespace) {
        scope.namespaces.push(hit.namespace);
        for (const s of scope.subjects) s.namespace ??= hit.namespace;
      }
    }
    // the Services of the namespace the subject was found in (discovery could not list them):
    // what its clients reach it through
    const gained = scope.namespaces.find((ns) => !listed.has(ns));
    if (gained && !this.model.list('service', gained).some((s) => s.namespace === gained))
      await this.first(
        this.listers('service'),
        { kind: 'service', namespace: gained },
        { kind: 'service', namespace: gained },
      );
    // the events of namespaces the scope gained since discovery ("... in training")
    await Promise.all(
      scope.namespaces
        .filter((ns) => !listed.has(ns) && !this.namespaceEvents.has(ns))
        .slice(0, 2)
        .map((ns) => {
          this.namespaceEvents.add(ns);
          return this.first(this.namespaceEventTools(), { namespace: ns }, { namespace: ns });
        }),
    );

    // a pod listing of names only (a server that lists each object as its name): the pods read
    // whole, the subjects' first, then the namespace's others, as the budget allows
    await this.readNamedOnlyPods();
    // a Service's selector against its pods' labels: a listing that shows no labels leaves one
    // pod of the workload of the Service's name to describe
    await Promise.all(
      this.model
        .list('service')
        .filter((svc) => svc.fields['selector'] && svc.namespace && !/^kube-/.test(svc.namespace))
        .flatMap((svc) => {
          const pods = podsNamedFor(this.model, svc);
          return pods.length && pods.every((p) => !Object.keys(p.labels).length) ? [pods[0]!] : [];
        })
        .slice(0, 3)
        .map((p) => this.describe(p)),
    );
    // a Service listing that shows no selector (a server's small listing struct): the Services
    // with pods named for them read whole, and one such pod whole (its labels), to match the two
    await Promise.all(
      this.model
        .list('service')
        .filter(
          (svc) =>
            svc.fields['selector'] === undefined &&
            svc.fields['type'] !== undefined &&
            svc.fields['type'] !== 'ExternalName' &&
            svc.namespace &&
            !/^kube-|^default$/.test(svc.namespace) &&
            svc.name !== 'kubernetes',
        )
        .flatMap((svc) => {
          const pods = podsNamedFor(this.model, svc);
          return pods.length ? [{ svc, pod: pods[0]! }] : [];
        })
        .sort(
          (a, b) =>
            Number(!scope.subjects.some((s) => this.model.matches(a.svc, s))) -
            Number(!scope.subjects.some((s) => this.model.matches(b.svc, s))),
        )
        .slice(0, 3)
        .flatMap(({ svc, pod }) => [
          this.readOrDescribe(svc),
          Object.keys(pod.labels).length ? Promise.resolve() : this.readOrDescribe(pod),
        ]),
    );
    // the Ingress of a host the request names, and the Services it routes to
    const routes = this.model
      .list('ingress')
      .filter((i) => hosts.some((h) => (i.fields['hosts'] ?? '').split(',').includes(h)))
      .slice(0, 2);
    await Promise.all(routes.map((i) => this.describe(i)));
    // a route no controller gave an address: which classes the cluster serves
    if (routes.some((i) => i.fields['ingressClass'] && i.fields['address'] === ''))
      await this.first(
        this.tools(['list', 'get'], 'ingressclass').filter(
          (p) => !p.required.some((r) => r !== p.params.kind && r !== p.params.apiVersion),
        ),
        { kind: 'ingressclass' },
        { kind: 'ingressclass' },
      );
    const backends = routes.flatMap((i) =>
      ingressBackends(i).map((b) => named('service', b.service, i.namespace)),
    );
    await Promise.all(
      backends
        .filter((b, k) => backends.findIndex((x) => x.name === b.name) === k)
        .slice(0, 4)
        .map((b) => this.describe(b)),
    );
    await this.r25bProxyInFront(routes);
    // a question about what happened lately: what answers it is read before the budget goes
    await this.gatherForActivityQuestion();
    await this.gatherForWorkloadQuestion();
    await this.gatherForLimitsQuestion();
    await this.gatherForR23aQuestion();
    await this.gatherForR24bQuestion();
    await this.r24aIrsaQuestion();
    await this.gatherForStateQuestion();
    await this.gatherForPodQuestion();
    await this.gatherForBarePodListing();
    // 2. inspect the subjects: status, events, logs (current and previous), controller, node, volumes
    const targets = this.targets();
    // network paths: where the cluster DNS runs, the policies in front of a backend, the routes
    await this.inspectNetworkPaths(text);
    await Promise.all(targets.map((o) => this.inspect(o)));
    // "which version runs": every pod's own image (a paused or stuck rollout mixes versions)
    if (scope.question?.type === 'version') {
      // "prod vs staging": the subject in every namespace compared
      const anyNs = (scope.question.environments?.length ?? 0) > 1;
      await Promise.all(
        this.unreadSubjectPods(anyNs)
          .filter((p) => !p.containers.some((c) => c.image))
          .slice(0, 8)
          .map((p) => this.describe(p)),
      );
      // versions mixed: the controller says why (a StatefulSet's partition, a paused rollout)
      const pods = this.subjectPods(anyNs);
      const images = new Set(pods.flatMap((p) => p.containers.map((c) => c.image)).filter(Boolean));
      if (images.size > 1) {
        const owners = new Map<string, ObjectView>();
        for (const p of pods) {
          const w = this.model.workloadOf(p);
          if ((w.kind === 'statefulset' || w.kind === 'deployment') && !owners.has(w.name))
            owners.set(w.name, named(w.kind, w.name, p.namespace));
        }
        await Promise.all([...owners.values()].slice(0, 2).map((o) => this.describe(o)));
      }
    }
    // "which pods have no memory limit": every pod's containers (listings do not show them)
    if (
      scope.question?.type === 'unset' ||
      scope.question?.type === 'uses' ||
      scope.question?.type === 'no_probe' ||
      scope.question?.type === 'probe_timeout'
    ) {
      const ns = scope.question.namespace;
      await Promise.all(
        this.model
          .list('pod', ns)
          .filter((p) => (!ns || p.namespace === ns) && !p.containers.some((c) => !c.init))
          .slice(0, 16)
          .map((p) => this.describe(p)),
      );
    }
    // "what got OOMKilled today": the last termination of every pod that restarted or stopped
    // (a listing shows the current state only)
    if (
      (scope.question?.type === 'which' || scope.question?.type === 'count') &&
      scope.question.status === 'OOMKilled'
    ) {
      const ns = scope.question.namespace;
      await Promise.all(
        this.model
          .list('pod', ns)
          .filter(
            (p) =>
              (!ns || p.namespace === ns) &&
              ((p.restarts ?? 0) > 0 || !/^Running$/.test(p.status ?? '')) &&
              !p.containers.some((c) => c.last || c.terminated),
          )
          .slice(0, 16)
          .map((p) => this.describe(p)),
      );
    }
    // "what limit does X run with, how far can it scale": its autoscaler too
    if (scope.question?.type === 'limit' && !this.model.list('horizontalpodautoscaler').length) {
      const ns =
        scope.namespaces[0] ??
        this.model.list('pod').find((p) => scope.subjects.some((s) => this.model.matches(p, s)))
          ?.namespace;
      await this.first(
        this.listers('horizontalpodautoscaler'),
        { kind: 'horizontalpodautoscaler', namespace: ns, all: !ns },
        { kind: 'horizontalpodautoscaler', namespace: ns },
      );
    }
    // "which services have no endpoints": the namespace's Endpoints, else each Service described
    if (scope.question?.type === 'no_endpoints') {
      const ns = scope.question.namespace ?? scope.namespaces[0];
      await this.first(
        this.listers('service'),
        { kind: 'service', namespace: ns },
        { kind: 'service', namespace: ns },
      );
      await this.first(
        this.listers('endpoints'),
        { kind: 'endpoints', namespace: ns },
        { kind: 'endpoints', namespace: ns },
      );
      await Promise.all(
        this.model
          .list('service', ns)
          .filter(
            (s) =>
              (!ns || s.namespace === ns) &&
              this.model.get('endpoints', s.name, s.namespace)?.fields['ready'] === undefined &&
              s.fields['Endpoints'] === undefined,
          )
          .slice(0, 12)
          .map(async (s) => {
            // an Endpoints listing of names only: the Endpoints read whole (its addresses)
            const eps = this.model.get('endpoints', s.name, s.namespace);
            if (!eps || !(await this.readWhole(eps))) await this.describe(s);
          }),
      );
    }
    // "which LoadBalancers have an address": those a listing showed without their status, read
    // whole (status.loadBalancer.ingress)
    if (scope.question?.type === 'load_balancers') {
      const ns = scope.question.namespace;
      await Promise.all(
        this.model
          .list('service', ns)
          .filter(
            (s) =>
              (!ns || s.namespace === ns) &&
              s.fields['addressUnlisted'] === 'true' &&
              s.fields['externalAddress'] === undefined,
          )
          .slice(0, 8)
          .map((s) => this.readOrDescribe(s)),
      );
    }
    // "which claims use storage class X": a listing that does not show a claim's class (names
    // only): each claim read whole
    if (scope.question?.type === 'storage_class') {
      const ns = scope.question.namespace;
      const inNs = (c: ObjectView) => !ns || c.namespace === ns;
      if (!this.model.list('persistentvolumeclaim', ns).some(inNs))
        await this.listKind('persistentvolumeclaim', ns);
      const claims = this.model.list('persistentvolumeclaim', ns).filter(inNs);
      if (claims.length && claims.every((c) => c.fields['storageClassName'] === undefined))
        await Promise.all(
          claims
            .slice(0, Math.max(4, Math.min(16, this.budget - 4)))
            .map((c) => this.readOrDescribe(c)),
        );
    }
    await this.gatherForSpecQuestion();
    await this.gatherForInventoryQuestion();
    await this.gatherForHygieneQuestion();
    await this.gatherForPvcRetentionR28a();
    await this.gatherForFleetQuestion();
    await this.gatherForNodeClaimsQuestion();
    await this.gatherForIngressBackendsQuestion();
    await this.inspectR26b('question');
    await this.inspectR28b('question');
    await this.inspectR29a('question');
    await this.gatherForJvmHeapR29b();
    await this.gatherForPrimaryR30a();
    // "when did X last succeed": its newest Jobs' own start and completion times
    if (scope.question?.type === 'last_run') {
      const subject = scope.question.subject;
      await Promise.all(
        this.model
          .list('job')
          .filter(
            (j) =>
              !j.fields['completionTime'] &&
              (scope.subjects.some((s) => this.model.matches(j, s)) ||
                (subject && j.name.startsWith(`${subject}-`))),
          )
          .sort((a, b) => (b.created ?? 0) - (a.created ?? 0))
          .slice(0, 4)
          .map((j) => this.describe(j)),
      );
    }
    // "which node is X running on": the subject's pods, wherever a listing did not say
    if (scope.question?.type === 'placement')
      await Promise.all(
        this.model
          .list('pod')
          .filter((p) => !p.node && scope.subjects.some((s) => this.model.matches(p, s)))
          .slice(0, 8)
          .map((p) => this.describe(p)),
      );
    // "which pods logged X": every pod of the subject is read, not only the first three
    if (scope.question?.type === 'log_errors' && (scope.question.pattern || scope.question.topic))
      await Promise.all(
        this.unreadSubjectPods()
          .slice(0, 8)
          .map((p) => this.inspect(p)),
      );
    // the subject's own Services, read whole: the port they target and their endpoints
    await Promise.all(
      this.model
        .list('service')
        .filter(
          (svc) =>
            !/targetPort/.test(svc.fields['ports'] ?? '') &&
            svc.fields['Endpoints'] === undefined &&
            scope.subjects.some((s) => this.model.matches(svc, s)),
        )
        .slice(0, 2)
        .map((svc) => this.describe(svc)),
    );
    // "Insufficient memory": can any node fit the request at all? their allocatable says
    if (
      this.model.events.some((e) => /Insufficient (?:cpu|memory)/.test(e.message)) &&
      !this.model.list('node').some((n) => n.fields['allocatable'])
    )
      await Promise.all(
        this.model
          .list('node')
          .slice(0, 4)
          .map((n) => this.describe(n)),
      );
    // pods the kubelet rejected at admission (OutOfcpu): what their node says it did (restarted)
    await this.inspectAdmissionRejections();
    // a drain that does not finish: the disruption budgets of what still runs on the node
    if (/\bdrain|\bevict|podevictionfailure/.test(text)) await this.inspectDrainBlockers();
    // r30c: a refused eviction with no cordon seen, a pod refused for a request above its limit
    await this.inspectR30c(text);
    // logs or metrics missing from some nodes: a node agent (DaemonSet) that does not run there
    if (MISSING_TELEMETRY.test(text)) await this.inspectDaemonSetCoverage();
    // network timeouts from their pods: a node's network agent (kube-proxy, the CNI) that is
    // down on a node would explain them for the pods there (read before the budget goes)
    await this.inspectNodeAgents(targets);
    // a Secret that does not exist: the operator that should create it (External Secrets) says why
    await this.inspectSecretOperator();
    // a change that is not live while the pods are fine: what should have applied it says why
    if (CHANGE_NOT_LIVE.test(text)) await this.inspectDelivery();
    // a database timeout its client sets (statement_timeout in PGOPTIONS): the ConfigMaps it loads
    await this.inspectLoadedSettings(targets);
    // a database refusing connections over its limit: the workloads whose pods started in the two
    // hours before (a scale-up adds clients), described with their events
    await this.inspectRecentScaleUps();
    // tokens signed with a key the service does not know: the ConfigMaps and CronJobs of its
    // namespace (a local key set and the job that refreshes it)
    const unknownKey = this.model.logs.find((l) => l.lines.some((x) => JWKS_MISS.test(x.text)));
    if (unknownKey?.namespace)
      await Promise.all(
        ['configmap', 'cronjob'].map((k) => this.listKind(k, unknownKey.namespace)),
      );
    // a crashing workload whose image a healthy one also runs: the ConfigMaps both load (what
    // differs between them is the suspect)
    await this.inspectHealthyTwins(targets);
    // work piling up with no consumer: the KEDA ScaledObjects that should scale the consumers
    if (QUEUE_STARVED.test(text)) await this.inspectScaledObjects(text);
    // a CronJob that skips its runs because one is still active: its Jobs and their pods' logs
    const skipping = this.model.events.find((e) => e.reason === 'JobAlreadyActive');
    if (skipping) await this.inspectActiveRun(skipping.object?.name, skipping.namespace);
    // Redis refusing writes at its maxmemory: its redis.conf (a ConfigMap named for it)
    if (this.model.logs.some((l) => l.lines.some((x) => REDIS_MAXMEMORY.test(x.text))))
      await this.inspectRedisConfig();
    // a product's own failure line that points at another object (BullMQ's lost job keys: the
    // Redis's redis.conf; a broker's cluster ID: the ZooKeeper it connects to)
    await this.inspectWhatFailureLinesName();
    // (r24b) the object a failure names that lives outside the pod: a ConfigMap that gives the JVM
    // an agent jar, the SecretProviderClass that is to sync a missing Secret
    await this.r24bReadWhatIsGivenFromOutside();
    // (r26c) a crashing dependency's last rollout (its ReplicaSets' images); a container
    // OOMKilled: its node's events (a SystemOOM is the whole node out of memory) and, after one,
    // what every pod there uses
    await this.r26cReadBehindFailures();
    // requests a mesh sidecar refuses (403 RBAC: access denied): istiod says which policy it pushed
    if (this.model.logs.some((l) => l.lines.some((x) => MESH_DENIED.test(x.text))))
      await this.systemPodLog(/^istiod-[a-z0-9]+-[a-z0-9]+$/, 'istio-system');
    // rollouts and scaling: what a deploy applied, a load balancer's health check, a deploy Job
    await this.inspectRolloutsAndScaling();
    // (r27a) a failed Job whose pods are gone, or whose CronJob's current run is stuck: why their
    // pods did not run
    await this.r27aReadPodsOfFailedJobs();
    // pods with no room and a CronJob whose runs pile up; a Job's pod the autoscaler removed
    await this.inspectCapacityHoldersAndScaleDowns(text);
    await this.inspectR28a(text);
    // (r31a) an OOMKilled OpenTelemetry Collector: the config it mounts; alerts that never
    // reached their receiver: Alertmanager's log
    await this.inspectR31a(text);
    // (r29c) the object a refusal names: the Karpenter NodePool at its limits
    await this.r29cReadWhatRefuses();
    // (r30a) what a broker or store an app depends on refused: the JetStream Stream or KafkaTopic
    // never created, the configuration of a store that filled, a standby's CloudNativePG Cluster
    await this.inspectR30a();
    // 3. follow what the evidence points at
    await this.follow(targets, text);
    // pods that cannot start on a node for its network or storage plugin: that plugin's pod there
    await this.inspectNodePlugins();
    // (r30b) a sandbox the node's runtime or CNI refuses: the node read whole, the CNI agent there
    await this.r30bSandboxRefusals();
    // a node whose kubelet stopped posting: what the API server says about the clients it
    // refuses (an expired kubelet certificate is refused there, not on the node)
    await this.inspectApiServerForSilentNodes();
    // 4. what the subjects call and fail on: the logs and state of that dependency
    // a dependency configured in another namespace (REDIS_URL=redis://x.cache.svc): list it there
    await this.listConfiguredNamespaces(targets);
    await this.followDependencies(targets);
    await this.r24aFollow(targets);
    // ... and a component beside the workload that holds it up (r27b): a certificate's issuer,
    // the retention job of a store that is full
    await this.r27bFollow();
    // ... and a data store named as overloaded that logs no fault of its own: what its clients
    // log (a cache that stopped caching sends every read to the database)
    await this.inspectDataStoreClients(targets, text);
    // ... and DNS that times out from their pods: the NetworkPolicies that may cut port 53
    await this.inspectEgressPolicies(targets);
    // 5. clients get 502/503/504 while the pods may look fine: what the ingress controller logs
    // ... and when browsers distrust the certificate: the controller says which one it serves
    // ... and uploads refused at the edge ("uploads fail, small ones work" at a public host)
    if (
      GATEWAY_ERROR.test(text) ||
      CERT_COMPLAINT.test(text) ||
      (hosts.length && BODY_REFUSED.test(text))
    )
      await this.inspectIngressControllers();
    // ... the certificate the controller lacks: why cert-manager did not issue it
    if (CERT_COMPLAINT.test(text)) await this.inspectCertManager();
    // a renewal that does not happen: cert-manager's own log and the Ingresses of the namespace
    // (one in front of the HTTP-01 solver path may ask for authentication)
    if (RENEWAL_ASKED.test(text)) {
      await this.systemPodLog(CERT_MANAGER_POD, 'cert-manager');
      if (this.scope.namespaces[0] && !this.model.list('ingress', this.scope.namespaces[0]).length)
        await this.listKind('ingress', this.scope.namespaces[0]);
      await Promise.all(
        this.model
          .list('ingress', this.scope.namespaces[0])
          .filter((i) => i.fields['annotations'] === undefined)
          .slice(0, 3)
          .map((i) => this.readOrDescribe(i)),
      );
    }
    // 6. a data store refused a client (a lock timeout, a read-only replica): its own log says why
    await this.inspectDataStoreLogs();
    // ... a client refused for its password: whether the database started on kept data
    await this.inspectR21Data();
    // ... round26 (r26a): a cluster member that cannot reach its peers: the peers' logs say why;
    // a MySQL client refused its auth plugin: the server's configuration
    await this.inspectR26a();
    await genericDone;
    // 7. an autoscaler that cannot read the resource metrics API: metrics-server's log says why
    await this.inspectMetricsServer();
    // ... a claim being deleted: the pods that still mount it hold it (pvc-protection)
    await this.inspectClaimHolders();
    // ... what a failing pod's own line points at (its mounts, its ServiceAccount, a release)
    await this.inspectLineTargets();
    // ... round22 (r22i): what a pod spec sets that listings and descriptions do not show
    await this.inspectR22i();
    // ... round26 (r26b): connections the ingress may cut at its proxy read timeout
    await this.inspectR26b('edge');
    // ... round28 (r28b): the Service a busybox init container cannot look up
    await this.inspectR28b('logs');
    // ... round29 (r29a): what the Services the failing lines name route to
    await this.inspectR29a('logs');
  }

  /**
   * (r31a) An OOMKilled OpenTelemetry Collector: the ConfigMaps it mounts, read whole (its
   * pipelines). A request about alerts that never reached their receiver (Slack, PagerDuty, a
   * webhook): Alertmanager's own log (it logs every notification a receiver refused).
   */
  private async inspectR31a(text: string): Promise<void> {
    const { model } = this;
    const maps = new Map<string, ObjectView>();
    for (const p of model.list('pod').filter(oomKilledCollector).slice(0, 2))
      for (const name of configMapNamesOf(p))
        if (!model.get('configmap', name, p.namespace)?.fields['data'])
          maps.set(`${p.namespace ?? ''}/${name}`, named('configmap', name, p.namespace));
    await Promise.all([...maps.values()].slice(0, 2).map((m) => this.readOrDescribe(m)));
    if (!ALERTS_NOT_DELIVERED.test(text)) return;
    const am = (p: ObjectView) => /(?:^|-)alertmanager(?:-|$)/.test(p.name);
    if (!model.list('pod').some(am)) await this.listKind('pod', undefined);
    const pod = model.list('pod').find((p) => am(p) && p.status === 'Running');
    if (!pod) return;
    if (!model.logs.some((l) => l.pod === pod.name))
      await this.podLogs(
        pod,
        300,
        pod.containers.some((c) => c.name === 'alertmanager') ? 'alertmanager' : undefined,
      );
    // notifications it gave up on in the last day: Alertmanager is what the request is about
    const w = model.workloadOf(pod);
    const recent = (at?: number) => at === undefined || this.now - at < 24 * 3600_000;
    if (
      model.logs.some(
        (l) =>
          l.pod === pod.name && l.lines.some((x) => NOTIFY_FAILED.test(x.text) && recent(x.at)),
      ) &&
      !this.scope.subjects.some((s) => s.name === w.name)
    )
      this.scope.subjects.push({ name: w.name, namespace: pod.namespace, from: 'evidence' });
  }

  /**
   * (r29a) 503 "no healthy upstream" (the request's words or a sidecar's access log): the Istio
   * DestinationRules and VirtualServices of the namespaces concerned, read whole (their subsets).
   */
  private async r29aIstioSubsets(): Promise<void> {
    const { model } = this;
    const lines = model.logs.flatMap((l) => l.lines.map((x) => x.text));
    const hit = lines.filter((t) => NO_HEALTHY_UPSTREAM.test(t));
    if (!hit.length && !NO_HEALTHY_UPSTREAM.test(this.run.message)) return;
    const namespaces = new Set(this.scope.namespaces);
    for (const t of hit) {
      const m = /outbound\|\d+\|[\w.-]*\|[\w-]+\.([\w-]+)\.svc\b/.exec(t);
      if (m) namespaces.add(m[1]!);
    }
    for (const ns of [...namespaces].slice(0, 2)) {
      if (!(await this.listKind('destinationrule', ns))) return;
      await this.listKind('virtualservice', ns);
    }
    await Promise.all(
      [
        ...model.list('destinationrule').filter((o) => o.fields['subsets'] === undefined),
        ...model.list('virtualservice').filter((o) => o.fields['routes'] === undefined),
      ]
        .slice(0, 4)
        .map((o) => this.readWhole(o)),
    );
  }

  /**
   * (r29a) Server errors at a public host while the Service named looks healthy: the Gateway API
   * routes (one listing); a route that cannot resolve a backend in another namespace, the
   * ReferenceGrants of that namespace.
   */
  private async r29aGatewayRoutes(): Promise<void> {
    const { model } = this;
    if (!/\b5\d\d\b|server errors?/i.test(this.run.message)) return;
    if (!model.list('httproute').length && !(await this.listKind('httproute', undefined))) return;
    await Promise.all(
      model
        .list('httproute')
        .filter((r) => r.fields['backendRefs'] === undefined)
        .slice(0, 3)
        .map((r) => this.readWhole(r)),
    );
    const refused = model
      .list('httproute')
      .map(
        (r) =>
          /RefNotPermitted:[^|]*?\b([\w-]+)\/[\w.-]+ not permitted/.exec(
            r.fields['refsUnresolved'] ?? '',
          )?.[1],
      )
      .filter((ns): ns is string => !!ns);
    for (const ns of [...new Set(refused)].slice(0, 2)) {
      if (!(await this.listKind('referencegrant', ns)))
        await this.listKind('referencegrant', undefined);
      await Promise.all(
        model
          .list('referencegrant', ns)
          .filter((g) => g.fields['grantTo'] === undefined)
          .slice(0, 2)
          .map((g) => this.readWhole(g)),
      );
    }
  }

  /**
   * (r29a) An app in the Istio mesh whose calls to an external host fail at once (EOF, reset):
   * its sidecar's log (BlackHoleCluster: REGISTRY_ONLY), then the ServiceEntries of its
   * namespace and the mesh configuration.
   */
  private async r29aMeshEgress(): Promise<void> {
    const { model } = this;
    const failing = model.logs.filter(
      (l) =>
        !l.previous &&
        l.pod &&
        l.lines.some((x) =>
          /https?:\/\/(?:[a-z0-9-]+\.)+[a-z]{2,}[^\n]*?(?:EOF|reset)/i.test(x.text),
        ),
    );
    const pods = failing
      .map((l) => model.get('pod', l.pod!, l.namespace))
      .filter((p): p is ObjectView => !!p && p.containers.some((c) => c.name === 'istio-proxy'))
      .filter((p) => !model.logs.some((l) => l.pod === p.name && l.container === 'istio-proxy'));
    await Promise.all(pods.slice(0, 1).map((p) => this.podLogs(p, 200, 'istio-proxy')));
    const holed = model.logs.filter((l) => l.lines.some((x) => BLACKHOLE.test(x.text)));
    for (const ns of [
      ...new Set(holed.map((l) => l.namespace).filter((n): n is string => !!n)),
    ].slice(0, 1)) {
      if (!(await this.listKind('serviceentry', ns)))
        await this.listKind('serviceentry', undefined);
      await Promise.all(
        model
          .list('serviceentry')
          .filter((e) => e.fields['hosts'] === undefined)
          .slice(0, 4)
          .map((e) => this.readWhole(e)),
      );
    }
    if (holed.length && !model.get('configmap', 'istio', 'istio-system'))
      await this.readWhole(named('configmap', 'istio', 'istio-system'));
  }

  /**
   * (r29a) A client that times out calling a Service: the Service read whole when its routing
   * (internalTrafficPolicy) is not known yet, and the nodes of its pods.
   */
  private async inspectR29a(stage: 'question' | 'logs'): Promise<void> {
    const { model } = this;
    // "which nodes have a ready <x> pod?": the nodes, the namespace's pods and Services, the
    // Services read whole when their traffic policy is not shown, the pods' nodes
    if (stage === 'question') {
      const q = this.scope.question;
      if (q?.type !== 'ready_pods_by_node') return;
      const ns = questionNamespace(q, model, this.scope);
      if (!model.list('node').length) await this.listKind('node', undefined);
      if (!model.list('pod', ns).length) await this.listKind('pod', ns);
      if (!model.list('service', ns).length) await this.listKind('service', ns);
      await Promise.all(
        model
          .list('service', ns)
          .filter(
            (s) =>
              /LoadBalancer|NodePort/.test(s.fields['type'] ?? '') &&
              s.fields['externalTrafficPolicy'] === undefined,
          )
          .slice(0, 2)
          .map((s) => this.readWhole(s)),
      );
      await Promise.all(
        model
          .list('pod', ns)
          .filter((p) => !p.node)
          .slice(0, 6)
          .map((p) => this.describe(p)),
      );
      return;
    }
    await this.r29aIstioSubsets();
    await this.r29aGatewayRoutes();
    await this.r29aMeshEgress();
    const timeouts = model.logs
      .filter((l) => !l.previous)
      .flatMap((l) => l.lines.filter((x) => /i\/o timeout|timed? ?out/i.test(x.text)).slice(-5))
      .map((x) => x.text);
    if (!timeouts.length) return;
    const named = model.list('service').filter((svc) => {
      if (svc.fields['internalTrafficPolicy'] !== undefined) return false;
      const ip = svc.fields['clusterIP'];
      return timeouts.some(
        (t) =>
          (ip && ip !== 'None' && t.includes(`${ip}:`)) ||
          (svc.namespace && t.includes(`${svc.name}.${svc.namespace}.svc`)),
      );
    });
    await Promise.all(named.slice(0, 2).map((svc) => this.readWhole(svc)));
    // a node-local Service: where its pods (and its clients) run
    const local = named.filter((svc) => svc.fields['internalTrafficPolicy'] === 'Local');
    const unplaced = local
      .flatMap((svc) => podsNamedFor(model, svc))
      .concat(
        local.length
          ? model.list('pod').filter((p) => model.logs.some((l) => l.pod === p.name))
          : [],
      )
      .filter((p) => !p.node);
    await Promise.all([...new Set(unplaced)].slice(0, 6).map((p) => this.describe(p)));
  }

  /**
   * (r28b) "which pods are BestEffort?": the namespace's pods, each read whole when the listing
   * does not show its QoS class
   */
  private async inspectR28b(stage: 'question' | 'logs'): Promise<void> {
    // an init container of busybox >= 1.29 whose nslookup of a short name fails: whether that
    // name is a Service of the pod's namespace (the namespace's Services, when none was listed)
    if (stage === 'logs') {
      const wanted = new Set<string>();
      for (const l of this.model.logs) {
        const pod = l.pod ? this.model.get('pod', l.pod, l.namespace) : undefined;
        if (!pod || !nslookupInit(pod, l.container)) continue;
        const host = l.lines.map((x) => nslookupShortName(x.text)).find(Boolean);
        if (host && !this.model.get('service', host, pod.namespace))
          wanted.add(pod.namespace ?? '');
      }
      for (const ns of [...wanted].slice(0, 2)) await this.listKind('service', ns || undefined);
      // clients refused while a Service's selector matches pods of another workload: whether
      // those pods declare the targetPort (their spec)
      await Promise.all(unreadSelectedPods(this.model).map((p) => this.readOrDescribe(p)));
      return;
    }
    const q = this.scope.question;
    if (q?.type !== 'pods_by_qos') return;
    await this.readForQuestion(
      'pod',
      questionNamespace(q, this.model, this.scope),
      (p) => !qosOf(p),
    );
  }

  /**
   * Round30 (r30a): "is X still the primary? which pod, which node?": the namespace's pods (their
   * role labels), read whole when the listing shows no labels, and its events (a failover).
   */
  private async gatherForPrimaryR30a(): Promise<void> {
    const q = this.scope.question;
    if (q?.type !== 'db_primary') return;
    const ns = questionNamespace(q, this.model, this.scope);
    await this.readForQuestion('pod', ns, (p) => !Object.keys(p.labels).length || !p.node);
    await this.eventsOf(ns);
  }

  /**
   * Round29 (r29b): "which Java workloads set no heap size": the namespace's pods, each read whole
   * when the listing does not show its containers' environment, and the log of one pod of each
   * workload (the JVM's "Picked up JAVA_TOOL_OPTIONS" line, a Java app's start line).
   */
  private async gatherForJvmHeapR29b(): Promise<void> {
    const q = this.scope.question;
    if (q?.type !== 'jvm_default_heap') return;
    const ns = questionNamespace(q, this.model, this.scope);
    await this.readForQuestion(
      'pod',
      ns,
      (p) => !p.containers.length || p.containers.every((c) => !Object.keys(c.env).length),
    );
    const one = new Map<string, ObjectView>();
    for (const p of this.model.list('pod', ns).filter((p) => !ns || p.namespace === ns)) {
      const w = this.model.workloadOf(p);
      if (!one.has(`${w.kind}/${w.name}`)) one.set(`${w.kind}/${w.name}`, p);
    }
    await Promise.all(
      [...one.values()]
        .filter((p) => !this.model.logs.some((l) => l.pod === p.name))
        .slice(0, Math.max(4, Math.min(12, this.budget - 4)))
        .map((p) => this.podLogs(p, 200)),
    );
  }

  /**
   * Round26 (r26b): connections the ingress may cut at its proxy read timeout. A workload behind
   * an Ingress whose log shows websockets closing over and over: the ingress controller's log
   * (how long each upgraded connection lasted). Access lines of 504s or websockets that end at a
   * whole number of seconds: the controller's ConfigMap (a global proxy-read-timeout) and the
   * annotations of the Ingress in front of that upstream.
   */
  private async inspectR26b(stage: 'dns' | 'edge' | 'question', read?: ObjectView): Promise<void> {
    const { model } = this;
    // "which Ingresses set annotation K": the namespace's Ingresses, each read whole when the
    // listing does not show annotations
    if (stage === 'question') {
      const q = this.scope.question;
      if (q?.type !== 'ingress_annotation') return;
      await this.readForQuestion(
        'ingress',
        questionNamespace(q, model, this.scope),
        (i) => i.fields['annotations'] === undefined,
      );
      return;
    }
    // lookups that fail while the CoreDNS log read shows no error: another CoreDNS pod's log
    // (each pod logs only the queries it answered)
    if (stage === 'dns') {
      const dnsLog = (l: LogView) => !!l.pod && /^(?:coredns|kube-dns)-/.test(l.pod);
      if (
        model.logs.some((l) => !dnsLog(l) && l.lines.some((x) => LOOKUP_FAILED.test(x.text))) &&
        !model.logs.some((l) => dnsLog(l) && l.lines.some((x) => COREDNS_ERROR.test(x.text)))
      )
        await Promise.all(
          model
            .list('pod')
            .filter(
              (p) =>
                /^(?:coredns|kube-dns)-/.test(p.name) &&
                p.namespace &&
                p.name !== read?.name &&
                !model.logs.some((l) => l.pod === p.name),
            )
            .slice(0, 1)
            .map((p) => this.podLogs(p, 200)),
        );
      return;
    }
    const controllerLogs = () => model.logs.filter((l) => l.pod && INGRESS_CONTROLLER.test(l.pod));
    if (
      !controllerLogs().length &&
      model.logs.some(
        (l) =>
          l.pod &&
          !INGRESS_CONTROLLER.test(l.pod) &&
          l.lines.filter((x) => WEBSOCKET_DROPPED.test(x.text)).length >= 2,
      )
    ) {
      await this.listIngressesOnce();
      if (model.list('ingress').length) await this.inspectIngressControllers();
    }
    const ups = new Set<string>();
    for (const l of controllerLogs())
      for (const x of l.lines) {
        const g = ACCESS.exec(x.text)?.groups;
        if (g && (g['status'] === '504' || g['status'] === '101') && /\.00\d$/.test(g['rt']!))
          ups.add(g['up']!);
      }
    if (!ups.size) return;
    const ctl = model
      .list('pod')
      .find(
        (p) =>
          p.namespace &&
          model.logs.some((l) => l.pod === p.name && INGRESS_CONTROLLER.test(p.name)),
      );
    if (ctl && !controllerConfig(model))
      await this.readOrDescribe({
        ...newObject('configmap', model.workloadOf(ctl).name, 'r26b'),
        namespace: ctl.namespace,
      });
    const services = [...ups]
      .map((u) => serviceOfUpstream(model, u))
      .filter((s): s is ObjectView => !!s);
    if (services.some((s) => !ingressesTo(model, s).length)) await this.listIngressesOnce();
    await Promise.all(
      services
        .flatMap((s) => ingressesTo(model, s))
        .filter((i) => i.fields['annotations'] === undefined)
        .slice(0, 2)
        .map((i) => this.readOrDescribe(i)),
    );
  }

  /**
   * Round22 (r22i): a pod whose TLS client got a certificate for other names ("x509: certificate
   * is valid for A, not B") is read whole, once, when its spec was not: its dnsConfig (search
   * domains, ndots) may send the name to another server, and a description does not show it.
   */
  private async inspectR22i(): Promise<void> {
    const { model } = this;
    const pod = model.logs
      .filter((l) => l.lines.some((x) => /x509: certificate is valid for /.test(x.text)))
      .map((l) => (l.pod ? model.get('pod', l.pod, l.namespace) : undefined))
      .find((p) => p && p.fields['podSecurity'] === undefined);
    if (pod) await this.readWhole(pod);
    // the ingress's connections refused by a pod of the cluster: that pod read whole (being
    // stopped? does its spec have a preStop hook?), up to two
    const refused = new Set(
      model.logs.flatMap((l) =>
        l.lines
          .map(
            (x) =>
              /connect\(\) failed \(111: Connection refused\)[^\n]*upstream: "https?:\/\/([\d.]+):/.exec(
                x.text,
              )?.[1],
          )
          .filter((x): x is string => !!x),
      ),
    );
    if (refused.size)
      await Promise.all(
        model
          .list('pod')
          .filter((p) => refused.has(p.fields['podIP'] ?? '') && p.fields['preStop'] === undefined)
          .slice(0, 2)
          .map((p) => this.readWhole(p)),
      );
    // the ingress's requests to pods time out: the CNI agent's log (Calico's felix says which
    // tunnel MTU it set), once
    if (
      model.logs.some(
        (l) =>
          l.pod &&
          INGRESS_CONTROLLER.test(l.pod) &&
          l.lines.some((x) => /upstream timed out \(110: /.test(x.text)),
      )
    )
      await this.systemPodLog(/^calico-node-[a-z0-9]{5}$/, 'kube-system');
  }

  /**
   * Scheduling (round21, r21sched): pods that find no node with room for their requests while
   * one CronJob has several runs alive at once: that CronJob read whole (its schedule and its
   * concurrencyPolicy say why the runs overlap); a pod the cluster autoscaler deleted for a
   * node scale-down: the autoscaler's own log (the node it removed and its utilization).
   */
  private async inspectCapacityHoldersAndScaleDowns(text: string): Promise<void> {
    if (this.model.events.some((e) => /(?<!has )Insufficient (?:cpu|memory)\b/.test(e.message))) {
      const piled = piledCronRuns(this.model)[0];
      if (piled && !piled.cron?.fields['concurrencyPolicy']) {
        const cron = piled.cron ?? {
          ...newObject('cronjob', piled.name, 'scope'),
          namespace: piled.namespace || undefined,
        };
        await this.readOrDescribe(cron);
      }
    }
    if (
      this.model.events.some(
        (e) => e.reason === 'ScaleDown' && /for node scale down/i.test(e.message),
      )
    )
      await this.systemPodLog(/^cluster-autoscaler-[a-z0-9]+-[a-z0-9]+$/, 'kube-system');
    // browsers loop on redirects: the Ingresses of the hosts named (their annotations), the
    // ingress controller's log (the status it answers), its Service (where TLS ends) and its
    // ConfigMap (whether it trusts X-Forwarded-Proto)
    if (REDIRECT_LOOP.test(text)) {
      const named = [...text.matchAll(HOST_NAME)].map((m) => m[0].toLowerCase());
      await this.listIngressesOnce();
      const routes = this.model
        .list('ingress')
        .filter(
          (i) =>
            !named.length ||
            i.fields['hosts'] === undefined ||
            named.some((h) => i.fields['hosts']!.toLowerCase().split(',').includes(h)),
        )
        .slice(0, 3);
      await Promise.all(
        routes
          .filter((i) => i.fields['annotations'] === undefined)
          .map((i) => this.readOrDescribe(i)),
      );
      await this.inspectIngressControllers();
      const nss = [
        ...new Set(
          this.model
            .list('pod')
            .filter((p) => INGRESS_CONTROLLER.test(p.name))
            .map((p) => p.namespace)
            .filter((x): x is string => !!x),
        ),
      ].slice(0, 1);
      for (const ns of nss) {
        await Promise.all(
          ['service', 'configmap'].map((kind) =>
            this.first(this.listers(kind), { kind, namespace: ns }, { kind, namespace: ns }),
          ),
        );
        await Promise.all(
          [
            ...this.model
              .list('service', ns)
              .filter(
                (svc) =>
                  /LoadBalancer|NodePort/.test(svc.fields['type'] ?? '') || !svc.fields['type'],
              )
              .slice(0, 2),
            ...this.model
              .list('configmap', ns)
              .filter((c) => /controller/.test(c.name) && c.fields['data'] === undefined)
              .slice(0, 1),
          ]
            .filter((o) => o.fields['annotations'] === undefined || o.kind === 'configmap')
            .map((o) => this.readOrDescribe(o)),
        );
      }
    }
  }

  /**
   * Rollouts and scaling, read once the subjects were seen: a Deployment under an autoscaler that the
   * deployment controller cut at once, read whole (its last-applied-configuration says what the
   * deploy asked for spec.replicas); pods held back by a load balancer's readiness gate: the
   * Ingresses of their namespace (the health check path they set) and a held pod's log; a Job
   * the message names that failed in another namespace than the one in scope: its pods' logs.
   */
  /**
   * (r29c) Karpenter refuses to launch a node for a pending pod when its NodePool is at its
   * spec.limits ("all available instance types exceed limits for nodepool: \"general\""): the
   * NodePool itself says which limit and how much its nodes already hold (status.resources).
   */
  /** (r30a) the readers below, in order (one call site in the incident flow) */
  private async inspectR30a(): Promise<void> {
    await this.r30aReadWhatRefuses();
    await this.r30aReadMissingTopics();
    await this.r30aReadStoreWriters();
  }

  /**
   * (r30a) An app that logs that its JetStream stream is not found, while no refusal to create it
   * was read: the namespace's Stream objects (NACK), whose Ready condition says why they do not
   * exist ("insufficient storage resources available").
   */
  private async r30aReadWhatRefuses(): Promise<void> {
    const { model } = this;
    const lost = [
      ...new Set(
        model.logs
          .filter((l) => l.pod && l.lines.some((x) => STREAM_NOT_FOUND.test(x.text)))
          .map((l) => l.namespace)
          .filter((n): n is string => !!n),
      ),
    ];
    if (!lost.length || refusals(model).size) return;
    for (const ns of lost.slice(0, 2)) {
      if (!model.list('stream', ns).some((o) => o.kind === 'stream'))
        await this.listKind('stream', ns);
      const streams = model
        .list('stream', ns)
        .filter((o) => o.kind === 'stream' && !o.conditions.length);
      await Promise.all(streams.slice(0, 3).map((o) => this.readOrDescribe(o)));
    }
  }

  /**
   * (r30a) A client whose writes the object store refuses as full (XMinioStorageFull): the
   * ConfigMaps it mounts (a Loki configuration says whether its compactor deletes old chunks).
   */
  private async r30aReadStoreWriters(): Promise<void> {
    const { model } = this;
    const pods = model.logs
      .filter((l) => l.pod && l.lines.some((x) => OBJECT_STORE_FULL.test(x.text)))
      .map((l) => model.get('pod', l.pod!, l.namespace))
      .filter((p): p is ObjectView => !!p);
    const maps = new Map<string, ObjectView>();
    for (const p of pods.slice(0, 2))
      for (const n of configMapNamesOf(p))
        if (!model.get('configmap', n, p.namespace)?.fields['lokiRetention'])
          maps.set(`${p.namespace ?? ''}/${n}`, named('configmap', n, p.namespace));
    await Promise.all([...maps.values()].slice(0, 3).map((m) => this.readOrDescribe(m)));
    // a PostgreSQL standby that asks for WAL already removed: its CloudNativePG Cluster (whether
    // replication slots keep WAL for the standbys)
    const standbys = model.logs
      .filter((l) => l.pod && l.lines.some((x) => PG_WAL_REMOVED.test(x.text)))
      .map((l) => model.get('pod', l.pod!, l.namespace))
      .filter((p): p is ObjectView => !!p?.labels['cnpg.io/cluster']);
    for (const p of standbys.slice(0, 1)) {
      const name = p.labels['cnpg.io/cluster']!;
      if (
        !model
          .list('cluster', p.namespace)
          .some((o) => o.name === name && o.fields['replicationSlotsHA'])
      )
        await this.readOrDescribe(named('cluster', name, p.namespace));
    }
  }

  /**
   * (r30a) A Kafka client that finds no topic it uses: the KafkaTopics (Strimzi), the one of that
   * name read whole when the listing does not say whether it is Ready.
   */
  private async r30aReadMissingTopics(): Promise<void> {
    const { model } = this;
    const names = new Set<string>();
    for (const l of model.logs)
      if (l.pod)
        for (const x of l.lines) {
          const m = TOPIC_MISSING.exec(x.text);
          if (m) names.add((m[1] ?? m[2])!);
        }
    if (!names.size) return;
    const topics = () => model.list('kafkatopic').filter((o) => o.kind === 'kafkatopic');
    if (!topics().length) await this.listKind('kafkatopic', undefined);
    const named = topics().filter(
      (o) => (names.has(o.name) || names.has(o.fields['topicName'] ?? '')) && !o.conditions.length,
    );
    await Promise.all(named.slice(0, 2).map((o) => this.readOrDescribe(o)));
  }

  private async r29cReadWhatRefuses(): Promise<void> {
    const pools = [
      ...new Set(
        this.model.events
          .map((e) => NODEPOOL_LIMITS.exec(e.message)?.[1])
          .filter((x): x is string => !!x),
      ),
    ];
    for (const name of pools.slice(0, 2))
      if (!this.model.get('nodepool', name)?.fields['limits'])
        await this.readOrDescribe(named('nodepool', name));
    // a CSI mount that timed out (DeadlineExceeded): the CSI node plugin on that node says why
    const nodes = [
      ...new Set(
        this.model.events
          .filter((e) => e.object?.kind === 'pod' && CSI_MOUNT_DEADLINE.test(e.message))
          .flatMap((e) => this.model.get('pod', e.object!.name, e.namespace)?.node ?? []),
      ),
    ].slice(0, 2);
    if (!nodes.length) return;
    if (
      !nodes.every((n) =>
        this.model.list('pod').some((p) => p.node === n && CSI_NODE_PLUGIN.test(p.name)),
      )
    )
      await this.first(
        this.listers('pod'),
        { kind: 'pod', namespace: 'kube-system', wide: true },
        { kind: 'pod', namespace: 'kube-system' },
      );
    const plugins = nodes
      .flatMap((n) => podsOnNode(this.model.list('pod'), n, CSI_NODE_PLUGIN, this.now).slice(0, 1))
      .filter((p) => !this.inspected.has(viewKey(p)));
    await Promise.all(plugins.map((p) => this.inspect(p)));
  }

  private async inspectRolloutsAndScaling(): Promise<void> {
    const { model } = this;
    const jobs: Promise<unknown>[] = [];
    const cut = new Map<string, ObjectView>();
    for (const e of model.events) {
      const m = SCALED_DOWN.exec(e.message);
      if (!m || !/^Deployment$/i.test(e.object?.kind ?? '') || !e.object?.name) continue;
      const from = Number(m[2]);
      const to = Number(m[3]);
      if (!(to >= 1 && from >= 2 * to && from - to >= 3)) continue;
      const d =
        model.get('deployment', e.object.name, e.namespace) ??
        named('deployment', e.object.name, e.namespace);
      if (d.fields['appliedReplicas'] !== undefined) continue;
      const scaled =
        autoscalersOf(model, d.name, d.namespace).length ||
        model.events.some(
          (x) =>
            /^HorizontalPodAutoscaler$/i.test(x.object?.kind ?? '') && x.object?.name === d.name,
        );
      if (scaled) cut.set(viewKey(d), d);
    }
    for (const d of [...cut.values()].slice(0, 2)) jobs.push(this.readWhole(d));
    const gated = model
      .list('pod')
      .filter((p) =>
        p.conditions.some((c) => TARGET_HEALTH_GATE.test(c.type) && c.status === 'False'),
      );
    for (const ns of [...new Set(gated.map((p) => p.namespace))].slice(0, 2)) {
      if (!ns) continue;
      if (!model.list('ingress', ns).length) await this.listKind('ingress', ns);
      for (const i of model
        .list('ingress', ns)
        .filter((x) => x.fields['annotations'] === undefined)
        .slice(0, 2))
        jobs.push(this.readOrDescribe(i));
    }
    for (const p of gated
      .filter((x) => !this.inspected.has(viewKey(x)) && !model.logs.some((l) => l.pod === x.name))
      .slice(0, 1))
      jobs.push(this.inspect(p));
    // pods Karpenter nominated to a NodeClaim: the NodeClaims, their NodeClass (its node role)
    // and aws-auth (the roles whose nodes may join)
    if (model.events.some((e) => NOMINATED_NODECLAIM.test(e.message))) {
      if (await this.listKind('nodeclaim', undefined))
        for (const c of model
          .list('nodeclaim')
          .filter((x) => !x.conditions.length)
          .slice(0, 3))
          // cluster-scoped: asked for without the namespace a listing may have lent it
          jobs.push(this.readOrDescribe(named('nodeclaim', c.name)));
      if (await this.listKind('ec2nodeclass', undefined))
        for (const c of model
          .list('ec2nodeclass')
          .filter((x) => x.fields['role'] === undefined)
          .slice(0, 2))
          jobs.push(this.readOrDescribe(named('ec2nodeclass', c.name)));
      if (!model.get('configmap', 'aws-auth', 'kube-system')?.fields['data'])
        jobs.push(this.readOrDescribe(named('configmap', 'aws-auth', 'kube-system')));
    }
    // "the deploy job failed": a failed Job of that name's stem outside the namespaces in scope
    for (const s of this.scope.subjects.filter((x) => x.kind === 'job')) {
      // a listing that only named them: their state read first
      await Promise.all(
        model
          .list('job')
          .filter(
            (j) =>
              j.name.startsWith(`${s.name}-`) &&
              (!s.namespace || j.namespace !== s.namespace) &&
              !j.status &&
              !j.conditions.length,
          )
          .slice(0, 3)
          .map((j) => this.readOrDescribe(j)),
      );
      const failed = model
        .list('job')
        .filter(
          (j) =>
            j.name.startsWith(`${s.name}-`) &&
            (!s.namespace || j.namespace !== s.namespace) &&
            (/^(?:Failed|BackoffLimitExceeded|DeadlineExceeded)$/.test(j.status ?? '') ||
              j.conditions.some((c) => c.type === 'Failed' && c.status === 'True')),
        )
        .slice(0, 2);
      for (const j of failed)
        for (const p of model
          .podsOf('job', j.name, j.namespace)
          .filter((x) => !this.inspected.has(viewKey(x)))
          .slice(0, 2))
          jobs.push(this.inspect(p));
    }
    await Promise.all(jobs);
  }

  /**
   * What a failing pod's own line points at, read once it was seen: the ConfigMaps it mounts when
   * a command cannot be executed (a mounted script's line endings) or Spring finds no DataSource
   * URL (the application-<profile> files they hold); its ServiceAccount when STS refuses its token
   * audience (the annotation that sets it); the release Secrets of the namespace a helm command
   * names when helm finds another operation in progress (the pending revision).
   */
  private async inspectLineTargets(): Promise<void> {
    const { model } = this;
    const logging = (re: RegExp) =>
      model.logs.flatMap((l) => {
        const pod = l.pod ? model.get('pod', l.pod, l.namespace) : undefined;
        return pod && l.lines.some((x) => re.test(x.text)) ? [pod] : [];
      });
    const stateSays = (re: RegExp) =>
      model
        .list('pod')
        .filter((p) =>
          p.containers.some((c) =>
            [c.last, c.terminated, c.waiting].some((st) => st?.message && re.test(st.message)),
          ),
        );
    const reads: ObjectView[] = [];
    const mountsOf = (p: ObjectView) =>
      configMapNamesOf(p).map((n) => named('configmap', n, p.namespace));
    for (const p of [
      ...logging(EXEC_ENOENT),
      ...stateSays(EXEC_ENOENT),
      ...logging(SPRING_NO_URL),
    ].slice(0, 2))
      reads.push(
        ...mountsOf(p).filter((m) => !model.get('configmap', m.name, m.namespace)?.fields['data']),
      );
    // a refused dependency of a pod that mounts its ConfigMap by subPath: does the ConfigMap still
    // name the host the pod uses (a subPath file never receives the ConfigMap's updates)
    for (const p of logging(REFUSED)
      .filter((x) => x.fields['subPathMounts'] && x.fields['configMapVolumes'])
      .slice(0, 2))
      reads.push(
        ...mountsOf(p).filter((m) => !model.get('configmap', m.name, m.namespace)?.fields['data']),
      );
    // a dependency refused on the pod's own loopback address: the ConfigMaps that may set it (a
    // host carried over from a VM or docker-compose: DB_HOST=localhost)
    for (const p of logging(LOOPBACK_REFUSED).slice(0, 2))
      reads.push(
        ...mountsOf(p).filter((m) => !model.get('configmap', m.name, m.namespace)?.fields['data']),
      );
    for (const p of logging(STS_AUDIENCE).slice(0, 1)) {
      const sa = p.fields['serviceAccount'];
      if (sa && !model.get('serviceaccount', sa, p.namespace)?.fields['annotations'])
        reads.push(named('serviceaccount', sa, p.namespace));
    }
    const unique = new Map(reads.map((o) => [`${o.kind}/${o.namespace ?? ''}/${o.name}`, o]));
    await Promise.all([...unique.values()].slice(0, 4).map((o) => this.readOrDescribe(o)));
    // a DaemonSet pod pending for room on the one node it may run on: which node that is, when no
    // affinity was read, is the one its siblings do not run on (their nodes, described)
    const pinned = model.events.some((e) => PINNED_SHORT.test(e.message));
    const daemons = model
      .list('pod')
      .filter(
        (p) =>
          p.status === 'Pending' &&
          !p.fields['affinity'] &&
          model.workloadOf(p).kind === 'daemonset',
      );
    if (pinned && daemons.length) {
      const ds = model.workloadOf(daemons[0]!);
      await Promise.all(
        model
          .list('pod', daemons[0]!.namespace)
          .filter((p) => !p.node && p.status !== 'Pending' && model.workloadOf(p).name === ds.name)
          .slice(0, 8)
          .map((p) => this.describe(p)),
      );
    }
    const helm = logging(HELM_LOCKED)[0];
    if (helm) {
      const release = helmReleaseOf(model, helm);
      const ns =
        helmNamespaceOf(helm) ??
        model.list('deployment').find((d) => d.name === release)?.namespace ??
        helm.namespace;
      if (!model.list('secret', ns).some((x) => x.name.startsWith('sh.helm.release.')))
        await this.listKind('secret', ns);
      // the deploy Jobs before it: the one killed mid-upgrade
      await this.listKind('job', helm.namespace);
    }
  }

  /**
   * A pod waits for a PersistentVolumeClaim that "is being deleted": the claim stays Terminating
   * while another pod mounts it. The namespace's other running pods not read yet (whose volumes
   * may not be known) are read, up to three, the oldest first: they held it before the deletion.
   */
  private async inspectClaimHolders(): Promise<void> {
    const { model } = this;
    const said = [
      ...model.events.map((e) => ({ text: e.message, ns: e.namespace })),
      ...model
        .list('pod')
        .flatMap((p) => p.conditions.map((c) => ({ text: c.message ?? '', ns: p.namespace }))),
    ];
    const hit = said.find((x) => /persistentvolumeclaim "[^"]+" is being deleted/.test(x.text));
    if (!hit?.ns) return;
    const claim = /persistentvolumeclaim "([^"]+)"/.exec(hit.text)![1]!;
    // a running pod known to mount it already says who holds it
    const holds = (p: ObjectView) =>
      /Running/.test(p.status ?? '') && (p.fields['claims'] ?? '').split(',').includes(claim);
    if (model.list('pod', hit.ns).some(holds)) return;
    const unread = model
      .list('pod', hit.ns)
      .filter(
        (p) =>
          p.namespace === hit.ns &&
          // volumes not known: a listing (a pod read whole that mounts no claim has none either)
          p.fields['claims'] === undefined &&
          !this.inspected.has(viewKey(p)) &&
          /Running/.test(p.status ?? ''),
      )
      .sort((a, b) => (a.created ?? 0) - (b.created ?? 0))
      .slice(0, 3);
    await Promise.all(unread.map((p) => this.describe(p)));
  }

  /** An HPA that cannot read resource metrics: what metrics-server (which serves them) logs. */
  private async inspectMetricsServer(): Promise<void> {
    const said = [
      ...this.model.events.map((e) => e.message),
      ...this.model
        .list('horizontalpodautoscaler')
        .flatMap((h) => h.conditions.map((c) => `${c.reason ?? ''} ${c.message ?? ''}`)),
    ];
    if (said.some((m) => METRICS_API_DOWN.test(m)))
      await this.systemPodLog(/^metrics-server-[a-z0-9]+-[a-z0-9]+$/, 'kube-system');
  }

  /**
   * The ingress controller serves its default certificate because a TLS Secret is missing: the
   * cert-manager controller's log says why it did not issue it (a refused ACME order, a solver).
   */
  private async inspectCertManager(): Promise<void> {
    const missing = this.model.logs.some(
      (l) =>
        l.pod &&
        INGRESS_CONTROLLER.test(l.pod) &&
        l.lines.some((x) =>
          /SSL certificate[^\n]*(?:was not found|no object matching)/.test(x.text),
        ),
    );
    if (missing) await this.systemPodLog(CERT_MANAGER_POD, 'cert-manager');
  }

  /**
   * Errors a client-side setting decides (PostgreSQL's statement_timeout, lock_timeout, often set
   * in PGOPTIONS): the ConfigMaps the failing pods load their environment from, read whole.
   */
  private async inspectLoadedSettings(targets: ObjectView[]): Promise<void> {
    const maps = new Map<string, ObjectView>();
    for (const p of this.subjectPodsLogging(targets, SETTING_TIMEOUT))
      for (const name of p.containers.flatMap(configMapsOf))
        maps.set(`${p.namespace ?? ''}/${name}`, named('configmap', name, p.namespace));
    await Promise.all(
      [...maps.values()]
        .slice(0, 3)
        .filter((m) => !this.model.get('configmap', m.name, m.namespace)?.fields['data'])
        .map((m) => this.readOrDescribe(m)),
    );
  }

  /**
   * r28a: pods Pending while the cluster autoscaler's last scale-up failed (NotTriggerScaleUp "in
   * backoff after failed scale-up") or while nodes keep its ToBeDeletedByClusterAutoscaler taint:
   * the autoscaler's own log (the cloud's answer to the scale-up, the scale-down it never finished)
   * and the nodes with their taints. A request about Velero backups: Velero's own log.
   */
  private async inspectR28a(text: string): Promise<void> {
    // a request about Velero backups: Velero's own log says which item failed and why
    if (
      /\bvelero\b/i.test(text) ||
      /\bbackups?\b[^.?!]{0,40}\b(?:PartiallyFailed|Failed|fail)/i.test(text)
    )
      await this.systemPodLog(/^velero-[a-z0-9]+-[a-z0-9]+$/, 'velero');
    // Velero gave up waiting on a CSI snapshot: the CSI driver's controller log (the snapshot's
    // progress after the timeout)
    if (
      this.model.logs.some((l) =>
        l.lines.some((x) =>
          /Error backing up item[^\n]*timed out waiting for the condition/.test(x.text),
        ),
      )
    )
      await this.systemPodLog(
        /^(?:ebs-csi|[a-z0-9-]*csi)[a-z0-9-]*-controller-[a-z0-9]+-[a-z0-9]+$/,
        'kube-system',
      );
    const failed = this.model.events.some((e) =>
      /in backoff after failed scale-up/i.test(e.message),
    );
    const tainted = this.model.events.some((e) =>
      /untolerated taint\(?s?\)? ?\{ToBeDeletedByClusterAutoscaler/.test(e.message),
    );
    if (!failed && !tainted) return;
    await this.systemPodLog(/^cluster-autoscaler-[a-z0-9]+-[a-z0-9]+$/, 'kube-system');
    if (tainted && !this.model.list('node').some((n) => n.fields['taints'] !== undefined))
      await this.first(this.listers('node'), { kind: 'node', all: true }, { kind: 'node' });
  }

  /**
   * The log of a cluster component's pod (cert-manager, the API server, an operator), once: its
   * own namespace is listed first when the request's listing did not include it.
   */
  private async systemPodLog(name: RegExp, namespace: string): Promise<void> {
    const is = (p: ObjectView) => name.test(p.name);
    if (!this.model.list('pod').some(is))
      await this.first(this.listers('pod'), { kind: 'pod', namespace }, { kind: 'pod', namespace });
    const pod = this.model.list('pod').find(is);
    if (pod && !this.model.logs.some((l) => l.pod === pod.name)) await this.podLogs(pod, 300);
  }

  /**
   * Logs or metrics that do not arrive from some nodes: the DaemonSets that run fewer pods than
   * there are schedulable nodes are read with the nodes' taints, and one that does not tolerate
   * the taint of nodes it is missing from becomes a subject.
   */
  private async inspectDaemonSetCoverage(): Promise<void> {
    const { model } = this;
    await this.first(
      this.listers('daemonset'),
      { kind: 'daemonset', all: true },
      { kind: 'daemonset' },
    );
    const nodes = model.list('node').filter((n) => !isCordoned(n));
    const short = model
      .list('daemonset')
      .filter((d) => {
        const desired = Number(d.fields['status.desiredNumberScheduled']);
        return Number.isFinite(desired) && desired < nodes.length && !d.fields['nodeSelector'];
      })
      .slice(0, 3);
    if (!short.length) return this.inspectAgentsOnSubjectNodes();
    await Promise.all([
      ...short.filter((d) => !d.containers.length).map((d) => this.describe(d)),
      ...nodes
        .filter((n) => !n.conditions.length && n.fields['taints'] === undefined)
        .slice(0, 8)
        .map((n) => this.describe(n)),
    ]);
    for (const d of short)
      if (
        nodesRefusingDaemonSet(model, d).length &&
        !this.scope.subjects.some((s) => model.matches(d, s))
      )
        this.scope.subjects.push({
          kind: 'daemonset',
          name: d.name,
          namespace: d.namespace,
          from: 'evidence',
        });
    await this.inspectAgentsOnSubjectNodes();
  }

  /**
   * The telemetry of the subjects is missing while the node agents (DaemonSets) run everywhere:
   * the agents' pods on the nodes the subjects' pods run on may be failing there only (a log
   * shipper killed at its memory limit on the busiest nodes). Up to two failing ones are read and
   * their DaemonSet becomes a subject.
   */
  private async inspectAgentsOnSubjectNodes(): Promise<void> {
    const { model } = this;
    const nodes = new Set(
      this.subjectPods()
        .map((p) => p.node)
        .filter((n): n is string => !!n),
    );
    if (!nodes.size) return;
    const agents = model
      .list('daemonset')
      .filter((d) => d.namespace)
      .slice(0, 6);
    for (const ns of [...new Set(agents.map((d) => d.namespace!))].slice(0, 3))
      if (!model.list('pod', ns).some((p) => p.namespace === ns))
        await this.first(
          this.listers('pod'),
          { kind: 'pod', namespace: ns },
          { kind: 'pod', namespace: ns },
        );
    const failing = agents
      .flatMap((d) => model.podsOf('daemonset', d.name, d.namespace))
      // on the subjects' nodes (a listing that does not say the node: any of them)
      .filter((p) => (!p.node || nodes.has(p.node)) && failsOrRestarts(p, this.now))
      .sort((a, b) => (b.restarts ?? 0) - (a.restarts ?? 0))
      .filter((p) => !this.inspected.has(viewKey(p)))
      .slice(0, 2);
    await Promise.all(failing.map((p) => this.inspect(p)));
    if (!failing.length) await this.inspectLogShippers(agents);
    for (const p of failing) {
      const d = model.workloadOf(p);
      if (!this.scope.subjects.some((s) => s.name === d.name))
        this.scope.subjects.push({
          kind: 'daemonset',
          name: d.name,
          namespace: p.namespace,
          from: 'evidence',
        });
    }
  }

  /**
   * Pods failed by the kubelet at admission (OutOfcpu, OutOfmemory): the node's allocatable no
   * longer holds them, and the node's own events (in namespace default) say why it changed
   * ("Starting kubelet.", NodeAllocatableEnforced). Up to two such nodes are read.
   */
  private async inspectAdmissionRejections(): Promise<void> {
    const { model } = this;
    const rejected = new Set(
      model.events.filter((e) => /^OutOf/.test(e.reason ?? '')).map((e) => e.object?.name),
    );
    const nodes = [
      ...new Set(
        model
          .list('pod')
          .filter(
            (p) => p.node && (rejected.has(p.name) || /^OutOf/.test(p.reason ?? p.status ?? '')),
          )
          .map((p) => p.node!),
      ),
    ].slice(0, 2);
    const perObject = this.tools('events').filter(
      (p) => p.params.name || p.params.involved || p.params.pod,
    );
    for (const node of nodes) {
      if (model.events.some((e) => e.object?.name === node)) continue;
      if (perObject.length)
        await this.first(
          perObject,
          { kind: 'node', name: node, namespace: 'default' },
          { kind: 'node', namespace: 'default' },
        );
      else if (!this.namespaceEvents.has('default')) {
        this.namespaceEvents.add('default');
        await this.first(
          this.namespaceEventTools(),
          { namespace: 'default' },
          { namespace: 'default' },
        );
      }
    }
  }

  /**
   * Logs missing while every log agent runs: the agents may be refused by the log store (Loki's
   * 429 "Ingestion rate limit exceeded"). One running pod of each log-shipping DaemonSet is read;
   * one whose pushes are refused becomes a subject.
   */
  private async inspectLogShippers(agents: ObjectView[]): Promise<void> {
    const { model } = this;
    const pods = agents
      .filter((d) => LOG_SHIPPER.test(d.name))
      .slice(0, 2)
      .flatMap((d) => model.podsOf('daemonset', d.name, d.namespace).slice(0, 1));
    await Promise.all(
      pods
        .filter((p) => !model.logs.some((l) => l.pod === p.name))
        .map((p) => this.podLogs(p, 300)),
    );
    for (const p of pods) {
      const refused = model.logs.some(
        (l) => l.pod === p.name && l.lines.some((x) => PUSH_REFUSED.test(x.text)),
      );
      const d = model.workloadOf(p);
      if (refused && !this.scope.subjects.some((s) => s.name === d.name))
        this.scope.subjects.push({
          kind: 'daemonset',
          name: d.name,
          namespace: p.namespace,
          from: 'evidence',
        });
    }
  }

  /**
   * (r30c) Two things a careful engineer reads next:
   * - a pod the API server refuses because a resource request is above the container's limit
   *   ("must be less than or equal to cpu limit of 500m"): the namespace's LimitRanges, whose
   *   default is that limit when the template sets none;
   * - a question which budgets allow no disruption: the budgets of its namespace, read whole
   *   when a listing does not show their allowed disruptions;
   * - an eviction the request quotes as refused by a disruption budget ("Cannot evict pod as it
   *   would violate the pod's disruption budget") with no node listed so far showing its cordon (a
   *   node listing without the schedulability column): the budgets of the namespaces in scope.
   */
  private async inspectR30c(text: string): Promise<void> {
    const { model } = this;
    const q = this.scope.question;
    if (q?.type === 'pdb_blocking') {
      const ns = questionNamespace(q, model, this.scope);
      await this.listKind('poddisruptionbudget', ns);
      // a listing that shows no allowed disruptions (names only): each budget is read whole
      await Promise.all(
        model
          .list('poddisruptionbudget', ns)
          .filter(
            (b) => (!ns || b.namespace === ns) && b.fields['disruptionsAllowed'] === undefined,
          )
          .slice(0, 8)
          .map((b) => this.readOrDescribe(b)),
      );
      return;
    }
    const overLimit =
      /resources\.requests: Invalid value: "[^"]+": must be less than or equal to (?:cpu|memory) limit/;
    const refused = [
      ...new Set(
        [
          ...model.events.filter((e) => overLimit.test(e.message)).map((e) => e.namespace),
          ...model
            .list()
            .filter((o) => o.conditions.some((c) => overLimit.test(c.message ?? '')))
            .map((o) => o.namespace),
        ].filter((n): n is string => !!n),
      ),
    ].filter((ns) => !model.list('limitrange', ns).some((r) => r.namespace === ns));
    await Promise.all(refused.slice(0, 2).map((ns) => this.listKind('limitrange', ns)));
    await Promise.all(
      model
        .list('limitrange')
        .filter((r) => refused.includes(r.namespace ?? '') && !r.fields['limits'])
        .slice(0, 2)
        .map((r) => this.readOrDescribe(r)),
    );
    if (!/disruption budget|\bpdbs?\b/.test(text) || !/\bevict|\bdrain/.test(text)) return;
    if (model.list('poddisruptionbudget').length || model.list('node').some(isCordoned)) return;
    const namespaces = this.scope.namespaces.slice(0, 2);
    await Promise.all(
      namespaces.map((ns) =>
        this.first(
          this.listers('poddisruptionbudget'),
          { kind: 'poddisruptionbudget', namespace: ns },
          { kind: 'poddisruptionbudget', namespace: ns },
        ),
      ),
    );
    // a listing that shows no selector (names only): the budgets are read whole
    await Promise.all(
      model
        .list('poddisruptionbudget')
        .filter((b) => !b.fields['selector'] && b.fields['disruptionsAllowed'] !== '1')
        .slice(0, 3)
        .map((b) => this.describe(b)),
    );
  }

  /**
   * A drain waits on the pods still left on a cordoned node (the one the request names, else
   * every cordoned node): the PodDisruptionBudgets of their namespaces are listed, and a budget
   * at 0 allowed disruptions that shows no selector is read whole.
   */
  private async inspectDrainBlockers(): Promise<void> {
    const { model } = this;
    const cordoned = model.list('node').filter(isCordoned);
    const named = cordoned.filter((n) => this.scope.subjects.some((s) => model.matches(n, s)));
    const nodes = named.length ? named : cordoned;
    if (!nodes.length) return;
    const left = nodes.flatMap((n) => model.podsOn(n));
    const namespaces = [
      ...new Set(left.map((p) => p.namespace).filter((n): n is string => !!n)),
    ].sort((a, b) => Number(/^kube-/.test(a)) - Number(/^kube-/.test(b)));
    const lists = namespaces.length > 4 || !namespaces.length ? [undefined] : namespaces;
    await Promise.all(
      lists.map((ns) =>
        this.first(
          this.listers('poddisruptionbudget'),
          { kind: 'poddisruptionbudget', namespace: ns, all: !ns },
          { kind: 'poddisruptionbudget', namespace: ns },
        ),
      ),
    );
    // a listing that names the budgets only (no allowed disruptions, no selector) says nothing
    // of which one holds the drain: those of the namespaces of the pods left on the node first
    const bare = (b: ObjectView) =>
      b.fields['disruptionsAllowed'] === undefined &&
      b.fields['minAvailable'] === undefined &&
      b.fields['maxUnavailable'] === undefined;
    const near = (b: ObjectView) => Number(!namespaces.includes(b.namespace ?? ''));
    await Promise.all(
      model
        .list('poddisruptionbudget')
        .filter((b) => (b.fields['disruptionsAllowed'] === '0' || bare(b)) && !b.fields['selector'])
        .sort((a, b) => near(a) - near(b))
        .slice(0, 3)
        .map((b) => this.describe(b)),
    );
    // pods listed with no node: which of a budget's pods are still on the cordoned node is
    // known once they are read (those of the budgets at 0 allowed disruptions)
    const zero = model
      .list('poddisruptionbudget')
      .filter((b) => b.fields['disruptionsAllowed'] === '0' && b.namespace);
    await Promise.all(
      model
        .list('pod')
        .filter(
          (p) =>
            !p.node &&
            zero.some(
              (b) =>
                b.namespace === p.namespace && budgetNamesWorkload(b, model.workloadOf(p).name),
            ),
        )
        .slice(0, 6)
        .map((p) => this.readOrDescribe(p)),
    );
  }

  /**
   * A client logged that its data store refused it in a way only the store's own log explains:
   * a lock timeout (PostgreSQL with log_lock_waits says "Process holding the lock: 7301", and
   * that process's connection line names its user and application), or a write to a read-only
   * Redis replica (Sentinel logs "+switch-master" when it fails the master over). The store's
   * pods in the client's namespace are read, with their sentinel container.
   */
  private async inspectDataStoreLogs(): Promise<void> {
    const said = (re: RegExp) =>
      this.model.logs.filter((l) => l.pod && l.lines.some((x) => re.test(x.text)));
    const wanted: [LogView[], RegExp][] = [
      [said(LOCK_WAIT), DATABASE_POD],
      [said(REDIS_READONLY), /redis|sentinel/i],
      // a replica whose lag is unknown (its SQL thread stopped): the replica says why
      [said(REPLICA_LAG_UNKNOWN), DATABASE_REPLICA],
    ];
    const picks: { pod: ObjectView; container?: string }[] = [];
    for (const [clients, store] of wanted) {
      const nss = [...new Set(clients.map((l) => l.namespace).filter(Boolean))] as string[];
      const stores = this.model
        .list('pod')
        .filter(
          (p) =>
            p.namespace &&
            nss.includes(p.namespace) &&
            store.test(`${p.name} ${p.images.join(' ')}`) &&
            !this.model.logs.some((l) => l.pod === p.name),
        )
        .slice(0, 2);
      // a listing does not name the containers: the description does
      await Promise.all(stores.filter((p) => !p.containers.length).map((p) => this.describe(p)));
      for (const listed of stores) {
        const p = this.model.get('pod', listed.name, listed.namespace) ?? listed;
        const name = this.model.workloadOf(p).name;
        if (!this.scope.dependencies?.some((d) => d.name === name))
          (this.scope.dependencies ??= []).push({
            name,
            namespace: p.namespace,
            from: 'data-store',
          });
        picks.push({ pod: p });
        const sentinel = p.containers.find((c) => /sentinel/i.test(c.name));
        if (sentinel) picks.push({ pod: p, container: sentinel.name });
      }
    }
    await Promise.all(picks.map(({ pod, container }) => this.podLogs(pod, 500, container)));
  }

  /**
   * round26 (r26a): a member of a clustered store that waits for its peers (RabbitMQ's Mnesia
   * "timeout_waiting_for_tables") gets no reason in its own log: the peers log why they refuse
   * it (an Erlang cookie that differs: "Connection attempt from disallowed node"), so the logs
   * of up to two other pods of its workload are read. A MySQL client that cannot speak the
   * server's auth plugin (ER_NOT_SUPPORTED_AUTH_MODE): the ConfigMaps of its namespace (the
   * server's my.cnf says which plugin it gives users).
   */
  private async inspectR26a(): Promise<void> {
    const waiting = this.model.logs.filter(
      (l) => l.pod && l.lines.some((x) => PEERS_UNREACHABLE.test(x.text)),
    );
    const peers = new Map<string, ObjectView>();
    for (const l of waiting.slice(0, 2)) {
      const pod = this.model.get('pod', l.pod!, l.namespace);
      if (!pod) continue;
      const w = this.model.workloadOf(pod);
      if (w.kind === 'pod') continue;
      for (const p of this.model.podsOf(w.kind, w.name, pod.namespace))
        if (p.name !== pod.name && !this.model.logs.some((x) => x.pod === p.name))
          peers.set(`${p.namespace ?? ''}/${p.name}`, p);
    }
    await Promise.all([...peers.values()].slice(0, 2).map((p) => this.podLogs(p, 300)));
    const refused = this.model.logs.find((l) =>
      l.lines.some((x) => MYSQL_AUTH_PLUGIN_REFUSED.test(x.text)),
    );
    if (refused?.namespace && !this.model.list('configmap', refused.namespace).length)
      await this.listKind('configmap', refused.namespace);
  }

  /**
   * round21 (r21data): a client refused for its password by PostgreSQL (28P01): the database's
   * own log (did it start on data it kept?), the volume claims and the Secrets of its namespace
   * (names and ages: a password Secret newer than the data it should open).
   */
  private async inspectR21Data(): Promise<void> {
    const nss = [
      ...new Set(
        this.model.logs
          .filter((l) => l.namespace && l.lines.some((x) => PG_PASSWORD_REFUSED.test(x.text)))
          .map((l) => l.namespace!),
      ),
    ].slice(0, 2);
    for (const ns of nss) {
      const dbs = this.model
        .list('pod', ns)
        .filter((p) => DATABASE_POD.test(`${p.name} ${p.images.join(' ')}`))
        .slice(0, 2);
      if (!dbs.length) continue;
      // a listing does not name the containers, their Secrets and the claims: the description does
      await Promise.all(dbs.filter((p) => !p.containers.length).map((p) => this.describe(p)));
      await Promise.all([
        ...dbs
          .filter((p) => !this.model.logs.some((l) => l.pod === p.name))
          .map((p) => this.podLogs(p, 500)),
        this.model.list('persistentvolumeclaim', ns).some((c) => c.created)
          ? Promise.resolve(false)
          : this.listKind('persistentvolumeclaim', ns),
        this.model.list('secret', ns).some((c) => c.created)
          ? Promise.resolve(false)
          : this.listKind('secret', ns),
      ]);
      // a listing of names only (no ages): the database's claims and its StatefulSet themselves
      const undated = dbs
        .map((p) => this.model.get('pod', p.name, ns) ?? p)
        .flatMap((p) => [
          ...(p.fields['claims'] ?? '')
            .split(',')
            .filter(Boolean)
            .map((n) => ({ kind: 'persistentvolumeclaim', name: n })),
          this.model.workloadOf(p),
        ])
        .filter((o) => o.kind !== 'pod' && !this.model.get(o.kind, o.name, ns)?.created);
      await Promise.all(
        undated
          .slice(0, 3)
          .map((o) =>
            this.readOrDescribe({ ...newObject(o.kind, o.name, 'r21data'), namespace: ns }),
          ),
      );
    }
  }

  /** a log read of the pod says a call to a process in the pod itself failed */
  private localUpstreamFails(pod: string): boolean {
    return this.model.logs.some(
      (l) =>
        l.pod === pod &&
        l.lines.some(
          (x) =>
            /(?:127\.0\.0\.1|localhost|\[::1\]|unix:|fastcgi:\/\/)/.test(x.text) &&
            /timed out|refused|reset|\b50[234]\b|upstream|unavailable/i.test(x.text),
        ),
    );
  }

  /** true the first time a pod of its workload asks (the rest of its pods run the same) */
  private firstOfWorkload(p: ObjectView): boolean {
    const key = `${p.namespace ?? ''}/${this.model.workloadOf(p).name}`;
    if (this.workloadsRead.has(key)) return false;
    this.workloadsRead.add(key);
    return true;
  }

  /**
   * The running container's logs of one pod (one container's, when named) through the first pod
   * logs tool that answers.
   */
  private podLogs(p: ObjectView, tail?: number, container?: string): Promise<unknown> {
    const tools = this.podLogTools();
    return this.first(
      container ? tools.filter((t) => t.params.container) : tools,
      { kind: 'pod', name: p.name, namespace: p.namespace, tail, container },
      { kind: 'pod', namespace: p.namespace, pod: p.name, previous: false, container },
    );
  }

  /** the subjects' pods (in any namespace when environments are compared) */
  private subjectPods(anyNamespace = false): ObjectView[] {
    return this.model
      .list('pod')
      .filter((p) =>
        this.scope.subjects.some((s) =>
          this.model.matches(p, anyNamespace ? { ...s, namespace: undefined } : s),
        ),
      );
  }

  /**
   * (r25b) The host the user names is routed to a Service that is not the one they name (a proxy
   * of the team's own in front of it, "catalog-api pods look healthy"): the logs of one pod behind
   * that Service are read before the budget goes to the named one. Its error lines say which
   * upstream address it fails to reach (an old pod IP kept since it started, a timeout).
   */
  private async r25bProxyInFront(routes: ObjectView[]): Promise<void> {
    const { model, scope } = this;
    const named = scope.subjects.filter((s) => s.from === 'message');
    if (!routes.length || !named.length) return;
    const picked: ObjectView[] = [];
    for (const i of routes)
      for (const b of ingressBackends(i)) {
        const svc = model
          .list('service', i.namespace)
          .find((x) => x.name === b.service && x.namespace === i.namespace);
        if (!svc || named.some((s) => model.matches(svc, s))) continue;
        const w = backingWorkload(model, svc);
        if (!w || named.some((s) => model.matches(w, s))) continue;
        // the named subject runs beside it: the proxy and what it proxies to
        if (!model.list('pod', i.namespace).some((p) => named.some((s) => model.matches(p, s))))
          continue;
        const pods = model.podsOf(w.kind, w.name, i.namespace);
        const pod =
          pods.find((p) => isUnhealthy(p, this.now)) ??
          [...pods].sort((a, c) => (a.created ?? 0) - (c.created ?? 0))[0];
        if (pod && !picked.includes(pod) && !model.logs.some((l) => l.pod === pod.name))
          picked.push(pod);
      }
    await Promise.all(picked.slice(0, 1).map((p) => this.podLogs(p, 300)));
  }

  /** The subjects' pods not inspected yet (in any namespace: a comparison of environments). */
  private unreadSubjectPods(anyNamespace = false): ObjectView[] {
    return this.subjectPods(anyNamespace).filter((p) => !this.inspected.has(viewKey(p)));
  }

  /**
   * The named subject looks healthy: what else runs in its namespace is read (one pod of each of
   * up to three other workloads, failing ones first). A symptom users see on one service often
   * comes from a neighbour: the dashboard shows no new data because the ingester fails. Returns
   * the workloads read, as subjects.
   */
  async widen(): Promise<Subject[]> {
    const { model, scope } = this;
    // a public name that does not resolve while its Ingress looks fine: the controller that
    // writes the DNS records (external-dns) may be failing
    // ... and what serves the subjects from outside their namespace: the controller writing their
    // DNS records, the entry points in front of them
    const outside = [
      ...(await this.inspectDnsRecordWriters()),
      ...(await this.inspectEntryPoints()),
    ];
    const own = model.list().filter((o) => scope.subjects.some((s) => model.matches(o, s)));
    const ns = scope.namespaces[0] ?? own.find((o) => o.namespace && o.kind !== 'node')?.namespace;
    const consulted = [...this.storeClients.values()];
    if (!ns || /^kube-/.test(ns)) return [...outside, ...consulted];
    return [...outside, ...consulted, ...(await this.widenInNamespace(ns, own))];
  }

  /**
   * Users get server errors at a public host while the service named looks healthy: what is in
   * front of it may fail. Without an ingress controller in the cluster, the entry points are the
   * LoadBalancer Services (a proxy of the team's own, an API gateway): one pod behind each of up to
   * two of them is read.
   */
  private async inspectEntryPoints(): Promise<Subject[]> {
    const { model } = this;
    const text = this.run.message;
    if (!SERVER_ERRORS.test(text) || ![...text.matchAll(PUBLIC_HOST)].length) return [];
    if (model.list('pod').some((p) => INGRESS_CONTROLLER.test(p.name))) return [];
    await this.first(
      this.listers('service'),
      { kind: 'service', all: true, wide: true },
      { kind: 'service' },
    );
    const entries = model
      .list('service')
      .filter(
        (s) => s.fields['type'] === 'LoadBalancer' && s.namespace && !/^kube-/.test(s.namespace),
      )
      .slice(0, 2);
    const picked: ObjectView[] = [];
    for (const svc of entries) {
      const ns = svc.namespace!;
      if (!model.list('pod', ns).some((p) => p.namespace === ns))
        await this.first(
          this.listers('pod'),
          { kind: 'pod', namespace: ns },
          { kind: 'pod', namespace: ns },
        );
      const w = backingWorkload(model, svc);
      const pods = w ? model.podsOf(w.kind, w.name, ns) : [];
      const pod =
        pods.find((p) => isUnhealthy(p, this.now)) ??
        [...pods].sort((a, b) => (b.created ?? 0) - (a.created ?? 0))[0];
      if (pod && !this.inspected.has(viewKey(pod)) && !INGRESS_CONTROLLER.test(pod.name))
        picked.push(pod);
    }
    await Promise.all(picked.map((p) => this.inspect(p)));
    return picked.map((p) => ({
      name: model.workloadOf(p).name,
      namespace: p.namespace,
      from: 'entry-point',
    }));
  }

  /**
   * external-dns publishes the hosts of Ingresses and Services: when the message says such a
   * host does not resolve, its pods are read (the failing one first).
   */
  private async inspectDnsRecordWriters(): Promise<Subject[]> {
    const text = this.run.message;
    if (!UNRESOLVED_NAME.test(text)) return [];
    const hosts = [...text.matchAll(PUBLIC_HOST)].map((m) => m[0]);
    if (!hosts.some((h) => !/\.(?:local|internal|svc)$/.test(h))) return [];
    const writers = () => this.model.list('pod').filter((p) => /^external-dns/.test(p.name));
    if (!writers().length)
      for (const ns of ['external-dns', 'kube-system']) {
        await this.first(
          this.listers('pod'),
          { kind: 'pod', namespace: ns },
          { kind: 'pod', namespace: ns },
        );
        if (writers().length) break;
      }
    const picked = [...writers()]
      .sort(
        (a, b) =>
          Number(isUnhealthy(b, this.now)) - Number(isUnhealthy(a, this.now)) ||
          (b.restarts ?? 0) - (a.restarts ?? 0),
      )
      .slice(0, 1)
      .filter((p) => !this.inspected.has(viewKey(p)));
    // its log first (r27b): a writer that runs fine says in its log which change the provider
    // refused, and a run short of calls must not spend its last ones on the pod's description;
    // a writer that fails is inspected whole
    const running = picked.filter((p) => !isUnhealthy(p, this.now));
    for (const p of running) this.inspected.add(viewKey(p));
    await Promise.all(running.map((p) => this.podLogs(p, 300)));
    await Promise.all(
      picked.map((p) => (running.includes(p) ? this.describe(p) : this.inspect(p))),
    );
    return picked.map((p) => ({
      name: this.model.workloadOf(p).name,
      namespace: p.namespace,
      from: 'dns-records',
    }));
  }

  private async widenInNamespace(ns: string, own: ObjectView[]): Promise<Subject[]> {
    const { model } = this;
    // first the subject's own pods not read yet (one node's clock or disk may fail one pod)
    // the newest first: the latest attempt of a failing Job, the pods of the latest rollout
    const unread = this.unreadSubjectPods().sort((a, b) => (b.created ?? 0) - (a.created ?? 0));
    const nodesRead = new Set(
      own.filter((o) => o.kind === 'pod' && !unread.includes(o)).map((o) => o.node),
    );
    const ownPods = [
      ...unread.filter((p) => !nodesRead.has(p.node)),
      ...unread.filter((p) => nodesRead.has(p.node)),
    ].slice(0, 4);
    await Promise.all(ownPods.map((p) => this.inspect(p)));
    const ownWorkloads = new Set(own.map((o) => model.workloadOf(o).name));
    const byWorkload = new Map<string, ObjectView[]>();
    for (const p of model.list('pod', ns)) {
      if (p.namespace !== ns) continue;
      const w = model.workloadOf(p).name;
      if (ownWorkloads.has(w)) continue;
      byWorkload.set(w, [...(byWorkload.get(w) ?? []), p]);
    }
    const score = (ps: ObjectView[]) =>
      (ps.some((p) => isUnhealthy(p, this.now)) ? 1000 : 0) +
      Math.max(...ps.map((p) => p.restarts ?? 0));
    const newest = (ps: ObjectView[]) => Math.max(0, ...ps.map((p) => p.created ?? 0));
    const picked = [...byWorkload.entries()]
      .sort(
        (a, b) =>
          score(b[1]) - score(a[1]) || newest(b[1]) - newest(a[1]) || a[0].localeCompare(b[0]),
      )
      .slice(0, 3)
      .map(([name, ps]) => {
        const failing = ps.filter((p) => isUnhealthy(p, this.now));
        const pod = failing.length
          ? failing.sort((a, b) => (b.created ?? 0) - (a.created ?? 0))[0]!
          : [...ps].sort((a, b) => (b.restarts ?? 0) - (a.restarts ?? 0))[0]!;
        return { name, pod };
      });
    await Promise.all(picked.map(({ pod }) => this.inspect(pod)));
    await this.followDependencies(picked.map(({ pod }) => pod));
    return picked.map(({ name }) => ({ name, namespace: ns, from: 'namespace' }));
  }

  /**
   * Words of the message that name a namespace or a workload seen in the listings become part of
   * the scope ("the content pipeline", "quote-service degraded in insurance").
   */
  private refineScope(): void {
    const { scope, model } = this;
    const namespaces = new Set(
      model
        .list()
        .map((o) => (o.kind === 'namespace' ? o.name : o.namespace))
        .filter((n): n is string => !!n),
    );
    for (const word of scope.candidates) {
      if (namespaces.has(word)) {
        if (!scope.namespaces.includes(word)) scope.namespaces.push(word);
        continue;
      }
      // "receipt PDFs" names receipts-api: the word, its plural or its singular
      for (const w of [word, `${word}s`, word.replace(/s$/, '')].filter((x) => x.length > 3)) {
        const s: Subject = { name: w, from: 'message-word' };
        // ... and is not part of what a subject names already ("the cert" beside cert-manager,
        // "orders" beside order-history-api)
        const named = model
          .list()
          .filter((o) => o.kind !== 'namespace' && o.kind !== 'node' && model.matches(o, s));
        const hit =
          named.length > 0 &&
          !named.some((o) =>
            scope.subjects.some((x) => x.from !== 'message-word' && model.matches(o, x)),
          );
        if (hit && !scope.subjects.some((x) => x.name === w)) {
          scope.subjects.push(s);
          break;
        }
      }
    }
    // nothing named and nothing failing in sight: what the user's feature is usually served by
    // ("emails" by the mailer, the notification service or an SMTP relay; "logins" by auth)
    if (
      !model.list('pod').some((p) => isUnhealthy(p, this.now)) &&
      !scope.subjects.some(
        (s) => s.kind === 'node' || model.list().some((o) => model.matches(o, s)),
      )
    )
      this.featureSubjects();
    // subjects that matched nothing give way to those that did
    const found = scope.subjects.filter(
      (s) => s.kind === 'node' || model.list().some((o) => model.matches(o, s)),
    );
    if (found.length && found.length < scope.subjects.length)
      scope.subjects.splice(0, scope.subjects.length, ...found);
    // a lone word of the message ("is throwing") that names nothing is no subject at all
    else if (!found.length && scope.subjects.every((s) => s.from === 'message-word'))
      scope.subjects.splice(0, scope.subjects.length);
    if (scope.namespaces.length === 1)
      for (const s of scope.subjects) s.namespace ??= scope.namespaces[0];
  }

  /**
   * Workloads whose names are what a feature word of the message is usually served by, when the
   * message names no workload: at most two, from the words of one feature.
   */
  private featureSubjects(): void {
    const { scope, model } = this;
    const workloads = new Map<string, ObjectView>();
    for (const o of model.list('pod')) {
      const w = model.workloadOf(o);
      if (w.name && !workloads.has(`${o.namespace ?? ''}/${w.name}`))
        workloads.set(`${o.namespace ?? ''}/${w.name}`, o);
    }
    for (const word of scope.candidates) {
      const names = FEATURE_NAMES.find(([re]) => re.test(word))?.[1];
      if (!names) continue;
      const hits = [...workloads.entries()].filter(([key]) => {
        const parts = key.split('/')[1]!.split('-');
        return parts.some((x) => names.includes(x));
      });
      if (!hits.length || hits.length > 3) continue;
      for (const [key] of hits.slice(0, 2)) {
        const [namespace, name] = key.split('/');
        scope.subjects.push({
          name: name!,
          namespace: namespace || undefined,
          from: 'message-word',
        });
      }
      return;
    }
  }

  private targets(): ObjectView[] {
    const { scope, model } = this;
    const unhealthy = (o: ObjectView) => isUnhealthy(o, this.now);
    // failing first, then the newest (the last run of a CronJob, the pods of the last rollout)
    const rank = (os: ObjectView[]) => {
      const byAge = [...os].sort((a, b) => (b.created ?? 0) - (a.created ?? 0));
      return [...byAge.filter(unhealthy), ...byAge.filter((o) => !unhealthy(o))];
    };
    let picked: ObjectView[] = [];
    if (scope.subjects.length) {
      const matching = model
        .list()
        .filter(
          (o) =>
            o.kind !== 'namespace' &&
            o.kind !== 'event' &&
            scope.subjects.some((s) => model.matches(o, s)),
        );
      const pods = rank(matching.filter((o) => o.kind === 'pod'));
      // the controller of the subject's own name first (the StatefulSet "kafka" before the
      // Deployment "kafka-ui"): its events say why it has fewer pods than it wants
      const exact = (o: ObjectView) =>
        scope.subjects.some((s) => s.name === o.name) && CONTROLLER_KINDS.has(o.kind) ? 0 : 1;
      const others = rank(matching.filter((o) => o.kind !== 'pod' && o.kind !== 'replicaset')).sort(
        (a, b) => exact(a) - exact(b),
      );
      picked = [...pods.slice(0, 3), ...others.slice(0, 3)];
      // named but not listed (a node, a job, a PVC): look it up directly
      for (const s of scope.subjects)
        if (s.kind && !matching.some((o) => o.kind === s.kind && o.name === s.name))
          picked.push(named(s.kind, s.name, s.namespace));
    }
    if (!picked.length) {
      // newest first, one per workload before a second (seven failed attempts of one Job
      // are one failure: its latest pod and the Job say why)
      const failing = rank(
        model
          .list()
          .filter(
            (o) =>
              ['pod', 'node', 'job', 'persistentvolumeclaim', 'deployment'].includes(o.kind) &&
              unhealthy(o),
          ),
      );
      const firsts = dedupe(failing, (o) => (o.kind === 'pod' ? model.workloadOf(o).name : o.name));
      picked = [...firsts, ...failing.filter((o) => !firsts.includes(o))].slice(0, 4);
    }
    // nothing named and nothing failing in the namespace: read the pods' logs ("throwing errors")
    if (!picked.length && scope.namespaces.length && !scope.question)
      picked = rank(
        model.list('pod', scope.namespaces[0]).filter((p) => p.namespace === scope.namespaces[0]),
      )
        .sort((a, b) => (b.restarts ?? 0) - (a.restarts ?? 0))
        .slice(0, 4);
    return picked.slice(0, 6);
  }

  /**
   * Questions the pod specs and Services answer ("which containers run as root", "which pods use
   * hostNetwork", "which node ports are open") and a Deployment's revisions: what listings and
   * descriptions do not show is read whole.
   */
  private async gatherForSpecQuestion(): Promise<void> {
    const q = this.scope.question;
    if (q?.type === 'privileged' || q?.type === 'host_network' || q?.type === 'readonly_rootfs') {
      const ns = questionNamespace(q, this.model, this.scope);
      const excluded = q.type === 'host_network' ? (q.excluded ?? []) : [];
      const pods = this.model
        .list('pod', ns)
        .filter(
          (p) =>
            (!ns || p.namespace === ns) &&
            !excluded.includes(p.namespace ?? '') &&
            !p.fields['podSecurity'] &&
            !hasCompleted(p),
        );
      // pods of one ReplicaSet or DaemonSet share their template: one of each first
      const seen = new Set<string>();
      const firsts = pods.filter((p) => {
        const k = templateKey(this.model, p);
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      });
      const rest = pods.filter((p) => !firsts.includes(p));
      const room = Math.max(4, Math.min(24, this.budget - 4));
      await Promise.all([...firsts, ...rest].slice(0, room).map((p) => this.readWhole(p)));
    }
    if (q?.type === 'node_ports') {
      const ns = questionNamespace(q, this.model, this.scope);
      if (!this.model.list('service', ns).some((s) => !ns || s.namespace === ns))
        await this.first(
          this.listers('service'),
          { kind: 'service', namespace: ns, all: !ns },
          { kind: 'service', namespace: ns },
        );
      // a listing that shows no ports: each Service described ("NodePort: http 30080/TCP")
      await Promise.all(
        this.model
          .list('service', ns)
          .filter((s) => (!ns || s.namespace === ns) && s.fields['nodePorts'] === undefined)
          .slice(0, 12)
          .map((s) => this.describe(s)),
      );
    }
    if (q?.type === 'rollout_history' && q.subject) {
      const dep =
        this.model.list('deployment').find((d) => d.name === q.subject) ??
        this.model
          .list('deployment')
          .find((d) => this.scope.subjects.some((s) => this.model.matches(d, s)));
      const name = dep?.name ?? q.subject;
      const ns = dep?.namespace ?? this.scope.namespaces[0];
      await Promise.all([
        this.first(
          this.tools('history'),
          { kind: 'deployment', name, namespace: ns },
          { kind: 'deployment', namespace: ns },
        ),
        this.first(
          this.listers('replicaset'),
          { kind: 'replicaset', namespace: ns, all: !ns },
          { kind: 'replicaset', namespace: ns },
        ),
        dep ? this.readWhole(dep) : Promise.resolve(),
      ]);
      // each ReplicaSet's revision is an annotation: read whole (or described)
      const owned = this.model
        .list('replicaset', ns)
        .filter(
          (r) =>
            (r.owner?.name === name || (!r.owner && ownHash(name).test(r.name))) &&
            r.fields['revision'] === undefined,
        )
        .slice(0, 10);
      await Promise.all(
        owned.map(async (r) => {
          if (!(await this.readWhole(r))) await this.describe(r);
        }),
      );
    }
  }

  /**
   * (r28a) "which StatefulSets delete their PVCs when scaled down": the StatefulSets read whole
   * (a listing of JSON objects carries spec.persistentVolumeClaimRetentionPolicy, a table does
   * not) and the claims (which one a scale-down removes).
   */
  private async gatherForPvcRetentionR28a(): Promise<void> {
    const q = this.scope.question;
    if (q?.type !== 'pvc_retention') return;
    const ns = questionNamespace(q, this.model, this.scope);
    const inNs = (o: ObjectView) => !ns || o.namespace === ns;
    if (!this.model.list('statefulset', ns).some(inNs)) await this.listKind('statefulset', ns);
    if (!this.model.list('persistentvolumeclaim', ns).some(inNs))
      await this.listKind('persistentvolumeclaim', ns);
    await Promise.all(
      this.model
        .list('statefulset', ns)
        .filter((s) => inNs(s) && s.fields['pvcRetention'] === undefined)
        .slice(0, 12)
        .map((s) => this.readWhole(s)),
    );
  }

  /**
   * Questions about leftovers in a namespace (scope.ts hygieneQuestion): its claims and the pods
   * that mount them, its pods' images, its CronJobs with their last Jobs, what was created in a
   * window. What listings do not show is read whole or described.
   */
  private async gatherForHygieneQuestion(): Promise<void> {
    const q = this.scope.question;
    if (
      q?.type !== 'unmounted_claims' &&
      q?.type !== 'claims_by_size' &&
      q?.type !== 'floating_images' &&
      q?.type !== 'suspended_cronjobs' &&
      q?.type !== 'created'
    )
      return;
    const ns = questionNamespace(q, this.model, this.scope);
    const inNs = (o: ObjectView) => !ns || o.namespace === ns;
    const listed = (kind: string) => this.model.list(kind, ns).some(inNs);
    if (q.type === 'created') {
      if (!this.model.list(q.kind, ns).some((o) => inNs(o) && o.created !== undefined))
        await this.listKind(q.kind, ns);
      return;
    }
    if (q.type === 'suspended_cronjobs') {
      await Promise.all([
        listed('cronjob') ? Promise.resolve(false) : this.listKind('cronjob', ns),
        listed('job') ? Promise.resolve(false) : this.listKind('job', ns),
      ]);
      // spec.suspend and the exact last schedule time: each CronJob read whole (or described)
      await Promise.all(
        this.model
          .list('cronjob', ns)
          .filter(
            (c) =>
              inNs(c) && c.fields['suspend'] === undefined && c.fields['suspendListed'] !== 'false',
          )
          .slice(0, 12)
          .map((c) => this.readOrDescribe(c)),
      );
      // how the last run of each suspended one ended: its newest Job, when not shown yet
      const jobs = this.model.list('job', ns).filter(inNs);
      const last = this.model
        .list('cronjob', ns)
        .filter((c) => inNs(c) && c.fields['suspend'] === 'true')
        .map(
          (c) =>
            jobs
              .filter((j) => j.owner?.name === c.name || this.model.workloadOf(j).name === c.name)
              .sort((a, b) => (b.created ?? 0) - (a.created ?? 0))[0],
        )
        .filter(
          (j): j is ObjectView =>
            !!j && !j.fields['completionTime'] && !j.conditions.length && !j.status,
        );
      await Promise.all(last.slice(0, 6).map((j) => this.readOrDescribe(j)));
      return;
    }
    if (!listed('pod')) await this.listKind('pod', ns);
    if (
      (q.type === 'unmounted_claims' || q.type === 'claims_by_size') &&
      !listed('persistentvolumeclaim')
    )
      await this.listKind('persistentvolumeclaim', ns);
    // a claim's size: a listing shows its capacity once bound; the others read whole (their
    // request), else described
    if (q.type === 'claims_by_size')
      await Promise.all(
        this.model
          .list('persistentvolumeclaim', ns)
          .filter((c) => inNs(c) && !claimSize(c).size)
          .slice(0, 8)
          .map((c) => this.readOrDescribe(c)),
      );
    if (q.type === 'unmounted_claims' && !listed('statefulset'))
      await this.listKind('statefulset', ns);
    // each pod's volumes or containers (a listing shows neither): one pod of each template first
    const pods = this.model
      .list('pod', ns)
      .filter((p) => inNs(p) && !p.containers.length && p.fields['claims'] === undefined);
    const seen = new Set<string>();
    const firsts = pods.filter((p) => {
      const k = templateKey(this.model, p);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    // images are shared by a template's pods; volumes are each pod's own (a StatefulSet's claims)
    const wanted =
      q.type === 'floating_images'
        ? firsts
        : [...firsts, ...pods.filter((p) => !firsts.includes(p))];
    const room = Math.max(4, Math.min(20, this.budget - 4));
    await Promise.all(wanted.slice(0, room).map((p) => this.describe(p)));
    // pods whose volumes stay unread: the claims no read pod names, described ("Used By")
    if (q.type !== 'unmounted_claims' && q.type !== 'claims_by_size') return;
    const pods2 = this.model.list('pod', ns).filter(inNs);
    if (!pods2.some((p) => !p.containers.length && p.fields['claims'] === undefined)) return;
    const named = new Set(pods2.flatMap((p) => (p.fields['claims'] ?? '').split(',')));
    await Promise.all(
      this.model
        .list('persistentvolumeclaim', ns)
        .filter((c) => inNs(c) && !named.has(c.name) && c.fields['usedBy'] === undefined)
        .slice(0, 8)
        .map((c) => this.describe(c)),
    );
  }

  /**
   * (round22, r22i) "which ingress paths point at a missing Service or port": the namespace's
   * Ingresses with their backends (read whole when the listing shows none) and its Services.
   */
  private async gatherForIngressBackendsQuestion(): Promise<void> {
    const q = this.scope.question;
    if (q?.type !== 'ingress_backends') return;
    const ns = questionNamespace(q, this.model, this.scope);
    const inNs = (o: ObjectView) => !ns || o.namespace === ns;
    if (!this.model.list('ingress', ns).some(inNs)) await this.listKind('ingress', ns);
    const unread = () =>
      this.model.list('ingress', ns).filter((i) => inNs(i) && i.fields['backends'] === undefined);
    if (unread().length > 1) await this.listWhole('ingress', ns);
    await Promise.all(
      unread()
        .slice(0, 12)
        .map((i) => this.readOrDescribe(i)),
    );
    if (!this.model.list('service', ns).some(inNs)) await this.listKind('service', ns);
    const portless = this.model
      .list('service', ns)
      .filter((s) => inNs(s) && s.fields['ports'] === undefined);
    await Promise.all(portless.slice(0, 12).map((s) => this.readOrDescribe(s)));
  }

  /**
   * Questions about the cluster's layout and what runs unmanaged or degraded (scope.ts
   * fleetQuestion): the nodes' labels, each pod's owner, each Ingress's TLS section, each
   * Deployment's conditions and its unready pods' times. Listings show none of these: a listing of
   * whole objects where a tool offers one, else each object read whole or described.
   */
  private async gatherForFleetQuestion(): Promise<void> {
    const q = this.scope.question;
    if (
      q?.type !== 'node_topology' &&
      q?.type !== 'bare_pods' &&
      q?.type !== 'ingress_tls' &&
      q?.type !== 'under_replicated' &&
      q?.type !== 'pods_per_node'
    )
      return;
    const room = Math.max(4, Math.min(24, this.budget - 4));
    if (q.type === 'pods_per_node') {
      // every node (those running nothing too) and the pods with the node each is bound to; a
      // listing that shows no node: the pods read whole, else each node described (its
      // "Non-terminated Pods")
      const ns =
        q.namespace ??
        questionNamespace({ near: q.near }, this.model, { ...this.scope, namespaces: [] });
      if (!this.model.list('node').length) await this.listKind('node', undefined);
      await this.listKind('pod', ns);
      const pods = this.model.list('pod', ns).filter((p) => !ns || p.namespace === ns);
      if (pods.some((p) => p.node)) return;
      await this.listWhole('pod', ns);
      if (this.model.list('pod', ns).some((p) => p.node)) return;
      // a listing of names only: the pods read whole (each names its node), as the budget allows
      const unplaced = this.model
        .list('pod', ns)
        .filter((p) => (!ns || p.namespace === ns) && !p.node && p.status === undefined);
      if (unplaced.length) {
        await Promise.all(
          unplaced.slice(0, Math.max(0, this.budget - 2)).map((p) => this.readWhole(p)),
        );
        if (this.model.list('pod', ns).some((p) => p.node)) return;
      }
      await Promise.all(
        this.model
          .list('node')
          .filter((n) => n.fields['pods'] === undefined)
          .slice(0, room)
          .map((n) => this.describe(n)),
      );
      return;
    }
    if (q.type === 'node_topology') {
      const unread = () =>
        this.model
          .list('node')
          .filter((n) => !Object.keys(n.labels).length && !n.fields['providerID']);
      if (!this.model.list('node').length || unread().length > 1)
        await this.listWhole('node', undefined);
      await Promise.all(
        unread()
          .slice(0, room)
          .map((n) => this.describe(n)),
      );
      return;
    }
    const ns = questionNamespace(q, this.model, this.scope);
    const inNs = (o: ObjectView) => !ns || o.namespace === ns;
    const kind = q.type === 'bare_pods' ? 'pod' : q.type === 'ingress_tls' ? 'ingress' : q.kind;
    if (!this.model.list(kind, ns).some(inNs)) await this.listKind(kind, ns);
    if (q.type === 'bare_pods') {
      const unread = () =>
        this.model
          .list('pod', ns)
          .filter((p) => inNs(p) && !p.owner && p.fields['ownedBy'] === undefined);
      if (unread().length > 1) await this.listWhole('pod', ns);
      // pods no controller label marks first: the likeliest to have no owner
      const marked = (p: ObjectView) =>
        [
          'pod-template-hash',
          'controller-revision-hash',
          'job-name',
          'batch.kubernetes.io/job-name',
        ].some((k) => p.labels[k] !== undefined);
      const pods = unread().sort((a, b) => Number(marked(a)) - Number(marked(b)));
      await Promise.all(pods.slice(0, room).map((p) => this.describe(p)));
      return;
    }
    if (q.type === 'ingress_tls') {
      const unread = () =>
        this.model.list('ingress', ns).filter((i) => inNs(i) && i.fields['tls'] === undefined);
      if (unread().length > 1) await this.listWhole('ingress', ns);
      await Promise.all([
        ...unread()
          .slice(0, Math.min(room, 12))
          .map((i) => this.readOrDescribe(i)),
        // whether each Secret named exists (names only)
        this.model.list('secret', ns).some(inNs)
          ? Promise.resolve(false)
          : this.listKind('secret', ns),
      ]);
      return;
    }
    // fewer ready than desired: each such workload's conditions with their times (read whole),
    // and when those do not say, its unready pods' own Ready condition
    const below = () =>
      this.model.list(q.kind, ns).filter((o) => {
        if (!inNs(o) || o.kind !== q.kind) return false;
        const { desired, ready } = replicaCounts(o);
        return desired === undefined || ready === undefined || ready < desired;
      });
    const untimed = () => below().filter((o) => !o.conditions.some((c) => c.at !== undefined));
    if (untimed().length > 2) await this.listWhole(q.kind, ns);
    await Promise.all(
      untimed()
        .slice(0, Math.min(room, 12))
        .map(async (o) => {
          if (!(await this.readWhole(o))) await this.describe(o);
        }),
    );
    const pods = below()
      .filter(
        (o) =>
          !o.conditions.some(
            (c) =>
              (c.type === 'Available' || c.type === 'Progressing') &&
              c.status === 'False' &&
              c.at !== undefined,
          ),
      )
      .flatMap((o) =>
        podsOfWorkload(this.model, o)
          .filter(
            (p) =>
              unreadyPod(p) && !p.conditions.some((c) => c.type === 'Ready' && c.at !== undefined),
          )
          .slice(0, 3),
      );
    await Promise.all(pods.slice(0, Math.min(room, 8)).map((p) => this.readWhole(p)));
    if (!q.why) return;
    // why each member is missing: the scheduler's events, each unready pod's container states,
    // and what a container that crashed (not killed for memory) said before it restarted
    await this.eventsOf(ns);
    const unreadyPods = below().flatMap((o) =>
      podsOfWorkload(this.model, o).filter(unreadyPod).slice(0, 4),
    );
    await Promise.all(
      unreadyPods
        .filter(
          (p) =>
            !p.containers.some((c) => c.waiting || c.last || c.terminated) &&
            !p.conditions.some((c) => c.type === 'PodScheduled' && c.status === 'False'),
        )
        .slice(0, Math.min(room, 8))
        .map((p) => this.readOrDescribe(p)),
    );
    const previous = this.containerPreviousLogTools();
    const crashed = unreadyPods.flatMap((p) =>
      p.containers
        .filter(
          (c) =>
            (c.restarts ?? 0) > 0 &&
            c.last &&
            c.last.reason !== 'OOMKilled' &&
            !this.model.logs.some((l) => l.pod === p.name && l.previous),
        )
        .slice(0, 1)
        .map((c) => ({ p, c })),
    );
    await Promise.all(
      crashed.slice(0, 4).map(({ p, c }) => this.containerPreviousLog(previous, p, c.name)),
    );
  }

  /** a namespace's events, once */
  private async eventsOf(ns: string | undefined): Promise<void> {
    if (!ns || this.namespaceEvents.has(ns)) return;
    this.namespaceEvents.add(ns);
    await this.first(this.namespaceEventTools(), { namespace: ns }, { namespace: ns });
  }

  /**
   * Questions about a namespace's scheduled work and what its pods reserve (scope.ts
   * cronjob_success, requests_total): each CronJob read whole (its last successful time and
   * spec.suspend) with its Jobs, the failed ones' conditions and what their last pod logged; the
   * pods' containers (their requests), one pod of each template read when a listing shows none.
   */
  private async gatherForWorkloadQuestion(): Promise<void> {
    const q = this.scope.question;
    if (q?.type !== 'cronjob_success' && q?.type !== 'requests_total') return;
    const { model } = this;
    const ns = questionNamespace(q, model, this.scope);
    const inNs = (o: ObjectView) => !ns || o.namespace === ns;
    const listed = (kind: string) => model.list(kind, ns).some(inNs);
    const room = (n: number) => Math.max(2, Math.min(n, this.budget - 4));
    if (q.type === 'requests_total') {
      await Promise.all([
        listed('pod') ? Promise.resolve(false) : this.listKind('pod', ns),
        listed('resourcequota') ? Promise.resolve(false) : this.listKind('resourcequota', ns),
      ]);
      const unread = () =>
        model.list('pod', ns).filter((p) => inNs(p) && !hasFinished(p) && !p.containers.length);
      if (unread().length > 2) await this.listWhole('pod', ns);
      // one pod of each template: its replicas share the containers
      const seen = new Set(
        model
          .list('pod', ns)
          .filter((p) => inNs(p) && p.containers.length)
          .map((p) => templateKey(model, p)),
      );
      const firsts = unread().filter((p) => {
        const k = templateKey(model, p);
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      });
      await Promise.all(firsts.slice(0, room(16)).map((p) => this.describe(p)));
      return;
    }
    await Promise.all([
      listed('cronjob') ? Promise.resolve(false) : this.listKind('cronjob', ns),
      listed('job') ? Promise.resolve(false) : this.listKind('job', ns),
      listed('pod') ? Promise.resolve(false) : this.listKind('pod', ns),
      this.eventsOf(ns),
    ]);
    // the last successful time and spec.suspend: a listing shows neither exactly
    const unread = () =>
      model
        .list('cronjob', ns)
        .filter(
          (c) =>
            inNs(c) &&
            c.fields['lastSuccessfulTime'] === undefined &&
            c.fields['suspend'] === undefined,
        );
    if (!(unread().length > 2 && (await this.listWhole('cronjob', ns))))
      await Promise.all(
        unread()
          .slice(0, room(12))
          .map((c) => this.readOrDescribe(c)),
      );
    // the CronJobs without a success in the window: how their newest Jobs ended
    const jobs = model.list('job', ns).filter(inNs);
    const mine = (c: ObjectView) =>
      jobs
        .filter((j) => j.owner?.name === c.name || model.workloadOf(j).name === c.name)
        .sort((a, b) => (b.created ?? 0) - (a.created ?? 0));
    const lagging = model.list('cronjob', ns).filter((c) => {
      if (!inNs(c)) return false;
      const t = Date.parse(c.fields['lastSuccessfulTime'] ?? '');
      return !Number.isFinite(t) || q.since === undefined || t < q.since;
    });
    const open = lagging
      .flatMap((c) => mine(c).slice(0, 2))
      .filter(
        (j) =>
          !j.conditions.length &&
          !j.fields['completionTime'] &&
          j.fields['status.failed'] === undefined,
      );
    await Promise.all(open.slice(0, room(8)).map((j) => this.readOrDescribe(j)));
    // a failed run's last pod: what it logged
    const failed = lagging
      .map((c) => mine(c).find((j) => jobRun(model, j).failed))
      .filter((j): j is ObjectView => !!j);
    const lastPods = failed
      .map((j) => newestFirst(model.podsOf('job', j.name, j.namespace))[0])
      .filter((p): p is ObjectView => !!p && !model.logs.some((l) => l.pod === p.name));
    const logs = this.podLogTools();
    await Promise.all(
      lastPods
        .slice(0, room(4))
        .map((p) =>
          this.first(
            logs,
            { kind: 'pod', name: p.name, namespace: p.namespace },
            { kind: 'pod', namespace: p.namespace, pod: p.name, previous: false },
          ),
        ),
    );
  }

  /**
   * "which pods on node X mount a PersistentVolumeClaim?": the node, the pods bound to it (of
   * every namespace) and each one's volumes; a listing that shows no node: the pods read whole;
   * a pod whose volumes the listing did not show: described, as the budget allows.
   */
  private async gatherForNodeClaimsQuestion(): Promise<void> {
    const q = this.scope.question;
    if (q?.type !== 'node_claims') return;
    if (!nodeNamed(this.model, q.node)) await this.listKind('node', undefined);
    const node = nodeNamed(this.model, q.node);
    if (!node) return;
    if (!this.model.list('pod').length) await this.listKind('pod', undefined);
    if (!this.model.list('pod').some((p) => p.node)) await this.listWhole('pod', undefined);
    // a listing of names only: the pods read whole (each names its node), as the budget allows
    const unplaced = this.model.list('pod').filter((p) => !p.node && p.status === undefined);
    if (!this.model.list('pod').some((p) => p.node) && unplaced.length)
      await Promise.all(
        unplaced.slice(0, Math.max(0, Math.min(24, this.budget - 2))).map((p) => this.readWhole(p)),
      );
    if (!this.model.podsOn(node).length) await this.describe(node);
    const unread = this.model
      .podsOn(node)
      .filter((p) => !p.containers.length && p.fields['claims'] === undefined);
    await Promise.all(
      unread.slice(0, Math.max(4, Math.min(16, this.budget - 2))).map((p) => this.describe(p)),
    );
  }

  /** a kind listed as whole objects (YAML), where a listing tool offers that format */
  /**
   * A question's objects of one kind (in `ns`, or in every namespace): listed when none is known
   * yet, then those whose listing left out what the answer needs (`unshown`) read whole or
   * described (`read`), as many as the budget allows (4 to 16).
   */
  private async readForQuestion(
    kind: string,
    ns: string | undefined,
    unshown: (o: ObjectView) => boolean,
    read: (o: ObjectView) => Promise<unknown> = (o) => this.readOrDescribe(o),
  ): Promise<void> {
    const mine = () => this.model.list(kind, ns).filter((o) => !ns || o.namespace === ns);
    if (!mine().length) await this.listKind(kind, ns);
    await Promise.all(
      mine()
        .filter(unshown)
        .slice(0, Math.max(4, Math.min(16, this.budget - 4)))
        .map(read),
    );
  }

  private listWhole(kind: string, ns: string | undefined): Promise<boolean> {
    return this.first(
      this.listers(kind).filter((p) => {
        const en = p.params.output
          ? p.tool.parameters.properties?.[p.params.output]?.enum
          : undefined;
        return Array.isArray(en) && (en.includes('yaml') || en.includes('json'));
      }),
      { kind, namespace: ns, all: !ns, whole: true },
      { kind, namespace: ns },
    );
  }

  /**
   * Questions about what happened lately (scope.ts activityQuestion): the Jobs that failed with
   * their conditions and their last pods' logs, the pods that cannot pull with the registry's
   * answer (their events), the restarted pods' containers with their last state, the
   * ReplicaSets (revisions) of the window. What listings do not show is read whole or described.
   */
  private async gatherForActivityQuestion(): Promise<void> {
    const q = this.scope.question;
    if (
      q?.type !== 'failed_jobs' &&
      q?.type !== 'image_pull' &&
      q?.type !== 'restarts' &&
      q?.type !== 'rollouts'
    )
      return;
    const { model } = this;
    const ns =
      q.type === 'image_pull' && q.all ? undefined : questionNamespace(q, model, this.scope);
    const inNs = (o: ObjectView) => !ns || o.namespace === ns;
    const listed = (kind: string) => model.list(kind, ns).some(inNs);
    // events say when a Job failed, why a pull failed, which probe killed a container
    const events = async (namespaces: (string | undefined)[]) => {
      const wanted = [...new Set(namespaces)]
        .filter((n): n is string => !!n && !this.namespaceEvents.has(n))
        .slice(0, 4);
      for (const n of wanted) this.namespaceEvents.add(n);
      await Promise.all(
        wanted.map((n) =>
          this.first(this.namespaceEventTools(), { namespace: n }, { namespace: n }),
        ),
      );
    };
    const room = (n: number) => Math.max(2, Math.min(n, this.budget - 4));
    if (q.type === 'image_pull') {
      if (!listed('pod')) await this.listKind('pod', ns);
      const pulling = model
        .list('pod', ns)
        .filter(
          (p) =>
            inNs(p) &&
            (PULL_FAILING.test(p.status ?? '') ||
              p.containers.some((c) => PULL_FAILING.test(c.waiting?.reason ?? ''))),
        );
      await events(pulling.map((p) => p.namespace));
      await Promise.all(pulling.slice(0, room(10)).map((p) => this.describe(p)));
      // a listing of names only (no status): every pod read whole, as the budget allows
      const pods = model.list('pod', ns).filter(inNs);
      if (pods.length && pods.every(barePod))
        await Promise.all(pods.slice(0, room(24)).map((p) => this.readOrDescribe(p)));
      return;
    }
    if (q.type === 'restarts') {
      if (!listed('pod')) await this.listKind('pod', ns);
      await events([ns]);
      const restarted = model
        .list('pod', ns)
        .filter(
          (p) =>
            inNs(p) &&
            (p.restarts ?? 0) > 0 &&
            !p.containers.some((c) => (c.restarts ?? 0) > 0 && c.last),
        )
        .sort((a, b) => (b.restarts ?? 0) - (a.restarts ?? 0));
      await Promise.all(restarted.slice(0, room(12)).map((p) => this.describe(p)));
      // what a container that crashed (not killed for memory) said last, before it restarted
      const previous = this.containerPreviousLogTools();
      const crashed = model
        .list('pod', ns)
        .filter(inNs)
        .flatMap((p) =>
          p.containers
            .filter((c) => (c.restarts ?? 0) > 0 && c.last && c.last.reason !== 'OOMKilled')
            .map((c) => ({ p, c })),
        )
        .filter(
          ({ p, c }) =>
            !model.logs.some((l) => l.pod === p.name && l.previous && l.container === c.name),
        );
      await Promise.all(
        crashed.slice(0, room(4)).map(({ p, c }) => this.containerPreviousLog(previous, p, c.name)),
      );
      return;
    }
    if (q.type === 'failed_jobs') {
      await Promise.all([
        listed('job') ? Promise.resolve(false) : this.listKind('job', ns),
        listed('pod') ? Promise.resolve(false) : this.listKind('pod', ns),
        events([ns]),
      ]);
      const day = 86_400_000;
      const recent = (o: ObjectView) =>
        q.since === undefined || o.created === undefined || o.created >= q.since - day;
      // the Jobs that may have failed: their conditions (reason, time) read whole or described
      const open = model
        .list('job', ns)
        .filter(
          (j) =>
            inNs(j) &&
            recent(j) &&
            !j.conditions.length &&
            !/^Complete/i.test(j.status ?? '') &&
            !j.fields['completionTime'],
        )
        .sort((a, b) => (b.created ?? 0) - (a.created ?? 0));
      // ... and those that completed, whether after a retry (how many pods failed)
      const done = model
        .list('job', ns)
        .filter(
          (j) =>
            inNs(j) &&
            recent(j) &&
            !open.includes(j) &&
            j.fields['status.failed'] === undefined &&
            !j.conditions.length,
        );
      await Promise.all([...open, ...done].slice(0, room(10)).map((j) => this.readOrDescribe(j)));
      // a Job that ran out of retries: how its last pod ended and what it logged
      const failed = model
        .list('job', ns)
        .filter(inNs)
        .map((j) => jobRun(model, j))
        .filter(
          (r) =>
            r.failed &&
            r.reason !== 'DeadlineExceeded' &&
            (q.since === undefined || r.at === undefined || r.at >= q.since),
        )
        .slice(0, 4);
      // which attempt was the last: a listing's ages are coarse, each pod's end says
      const attempts = failed.map((r) => model.podsOf('job', r.job.name, r.job.namespace));
      await Promise.all(
        attempts
          .flatMap((pods) => newestFirst(pods).slice(0, 4))
          .filter((p) => !p.containers.some((c) => c.terminated))
          .slice(0, room(8))
          .map((p) => this.describe(p)),
      );
      const lastPods = attempts.flatMap((pods) => newestFirst(pods).slice(0, 1));
      const logs = this.podLogTools();
      await Promise.all(
        lastPods.flatMap((p) => [
          ...(model.logs.some((l) => l.pod === p.name)
            ? []
            : [
                this.first(
                  logs,
                  { kind: 'pod', name: p.name, namespace: p.namespace },
                  { kind: 'pod', namespace: p.namespace, pod: p.name, previous: false },
                ),
              ]),
        ]),
      );
      return;
    }
    // rollouts: the Deployments' ReplicaSets (when each was created) and, for those of the
    // window and the one before each, their revision and pod template
    await Promise.all([
      listed('deployment') ? Promise.resolve(false) : this.listKind('deployment', ns),
      listed('replicaset') ? Promise.resolve(false) : this.listKind('replicaset', ns),
      events([ns]),
    ]);
    const rss = model.list('replicaset', ns).filter(inNs);
    const wanted: ObjectView[] = [];
    for (const d of model.list('deployment', ns).filter(inNs)) {
      const own = rss
        .filter((r) => (r.owner ? r.owner.name === d.name : ownHash(d.name).test(r.name)))
        .sort((a, b) => (b.created ?? 0) - (a.created ?? 0));
      const fresh = own.filter((r) => r.created !== undefined && r.created >= q.since);
      if (!fresh.length) continue;
      const prev = own.find((r) => !fresh.includes(r));
      wanted.push(...fresh, ...(prev ? [prev] : []));
    }
    await Promise.all(
      wanted
        .filter((r) => r.fields['revision'] === undefined || !r.containers.length)
        .slice(0, room(10))
        .map((r) => this.readOrDescribe(r)),
    );
    // new pods on an old ReplicaSet: the autoscaler that scaled it
    if (
      (model.events.some(
        (e) => e.reason === 'ScalingReplicaSet' && (e.last ?? e.first ?? 0) >= q.since,
      ) ||
        model
          .list('pod', ns)
          .some((p) => inNs(p) && p.created !== undefined && p.created >= q.since)) &&
      !listed('horizontalpodautoscaler')
    )
      await this.listKind('horizontalpodautoscaler', ns);
  }

  /**
   * Questions read off one kind's fields (scope.ts scalingOrAliasQuestion): each
   * HorizontalPodAutoscaler's current and maximum replicas, each Service's type and external
   * name. A listing that does not show them: each object read whole, else described.
   */
  private async gatherForLimitsQuestion(): Promise<void> {
    const q = this.scope.question;
    if (q?.type !== 'hpas_at_max' && q?.type !== 'external_names') return;
    const ns = questionNamespace(q, this.model, this.scope);
    const kind = q.type === 'hpas_at_max' ? 'horizontalpodautoscaler' : 'service';
    const inNs = (o: ObjectView) => o.kind === kind && (!ns || o.namespace === ns);
    if (!this.model.list(kind, ns).some(inNs)) await this.listKind(kind, ns);
    const unread = (o: ObjectView) =>
      q.type === 'hpas_at_max'
        ? o.fields['status.currentReplicas'] === undefined || o.fields['maxReplicas'] === undefined
        : o.fields['type'] === undefined ||
          (o.fields['type'] === 'ExternalName' && !o.fields['externalName']);
    const room = Math.max(4, Math.min(16, this.budget - 4));
    await Promise.all(
      this.model
        .list(kind, ns)
        .filter((o) => inNs(o) && unread(o))
        .slice(0, room)
        .map((o) => this.readOrDescribe(o)),
    );
  }

  /**
   * No namespace and no subject known, and every pod listed by name only (nothing says which one
   * fails): the events of the namespaces that run pods (system ones aside, the most pods first),
   * then the pods their warnings name read whole (none when no warning names one).
   */
  private async readUnscopedNamedOnlyPods(): Promise<void> {
    const { model } = this;
    const pods = model.list('pod').filter((p) => p.namespace && !/^kube-/.test(p.namespace));
    if (!pods.length || !model.list('pod').every(barePod)) return;
    const count = new Map<string, number>();
    for (const p of pods) count.set(p.namespace!, (count.get(p.namespace!) ?? 0) + 1);
    const nss = [...count.keys()]
      .filter((ns) => !this.namespaceEvents.has(ns))
      .sort((a, b) => count.get(b)! - count.get(a)! || a.localeCompare(b))
      .slice(0, 4);
    for (const ns of nss) this.namespaceEvents.add(ns);
    await Promise.all(
      nss.map((ns) => this.first(this.namespaceEventTools(), { namespace: ns }, { namespace: ns })),
    );
    const warned = new Set(
      model.events
        .filter((e) => e.type === 'Warning' && (!e.object?.kind || /^pod$/i.test(e.object.kind)))
        .map((e) => `${e.namespace ?? ''}/${e.object?.name ?? ''}`),
    );
    // no warning names a pod: nothing says which to read (reading them all can turn a resolved
    // alert's old log lines into a finding)
    await Promise.all(
      pods
        .filter((p) => warned.has(`${p.namespace}/${p.name}`))
        .slice(0, Math.max(0, Math.min(6, this.budget - 20)))
        .map((p) => this.readOrDescribe(p)),
    );
  }

  /**
   * "which pods are Running / on node X?" over a pod listing that shows names only (no phase, no
   * node): the pods read whole, as the budget allows, those of the question's namespace (else the
   * subjects') first. A listing that shows either already answers.
   */
  private async gatherForBarePodListing(): Promise<void> {
    const q = this.scope.question;
    if ((q?.type !== 'which' && q?.type !== 'count') || q.what !== 'pod') return;
    const { model, scope } = this;
    const node = model
      .list('node')
      .find((n) => scope.subjects.some((s) => model.matches(n, { ...s, kind: 'node' })));
    if (!q.status && !node) return;
    const pods = model
      .list('pod', q.namespace)
      .filter((p) => !q.namespace || p.namespace === q.namespace);
    if (!pods.length || !pods.every(barePod)) return;
    const first = (p: ObjectView) =>
      scope.namespaces.includes(p.namespace ?? '') ||
      scope.subjects.some((s) => model.matches(p, s))
        ? 0
        : 1;
    const room = Math.max(4, Math.min(24, this.budget - 4));
    await Promise.all(
      [...pods]
        .sort((a, b) => first(a) - first(b))
        .slice(0, room)
        .map(async (p) => {
          if (!(await this.readWhole(p))) await this.describe(p);
        }),
    );
  }

  /**
   * Pending pods and hostPath volumes (scope.ts pendingQuestion, securityQuestion): the pods of
   * the namespace and what a listing does not show: each Pending pod's scheduler message (its
   * events in a description, its PodScheduled condition in the object), each pod's volumes (one
   * pod of each template first: its twins share them).
   */
  private async gatherForPodQuestion(): Promise<void> {
    const q = this.scope.question;
    if (q?.type !== 'pending' && q?.type !== 'host_path') return;
    const { model } = this;
    const ns = questionNamespace(q, model, this.scope);
    const excluded = q.type === 'host_path' ? (q.excluded ?? []) : [];
    const inNs = (o: ObjectView) =>
      (!ns || o.namespace === ns) && !excluded.includes(o.namespace ?? '');
    if (!model.list('pod', ns).some(inNs)) await this.listKind('pod', ns);
    const room = Math.max(4, Math.min(24, this.budget - 4));
    if (q.type === 'pending') {
      const told = (p: ObjectView) =>
        p.conditions.some((c) => c.type === 'PodScheduled' && !!c.message) ||
        model.events.some((e) => e.object?.name === p.name && e.reason === 'FailedScheduling');
      const pods = model
        .list('pod', ns)
        .filter((p) => inNs(p) && /^(?:Pending|SchedulingGated)$/.test(p.status ?? '') && !told(p));
      await Promise.all(pods.slice(0, room).map((p) => this.describe(p)));
      return;
    }
    const unread = () =>
      model
        .list('pod', ns)
        .filter((p) => inNs(p) && p.fields['hostPaths'] === undefined && !hasCompleted(p));
    const seen = new Set<string>();
    const firsts = unread().filter((p) => {
      const k = templateKey(model, p);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    await Promise.all(firsts.slice(0, room).map((p) => this.readOrDescribe(p)));
    // each pod named with its own paths where room is left (a template's twin answers otherwise)
    const rest = unread().slice(0, Math.max(0, Math.min(12, this.budget - 6)));
    await Promise.all(rest.map((p) => this.describe(p)));
  }

  /**
   * Questions read off one kind's own state: the workloads (CronJobs' templates too) that read a
   * ConfigMap or Secret, the namespace's Certificates with their expiry, every node's kubelet
   * version, the PersistentVolumes with their phase and former claim. Listed, then each one
   * whose listing did not show the field read whole (or described).
   */
  private async gatherForStateQuestion(): Promise<void> {
    const q = this.scope.question;
    if (!q) return;
    const room = Math.max(4, Math.min(16, this.budget - 4));
    const readUnread = async (
      kind: string,
      ns: string | undefined,
      unread: (o: ObjectView) => boolean,
    ) => {
      const inNs = (o: ObjectView) =>
        o.kind === kind && (!ns || !o.namespace || o.namespace === ns);
      if (!this.model.list(kind, ns).some(inNs)) await this.listKind(kind, ns);
      await Promise.all(
        this.model
          .list(kind, ns)
          .filter((o) => inNs(o) && unread(o))
          .slice(0, room)
          .map((o) => this.readOrDescribe(o)),
      );
    };
    if (q.type === 'uses' && q.by === 'workload') {
      const ns = q.namespace ?? this.scope.namespaces[0];
      // a CronJob between runs has no pod: its template says what its next run reads
      await readUnread('cronjob', ns, (o) => !o.containers.length);
      for (const kind of ['deployment', 'statefulset', 'daemonset'])
        if (!this.model.list(kind, ns).some((o) => o.kind === kind)) await this.listKind(kind, ns);
    }
    if (q.type === 'cert_expiry')
      await readUnread(
        'certificate',
        questionNamespace(q, this.model, this.scope),
        (o) => !o.fields['notAfter'],
      );
    if (q.type === 'kubelet_versions')
      await readUnread('node', undefined, (o) => !o.fields['kubeletVersion']);
    if (q.type === 'volumes_by_phase')
      await readUnread(
        'persistentvolume',
        undefined,
        (o) => !o.status || !(o.fields['capacity'] ?? o.fields['Capacity']) || !o.fields['claim'],
      );
  }

  /**
   * r23a: a CronJob that may replace its running Jobs (below); questions of questions-r23a.ts: a claim's StorageClass and whether it allows expansion (the
   * claims, their volumes, the classes; a class a listing shows without the field read whole or
   * described), each running pod's containers (a table shows no container names).
   */
  private async gatherForR23aQuestion(): Promise<void> {
    // a CronJob whose controller deletes a Job as it creates the next (diagnose-r23a.ts): its
    // concurrencyPolicy and last successful time, when a listing did not show them
    const replacing = this.model
      .list('cronjob')
      .filter(
        (cj) =>
          cj.kind === 'cronjob' &&
          cj.fields['concurrencyPolicy'] === undefined &&
          this.model.events.some(
            (e) => e.object?.name === cj.name && /^Deleted job \S+/.test(e.message),
          ) &&
          this.model.events.some(
            (e) => e.object?.name === cj.name && /^Created job \S+/.test(e.message),
          ),
      );
    await Promise.all(replacing.slice(0, 2).map((cj) => this.readOrDescribe(cj)));
    const q = this.scope.question;
    if (q?.type !== 'claim_expansion' && q?.type !== 'pods_without_sidecar') return;
    const ns = questionNamespace(q, this.model, this.scope);
    const room = Math.max(4, Math.min(16, this.budget - 4));
    const listed = (kind: string) =>
      this.model
        .list(kind, ns)
        .some((o) => o.kind === kind && (!o.namespace || !ns || o.namespace === ns));
    if (q.type === 'pods_without_sidecar') {
      if (!listed('pod')) await this.listKind('pod', ns);
      await Promise.all(
        this.model
          .list('pod', ns)
          .filter(
            (p) =>
              p.kind === 'pod' &&
              (!ns || p.namespace === ns) &&
              !hasFinished(p) &&
              !p.containers.length,
          )
          .slice(0, room)
          .map((p) => this.readOrDescribe(p)),
      );
      return;
    }
    if (!listed('persistentvolumeclaim')) await this.listKind('persistentvolumeclaim', ns);
    if (!this.model.list('storageclass').some((o) => o.kind === 'storageclass'))
      await this.listKind('storageclass', undefined);
    await Promise.all(
      this.model
        .list('storageclass')
        .filter((o) => o.kind === 'storageclass' && o.fields['allowVolumeExpansion'] === undefined)
        .slice(0, room)
        .map((o) => this.readOrDescribe(o)),
    );
  }

  /**
   * (round24, r24b) What a failing pod is given from outside its image: the ConfigMaps a JVM that
   * cannot open its -javaagent jar loads its environment from (JAVA_TOOL_OPTIONS may be set
   * there), and for a Secret that does not exist the namespace's SecretProviderClasses (one may
   * declare it in its secretObjects: synced only when a pod mounts its CSI volume).
   */
  private async r24bReadWhatIsGivenFromOutside(): Promise<void> {
    const model = this.model;
    const reads = new Map<string, ObjectView>();
    const agentPods = model
      .list('pod')
      .filter((p) =>
        model.logs.some(
          (l) => l.pod === p.name && l.lines.some((x) => JVM_AGENT_MISSING.test(x.text)),
        ),
      );
    for (const p of agentPods.slice(0, 2))
      for (const name of p.containers.flatMap(configMapsOf))
        if (!model.get('configmap', name, p.namespace)?.fields['data'])
          reads.set(`${p.namespace ?? ''}/${name}`, named('configmap', name, p.namespace));
    await Promise.all([...reads.values()].slice(0, 3).map((o) => this.readOrDescribe(o)));
    const missing = [
      ...new Set(
        model.events
          .filter((e) => SECRET_NOT_FOUND.test(e.message) && e.namespace)
          .map((e) => e.namespace!),
      ),
    ];
    for (const ns of missing.slice(0, 1)) {
      if (!model.list('secretproviderclass', ns).some((o) => o.kind === 'secretproviderclass'))
        await this.listKind('secretproviderclass', ns);
      await Promise.all(
        model
          .list('secretproviderclass', ns)
          .filter(
            (o) => o.kind === 'secretproviderclass' && o.fields['secretObjects'] === undefined,
          )
          .slice(0, 4)
          .map((o) => this.readOrDescribe(o)),
      );
    }
    // pods that wait for database migrations nobody runs: the Jobs of their namespace (the one
    // that should migrate) and, under Argo CD, its application controller's log (when it runs
    // the migration Job as a hook, and what its sync waits for)
    const waiting = model.logs.find(
      (l) => l.namespace && l.lines.some((x) => MIGRATIONS_PENDING.test(x.text)),
    );
    if (waiting?.namespace) {
      if (!model.list('job', waiting.namespace).some((o) => o.kind === 'job'))
        await this.listKind('job', waiting.namespace);
      if (
        /\bargo/i.test(this.run.message) ||
        model.list('namespace').some((n) => n.name === 'argocd') ||
        model.list('pod').some((p) => ARGO_CONTROLLER.test(p.name))
      )
        await this.systemPodLog(ARGO_CONTROLLER, 'argocd');
    }
    // an HPA whose custom metric the adapter cannot find: the ServiceMonitors of its namespace
    // and the Prometheus objects that select them (by label)
    const unscraped = model
      .list('horizontalpodautoscaler')
      .find(
        (h) =>
          h.kind === 'horizontalpodautoscaler' &&
          h.namespace &&
          h.conditions.some(
            (c) =>
              c.type === 'ScalingActive' &&
              c.status === 'False' &&
              CUSTOM_METRIC_MISSING.test(`${c.reason ?? ''} ${c.message ?? ''}`),
          ),
      );
    if (!unscraped) return;
    const ns = unscraped.namespace!;
    if (!model.list('servicemonitor', ns).some((o) => o.kind === 'servicemonitor'))
      await this.listKind('servicemonitor', ns);
    if (!model.list('prometheus').some((o) => o.kind === 'prometheus'))
      await this.listKind('prometheus', undefined);
    await Promise.all([
      ...model
        .list('prometheus')
        .filter((o) => o.kind === 'prometheus' && o.fields['serviceMonitorSelector'] === undefined)
        .slice(0, 2)
        .map((o) => this.readOrDescribe(o)),
      ...model
        .list('servicemonitor', ns)
        .filter((o) => o.kind === 'servicemonitor' && o.fields['selector'] === undefined)
        .slice(0, 6)
        .map((o) => this.readOrDescribe(o)),
    ]);
  }

  /**
   * (round24, r24b) "which deployments are not managed by Argo CD?" (questions-r24b.ts): the
   * workloads of the kind, each read whole (a listing's row shows no annotations).
   */
  private async gatherForR24bQuestion(): Promise<void> {
    const q = this.scope.question;
    if (q?.type !== 'gitops_unmanaged') return;
    await this.readForQuestion(
      q.kind,
      questionNamespace(q, this.model, this.scope),
      (o) => o.fields['metadataRead'] !== 'true',
      (o) => this.readWhole(o),
    );
  }

  /**
   * (round24, r24a) "which workloads have no IRSA role?": the namespace's workloads read whole
   * (their serviceAccountName) and the ServiceAccounts they run as (their role-arn annotation).
   */
  private async r24aIrsaQuestion(): Promise<void> {
    const q = this.scope.question;
    if (q?.type !== 'workloads_without_irsa') return;
    const ns = questionNamespace(q, this.model, this.scope);
    const room = Math.max(4, Math.min(16, this.budget - 4));
    for (const kind of ['deployment', 'statefulset', 'serviceaccount'])
      if (!this.model.list(kind, ns).some((o) => o.kind === kind)) await this.listKind(kind, ns);
    const workloads = this.model
      .list(undefined, ns)
      .filter(
        (o) =>
          ['deployment', 'statefulset', 'daemonset'].includes(o.kind) &&
          (!ns || o.namespace === ns),
      );
    await Promise.all(
      workloads
        .filter((w) => !w.fields['serviceAccount'] && !w.containers.length)
        .slice(0, room)
        .map((w) => this.readOrDescribe(w)),
    );
    const accounts = new Set(
      workloads.map((w) => w.fields['serviceAccount'] ?? (w.containers.length ? 'default' : '')),
    );
    await Promise.all(
      [...accounts]
        .filter(Boolean)
        .map(
          (sa) =>
            this.model.get('serviceaccount', sa, ns) ?? {
              ...newObject('serviceaccount', sa, 'question'),
              namespace: ns,
            },
        )
        .filter((sa) => sa.fields['annotations'] === undefined)
        .slice(0, room)
        .map((sa) => this.readOrDescribe(sa)),
    );
  }

  /**
   * (r26c) A container OOMKilled: the kubelet records a SystemOOM event on the node when the
   * kernel ran out of memory for the whole node (not in a container's cgroup), so the node's
   * events are read. After one, the pods of every namespace (which run on that node) and their
   * memory use: who took the node's memory.
   */
  private async r26cReadBehindFailures(): Promise<void> {
    const { model } = this;
    // a crashing workload that is not a subject (a dependency): its ReplicaSets read one by one
    // when their listing shows no image, so its last rollout (the image it changed) is known
    const crashing = new Map<string, { name: string; namespace?: string }>();
    for (const p of model.list('pod'))
      if (
        p.kind === 'pod' &&
        p.containers.some(
          (c) => c.waiting?.reason === 'CrashLoopBackOff' && (c.restarts ?? 0) > 0,
        ) &&
        !this.scope.subjects.some((s) => model.matches(p, s))
      ) {
        const w = model.workloadOf(p);
        crashing.set(`${p.namespace ?? ''}/${w.name}`, { name: w.name, namespace: p.namespace });
      }
    for (const w of [...crashing.values()].slice(0, 2)) {
      const sets = model
        .list('replicaset', w.namespace)
        .filter(
          (r) =>
            r.kind === 'replicaset' &&
            r.namespace === w.namespace &&
            (r.owner?.name === w.name ||
              (r.name.startsWith(`${w.name}-`) &&
                /^[a-z0-9]{6,10}$/.test(r.name.slice(w.name.length + 1)))),
        );
      if (sets.length < 2 || sets.some((r) => r.images.length)) continue;
      await Promise.all(
        sets
          .sort((a, b) => (b.created ?? 0) - (a.created ?? 0))
          .slice(0, 2)
          .map((r) => this.readOrDescribe(r)),
      );
    }
    const nodes = [
      ...new Set(
        model
          .list('pod')
          .filter(
            (p) =>
              p.node &&
              p.containers.some((c) =>
                [c.last, c.terminated].some((s) => s?.reason === 'OOMKilled'),
              ),
          )
          .map((p) => p.node!),
      ),
    ].slice(0, 2);
    if (!nodes.length) return;
    const perObject = this.tools('events').filter(
      (p) => p.params.name || p.params.involved || p.params.pod,
    );
    for (const node of nodes) {
      if (model.events.some((e) => e.object?.name === node)) continue;
      // a node's description holds its events and the pods it runs
      const view = model.get('node', node);
      if (view && view.fields['pods'] === undefined) await this.describe(view);
      if (model.events.some((e) => e.object?.name === node)) continue;
      if (perObject.length)
        await this.first(
          perObject,
          { kind: 'node', name: node, namespace: 'default' },
          { kind: 'node', namespace: 'default' },
        );
      if (
        !model.events.some((e) => e.object?.name === node) &&
        !this.namespaceEvents.has('default')
      ) {
        this.namespaceEvents.add('default');
        await this.first(
          this.namespaceEventTools(),
          { namespace: 'default' },
          { namespace: 'default' },
        );
      }
    }
    const oomNodes = nodes.filter((n) =>
      model.events.some((e) => e.object?.name === n && e.reason === 'SystemOOM'),
    );
    if (!oomNodes.length) return;
    await this.first(this.listers('pod'), { kind: 'pod', all: true, wide: true }, { kind: 'pod' });
    await this.first(
      this.tools('top', 'pod').filter((p) => !p.kinds.includes('node')),
      { kind: 'pod', all: true },
      { kind: 'pod' },
    );
    // the other workloads' pods there, read for their memory requests and limits
    const others = oomNodes
      .flatMap((n) => {
        const view = model.get('node', n);
        return view ? model.podsOn(view) : [];
      })
      .filter(
        (p) =>
          !p.containers.some(
            (c) => Object.keys(c.limits).length || Object.keys(c.requests).length,
          ) && !this.scope.subjects.some((s) => model.matches(p, s)),
      );
    // a listing that does not name nodes: the pods of other namespaces read one by one (a
    // Deployment's before a DaemonSet's, which runs on every node; the cluster's own last)
    const unplaced = model
      .list('pod')
      .filter(
        (p) =>
          !p.node &&
          !hasFinished(p) &&
          !this.scope.namespaces.includes(p.namespace ?? '') &&
          !this.scope.subjects.some((s) => model.matches(p, s)),
      )
      .map((p) => ({
        p,
        rank:
          (/^kube-/.test(p.namespace ?? '') ? 2 : 0) +
          (/-[a-z0-9]{6,10}-[a-z0-9]{5}$/.test(p.name) ? 0 : 1),
      }))
      .sort((a, b) => a.rank - b.rank)
      .map((x) => x.p);
    await Promise.all([...others, ...unplaced].slice(0, 4).map((p) => this.readOrDescribe(p)));
  }

  /** The object read whole, else described. */
  private async readOrDescribe(o: ObjectView): Promise<void> {
    if (!(await this.readWhole(o))) await this.describe(o);
  }

  /** a kind listed in a namespace (every namespace when none) */
  private listKind(kind: string, ns: string | undefined): Promise<boolean> {
    return this.first(
      this.listers(kind),
      { kind, namespace: ns, all: !ns },
      { kind, namespace: ns },
    );
  }

  /**
   * Questions about a namespace's state (scope.ts inventoryQuestion): its ResourceQuotas, its
   * evicted pods, an environment variable in each workload, a workload's ServiceAccount and what
   * is bound to it. What listings do not show is read whole or described.
   */
  private async gatherForInventoryQuestion(): Promise<void> {
    const q = this.scope.question;
    if (q?.type === 'quota') {
      const ns = questionNamespace(q, this.model, this.scope);
      await this.listKind('resourcequota', ns);
      await Promise.all(
        this.model
          .list('resourcequota', ns)
          .filter((r) => (!ns || r.namespace === ns) && !r.fields['hard'])
          .slice(0, 4)
          .map((r) => this.readOrDescribe(r)),
      );
    }
    if (q?.type === 'evicted') {
      const ns = questionNamespace(q, this.model, this.scope);
      if (ns && !this.namespaceEvents.has(ns)) {
        this.namespaceEvents.add(ns);
        await this.first(this.namespaceEventTools(), { namespace: ns }, { namespace: ns });
      }
      // when each was evicted and why: the pod's own status (a listing shows neither)
      const evented = new Set(
        this.model.events.filter((e) => e.reason === 'Evicted').map((e) => e.object?.name),
      );
      await Promise.all(
        this.model
          .list('pod', ns)
          .filter(
            (p) =>
              (!ns || p.namespace === ns) &&
              /^(Evicted|Failed|Error|ContainerStatusUnknown)$/.test(p.status ?? '') &&
              !p.message &&
              !(evented.has(p.name) && p.containers.length),
          )
          .slice(0, 12)
          .map((p) => this.describe(p)),
      );
    }
    if (q?.type === 'env') {
      const ns = questionNamespace(q, this.model, this.scope);
      const kinds = q.kind ? [q.kind] : ['deployment', 'statefulset', 'daemonset'];
      await Promise.all(
        kinds
          .filter((k) => !this.model.list(k, ns).some((o) => !ns || o.namespace === ns))
          .map((k) => this.listKind(k, ns)),
      );
      const workloads = this.model
        .list(undefined, ns)
        .filter(
          (o) =>
            kinds.includes(o.kind) &&
            (!ns || o.namespace === ns) &&
            !o.containers.some((c) => !c.init),
        );
      await Promise.all(workloads.slice(0, 12).map((o) => this.readOrDescribe(o)));
      // the ConfigMaps the variable may come from (a Secret's values are never read)
      const mapsOf = (o: ObjectView) =>
        o.containers.flatMap((c) =>
          c.envRefs
            .map(
              (r) =>
                (new RegExp(`^${q.variable} <- configmap (\\S+) key`).exec(r) ??
                  /^envFrom configmap (\S+)/.exec(r))?.[1],
            )
            .filter((m): m is string => !!m),
        );
      const inScope = this.model
        .list(undefined, ns)
        .filter((o) => kinds.includes(o.kind) && (!ns || o.namespace === ns));
      const maps = new Set(inScope.flatMap(mapsOf));
      await Promise.all(
        [...maps]
          .filter((m) => !this.model.get('configmap', m, ns)?.fields['data'])
          .slice(0, 8)
          .map((m) => this.readOrDescribe(named('configmap', m, ns))),
      );
      // a log level the tools hid (ConfigMap values off): the levels one pod of each logs at
      if (LOG_LEVEL_VARIABLE.test(q.variable)) {
        const hidden = inScope.filter(
          (o) =>
            mapsOf(o).some((m) => !this.model.get('configmap', m, ns)?.fields['data']) &&
            !o.containers.some((c) => c.env[q.variable] !== undefined),
        );
        await Promise.all(
          hidden.slice(0, 4).map((o) => {
            const pod = this.model
              .list('pod', ns)
              .find(
                (p) =>
                  p.namespace === o.namespace &&
                  this.model.workloadOf(p).name === o.name &&
                  !hasCompleted(p) &&
                  !/Failed|Evicted/.test(p.status ?? ''),
              );
            return pod && !this.model.logs.some((l) => l.pod === pod.name)
              ? this.podLogs(pod, 50)
              : Promise.resolve();
          }),
        );
      }
    }
    if (q?.type === 'service_account') {
      const subject = this.scope.subjects.find((s) => s.name === q.subject);
      const w =
        this.model
          .list()
          .find(
            (o) =>
              ['deployment', 'statefulset', 'daemonset', 'cronjob', 'job'].includes(o.kind) &&
              o.name === q.subject,
          ) ??
        (subject
          ? named(subject.kind ?? 'deployment', subject.name, subject.namespace)
          : undefined);
      const ns = w?.namespace ?? q.namespace ?? this.scope.namespaces[0];
      if (w && !w.fields['serviceAccount'] && !w.containers.length)
        await this.readOrDescribe({ ...w, namespace: ns });
      await Promise.all([
        this.listKind('rolebinding', ns),
        this.listKind('clusterrolebinding', undefined),
        this.listKind('serviceaccount', ns),
      ]);
      const bindings = [
        ...this.model.list('rolebinding', ns).filter((b) => !ns || b.namespace === ns),
        ...this.model.list('clusterrolebinding'),
      ];
      // subjects a listing did not show (kubectl shows them only with -o wide)
      await Promise.all(
        bindings
          .filter((b) => !b.fields['subjects'])
          // the namespace's own bindings first, the cluster's system ones last
          .sort((a, b) => Number(/^system:/.test(a.name)) - Number(/^system:/.test(b.name)))
          .slice(0, 16)
          .map((b) => this.readOrDescribe(b)),
      );
      // what the roles bound to it allow
      const sa = this.model.get(w?.kind ?? 'deployment', w?.name ?? '', ns)?.fields[
        'serviceAccount'
      ];
      const roles = bindings
        .filter((b) => !sa || (b.fields['subjects'] ?? '').includes(`"${sa}"`))
        .map((b) => (b.fields['roleRef'] ?? '').split('/'))
        .filter(([, n]) => n)
        .slice(0, 6);
      await Promise.all(
        roles.map(([k, n]) =>
          this.readOrDescribe(
            k === 'ClusterRole' ? named('clusterrole', n!) : named('role', n!, ns),
          ),
        ),
      );
    }
  }

  /**
   * The object whole, as `kubectl get -o yaml` prints it (a get that answers YAML or JSON first).
   * A get of one aspect of the kind (`get_pod_conditions`: words beyond the verb and the kind) is
   * a partial view: the object's description, which shows more of it, comes before it.
   */
  private async readWhole(o: ObjectView): Promise<boolean> {
    const whole = (p: ToolProfile) =>
      p.params.output ||
      /\byaml\b|\bjson\b|-o yaml|in full/i.test(`${p.tool.name} ${p.tool.description}`)
        ? 0
        : 1;
    const ps = this.tools('get', o.kind)
      .filter((p) => p.params.name || p.params.pod)
      .sort((a, b) => whole(a) - whole(b));
    const partial = (p: ToolProfile) =>
      whole(p) === 1 && p.extraWords > 0 && p.kinds.includes(o.kind);
    const t = { kind: o.kind, name: o.name, namespace: o.namespace };
    const ctx = {
      kind: o.kind,
      namespace: o.namespace,
      pod: o.kind === 'pod' ? o.name : undefined,
    };
    return (
      (await this.first(
        ps.filter((p) => !partial(p)),
        t,
        ctx,
      )) ||
      (ps.some(partial) && (await this.first(this.tools('describe', o.kind), t, ctx))) ||
      this.first(ps.filter(partial), t, ctx)
    );
  }

  /** The object's own description (describe, else get by name). */
  private describe(o: { kind: string; name: string; namespace?: string }): Promise<unknown> {
    const describeTools = [
      ...this.tools('describe', o.kind),
      ...this.tools('get', o.kind).filter((p) => p.params.name || p.params.pod || p.params.node),
    ];
    return this.first(
      describeTools,
      { kind: o.kind, name: o.name, namespace: o.namespace },
      { kind: o.kind, namespace: o.namespace, pod: o.kind === 'pod' ? o.name : undefined },
    );
  }

  /**
   * An object's events besides its description (`describing`, under way): none when the describe
   * tool for its kind prints them, as `kubectl describe` does. Until one of those tools has
   * answered, the description is awaited first (once one has, a server's other describe tools,
   * never tried, hold nothing back).
   */
  private async eventsAfter(
    describing: Promise<unknown>,
    o: { kind: string; name: string; namespace?: string },
    ctx: Omit<CallContext, 'tool' | 'verb'>,
  ): Promise<unknown> {
    const describers = this.tools('describe', o.kind).map((p) => p.tool.fullName);
    const prints = () => describers.some((t) => this.described.get(t));
    if (!describers.some((t) => this.described.has(t))) await describing;
    if (prints()) return describing;
    const perObject = this.tools('events').filter(
      (p) => p.params.name || p.params.involved || p.params.pod,
    );
    return Promise.all([
      describing,
      this.first(perObject, { kind: o.kind, name: o.name, namespace: o.namespace }, ctx),
    ]);
  }

  private async inspect(o: ObjectView): Promise<void> {
    this.inspected.add(viewKey(o));
    const ns = o.namespace;
    const ctx = { kind: o.kind, namespace: ns, pod: o.kind === 'pod' ? o.name : undefined };
    const jobs: Promise<unknown>[] = [this.describe(o)];
    // a Pending claim's describe omits what it requests: read the object itself too
    if (o.kind === 'persistentvolumeclaim')
      jobs.push(
        this.first(
          this.tools('get', o.kind).filter((p) => p.params.name),
          { kind: o.kind, name: o.name, namespace: ns },
          ctx,
        ),
      );
    const perObject = this.tools('events').filter(
      (p) => p.params.name || p.params.involved || p.params.pod,
    );
    if (perObject.length) jobs[0] = this.eventsAfter(jobs[0]!, o, ctx);
    // a server whose events tool only takes a namespace: that namespace's events, once
    else if (ns && !this.namespaceEvents.has(ns)) {
      this.namespaceEvents.add(ns);
      jobs.push(this.first(this.namespaceEventTools(), { namespace: ns }, { namespace: ns }));
    }
    if (o.kind === 'pod') {
      const logs = this.podLogReaders();
      jobs.push(
        this.first(
          logs.filter((p) => !p.previousLogs),
          { kind: 'pod', name: o.name, namespace: ns },
          { ...ctx, previous: false },
        ),
      );
      // an init container that has not completed holds the pod back (Init:0/1): its own logs
      const cur = this.model.get('pod', o.name, ns) ?? o;
      for (const c of cur.containers
        .filter((c) => c.init && c.terminated?.reason !== 'Completed')
        .slice(0, 2))
        jobs.push(
          this.first(
            logs.filter((p) => p.params.container && !p.previousLogs),
            { kind: 'pod', name: o.name, namespace: ns, container: c.name },
            { ...ctx, container: c.name, previous: false },
          ),
        );
      const prev = logs.filter((p) => p.previousLogs || p.params.previous);
      if (
        !o.status ||
        /BackOff|Error|OOM|Crash|Completed|Failed|Terminat/i.test(o.status) ||
        (o.restarts ?? 0) > 0
      ) {
        // a pod of several containers: the previous run of the one that restarted (a tool
        // without a container defaults to the first, often a healthy sidecar), else the pod's
        const main = cur.containers.filter((c) => !c.init);
        const crashed = main.filter((c) => (c.restarts ?? 0) > 0 || c.last?.reason);
        const named = main.length > 1 && crashed.length && crashed.length < main.length;
        const byContainer = prev.filter((p) => p.params.container);
        if (named && byContainer.length)
          for (const c of crashed.slice(0, 2))
            jobs.push(
              this.first(
                byContainer,
                { kind: 'pod', name: o.name, namespace: ns, previous: true, container: c.name },
                { ...ctx, previous: true, container: c.name },
              ),
            );
        else
          jobs.push(
            this.first(
              prev,
              { kind: 'pod', name: o.name, namespace: ns, previous: true },
              { ...ctx, previous: true },
            ),
          );
      }
    }
    await Promise.all(jobs);
    // the scheduler blames pod affinity: describe does not print the affinity, the manifest does
    if (o.kind === 'pod' && !this.model.get('pod', o.name, ns)?.fields['affinity']) {
      const said = [...this.model.events, ...(this.model.get('pod', o.name, ns)?.conditions ?? [])]
        .filter((e) => !('object' in e) || e.object?.name === o.name)
        .some((e) =>
          /didn'?t match pod affinity|satisfy (?:existing pods )?affinity/i.test(e.message ?? ''),
        );
      if (said)
        await this.first(
          this.tools('get', 'pod').filter((p) => p.params.name || p.params.pod),
          { kind: 'pod', name: o.name, namespace: ns },
          ctx,
        );
    }
    // once describe has named the containers: an init container that fails or waits, and a
    // sidecar that is not ready (a mesh proxy without its configuration) while the main container
    // only reports the refusals; their own logs
    if (o.kind === 'pod') {
      const cur = this.model.get('pod', o.name, ns);
      const all = cur?.containers ?? [];
      const main = all.filter((c) => !c.init);
      const sidecars = [
        ...all.filter(
          (c) =>
            c.init &&
            (c.waiting ||
              (c.terminated && c.terminated.reason !== 'Completed') ||
              (c.restarts ?? 0) > 0),
        ),
        ...main.filter((c, i) => i > 0 && c.ready === false),
        // a mesh proxy in front of a service whose callers' connections are reset: its access
        // log says whether it dropped them (NR filter_chain_not_found: plaintext under mTLS)
        ...main.filter(
          (c, i) =>
            i > 0 &&
            c.ready !== false &&
            MESH_PROXY.test(c.name) &&
            this.model.logs.some(
              (l) => l.pod !== o.name && l.lines.some((x) => CONNECTION_RESET.test(x.text)),
            ),
        ),
        // ... and in a client whose own calls fail with 502/503/504: the proxy says why it
        // failed them (fail-fast, connect timeouts to the endpoints)
        ...main.filter(
          (c, i) =>
            i > 0 &&
            MESH_PROXY.test(c.name) &&
            this.model.logs.some(
              (l) =>
                l.pod === o.name &&
                l.container !== c.name &&
                l.lines.some((x) => x.level === 'error' && /\b50[234]\b/.test(x.text)),
            ),
        ),
        // ... and in a pod whose app restarted after a failed connection: whether the proxy was
        // ready yet when the app made it (an app that starts before its sidecar)
        ...main.filter(
          (c, i) =>
            i > 0 &&
            MESH_PROXY.test(c.name) &&
            main.some((m) => m !== c && (m.restarts ?? 0) > 0) &&
            this.model.logs.some(
              (l) =>
                l.pod === o.name && l.previous && l.lines.some((x) => CONNECT_FAILED.test(x.text)),
            ),
        ),
        // a pod of two main containers, the first a proxy in front of the second (nginx before
        // php-fpm on 127.0.0.1): the second one's own log, once per workload, even when it is
        // ready (the proxy only reports that its local upstream times out)
        ...(main.length === 2 &&
        main[1]!.ready !== false &&
        this.localUpstreamFails(o.name) &&
        this.firstOfWorkload(cur!)
          ? [main[1]!]
          : []),
      ].slice(0, 2);
      const read = (c: { name: string }, previous: boolean) =>
        this.model.logs.some(
          (l) => l.pod === o.name && l.container === c.name && l.previous === previous,
        );
      const logs = this.podLogTools().filter((p) => p.params.container);
      // one that crashes writes its last words in its previous run
      const previous = this.containerPreviousLogTools();
      await Promise.all(
        sidecars.flatMap((c) => [
          ...(read(c, false)
            ? []
            : [
                this.first(
                  logs,
                  { kind: 'pod', name: o.name, namespace: ns, container: c.name },
                  { ...ctx, container: c.name, previous: false },
                ),
              ]),
          ...(((c.restarts ?? 0) > 0 || c.last) && !read(c, true)
            ? [this.containerPreviousLog(previous, o, c.name)]
            : []),
        ]),
      );
    }
    // pods of a workload that had none listed yet
    if (o.kind === 'job' || o.kind === 'deployment' || o.kind === 'statefulset') {
      const cur = this.model.get(o.kind, o.name, ns);
      const pods = this.model
        .podsOf(o.kind, o.name, ns)
        .filter((p) => isUnhealthy(p, this.now) || o.kind === 'job')
        // a Job's latest attempts first: the last pod's log says why it gave up
        .sort((a, b) => (o.kind === 'job' ? (b.created ?? 0) - (a.created ?? 0) : 0))
        .slice(0, 2);
      await Promise.all(pods.map((p) => this.inspect(p)));
      // the ReplicaSet a rollout creates carries the FailedCreate events (quota, LimitRange)
      const rs = cur?.fields['newReplicaSet'];
      if (rs && !pods.length) {
        const target = { kind: 'replicaset', name: rs, namespace: ns };
        await this.eventsAfter(this.describe(target), target, {
          kind: 'replicaset',
          namespace: ns,
        });
      }
      if (cur && o.kind === 'deployment') {
        const hist = this.tools('history');
        await this.first(
          hist,
          { kind: 'deployment', name: o.name, namespace: ns },
          { kind: 'deployment', namespace: ns },
        );
        await this.inspectRollout(o.name, ns);
      }
    }
  }

  /** The two newest ReplicaSets of a Deployment, described: what the last rollout changed. */
  private async inspectRollout(deployment: string, ns?: string): Promise<void> {
    const owned = () =>
      this.model
        .list('replicaset', ns)
        .filter((r) => r.owner?.name === deployment || r.name.startsWith(`${deployment}-`))
        .sort((a, b) => (b.created ?? 0) - (a.created ?? 0));
    if (owned().length < 2)
      await this.first(
        this.listers('replicaset'),
        { kind: 'replicaset', namespace: ns },
        { kind: 'replicaset', namespace: ns },
      );
    const rss = owned().slice(0, 2);
    if (rss.length < 2) return;
    await Promise.all(
      rss
        .filter((r) => !r.containers.some((c) => Object.keys(c.env).length || c.envRefs.length))
        .map((r) =>
          this.first(
            [
              ...this.tools('describe', 'replicaset'),
              ...this.tools('get', 'replicaset').filter((p) => p.params.name),
            ],
            { kind: 'replicaset', name: r.name, namespace: ns },
            { kind: 'replicaset', namespace: ns },
          ),
        ),
    );
  }

  /**
   * The ingress controller's logs (its error lines name the upstream and why it failed), then
   * the Ingresses of the hosts those lines name and the Services behind them.
   */
  private async inspectIngressControllers(): Promise<void> {
    const controllers = () =>
      this.model.list('pod').filter((p) => INGRESS_CONTROLLER.test(p.name) && p.namespace);
    if (!controllers().length) {
      const known = this.model.list('namespace').map((n) => n.name);
      const nss = known.length
        ? known.filter((n) => /ingress|nginx|traefik|gateway|haproxy|contour|kong/.test(n))
        : ['ingress-nginx'];
      for (const ns of [...nss.slice(0, 2), 'kube-system']) {
        if (controllers().length) break;
        await this.first(
          this.listers('pod'),
          { kind: 'pod', namespace: ns },
          { kind: 'pod', namespace: ns },
        );
      }
    }
    await Promise.all(
      controllers()
        .slice(0, 2)
        .filter((p) => !this.model.logs.some((l) => l.pod === p.name))
        .map((p) => this.podLogs(p, 500)),
    );
    // the hosts of its error lines: their Ingresses, and the Services and workloads behind them
    const hosts = new Set<string>();
    for (const l of this.model.logs.filter((x) => x.pod && INGRESS_CONTROLLER.test(x.pod)))
      for (const x of l.lines)
        if (/\[error\]/.test(x.text)) {
          const h = /\bhost: "([^"]+)"/.exec(x.text)?.[1];
          if (h) hosts.add(h);
        }
    if (!hosts.size) return;
    await this.listIngressesOnce();
    const routes = this.model
      .list('ingress')
      .filter((i) => [...hosts].some((h) => (i.fields['hosts'] ?? '').split(',').includes(h)))
      .slice(0, 2);
    await Promise.all(
      routes.filter((i) => !ingressBackends(i).length).map((i) => this.describe(i)),
    );
    const nss = [...new Set(routes.map((i) => i.namespace).filter(Boolean))] as string[];
    await Promise.all(
      nss.slice(0, 2).flatMap((ns) => [
        ...['service', 'deployment', 'replicaset', 'horizontalpodautoscaler'].map((kind) =>
          this.first(this.listers(kind), { kind, namespace: ns }, { kind, namespace: ns }),
        ),
        // what happened there: rescales, probe failures, kills ("502 on and off")
        ...(this.namespaceEvents.has(ns)
          ? []
          : [
              (this.namespaceEvents.add(ns),
              this.first(this.namespaceEventTools(), { namespace: ns }, { namespace: ns })),
            ]),
      ]),
    );
    // the autoscalers of what the routes lead to, read whole (their events: rescales)
    const backends = new Set(routes.flatMap((i) => ingressBackends(i).map((b) => b.service)));
    await Promise.all(
      this.model
        .list('horizontalpodautoscaler')
        .filter(
          (h) =>
            nss.includes(h.namespace ?? '') &&
            backends.has((h.fields['scaleTarget'] ?? '').split('/').pop() ?? ''),
        )
        .slice(0, 2)
        .map((h) => this.describe(h)),
    );
  }

  /**
   * The ConfigMaps named for Redis in the namespaces of the pods that log its maxmemory refusal
   * and of the Redis pods, read whole (their redis.conf: maxmemory, maxmemory-policy).
   */
  private async inspectRedisConfig(): Promise<void> {
    const namespaces = new Set<string>();
    for (const l of this.model.logs)
      if (l.namespace && l.lines.some((x) => REDIS_MAXMEMORY.test(x.text)))
        namespaces.add(l.namespace);
    for (const p of this.model.list('pod'))
      if (/redis/.test(p.name) && p.namespace) namespaces.add(p.namespace);
    const lists = [...namespaces].slice(0, 2);
    await Promise.all(lists.map((ns) => this.listKind('configmap', ns)));
    const maps = this.model
      .list('configmap')
      .filter(
        (m) => lists.includes(m.namespace ?? '') && /redis/i.test(m.name) && !m.fields['data'],
      )
      .slice(0, 3);
    // ... and the Redis members that do not run (a replica missing refuses writes under
    // min-replicas-to-write)
    const down = this.model
      .list('pod')
      .filter(
        (p) =>
          lists.includes(p.namespace ?? '') &&
          /redis/i.test(p.name) &&
          isUnhealthy(p, this.now) &&
          !this.inspected.has(viewKey(p)),
      )
      .slice(0, 2);
    await Promise.all([
      ...maps.map((m) => this.readOrDescribe(m)),
      ...down.map((p) => this.inspect(p)),
    ]);
  }

  /**
   * What a failure line names beyond its own pod (round20, r20logs): BullMQ's "Missing key/lock
   * for job" has the ConfigMaps named for Redis read in the namespace of the Redis its pods
   * logged (redis.conf: maxmemory-policy); Kafka's InconsistentClusterIdException has the
   * ZooKeeper members its brokers connect to read whole (where their data lives) with their logs.
   */
  private async inspectWhatFailureLinesName(): Promise<void> {
    const logging = (re: RegExp) =>
      this.model.logs.filter((l) => l.lines.some((x) => re.test(x.text)));
    const bull = logging(/Missing (?:key|lock) for job \S+/);
    if (bull.length) {
      const pods = new Set(bull.map((l) => l.pod));
      const namespaces = new Set<string>();
      for (const l of this.model.logs.filter((x) => pods.has(x.pod)))
        for (const x of l.lines) {
          const ns = /\b[a-z0-9-]*redis[a-z0-9-]*\.([a-z0-9-]+)\.svc\b/i.exec(x.text)?.[1];
          if (ns) namespaces.add(ns);
        }
      if (!namespaces.size) for (const l of bull) if (l.namespace) namespaces.add(l.namespace);
      const lists = [...namespaces].slice(0, 2);
      await Promise.all(lists.map((ns) => this.listKind('configmap', ns)));
      const maps = this.model
        .list('configmap')
        .filter(
          (m) =>
            lists.includes(m.namespace ?? '') &&
            /redis/i.test(m.name) &&
            !m.fields['data'] &&
            !this.inspected.has(viewKey(m)),
        )
        .slice(0, 2);
      await Promise.all(maps.map((m) => this.readOrDescribe(m)));
    }
    const brokers = logging(/InconsistentClusterIdException/);
    if (brokers.length) {
      const hosts = new Set<string>();
      for (const l of brokers) {
        const pod = l.pod ? this.model.get('pod', l.pod, l.namespace) : undefined;
        const connect =
          pod?.containers
            .flatMap((c) => Object.entries(c.env))
            .find(([k]) => /ZOOKEEPER_CONNECT$/i.test(k))?.[1] ??
          l.lines.map((x) => /Connecting to zookeeper on (\S+)/.exec(x.text)?.[1]).find(Boolean);
        const label = connect?.split(',')[0]?.split(/[.:/]/)[0];
        if (label) hosts.add(`${l.namespace ?? ''}/${label}`);
      }
      const members = this.model
        .list('pod')
        .filter((p) =>
          [...hosts].some((h) => {
            const [ns, label] = h.split('/');
            return (
              (!ns || p.namespace === ns) &&
              (p.name === label || p.name.startsWith(`${label}-`)) &&
              !p.fields['volumeSources'] &&
              !this.inspected.has(viewKey(p))
            );
          }),
        )
        .slice(0, 2);
      await Promise.all(members.map((p) => this.inspect(p)));
    }
  }

  /**
   * A connection limit reached: the Deployments whose pods were created in the two hours before
   * the first refusal, described (their events say "Scaled up replica set x from 4 to 16"), when
   * those events were not listed with the namespace's.
   */
  private async inspectRecentScaleUps(): Promise<void> {
    const refused = this.model.logs
      .flatMap((l) => l.lines.map((x) => ({ l, x })))
      .filter(({ x }) => x.at !== undefined && CONNECTION_LIMIT.test(x.text));
    if (!refused.length) return;
    const first = Math.min(...refused.map(({ x }) => x.at!));
    const ns = refused[0]!.l.namespace;
    if (!ns) return;
    const started = new Map<string, ObjectView>();
    for (const p of this.model.list('pod', ns)) {
      const w = this.model.workloadOf(p);
      if (w.kind !== 'deployment' || p.created === undefined) continue;
      if (p.created > first || p.created < first - 2 * 3600_000) continue;
      started.set(w.name, named('deployment', w.name, ns));
    }
    await Promise.all(
      [...started.values()]
        .filter(
          (d) =>
            !this.inspected.has(viewKey(d)) &&
            // its scaling events were not listed with the namespace's
            !this.model.events.some(
              (e) => e.reason === 'ScalingReplicaSet' && e.object?.name === d.name,
            ),
        )
        .slice(0, 2)
        .map((d) => this.describe(d)),
    );
  }

  /**
   * Crashing pods whose image healthy pods of another workload run too: the ConfigMaps each side
   * loads its environment from, read whole (at most four).
   */
  private async inspectHealthyTwins(targets: ObjectView[]): Promise<void> {
    const maps = new Map<string, ObjectView>();
    for (const pair of healthyTwins(this.model, targets, this.now))
      for (const p of [pair.failing, pair.healthy])
        for (const name of p.containers.flatMap(configMapsOf))
          maps.set(`${p.namespace ?? ''}/${name}`, named('configmap', name, p.namespace));
    await Promise.all(
      [...maps.values()]
        .filter((m) => !this.model.get('configmap', m.name, m.namespace)?.fields['data'])
        .slice(0, 4)
        .map((m) => this.readOrDescribe(m)),
    );
  }

  /**
   * The KEDA ScaledObjects of the cluster (when it serves them); those whose trigger source the
   * request names (a queue, a topic) first, else all, at most two: the events of their namespace
   * (KEDA reports a failing scaler there) and its TriggerAuthentications.
   */
  private async inspectScaledObjects(text: string): Promise<void> {
    if (!(await this.listKind('scaledobject', undefined))) return;
    const all = this.model.list('scaledobject');
    const matching = all.filter((so) =>
      (so.fields['triggers'] ?? '').match(/"source":"([^"]+)"/g)?.some((m) => {
        const source = m.slice(10, -1).toLowerCase();
        return source.length > 2 && text.includes(source);
      }),
    );
    const picked = (matching.length ? matching : all).slice(0, 2);
    await Promise.all(
      [...new Set(picked.map((so) => so.namespace).filter((n): n is string => !!n))].map(
        async (ns) => {
          if (!this.namespaceEvents.has(ns)) {
            this.namespaceEvents.add(ns);
            await this.first(this.namespaceEventTools(), { namespace: ns }, { namespace: ns });
          }
          await this.listKind('triggerauthentication', ns);
        },
      ),
    );
    // what a listing does not show: the triggers and their authentication, read whole
    await Promise.all(
      picked.filter((so) => so.fields['triggers'] === undefined).map((so) => this.readWhole(so)),
    );
    const auths = picked.flatMap((so) =>
      [...(so.fields['triggers'] ?? '').matchAll(/"auth":"([^"]+)"/g)].map((m) =>
        named('triggerauthentication', m[1]!, so.namespace),
      ),
    );
    await Promise.all(
      auths
        .filter(
          (a) =>
            this.model.get('triggerauthentication', a.name, a.namespace)?.fields['secrets'] ===
            undefined,
        )
        .slice(0, 2)
        .map((a) => this.readWhole(a)),
    );
    // per-object event tools: each picked ScaledObject's own events
    await Promise.all(
      picked
        .filter((so) => !this.model.events.some((e) => e.object?.name === so.name))
        .map((so) => this.describe(so)),
    );
  }

  /** The Jobs of a CronJob that are still running, and their pods' logs (the run that hangs). */
  private async inspectActiveRun(cron: string | undefined, ns: string | undefined): Promise<void> {
    if (!cron) return;
    await this.listKind('job', ns);
    const running = this.model
      .list('job', ns)
      .filter((j) => this.model.workloadOf(j).name === cron && !jobEnded(j))
      .slice(0, 1);
    if (!running.length) return;
    if (!running.some((j) => this.model.podsOf('job', j.name, j.namespace).length))
      await this.listKind('pod', ns);
    await Promise.all(
      running.flatMap((j) =>
        this.model
          .podsOf('job', j.name, j.namespace)
          .slice(0, 1)
          .filter((p) => !this.model.logs.some((l) => l.pod === p.name))
          .map((p) => this.podLogs(p, 100)),
      ),
    );
  }

  /**
   * (r27a) A Job the request names that failed: what happened to its pods. The Job controller
   * deletes the pods of a Job past its deadline, but their events stay (the Job's own events name
   * them: "Created pod: <name>"), and the same CronJob's run that is active now, its pod not
   * running, shows the same failure live: those pods' events (and the pod) are read.
   */
  private async r27aReadPodsOfFailedJobs(): Promise<void> {
    const model = this.model;
    const failed = model
      .list('job')
      .filter(
        (j) =>
          jobFailed(j) && this.scope.subjects.some((s) => model.matches(j, s) || s.name === j.name),
      )
      .slice(0, 2);
    const reads: ObjectView[] = [];
    const gone: ObjectView[] = [];
    for (const j of failed) {
      // its pods the Job's events name, gone from the cluster
      for (const e of model.events)
        if (e.object?.name === j.name && (!e.namespace || e.namespace === j.namespace)) {
          const pod = /Created pod: ([\w.-]+)/.exec(e.message)?.[1];
          if (pod && !model.get('pod', pod, j.namespace)) gone.push(named('pod', pod, j.namespace));
        }
      // the active run of the same CronJob, its pod not running
      const cron = model.workloadOf(j).name;
      if (cron === j.name) continue;
      const siblings = model
        .list('job', j.namespace)
        .filter(
          (x) =>
            x !== j &&
            !jobEnded(x) &&
            !jobFailed(x) &&
            !jobSucceeded(x) &&
            (model.workloadOf(x).name === cron ||
              (!x.owner && new RegExp(`^${cron.replace(/[.]/g, '\\.')}-\\d{6,}$`).test(x.name))),
        )
        .slice(0, 2);
      // a run a listing showed without its owner: read, so that it counts as the CronJob's
      await Promise.all(siblings.filter((x) => !x.owner).map((x) => this.readOrDescribe(x)));
      for (const other of siblings)
        for (const p of model
          .podsOf('job', other.name, other.namespace)
          .filter((p) => p.status !== 'Running' && !hasFinished(p)))
          reads.push(p);
    }
    // a pod gone: its events only (its describe and logs are gone with it)
    const perObject = this.tools('events').filter(
      (p) => p.params.name || p.params.involved || p.params.pod,
    );
    const jobs: Promise<unknown>[] = [];
    for (const o of gone.filter((x) => !this.inspected.has(viewKey(x))).slice(0, 2)) {
      this.inspected.add(viewKey(o));
      const ns = o.namespace;
      if (perObject.length)
        jobs.push(
          this.first(
            perObject,
            { kind: 'pod', name: o.name, namespace: ns },
            { kind: 'pod', namespace: ns, pod: o.name },
          ),
        );
      else if (ns && !this.namespaceEvents.has(ns)) {
        this.namespaceEvents.add(ns);
        jobs.push(this.first(this.namespaceEventTools(), { namespace: ns }, { namespace: ns }));
      }
    }
    for (const o of reads.filter((x) => !this.inspected.has(viewKey(x))).slice(0, 2))
      jobs.push(this.inspect(o));
    await Promise.all(jobs);
  }

  /** The claims of a namespace, each read whole (or described): their conditions and sizes. */
  private async inspectClaims(ns: string | undefined): Promise<void> {
    if (!ns) return;
    await this.listKind('persistentvolumeclaim', ns);
    const claims = this.model
      .list('persistentvolumeclaim', ns)
      .filter((c) => !this.inspected.has(viewKey(c)))
      .slice(0, 4);
    for (const c of claims) this.inspected.add(viewKey(c));
    await Promise.all(claims.map((c) => this.readOrDescribe(c)));
  }

  /**
   * Network paths the subjects' failures cross, read before the budget goes:
   * - when the request (or a log read) says names do not resolve, where the cluster DNS replicas
   *   run (the kube-system pods, each read whole where a listing did not name its node): all of
   *   them on a node that stopped answering takes DNS down for everyone;
   * - when clients time out at the gateway (504), the NetworkPolicies of the subject's namespace,
   *   each read whole, and the namespaces with their labels when a rule admits namespaces by
   *   label (a policy that names a label no namespace carries any more drops that traffic).
   */
  private async inspectNetworkPaths(text: string): Promise<void> {
    const { model } = this;
    const sys = 'kube-system';
    const cannotResolve =
      NAMES_FAIL.test(text) ||
      model.logs.some((l) => l.namespace !== sys && l.lines.some((x) => DNS_FAILURE.test(x.text)));
    if (cannotResolve) {
      const servers = () =>
        model
          .list('pod', sys)
          .filter((p) => p.namespace === sys && /^(coredns|kube-dns)-/.test(p.name));
      if (!servers().length)
        await this.first(
          this.listers('pod'),
          { kind: 'pod', namespace: sys },
          { kind: 'pod', namespace: sys },
        );
      await Promise.all(
        servers()
          .filter((p) => !p.node)
          .slice(0, 3)
          .map((p) => this.readWhole(p)),
      );
    }
    const ns = this.scope.namespaces[0];
    if (!GATEWAY_TIMEOUT.test(text) || !ns || /^kube-/.test(ns)) return;
    await this.readNetworkPolicies(ns, 'ingressRules', 5);
    // the namespaces its rules name by label: each read whole where its labels are not known (a
    // selector name=x usually means the namespace named x), the listing when none is named so
    const values = new Set<string>();
    for (const n of model.list('networkpolicy', ns))
      for (const m of (n.fields['ingressRules'] ?? '').matchAll(/"ns":"[^"=?,]+=([^",]+)/g))
        values.add(m[1]!);
    if (!values.size) return;
    if (!model.list('namespace').length)
      await this.first(this.listers('namespace'), { kind: 'namespace' }, { kind: 'namespace' });
    const getters = this.tools('get', 'namespace').filter((p) => p.params.name);
    await Promise.all(
      [...values]
        .slice(0, 2)
        .filter((v) => !Object.keys(model.get('namespace', v)?.labels ?? {}).length)
        .map((v) => this.first(getters, { kind: 'namespace', name: v }, { kind: 'namespace' })),
    );
  }

  /** coredns / kube-dns pods in kube-system: listed, and the failing ones inspected */
  private async inspectClusterDns(): Promise<void> {
    const ns = 'kube-system';
    await this.first(
      this.listers('pod'),
      { kind: 'pod', namespace: ns },
      { kind: 'pod', namespace: ns },
    );
    const dns = this.model
      .list('pod', ns)
      .filter(
        (p) => p.namespace === ns && /^(coredns|kube-dns)/.test(p.name) && isUnhealthy(p, this.now),
      )
      .slice(0, 2);
    await Promise.all(dns.map((p) => this.inspect(p)));
    // running pods that time out on names outside the cluster: what coredns logs about its
    // upstream resolvers (a `forward` to a resolver that no longer answers)
    const running = this.model
      .list('pod', ns)
      .find((p) => p.namespace === ns && /^(coredns|kube-dns)/.test(p.name));
    if (!dns.length && running) await this.podLogs(running);
    // round26 (r26b): another replica's log when that one shows no error
    if (!dns.length && running) await this.inspectR26b('dns', running);
  }

  /**
   * round27 (r27b): the component beside a healthy workload whose own status says why.
   * 1. a cert-manager Certificate that is not Ready (or a CertificateRequest whose issuer "does
   *    not have a Ready status condition"): the (Cluster)Issuer it names (its issuerRef, else the
   *    cert-manager.io/(cluster-)issuer annotation of the Ingresses of its namespace) is read,
   *    whose Ready condition says why it cannot issue;
   * 2. a store that refuses new data because it is at its shard limit ("... maximum normal shards
   *    open"): the CronJobs of the namespace of the pod that logs it are read whole (spec.suspend,
   *    the last run), the retention job that should delete old data among them.
   */
  private async r27bFollow(): Promise<void> {
    const { model } = this;
    const waiting = model.events.some(
      (e) =>
        /^certificaterequest$/i.test(e.object?.kind ?? '') &&
        /issuer does not have a Ready status condition|IssuerNotReady/i.test(
          `${e.reason ?? ''} ${e.message ?? ''}`,
        ),
    );
    const certs = model
      .list('certificate')
      .filter(
        (c) =>
          c.fields['ready'] === 'False' ||
          c.conditions.some((x) => x.type === 'Ready' && x.status === 'False'),
      );
    if (waiting || certs.length) {
      const issuers = new Map<string, ObjectView>();
      const add = (kind: string, name: string | undefined, ns: string | undefined) => {
        if (!name) return;
        const cluster = /^clusterissuer$/i.test(kind);
        const v = named(cluster ? 'clusterissuer' : 'issuer', name, cluster ? undefined : ns);
        if (!model.get(v.kind, v.name, v.namespace)?.conditions.length)
          issuers.set(`${v.kind}/${v.namespace ?? ''}/${v.name}`, v);
      };
      for (const c of certs) {
        const ref = jsonField(c, 'issuerRef');
        if (ref['name']) add(ref['kind'] ?? 'Issuer', ref['name'], c.namespace);
      }
      if (!issuers.size) {
        const namespaces = new Set(
          [
            ...certs.map((c) => c.namespace),
            ...model.events
              .filter((e) => /^certificaterequest$/i.test(e.object?.kind ?? ''))
              .map((e) => e.namespace),
          ].filter((n): n is string => !!n),
        );
        for (const ns of namespaces)
          for (const i of model.list('ingress', ns)) {
            const a = jsonField(i, 'annotations');
            add('ClusterIssuer', a['cert-manager.io/cluster-issuer'], ns);
            add('Issuer', a['cert-manager.io/issuer'], ns);
          }
      }
      await Promise.all([...issuers.values()].slice(0, 2).map((v) => this.readOrDescribe(v)));
    }
    // 3. a public host that answers 404 while its pods are ready: the ingress controller's log
    //    (an Ingress it left out of its configuration), and the Ingress such a line names
    const text = this.run.message;
    if (/\b404\b/.test(text) && [...text.matchAll(PUBLIC_HOST)].length) {
      await this.inspectIngressControllers();
      const refused = new Map<string, ObjectView>();
      for (const l of model.logs.filter((x) => x.pod && INGRESS_CONTROLLER.test(x.pod)))
        l.lines.forEach((x, i) => {
          if (!/contains risky annotation/.test(x.text)) return;
          const m = /ingress="([a-z0-9][\w.-]*)\/([\w.-]+)"/.exec(l.lines[i - 1]?.text ?? '');
          if (m && !model.get('ingress', m[2]!, m[1])?.fields['annotations'])
            refused.set(`${m[1]}/${m[2]}`, named('ingress', m[2]!, m[1]));
        });
      await Promise.all([...refused.values()].slice(0, 2).map((i) => this.readOrDescribe(i)));
    }
    const full = model.logs.filter((l) =>
      l.lines.some((x) => /maximum (?:normal |frozen )?shards open/i.test(x.text)),
    );
    for (const ns of new Set(full.map((l) => l.namespace)).values()) {
      if (!ns) continue;
      if (!model.list('cronjob', ns).length) await this.listKind('cronjob', ns);
      await Promise.all(
        model
          .list('cronjob', ns)
          .filter((c) => c.fields['suspend'] === undefined)
          .slice(0, 4)
          .map((c) => this.readOrDescribe(c)),
      );
    }
  }

  /**
   * (round24, r24a) What a careful engineer reads next about a failing dependency:
   * 1. a failing dependency's Service whose pods no listing ties to it (pods an operator owns,
   *    e.g. a database cluster, listed without labels or owners): as `kubectl get pods -l
   *    <selector>` would, the namespace's unhealthy pods not read yet are read whole (for their
   *    labels), and those the Service's selector matches are inspected (state, log);
   * 2. an Elasticsearch node that logs "master not discovered": the master-eligible nodes its line
   *    names ({name}{id}{..}{host}{ip}{ip:port}{roles with m}) are inspected, where the election
   *    failure and its reason are logged.
   */
  private async r24aFollow(targets: ObjectView[]): Promise<void> {
    const { model } = this;
    const masters = new Set<string>();
    for (const l of model.logs)
      for (const x of l.lines)
        if (/master not discovered/i.test(x.text))
          for (const m of x.text.matchAll(
            /\{([a-z0-9][\w.-]*)\}\{[\w-]+\}\{[^}]*\}\{[^}]*\}\{[\d.]+\}\{[\d.]+:\d+\}\{([a-z]+)\}/g,
          ))
            if (m[2]!.includes('m') && m[1] !== l.pod) masters.add(`${l.namespace ?? ''}/${m[1]!}`);
    const masterPods = [...masters]
      .map((k) => {
        const [ns, name] = k.split('/') as [string, string];
        return model.get('pod', name, ns || undefined);
      })
      .filter((p): p is ObjectView => !!p && !this.inspected.has(viewKey(p)))
      .slice(0, 1);
    await Promise.all(masterPods.map((p) => this.inspect(p)));
    const own = new Set(
      targets.map((t) => model.workloadOf(model.get(t.kind, t.name, t.namespace) ?? t).name),
    );
    const deps = failingDependencies(model, own, this.scope.namespaces[0]).filter(
      (d) =>
        d.service &&
        !(
          d.workload && model.podsOf(d.workload.kind, d.workload.name, d.workload.namespace).length
        ),
    );
    for (const d of deps.slice(0, 1)) {
      let svc = model.get('service', d.service!.name, d.service!.namespace) ?? d.service!;
      if (!svc.fields['selector']) {
        if (!(await this.readWhole(svc))) await this.describe(svc);
        svc = model.get('service', svc.name, svc.namespace) ?? svc;
      }
      const sel = (svc.fields['selector'] ?? '')
        .split(',')
        .map((kv) => kv.split('='))
        .filter((kv): kv is [string, string] => kv.length === 2 && !!kv[0]);
      if (!sel.length) continue;
      const matches = (p: ObjectView) => sel.every(([k, v]) => p.labels[k] === v);
      const unread = model
        .list('pod', svc.namespace)
        .filter(
          (p) =>
            !Object.keys(p.labels).length &&
            !this.inspected.has(viewKey(p)) &&
            !own.has(model.workloadOf(p).name) &&
            isUnhealthy(p, this.now),
        )
        .slice(0, 3);
      await Promise.all(unread.map((p) => this.readWhole(p)));
      const pods = model
        .list('pod', svc.namespace)
        .filter((p) => matches(p) && !this.inspected.has(viewKey(p)));
      const pick = pods.find((p) => isUnhealthy(p, this.now));
      if (pick) await this.inspect(pick);
    }
  }

  /**
   * A subject whose own pods are healthy may fail because what it calls fails ("upstream
   * error" from payments-api.payments.svc): inspect one pod of each of the (at most two)
   * dependencies its failing log lines name, so their own errors join the evidence.
   */
  private async followDependencies(targets: ObjectView[]): Promise<void> {
    const { model } = this;
    const own = new Set(
      targets.map((t) => model.workloadOf(model.get(t.kind, t.name, t.namespace) ?? t).name),
    );
    const deps = failingDependencies(model, own, this.scope.namespaces[0]).filter(
      (d) => d.workload,
    );
    const pods: ObjectView[] = [];
    // a workload a listing named only (no replica counts): read whole, for its replicas
    await Promise.all(
      deps
        .slice(0, 2)
        .map((d) => model.get(d.workload!.kind, d.workload!.name, d.workload!.namespace))
        .filter(
          (w): w is ObjectView =>
            !!w && w.fields['replicas'] === undefined && w.fields['ready'] === undefined,
        )
        .map((w) => this.readWhole(w)),
    );
    // its pods listed by name only: which of them fails is known once they are read whole
    await Promise.all(
      deps
        .slice(0, 2)
        .flatMap((d) => {
          const ps = model.podsOf(d.workload!.kind, d.workload!.name, d.workload!.namespace);
          return ps.length > 1 && ps.every(barePod) ? ps.slice(0, 4) : [];
        })
        .map((p) => this.readWhole(p)),
    );
    for (const d of deps.slice(0, 2)) {
      const w = d.workload!;
      const ps = model.podsOf(w.kind, w.name, w.namespace);
      const pick =
        ps.find((p) => isUnhealthy(p, this.now)) ??
        [...ps].sort((a, b) => (b.created ?? 0) - (a.created ?? 0))[0];
      if (pick && !targets.some((t) => t.name === pick.name)) pods.push(pick);
    }
    await Promise.all(pods.map((p) => this.inspect(p)));
  }

  /**
   * "catalog-db cpu pegged, did someone run a heavy query?": when the subjects are data stores
   * and the message speaks of load, the pods of two other workloads of the namespace are read,
   * those named like the store first (catalog-api before billing-worker).
   */
  private async inspectDataStoreClients(targets: ObjectView[], text: string): Promise<void> {
    const { model } = this;
    const stores = targets
      .map((t) => model.workloadOf(model.get(t.kind, t.name, t.namespace) ?? t))
      .filter((w) => DATA_STORE.test(w.name));
    if (!stores.length || !OVERLOAD.test(text)) return;
    const ns = targets[0]!.namespace;
    const storeNames = new Set(stores.map((w) => w.name));
    const product = (name: string) => name.split('-')[0]!;
    const near = new Set(stores.map((w) => product(w.name)));
    const clients = dedupe(
      model
        .list('pod', ns)
        .filter((p) => {
          const w = model.workloadOf(p).name;
          return (
            p.namespace === ns &&
            !storeNames.has(w) &&
            !DATA_STORE.test(w) &&
            !hasFinished(p) &&
            !this.inspected.has(viewKey(p))
          );
        })
        .sort(
          (a, b) =>
            Number(near.has(product(model.workloadOf(b).name))) -
            Number(near.has(product(model.workloadOf(a).name))),
        ),
      (p) => model.workloadOf(p).name,
    ).slice(0, 2);
    for (const p of clients) {
      const name = model.workloadOf(p).name;
      this.storeClients.set(name, { name, namespace: p.namespace, from: 'data-store-client' });
    }
    await Promise.all(clients.map((p) => this.inspect(p)));
  }

  /**
   * The namespaces the subjects' failing pods are configured to reach (`<svc>.<ns>.svc` in their
   * env) when nothing of them was listed: their pods, Services and StatefulSets, so a dependency
   * there can be followed (a shared Redis in "cache").
   */
  private async listConfiguredNamespaces(targets: ObjectView[]): Promise<void> {
    const { model } = this;
    const own = new Set(targets.map((t) => model.workloadOf(t).name));
    const failing = model.logs.filter(
      (l) => l.pod && l.lines.some((x) => x.level === 'error') && !l.previous,
    );
    const known = new Set(
      model.list().map((o) => o.namespace ?? (o.kind === 'namespace' ? o.name : '')),
    );
    const wanted = new Set<string>();
    for (const l of failing) {
      const pod = model.get('pod', l.pod!, l.namespace);
      if (!pod || !own.has(model.workloadOf(pod).name)) continue;
      for (const c of pod.containers)
        for (const v of Object.values(c.env))
          for (const m of v.matchAll(/\b[a-z0-9-]+\.([a-z0-9-]+)\.svc\b/g))
            if (!known.has(m[1]!)) wanted.add(m[1]!);
    }
    // ... and the namespaces of the Services their failing lines name by a cluster IP no listed
    // Service or pod has (connect ECONNREFUSED 172.20.88.17:9200)
    const ips = new Set<string>();
    for (const l of failing) {
      const pod = model.get('pod', l.pod!, l.namespace);
      if (!pod || !own.has(model.workloadOf(pod).name)) continue;
      for (const x of l.lines.filter((y) => y.level === 'error').slice(-50))
        for (const m of x.text.matchAll(IP_PORT)) ips.add(m[1]!);
    }
    const unknownIp = (ip: string) =>
      !model
        .list()
        .some(
          (o) =>
            (o.kind === 'service' && o.fields['clusterIP'] === ip) ||
            (o.kind === 'pod' && o.fields['podIP'] === ip),
        );
    if ([...ips].some(unknownIp)) {
      await this.first(
        this.listers('service'),
        { kind: 'service', all: true, wide: true },
        { kind: 'service' },
      );
      for (const svc of model.list('service'))
        if (
          svc.namespace &&
          ips.has(svc.fields['clusterIP'] ?? '') &&
          !model.list('pod', svc.namespace).some((p) => p.namespace === svc.namespace)
        )
          wanted.add(svc.namespace);
    }
    for (const ns of [...wanted].slice(0, 2))
      await Promise.all(['pod', 'service', 'statefulset'].map((kind) => this.listKind(kind, ns)));
  }

  /**
   * The controllers that make Secrets, when a pod waits for a Secret that does not exist: the
   * External Secrets controller, the sealed-secrets controller and cert-manager's, read in their
   * usual namespaces.
   */
  private async inspectSecretOperator(): Promise<void> {
    const { model } = this;
    const missing = [
      ...model.events.map((e) => e.message),
      ...model.list('pod').flatMap((p) => p.containers.map((c) => c.waiting?.message ?? '')),
    ].some((m) => /secrets? "[^"]+" not found/.test(m));
    if (!missing) return;
    await this.systemPodLog(
      /^external-secrets-(?!webhook|cert-controller)[a-z0-9]+-[a-z0-9]+$/,
      'external-secrets',
    );
    await this.systemPodLog(/^sealed-secrets(?:-controller)?-[a-z0-9]+-[a-z0-9]+$/, 'kube-system');
    await this.systemPodLog(CERT_MANAGER_POD, 'cert-manager');
  }

  /**
   * A change (a merge, a sync, a deploy) that did not take effect: what should have applied it
   * says why. The GitOps controllers' namespaces (Flux, Argo CD) have their events read (a
   * Kustomization's or an Application's failed apply is an event there) and the controllers that
   * apply have their logs read; a controller that cannot write to the API because etcd is out of
   * space leads to etcd's own log; and the failed Jobs of any namespace named for a subject (a CI
   * deploy Job) have their last pod's log read.
   */
  private async inspectDelivery(): Promise<void> {
    const { model } = this;
    // the namespaces known (listed, or holding something seen), else listed now
    const known = () =>
      dedupe(
        [
          ...model.list('namespace').map((n) => n.name),
          ...model.list().flatMap((o) => (o.namespace ? [o.namespace] : [])),
        ],
        (n) => n,
      ).filter((n) => GITOPS_NAMESPACE.test(n));
    if (
      !model.list('namespace').length &&
      !known().length &&
      !(await this.first(this.tools('namespaces'), {}, {}))
    )
      await this.first(
        this.listers('namespace').filter(
          (p) => !p.required.some((r) => r !== p.params.kind && r !== p.params.apiVersion),
        ),
        { kind: 'namespace' },
        { kind: 'namespace' },
      );
    const nss = known().slice(0, 2);
    await Promise.all(
      nss.map(async (ns) => {
        const reads: Promise<unknown>[] = [];
        if (!this.namespaceEvents.has(ns)) {
          this.namespaceEvents.add(ns);
          reads.push(this.first(this.namespaceEventTools(), { namespace: ns }, { namespace: ns }));
        }
        if (!model.list('pod').some((p) => p.namespace === ns))
          reads.push(this.listKind('pod', ns));
        await Promise.all(reads);
        await Promise.all(
          model
            .list('pod')
            .filter((p) => p.namespace === ns && GITOPS_APPLIER.test(p.name))
            .filter((p) => !model.logs.some((l) => l.pod === p.name))
            .slice(0, 2)
            .map((p) => this.podLogs(p, 300)),
        );
      }),
    );
    // writes refused because etcd is out of space: etcd's own log says how full it is
    if (model.logs.some((l) => l.lines.some((x) => ETCD_SPACE_EXCEEDED.test(x.text))))
      await this.systemPodLog(/^etcd-/, 'kube-system');
    // a deploy Job named for a subject, in any namespace (a CI namespace), that failed
    await this.listKind('job', undefined);
    const jobs = model
      .list('job')
      .filter(
        (j) =>
          this.scope.subjects.some((s) => namesToken(j.name, s.name)) &&
          !this.scope.subjects.some((s) => model.matches(j, s) && j.name === s.name) &&
          jobRun(model, j).failed,
      )
      .sort((a, b) => (b.created ?? 0) - (a.created ?? 0))
      .slice(0, 2);
    for (const j of jobs)
      if (!model.podsOf('job', j.name, j.namespace).length) await this.listKind('pod', j.namespace);
    await Promise.all(
      jobs.flatMap((j) =>
        newestFirst(model.podsOf('job', j.name, j.namespace))
          .slice(0, 1)
          .filter((p) => !model.logs.some((l) => l.pod === p.name))
          .map((p) => this.podLogs(p, 200)),
      ),
    );
  }

  /** The API server's own log (a self-hosted control plane) when a node stopped posting status. */
  private async inspectApiServerForSilentNodes(): Promise<void> {
    const silent = this.model
      .list('node')
      .some((n) =>
        n.conditions.some(
          (c) =>
            c.type === 'Ready' &&
            c.status === 'Unknown' &&
            /stopped posting/i.test(c.message ?? ''),
        ),
      );
    if (silent) await this.systemPodLog(/^kube-apiserver-/, 'kube-system');
  }

  /**
   * Connections or lookups that time out from the subjects' pods: the node network agents
   * (kube-proxy, the CNI's pods) that are not healthy, described with their logs: one down on a
   * node cuts the Service routing or the network of every pod there.
   */
  private async inspectNodeAgents(targets: ObjectView[]): Promise<void> {
    const { model } = this;
    if (!this.subjectPodsLogging(targets, NETWORK_TIMEOUT).length) return;
    // a listing of the request's namespace only: the node agents live in kube-system
    if (!model.list('pod').some((p) => NODE_AGENT.test(p.name)))
      await this.first(
        this.listers('pod'),
        { kind: 'pod', namespace: 'kube-system' },
        { kind: 'pod', namespace: 'kube-system' },
      );
    const agents = model
      .list('pod')
      .filter((p) => NODE_AGENT.test(p.name) && isUnhealthy(p, this.now))
      .slice(0, 2);
    await Promise.all(agents.map((p) => this.inspect(p)));
  }

  /**
   * (round23, r23b) An alert's namespace that runs nothing (a queue's namespace, while the
   * consumer it names runs elsewhere) and a workload the request names by its full name that is not
   * there: find that workload across the namespaces, and read its namespace as the subject's.
   */
  private async r23bSubjectInAnotherNamespace(): Promise<void> {
    const { scope, model } = this;
    if (!scope.namespaces.length) return;
    if (model.list('pod').some((p) => p.namespace && scope.namespaces.includes(p.namespace)))
      return;
    const named = scope.subjects.filter(
      (s) =>
        s.from !== 'message-word' && s.name.includes('-') && (!s.kind || s.kind === 'deployment'),
    );
    if (!named.length || model.list().some((o) => named.some((s) => model.matches(o, s)))) return;
    await this.first(
      this.listers('deployment'),
      { kind: 'deployment', all: true },
      { kind: 'deployment' },
    );
    const hit = model
      .list('deployment')
      .find((d) => d.namespace && named.some((s) => d.name === s.name.toLowerCase()));
    if (!hit?.namespace) return;
    const ns = hit.namespace;
    scope.namespaces.unshift(ns);
    for (const s of named) if (s.name.toLowerCase() === hit.name) s.namespace = ns;
    await Promise.all(
      ['pod', 'horizontalpodautoscaler'].map((kind) =>
        this.first(this.listers(kind), { kind, namespace: ns }, { kind, namespace: ns }),
      ),
    );
  }

  /**
   * Pods the kubelet cannot start on a node for a node-local plugin: a sandbox without an IP
   * (the CNI's agent on that node), a volume whose CSI driver is not registered there (the
   * driver's node plugin). That node's plugin pods are inspected, failing ones first.
   */
  /**
   * (round30, r30b) Pods whose sandbox cannot be created, for a reason of the node they are on:
   * 1. runc cannot load the seccomp filter into the kernel: the node is read whole (its node
   *    group and image labels, its kernel) so the answer can say what sets it apart;
   * 2. Calico's CNI plugin is refused by the API server (Unauthorized): the calico-node pod on that
   *    node is inspected, whose log says why the token of the CNI kubeconfig is not renewed.
   */
  private async r30bSandboxRefusals(): Promise<void> {
    const { model } = this;
    const nodesOf = (re: RegExp) => [
      ...new Set(
        model.events
          .filter((e) => e.object?.kind === 'pod' && re.test(e.message))
          .flatMap((e) => model.get('pod', e.object!.name, e.namespace)?.node ?? []),
      ),
    ];
    const seccomp = nodesOf(/error loading seccomp filter into kernel/);
    await Promise.all(
      seccomp
        .filter((n) => !Object.keys(model.get('node', n)?.labels ?? {}).length)
        .slice(0, 2)
        .map((n) => this.readOrDescribe(model.get('node', n) ?? named('node', n))),
    );
    const calico = nodesOf(
      /plugin type=\\?"calico\\?" failed \((?:add|delete)\)[^\n]*Unauthorized/,
    );
    if (!calico.length) return;
    const agent = /^calico-node-[a-z0-9]+$/;
    if (!calico.every((n) => model.list('pod').some((p) => p.node === n && agent.test(p.name))))
      await this.first(
        this.listers('pod'),
        { kind: 'pod', namespace: 'kube-system', wide: true },
        { kind: 'pod', namespace: 'kube-system' },
      );
    // a listing that shows no pod's node: any calico-node pod (the RBAC it lacks is cluster-wide)
    const unplaced = model.list('pod').filter((p) => !p.node && agent.test(p.name));
    const pods = [
      ...calico.flatMap((n) => podsOnNode(model.list('pod'), n, agent, this.now).slice(0, 1)),
      ...unplaced.slice(0, 1),
    ]
      .filter((p, i, all) => all.indexOf(p) === i && !this.inspected.has(viewKey(p)))
      .slice(0, 1);
    await Promise.all(pods.map((p) => this.inspect(p)));
  }

  private async inspectNodePlugins(): Promise<void> {
    const { model } = this;
    const wants = [
      { event: NO_POD_IP, plugin: NODE_AGENT },
      { event: CSI_NOT_REGISTERED, plugin: CSI_NODE_PLUGIN },
    ];
    const needs = wants.flatMap(({ event, plugin }) =>
      model.events
        .filter((e) => e.object?.kind === 'pod' && event.test(e.message))
        .flatMap((e) => model.get('pod', e.object!.name, e.namespace)?.node ?? [])
        .map((node) => ({ node, plugin })),
    );
    if (!needs.length) return;
    if (
      !needs.every(({ node, plugin }) =>
        model.list('pod').some((p) => p.node === node && plugin.test(p.name)),
      )
    )
      await this.first(
        this.listers('pod'),
        // wide: the node each pod runs on
        { kind: 'pod', namespace: 'kube-system', wide: true },
        { kind: 'pod', namespace: 'kube-system' },
      );
    const pods = needs
      .flatMap(({ node, plugin }) => podsOnNode(model.list('pod'), node, plugin, this.now))
      .filter((p, i, all) => all.indexOf(p) === i && !this.inspected.has(viewKey(p)))
      .slice(0, 2);
    await Promise.all(pods.map((p) => this.inspect(p)));
  }

  /** The pods of the subjects' workloads whose logs read so far have a line matching `re`. */
  private subjectPodsLogging(targets: ObjectView[], re: RegExp): ObjectView[] {
    const { model } = this;
    const own = new Set(targets.map((t) => model.workloadOf(t).name));
    return model.logs.flatMap((l) => {
      const pod = l.pod ? model.get('pod', l.pod, l.namespace) : undefined;
      return pod && own.has(model.workloadOf(pod).name) && l.lines.some((x) => re.test(x.text))
        ? [pod]
        : [];
    });
  }

  /**
   * Lookups that time out from the subjects' pods (the cluster DNS itself may be fine): their
   * namespace's NetworkPolicies, each read whole (listings do not show the rules).
   */
  private async inspectEgressPolicies(targets: ObjectView[]): Promise<void> {
    const namespaces = new Set(
      [
        ...this.subjectPodsLogging(targets, DNS_TIMEOUT),
        ...this.subjectPodsLogging(targets, CONNECT_TIMEOUT),
      ].flatMap((p) => p.namespace ?? []),
    );
    for (const ns of [...namespaces].slice(0, 1)) {
      await this.readNetworkPolicies(ns, 'policyTypes', 4);
    }
  }

  private async follow(targets: ObjectView[], text: string): Promise<void> {
    const { model } = this;
    const jobs: Promise<unknown>[] = [];
    const nodes = new Set<string>();
    const claims = new Set<string>();
    const workloads = new Map<string, ObjectView>();
    for (const t of targets) {
      const o = model.get(t.kind, t.name, t.namespace) ?? t;
      if (o.kind === 'pod') {
        if (o.node) nodes.add(o.node);
        for (const c of (o.fields['claims'] ?? '').split(',').filter(Boolean))
          claims.add(`${o.namespace ?? ''}/${c}`);
        const w = model.workloadOf(o);
        if (w.kind !== 'pod' && !targets.some((x) => x.name === w.name))
          workloads.set(`${w.kind}/${w.name}`, { ...o, kind: w.kind, name: w.name });
      }
    }
    for (const n of nodes) {
      const node = model.get('node', n);
      if (!node || isUnhealthy(node, this.now) || !node.conditions.length)
        jobs.push(
          this.first(
            [
              ...this.tools('describe', 'node'),
              ...this.tools('get', 'node').filter((p) => p.params.name || p.params.node),
            ],
            { kind: 'node', name: n },
            { kind: 'node' },
          ),
        );
    }
    for (const c of claims) {
      const [ns, name] = c.split('/');
      const claim = { kind: 'persistentvolumeclaim', name: name!, namespace: ns || undefined };
      jobs.push(
        this.eventsAfter(this.describe(claim), claim, {
          kind: 'persistentvolumeclaim',
          namespace: ns,
        }),
      );
      jobs.push(
        this.first(
          this.tools(['list', 'get'], 'storageclass').filter(
            (p) => !p.required.some((r) => r !== p.params.kind && r !== p.params.apiVersion),
          ),
          { kind: 'storageclass' },
          { kind: 'storageclass' },
        ),
      );
    }
    for (const w of [...workloads.values()].slice(0, 2)) {
      jobs.push(
        this.first(
          [
            ...this.tools('describe', w.kind),
            ...this.tools('get', w.kind).filter((p) => p.params.name),
          ],
          { kind: w.kind, name: w.name, namespace: w.namespace },
          { kind: w.kind, namespace: w.namespace },
        ),
      );
      if (w.kind === 'deployment')
        jobs.push(
          this.first(
            this.tools('history'),
            { kind: 'deployment', name: w.name, namespace: w.namespace },
            { kind: 'deployment', namespace: w.namespace },
          ),
          this.inspectRollout(w.name, w.namespace),
        );
    }
    // the message speaks of the autoscaler ("the HPA hasn't added a pod"), or the app's own
    // workers run out of time (gunicorn's WORKER TIMEOUT): the namespace's HPAs, and its pods' usage
    const ns0 = this.scope.namespaces[0];
    const overrun = model.logs.some((l) => l.lines.some((x) => WORK_OVERRUN.test(x.text)));
    if (
      (/\bhpas?\b|autoscal/i.test(text) || overrun) &&
      !model.list('horizontalpodautoscaler', ns0).length
    )
      await this.first(
        this.listers('horizontalpodautoscaler'),
        { kind: 'horizontalpodautoscaler', namespace: ns0, all: !ns0 },
        { kind: 'horizontalpodautoscaler', namespace: ns0 },
      );
    const hpas = model.list('horizontalpodautoscaler', ns0);
    const named = (/\bhpas?\b|autoscal/i.test(text) || overrun) && hpas.length <= 2 ? hpas : [];
    // HPAs of the subjects (or the namespace's one or two the message speaks of)
    for (const h of model.list('horizontalpodautoscaler')) {
      const target = (h.fields['scaleTarget'] ?? '').split('/').pop() ?? '';
      if (
        named.includes(h) ||
        this.scope.subjects.some(
          (s) => target === s.name || target.startsWith(`${s.name}-`) || h.name.startsWith(s.name),
        )
      )
        jobs.push(
          this.first(
            [
              ...this.tools('describe', 'horizontalpodautoscaler'),
              ...this.tools('get', 'horizontalpodautoscaler').filter((p) => p.params.name),
            ],
            { kind: 'horizontalpodautoscaler', name: h.name, namespace: h.namespace },
            { kind: 'horizontalpodautoscaler', namespace: h.namespace },
          ),
        );
    }
    if (
      /cpu|memory|throttl|slow|latency|most|top|usage|load|saturat/.test(text) ||
      overrun ||
      this.scope.question?.type === 'top'
    ) {
      const ns = this.scope.namespaces[0];
      jobs.push(
        this.first(
          this.tools('top', 'pod').filter((p) => !p.kinds.includes('node')),
          { kind: 'pod', namespace: ns, all: !ns },
          { kind: 'pod', namespace: ns },
        ),
      );
    }
    // a dependency in another namespace ("pricing-api.pricing.svc"): list what backs it there
    const known = new Set(this.scope.namespaces);
    const depNs = new Set<string>();
    for (const l of model.logs)
      for (const line of l.lines.slice(-300))
        for (const m of line.text.matchAll(/\b[a-z0-9-]+\.([a-z0-9-]+)\.svc\b/g))
          if (!known.has(m[1]!)) depNs.add(m[1]!);
    for (const ns of [...depNs].slice(0, 2))
      for (const kind of ['service', 'deployment', 'statefulset', 'pod'])
        jobs.push(this.first(this.listers(kind), { kind, namespace: ns }, { kind, namespace: ns }));
    // DNS failures: is the cluster DNS itself healthy?
    // a full disk: the claims of its namespace, whole (a grown claim whose file system resize
    // waits for a pod restart says so in its conditions)
    const full = model.logs.find((l) =>
      l.lines.some((x) => /no space left on device|\bENOSPC\b/i.test(x.text)),
    );
    if (full) jobs.push(this.inspectClaims(full.namespace ?? this.scope.namespaces[0]));
    // an app given a drain/shutdown timeout: one of its pods read whole, for the grace period a
    // description does not show
    const draining = new Map<string, ObjectView>();
    const drainLogged = new Set(
      model.logs.filter((l) => l.lines.some((x) => DRAIN_LOGGED.test(x.text))).map((l) => l.pod),
    );
    for (const p of model.list('pod'))
      if (
        p.fields['terminationGracePeriodSeconds'] === undefined &&
        (p.containers.some((c) => Object.keys(c.env).some((k) => DRAIN_ENV.test(k))) ||
          drainLogged.has(p.name))
      )
        draining.set(model.workloadOf(p).name, p);
    for (const p of [...draining.values()].slice(0, 2)) jobs.push(this.readWhole(p));
    const resolving = model.logs.filter((l) => l.lines.some((x) => DNS_FAILURE.test(x.text)));
    if (resolving.length) {
      jobs.push(this.inspectClusterDns());
      // a pod that cannot resolve: its hostNetwork and dnsPolicy, which a description does not
      // show (a hostNetwork pod without ClusterFirstWithHostNet asks the node's resolver)
      const pods = new Map<string, ObjectView>();
      for (const l of resolving) {
        const pod = l.pod ? model.get('pod', l.pod, l.namespace) : undefined;
        // its IP is its node's: it runs on the host network
        if (
          pod &&
          pod.fields['hostNetwork'] === undefined &&
          pod.fields['podIP'] &&
          pod.fields['podIP'] === pod.fields['hostIP']
        )
          pods.set(viewKey(pod), pod);
      }
      for (const pod of [...pods.values()].slice(0, 2)) jobs.push(this.readWhole(pod));
    }
    const q = this.scope.question;
    if (
      q?.type === 'nodes' ||
      // "which nodes are cordoned": a listing may not show it, a node's description does
      ((q?.type === 'which' || q?.type === 'count') && q.what === 'node' && q.status) ||
      (q === undefined && this.scope.subjects.some((s) => s.kind === 'node'))
    )
      for (const n of model.list('node').slice(0, 8))
        jobs.push(
          this.first(
            [
              ...this.tools('describe', 'node'),
              ...this.tools('get', 'node').filter((p) => p.params.name || p.params.node),
            ],
            { kind: 'node', name: n.name },
            { kind: 'node' },
          ),
        );
    if (q?.type === 'log_errors') {
      const pods = model
        .list('pod')
        .filter((p) => this.scope.subjects.some((s) => model.matches(p, s)))
        .slice(0, 3);
      const logs = this.podLogTools();
      for (const p of pods)
        jobs.push(
          this.first(
            logs,
            { kind: 'pod', name: p.name, namespace: p.namespace, tail: 2000 },
            { kind: 'pod', namespace: p.namespace, pod: p.name },
          ),
        );
    }
    await Promise.all(jobs);
    // some pods of a workload at their CPU limit while others idle: the load is not spread, and
    // the Service in front of it says whether it pins each client to one pod (sessionAffinity)
    const pinned = model
      .list('service')
      .filter((svc) => {
        const w = backingWorkload(model, svc);
        return w && !this.inspected.has(viewKey(svc)) && unevenLoad(model, w.name, svc.namespace);
      })
      .slice(0, 2);
    for (const svc of pinned) this.inspected.add(viewKey(svc));
    await Promise.all(pinned.map((svc) => this.describe(svc)));
  }
}

const CONTROLLER_KINDS = new Set(['deployment', 'statefulset', 'daemonset', 'job', 'cronjob']);

/** a workload that stores data (a database, a cache), by its name */
const DATA_STORE =
  /(?:^|-)(?:db|database|postgres(?:ql)?|pg|mysql|mariadb|mongo(?:db)?|redis|memcached?|cache)(?:-|$)/i;
/** the message speaks of load or slowness */
const OVERLOAD =
  /\bslow|pegged|saturat|\bcpu\b|\bload\b|heavy|latency|\bp9\d\b|timing out|timeouts?\b/i;
/** a statement that gave up waiting for a lock (PostgreSQL, MySQL) */
const LOCK_WAIT =
  /canceling statement due to lock timeout|LockNotAvailable|Lock wait timeout exceeded|could not obtain lock/i;
/** the resource metrics API (metrics-server) does not answer an autoscaler */
const METRICS_API_DOWN =
  /unable to fetch metrics from resource metrics API|unable to get metrics for resource|FailedGetResourceMetric/i;

/** a client that finds its database replica's lag unknown or growing */
const REPLICA_LAG_UNKNOWN =
  /seconds_behind_(?:source|master)[=:]\s*NULL|Seconds_Behind_(?:Source|Master): NULL|replica(?:tion)? lag (?:unknown|is null)/i;
/** a database replica pod, by its name */
const DATABASE_REPLICA =
  /(?:mysql|mariadb|postgres|pg|db)[\w-]*(?:secondary|replica|slave|standby|read)|(?:secondary|replica|slave|standby)[\w-]*(?:mysql|mariadb|postgres|pg|db)/i;
/** a write sent to a Redis replica */
const REDIS_READONLY = /READONLY You can'?t write against a read only/;
/** a pod that is a database server, by its name or image */
const DATABASE_POD = /postgres|\bpg|mysql|mariadb|-db-\d+\b|\bdb-\d+\b/i;
/** a name that does not resolve, in the user's words */
const UNRESOLVED_NAME =
  /(?:does ?n[o'’]?t|won'?t|cannot|can'?t|no longer|never|not|is ?n['’]?t|are ?n['’]?t|stopped) (?:be )?resolv(?:e|es|ing)\b|NXDOMAIN|no such host|no dns record|dns record|\bDNS(?:\/\w+)? (?:errors?|failures?|lookups? fail)/i;
/** a fully qualified host name */
const PUBLIC_HOST =
  /\b[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+\.[a-z]{2,}\b/gi;
/** a request about a certificate that is not renewed (cert-manager, ACME, Let's Encrypt) */
const RENEWAL_ASKED =
  /\b(?:not|n't|never|still)\b[^.?!]{0,30}\brenew\w*|\brenewal\b|\bcert-manager\b|\bacme\b|let'?s ?encrypt|\bcertificate\b[^.?!]{0,40}\b(?:expir\w*|runs? out|about to)|\b(?:tls|cert)\b[^.?!]{0,20}\bruns? out\b/i;
/** what users see when a served certificate is not trusted */
const CERT_COMPLAINT =
  /not private|ERR_CERT|Fake Certificate|certificate (?:is )?(?:invalid|not trusted|untrusted|wrong)|self[- ]signed/i;
/** the app's own workers killed for taking too long: is it starved of CPU, or at its scale cap? */
const WORK_OVERRUN = /\bWORKER TIMEOUT\b/;

/** the DaemonSets that ship logs from the nodes to a log store */
const LOG_SHIPPER =
  /promtail|fluent-?bit|fluentd|vector|grafana-agent|alloy|filebeat|otel|opentelemetry/i;
/** a log store that refuses an agent's pushes */
const PUSH_REFUSED =
  /rate limit exceeded|429 Too Many Requests|status(?:=|: ?)429|error sending batch|failed to flush/i;
/**
 * A request that says a change did not take effect: merged or synced but not live, a rollout
 * that never happened, a GitOps tool that fails to sync, a release that "went out" while the
 * page shows something else.
 */
const CHANGE_NOT_LIVE =
  /\b(?:merged|committed)\b|(?:\bnot|\bnever|n't)\s+(?:(?:been|get|got)\s+)?(?:roll(?:ed|s)?\s*out|appl(?:y|ied)|active|live|deployed|synced|picked up|take effect|took effect)\b|\bsyncs?\b[^.?!]{0,20}\bfail|\b(?:cannot|can't|could not|couldn't)\s+sync\b|\bargo\s?cd\b|\bflux\b|\bgitops\b|\bwent (?:out|live)\b/;
/** the namespaces GitOps controllers run in (Flux's, Argo CD's) */
const GITOPS_NAMESPACE = /^(?:flux-system|flux|argocd|argo-cd|openshift-gitops)$/;
/** the GitOps controllers that apply manifests (Flux's kustomize and helm controllers, Argo CD's) */
const GITOPS_APPLIER =
  /^(?:kustomize-controller|helm-controller)-[a-z0-9]+-[a-z0-9]+$|^(?:[a-z0-9-]+-)?application-controller-\d+$/;
/** etcd refuses writes: its backend quota is reached (the NOSPACE alarm) */
export const ETCD_SPACE_EXCEEDED = /mvcc: database space exceeded|alarm:NOSPACE|"alarm":"NOSPACE"/;
/** "no logs from the new GPU nodes", "metrics missing since the node group change" */
const MISSING_TELEMETRY =
  /\b(?:no|missing|lost|gaps? in|not getting|without)\b[^.?!]{0,40}\b(?:logs?|metrics|traces|telemetry)\b|\b(?:logs?|metrics|traces)\b[^.?!]{0,40}\b(?:missing|stopped|gone|not (?:arriving|showing|shipped|collected))\b|\bdaemonsets?\b/i;
/** request bodies the edge may refuse: uploads, large requests, 413 */
const BODY_REFUSED =
  /\bupload|\b413\b|too large|entity too large|large (?:files?|requests?|payloads?)|body size/i;
/** users report server errors (500s, 5xx) */
const SERVER_ERRORS = /\b5\d\d(?:s|ing)?\b|\b5xx\b|server errors?\b/i;

/** browsers that give up on a redirect loop (Chrome's ERR_TOO_MANY_REDIRECTS, Firefox's words) */
const REDIRECT_LOOP =
  /too many redirects|TOO_MANY_REDIRECTS|redirect(?:s|ing)? (?:loop|forever|endlessly|in a loop)|redirect loop|never completes? redirect|redirecting in a way that will never complete/i;

/** what clients see when the ingress cannot get a good answer from the service behind it */
const GATEWAY_ERROR =
  /\b50[234](?:s|ing|ed)?\b|bad gateway|gateway time-?out|service unavailable|\bupstream\b/i;

/** clients that time out at the gateway (a connection the network drops, not one refused) */
const GATEWAY_TIMEOUT = /\b504\b|gateway time-?out|upstream timed out/i;
/** a request that says names do not resolve (in the cluster or at all) */
const NAMES_FAIL =
  /name resolution|resolv(?:e|ing) (?:errors?|failures?)|\bDNS (?:errors?|failures?|lookups? fail)|lookups? (?:fail|time out)|EAI_AGAIN|NXDOMAIN|UnknownHostException/i;
const DNS_FAILURE =
  /no such host|NXDOMAIN|Temporary failure in name resolution|Name or service not known|getaddrinfo (ENOTFOUND|EAI_AGAIN)|lookup \S+ on [\d.:]+: (read udp|i\/o timeout|server misbehaving)/i;

/**
 * A parameter schema's value type: its `type` (the first that is not "null" of a list), else
 * the first such type among its anyOf/oneOf alternatives (`int | None` in pydantic's schemas).
 */
function schemaType(schema: unknown): unknown {
  const s = (schema ?? {}) as { type?: unknown; anyOf?: unknown; oneOf?: unknown };
  const pick = (t: unknown) =>
    Array.isArray(t) ? t.find((x) => x !== 'null') : t === 'null' ? undefined : t;
  const own = pick(s.type);
  if (own !== undefined) return own;
  for (const alt of [s.anyOf, s.oneOf])
    if (Array.isArray(alt))
      for (const a of alt) {
        const t = schemaType(a);
        if (t !== undefined) return t;
      }
  return undefined;
}

function coerce(v: unknown, type: unknown): unknown {
  if (type === 'integer' || type === 'number') return typeof v === 'number' ? v : Number(v);
  if (type === 'boolean') return v === true || v === 'true';
  if (type === 'array') return Array.isArray(v) ? v : [v];
  return typeof v === 'string' ? v : String(v);
}

/** The text of a small tool result that may be an API refusal (a long one is data, not an error). */
function refusalIn(output: unknown): string {
  if (typeof output === 'string') return output.length <= 2000 ? output : '';
  const text = JSON.stringify(output ?? '');
  return text.length <= 2000 ? text : '';
}
