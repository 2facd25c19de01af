import { rotatedObjectQuestion } from './questions-r25b';
import { ingressAnnotationQuestion } from './questions-r26b';
import { ingressRateLimitQuestion } from './questions-r31a';
import { qosQuestion } from './questions-r28b';
import { readyPodsByNodeQuestion } from './questions-r29a';
import { jvmHeapQuestion } from './questions-r29b';
import { primaryQuestion } from './questions-r30a';
import type { InvestigationContextRecord } from '@inquest/store';
import { kindOf } from './tool-profile';
import { namesToken } from './text';

import { meshOrExpansionQuestion } from './questions-r23a';
import { gitopsQuestion } from './questions-r24b';
import { irsaQuestion } from './questions-r24a';
import { drainImpactQuestion } from './questions-r26c';
import { pdbBlockingQuestion } from './questions-r30c';
import { readOnlyRootfsQuestion } from './questions-r31b';
import { pvcRetentionQuestion } from './questions-r28a';
import { nodeClaimsQuestion, probeTimeoutQuestion } from './questions-pods-config';

/** What the incident is about, before any tool is called. */
export interface Subject {
  kind?: string;
  name: string;
  namespace?: string;
  /** where it came from: message, context, alert */
  from: string;
}

export interface Scope {
  subjects: Subject[];
  namespaces: string[];
  /** other words of the message that may name a workload or a namespace (checked once listed) */
  candidates: string[];
  /** the message asks a question the data should answer */
  question?: Question;
  /**
   * what the subjects were found to depend on while gathering, when their logs name no host (the
   * replica a client finds lagging, read because it is the namespace's replica)
   */
  dependencies?: Subject[];
}

export type Question =
  | { type: 'count'; what: string; status?: string; namespace?: string; since?: number }
  | { type: 'which'; what: string; status?: string; namespace?: string; since?: number }
  | {
      type: 'log_errors';
      subject?: string;
      since?: number;
      pattern?: string;
      /** "what did X log about its circuit breakers": lines with any of these words */
      topic?: string[];
    }
  /** "when did nightly-billing-rollup last succeed, and how long did it take?" */
  | { type: 'last_run'; subject?: string }
  /** "which pods use the stripe-api-key secret?" */
  | {
      type: 'uses';
      kind: 'secret' | 'configmap' | 'pvc';
      name: string;
      namespace?: string;
      /** "which workloads read it": per Deployment / StatefulSet / CronJob, templates included */
      by?: 'workload';
      /** (r25b) "it was rotated: which pods still hold the old value?": env readers started before */
      stale?: boolean;
      /** (r25b) when the object was changed, as the message says */
      changedAt?: number;
    }
  | { type: 'top'; resource: 'memory' | 'cpu'; namespace?: string }
  | { type: 'nodes' }
  | { type: 'version'; subject?: string; environments?: string[] }
  | { type: 'replicas'; subject?: string }
  /** "which node is kafka-2 running on?" */
  | { type: 'placement'; subject?: string }
  /** (r26c) "which deployments have all their pods on ip-10-0-12-41 (before I drain it)?" */
  | { type: 'drain_impact'; node: string; namespace?: string }
  /** (r30c) "which PDBs in payments allow 0 disruptions (will block the drain)?" */
  | { type: 'pdb_blocking'; namespace?: string; near?: string[] }
  /** (r28a) "which StatefulSets delete the PVC of the removed pod when scaled down?" */
  | { type: 'pvc_retention'; on: 'scale' | 'delete'; namespace?: string }
  /** "which pods have no memory limit?" */
  | { type: 'unset'; resource: 'memory' | 'cpu'; field: 'limits' | 'requests'; namespace?: string }
  /** "what's the memory limit on search-api, and which pod is closest to it?" */
  | { type: 'limit'; resource: 'memory' | 'cpu'; subject?: string }
  /** "which services in shop have no endpoints?" */
  | { type: 'no_endpoints'; namespace?: string }
  /** "which deployments don't define a readiness probe?" */
  | {
      type: 'no_probe';
      probe: 'Readiness' | 'Liveness' | 'Startup';
      namespace?: string;
      /** "which deployments ...": only that kind of workload */
      kind?: string;
    }
  /** "which volumes in data are still on gp2?" */
  | { type: 'storage_class'; name: string; namespace?: string }
  /** "which services are exposed through a LoadBalancer, and at what address?" */
  | { type: 'load_balancers'; namespace?: string }
  /**
   * "which containers run privileged or as root?"; `near`: words after "in" that may name a
   * namespace ("which services in retail ..."), checked once namespaces are seen
   */
  | { type: 'privileged'; namespace?: string; near?: string[] }
  /** r31b: "which deployments do not run with readOnlyRootFilesystem?" */
  | { type: 'readonly_rootfs'; namespace?: string; near?: string[] }
  /** "which services are NodePort, and on which node ports?" */
  | { type: 'node_ports'; namespace?: string; near?: string[] }
  /** "which pods use hostNetwork, not counting kube-system?" */
  | { type: 'host_network'; namespace?: string; excluded?: string[]; near?: string[] }
  /** "which pods mount hostPath volumes, and which host paths?" (per pod and workload) */
  | { type: 'host_path'; namespace?: string; excluded?: string[]; near?: string[] }
  /**
   * "which pods have been Pending for more than 10 minutes, and why?" (`over`: ms; without it
   * every Pending pod), with the scheduler's reason for each
   */
  | { type: 'pending'; namespace?: string; over?: number; near?: string[] }
  /** "show me the rollout history of X": its revisions, their images, the current one */
  | { type: 'rollout_history'; subject?: string }
  /** "how close is batch to its ResourceQuota?": used against hard for each resource */
  | {
      type: 'quota';
      namespace?: string;
      near?: string[];
      /** "we want to add two more etl-worker replicas (2 CPU / 3Gi each)": what that needs */
      add?: { count: number; subject?: string; cpu?: string; memory?: string };
    }
  /** "which pods were evicted in the last day, and why?" (`since`: the window's start) */
  | { type: 'evicted'; namespace?: string; since?: number; near?: string[] }
  /** "what is LOG_LEVEL set to in each deployment?" (`kind`: only that kind of workload) */
  | { type: 'env'; variable: string; namespace?: string; kind?: string; near?: string[] }
  /** "which service account does X run as, and which roles are bound to it?" */
  | { type: 'service_account'; subject?: string; namespace?: string }
  /** "which PVCs are not mounted by any pod?": claims no pod's volumes name */
  | { type: 'unmounted_claims'; namespace?: string; near?: string[] }
  /** "anything running :latest?": containers whose image has the tag latest or none */
  | { type: 'floating_images'; namespace?: string; near?: string[] }
  /** "which cronjobs are suspended, and when did each last run?" */
  | { type: 'suspended_cronjobs'; namespace?: string; near?: string[] }
  /** "which pods were created in the last hour?" (`kind`: pod unless another is named) */
  | { type: 'created'; kind: string; since: number; namespace?: string; near?: string[] }
  /** "how many nodes per zone and instance type?": the nodes counted by their topology labels */
  | { type: 'node_topology' }
  /** "which pods are not managed by any controller?": pods without ownerReferences */
  | { type: 'bare_pods'; namespace?: string; near?: string[] }
  /**
   * "which hosts do the Ingresses serve, with which TLS Secret?"; `missing`: "which Ingresses have
   * no TLS?" (those without, counted and named first)
   */
  | { type: 'ingress_tls'; namespace?: string; near?: string[]; missing?: boolean }
  /** "which ingress paths point at a Service that does not exist, or a port it does not have?" */
  | { type: 'ingress_backends'; namespace?: string; near?: string[] }
  /**
   * "which deployments have fewer ready replicas than desired, and since when?" (`why`: "... and
   * why?", the reason of each missing member)
   */
  | { type: 'under_replicated'; kind: string; namespace?: string; near?: string[]; why?: boolean }
  /**
   * "which CronJobs have not run successfully in the last 24 hours?": each CronJob's last success
   * against the window's start (`since`; without one: its last run did not succeed)
   */
  | { type: 'cronjob_success'; since?: number; namespace?: string; near?: string[] }
  /** "how much CPU and memory do the pods of analytics request in total?" */
  | { type: 'requests_total'; field: 'requests' | 'limits'; namespace?: string; near?: string[] }
  /** "which jobs failed today, and why?": Jobs whose Failed condition is in the window */
  | { type: 'failed_jobs'; namespace?: string; since?: number; near?: string[] }
  /** "which pods can't pull their image?" (`all`: every namespace, whatever the context says) */
  | { type: 'image_pull'; namespace?: string; all?: boolean; near?: string[] }
  /** "which containers restarted, and how did each last terminate?" */
  | { type: 'restarts'; namespace?: string; since?: number; near?: string[] }
  /** "what got deployed in the last hour?": Deployments with a new ReplicaSet in the window */
  | { type: 'rollouts'; since: number; namespace?: string; near?: string[] }
  /** "which HPAs are maxed out?": autoscalers whose current replicas reached maxReplicas */
  | { type: 'hpas_at_max'; namespace?: string; near?: string[] }
  /** "which services are ExternalName, and where does each point?": spec.externalName */
  | { type: 'external_names'; namespace?: string; near?: string[] }
  /** "which node runs the most pods?": pods occupying each node (bound, not finished), most first */
  | { type: 'pods_per_node'; namespace?: string; near?: string[] }
  /**
   * "which PVCs in data are larger than 100Gi, and which pods use them?": claims above (or, with
   * `below`, under) `bytes`, as `size` said it; `inclusive`: "at least", "or more"
   */
  | {
      type: 'claims_by_size';
      bytes: number;
      size: string;
      inclusive: boolean;
      below?: boolean;
      namespace?: string;
      near?: string[];
    }
  /** "which TLS certificates expire in the next 30 days?": notAfter inside the window, renewal state */
  | { type: 'cert_expiry'; within: number; namespace?: string; near?: string[] }
  /**
   * "which nodes still run an older kubelet?": the nodes by kubelet version; `target`: the version
   * the message names ("the 1.31 upgrade"), else the newest seen
   */
  | { type: 'kubelet_versions'; target?: string }
  /** "which PVs are Released, and how much storage is that?": PersistentVolumes in one phase */
  | { type: 'volumes_by_phase'; phase: 'Released' | 'Available' }
  /** "can I bump data-x-0 to 800Gi, or will the API refuse it?" (questions-r23a.ts) */
  | { type: 'claim_expansion'; claim?: string; namespace?: string; near?: string[] }
  /** "which running pods in billing have no istio-proxy sidecar?" (questions-r23a.ts) */
  | { type: 'pods_without_sidecar'; sidecar: string; namespace?: string; near?: string[] }
  /** "which deployments in payments are not managed by Argo CD?" (questions-r24b.ts) */
  | { type: 'gitops_unmanaged'; kind: string; tool: string; namespace?: string; near?: string[] }
  /** "which workloads in data have no IRSA role?" (questions-r24a.ts) */
  | { type: 'workloads_without_irsa'; namespace?: string; near?: string[] }
  /** (r26b) which Ingresses set an annotation, and to what value */
  | { type: 'ingress_annotation'; key: string; namespace?: string; near?: string[] }
  /** (r29a) which nodes have a ready pod of a workload (questions-r29a.ts) */
  | { type: 'ready_pods_by_node'; namespace?: string; near?: string[] }
  /** (r28b) which pods are BestEffort / Burstable / Guaranteed (questions-r28b.ts) */
  | { type: 'pods_by_qos'; qos: string; namespace?: string; near?: string[] }
  /** (r29b) which Java workloads set no heap size (questions-r29b.ts) */
  | { type: 'jvm_default_heap'; namespace?: string; near?: string[] }
  /** (r30a) which pod of a replicated data store is the primary now, and on which node (questions-r30a.ts) */
  | { type: 'db_primary'; namespace?: string; near?: string[] }
  /** "which pods on node X have a PersistentVolumeClaim mounted?" (questions-pods-config.ts) */
  | { type: 'node_claims'; node: string }
  /** "which workloads still run an exec liveness probe with timeoutSeconds 1?" */
  | {
      type: 'probe_timeout';
      seconds: number;
      compare: '=' | '<' | '<=';
      /** Liveness, Readiness, Startup: those the question names (all when none) */
      probes?: string[];
      /** exec, http-get, tcp-socket: the kind of probe the question names */
      handler?: string;
      namespace?: string;
    };

const STOP = new Set(
  'the a an is are was were be been what whats why how which who when where there this that these those it its of in on at to for from with and or not no any all my our your their please can could would should does do did done have has had get show tell me us issue issues problem problems wrong error errors failing failed fails down up ok okay healthy service services app application pod pods deployment deployments namespace namespaces cluster node nodes job jobs running pending status logs log since today yesterday hour hours minute minutes day days last recent recently keeps keep restarting restart restarts crash crashing crashes broken slow high low latency memory cpu disk check look investigate into about happening happened going see seeing being returning return requests request alert alerts firing fired prod production staging dev environment env kubernetes k8s container containers many much more most using use help need new old after before again still just only also than then but if so some something anything everything nothing everyone everybody nobody someone users customers java jvm'.split(
    ' ',
  ),
);

/** words that follow a kind as a phrase ("node group", "pod security"), never as its name */
const NOT_A_NAME_AFTER_KIND =
  /^(?:groups?|pools?|rotations?|roll|rollout|upgrades?|replacements?|drains?|affinity|selectors?|pressure|security|disruption|autoscal\w*|counts?|limits?|names?|labels?|ips?|ports?|status|level|count|template|spec|actually|really|still|just|now|already|always|ever|never|currently|usually|suddenly|again|keeps?|seems?|looks?|temporarily|unavailable|intermittently|randomly|constantly|slowly|completely|partially|sometimes|occasionally|returns?|returning|responds?|answers?|shows?|says?|right|may|might|must|will|would|could|should|can|cannot|images?|versions?|os|kernel|types?|sizes?|\d+)$/;

/** words that come before a kind as a determiner or adjective ("a single pod"), never as a name */
const NOT_A_NAME_BEFORE_KIND =
  /^(?:per|by|across|single|every|each|one|two|three|first|last|new|old|other|same|any|only|extra|additional|another|more|few|several|whole|entire|main|default|broken|bad|healthy|failing|failed|slow|random|specific|particular|right|wrong|\d+|cordon|uncordon|drain|reboot|evict)$/;

/** a word said to work ("checkout itself works", "the db is fine", "payments looks ok") */
const WORKS_FINE =
  /\b([a-z][a-z0-9-]{2,})(?: itself)? (?:works|is working|works fine|is fine|looks fine|looks ok|is ok|is okay|seems fine|is healthy|looks healthy)\b/g;

const K8S_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/** Subjects from the message, the context and alert labels. */
export function scopeIncident(
  message: string,
  ctx: InvestigationContextRecord,
  now: number,
): Scope {
  const subjects: Subject[] = [];
  const namespaces: string[] = [];
  const add = (s: Subject) => {
    const name = s.name.replace(/^["'`]|["'`.,;:!?)]+$/g, '');
    if (!name || name.length < 2 || !K8S_NAME.test(name.toLowerCase())) return;
    if (!subjects.some((x) => x.name === name && (x.kind ?? '') === (s.kind ?? '')))
      subjects.push({ ...s, name });
  };
  const addNs = (ns: string | undefined) => {
    if (ns && K8S_NAME.test(ns) && !namespaces.includes(ns)) namespaces.push(ns);
  };
  addNs(ctx.namespace);
  if (ctx.service) add({ name: ctx.service, namespace: ctx.namespace, from: 'context' });
  const text = `${message}\n${ctx.hint ?? ''}\n${ctx.related_alert ?? ''}`;
  // structured blocks {"type": "pod", "name": "x", "namespace": "y"}
  for (const m of text.matchAll(/\{[^{}]{0,400}\}/g)) {
    try {
      const o = JSON.parse(m[0]) as Record<string, unknown>;
      const name = typeof o['name'] === 'string' ? o['name'] : undefined;
      const kind = kindOf(String(o['type'] ?? o['kind'] ?? ''));
      const ns = typeof o['namespace'] === 'string' ? o['namespace'] : undefined;
      addNs(ns);
      if (name) add({ kind, name, namespace: ns, from: 'message' });
    } catch {
      /* not JSON */
    }
  }
  // alert labels: namespace="x", pod="y", deployment="z", job_name, service, container
  for (const m of text.matchAll(
    /\b(namespace|pod|deployment|statefulset|daemonset|job_name|job|service|app|container|node|instance|persistentvolumeclaim|horizontalpodautoscaler|cronjob)\s*[=:]\s*"?([a-z0-9][a-z0-9.-]*)"?/gi,
  )) {
    const key = m[1]!.toLowerCase();
    const val = m[2]!;
    if (key === 'namespace') addNs(val);
    else if (key !== 'instance' && key !== 'container')
      add({
        kind: kindOf(key === 'job_name' ? 'job' : key === 'app' ? '' : key),
        name: val,
        from: 'alert',
      });
  }
  // "deployment finance/ledger-export", "Pod messaging/notifier-x", "HPA search/search-api"
  for (const m of text.matchAll(
    /\b(pod|deployment|statefulset|daemonset|job|cronjob|hpa|pvc|service|ingress|replicaset)\s+([a-z0-9][a-z0-9-]*)\/([a-z0-9][a-z0-9.-]*[a-z0-9])/gi,
  )) {
    addNs(m[2]!.toLowerCase());
    add({
      kind: kindOf(m[1]!),
      name: m[3]!.toLowerCase(),
      namespace: m[2]!.toLowerCase(),
      from: 'message',
    });
  }
  // kind/name
  for (const m of text.matchAll(/\b([a-z]+(?:\.[a-z.]+)?)\/([a-z0-9][a-z0-9.-]*[a-z0-9])\b/gi)) {
    const kind = kindOf(m[1]!);
    // "no deployment/job/statefulset" lists kinds: a kind is no name
    if (kind && !kindOf(m[2]!)) add({ kind, name: m[2]!, from: 'message' });
  }
  // "in namespace y", "namespace y", "-n y", "ns y"
  // "in the mail namespace", "in mail ns" name it before the word: what follows is no namespace;
  // (r24a) so does "flagged the mail namespace" ("pods of the mail namespace": a question's near word)
  for (const m of text.matchAll(
    /\b(?:in (?:the )?|(?<!\b(?:of|from|for|across|within|to|on|at|by|per) )the )[`'"]?([a-z0-9][a-z0-9-]*)[`'"]? (?:namespace|ns)\b/gi,
  ))
    if (!STOP.has(m[1]!.toLowerCase())) addNs(m[1]!.toLowerCase());
  for (const m of text.matchAll(
    /(?:\bin (?:the )?namespace|\bnamespace|\bns|\s-n)\s+[`'"]?([a-z0-9][a-z0-9-]*)/gi,
  ))
    if (
      !/\b(?:in|from|of|for|across|within) (?:the )?[`'"]?[a-z0-9][a-z0-9-]*[`'"]?\s*$/i.test(
        text.slice(0, m.index),
      )
    )
      addNs(m[1]!.toLowerCase());
  // "deployment x", "the x deployment", "pod x", "node x", "job x", "pvc x"
  for (const m of text.matchAll(
    /\b(pod|deployment|statefulset|daemonset|job|cronjob|node|pvc|service|svc|hpa|ingress|configmap|secret|certificate)\s+[`'"]?([a-z0-9][a-z0-9.-]*[a-z0-9])/gi,
  )) {
    const kind = kindOf(m[1]!);
    const name = m[2]!.toLowerCase();
    // "node group", "node pool rotation", "pod security": a phrase, not an object's name; "the
    // HPA hasn't": a contraction
    if (
      NOT_A_NAME_AFTER_KIND.test(name) ||
      /^[a-z]+n['’]t\b/i.test(text.slice(m.index! + m[0].length - name.length))
    )
      continue;
    if (!STOP.has(name) && !/^(is|are|in|of|named|called)$/.test(name))
      add({ kind, name, from: 'message' });
  }
  for (const m of text.matchAll(
    /\b(?:the\s+)?[`'"]?([a-z0-9][a-z0-9.-]*[a-z0-9])[`'"]?\s+(pod|deployment|statefulset|daemonset|job|cronjob|node|pvc|service|hpa|certificate)s?\b/gi,
  )) {
    const name = m[1]!.toLowerCase();
    // "a single pod", "every node", "the new deployment": a word before a kind, not a name
    if (NOT_A_NAME_BEFORE_KIND.test(name)) continue;
    if (!STOP.has(name)) add({ kind: kindOf(m[2]!), name, from: 'message' });
  }
  // names shaped like Kubernetes objects: contain a hyphen or a digit, or quoted
  for (const m of text.matchAll(/[`'"]([a-z0-9][a-z0-9.-]*[a-z0-9])[`'"]/g))
    if (!STOP.has(m[1]!)) add({ name: m[1]!, from: 'message' });
  for (const m of message.matchAll(/\b([a-z][a-z0-9]*(?:-[a-z0-9]+)+)\b/g)) {
    const name = m[1]!;
    if (
      !namespaces.includes(name) &&
      !/^(crash-?loop|back-?off|out-of-memory|read-only|non-zero|time-?out|on-call|x509|e-mail|sign-in|log-?in|up-to-date|built-in|pre-?stop|post-?start|re-?start)/.test(
        name,
      )
    )
      add({ name, from: 'message' });
  }
  // a lone word that names a service ("What is wrong with checkout?")
  if (!subjects.length)
    for (const m of message.matchAll(
      /\b(?:with|of|for|is|in|on)\s+(?:the\s+)?[`'"]?([a-z][a-z0-9]{2,})\b/gi,
    )) {
      const name = m[1]!.toLowerCase();
      if (!STOP.has(name) && !namespaces.includes(name)) add({ name, from: 'message-word' });
    }
  for (const s of subjects)
    if (!s.namespace && namespaces.length === 1) s.namespace = namespaces[0];
  const candidates: string[] = [];
  // "Checkout itself works", "the db is fine": named as what is not failing
  const fine = new Set([...message.toLowerCase().matchAll(WORKS_FINE)].map((m) => m[1]!));
  for (const m of message.toLowerCase().matchAll(/\b([a-z][a-z0-9-]{2,})\b/g)) {
    const w = m[1]!;
    if (STOP.has(w) || namespaces.includes(w) || subjects.some((x) => x.name === w) || fine.has(w))
      continue;
    if (!candidates.includes(w)) candidates.push(w);
  }
  const question = parseQuestion(message, namespaces, subjects, now);
  // the setting a question asks about ("which ingresses override proxy-read-timeout?") is no
  // object to look for
  if (question?.type === 'ingress_annotation') {
    const key = question.key;
    for (let i = subjects.length - 1; i >= 0; i--)
      if (subjects[i]!.name === key || key.endsWith(`/${subjects[i]!.name}`)) subjects.splice(i, 1);
  }
  return { subjects, namespaces, candidates: candidates.slice(0, 12), question };
}

const STATUS_WORDS: [RegExp, string][] = [
  [/\b(cordoned|unschedulable|schedulingdisabled)\b/i, 'cordoned'],
  [/\boom[- ]?kill(?:ed|s)?\b|\bkilled for (?:memory|oom)\b|\bran out of memory\b/i, 'OOMKilled'],
  [/\bpending\b/i, 'Pending'],
  [/\bcrash\s*loop|crashloopbackoff|crashing\b/i, 'CrashLoopBackOff'],
  [/\b(failing|failed|unhealthy|broken|not (running|ready)|in error)\b/i, 'failing'],
  [/\brestart(ed|ing|s)?\b/i, 'restarted'],
  [/\brunning\b/i, 'Running'],
  [/\bevicted\b/i, 'Evicted'],
  [/\bcompleted\b/i, 'Completed'],
];

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** "since Thursday", "since 09:00", "in the last 2 hours", "today" -> epoch ms */
export function resolveSince(text: string, now: number): number | undefined {
  const t = text.toLowerCase();
  let m =
    /\b(?:in the |over the |during the )?(?:last|past)\s+(\d+)?\s*(minute|min|hour|hr|day|week)s?\b/.exec(
      t,
    );
  if (m) {
    const n = Number(m[1] ?? 1);
    const unit = m[2]!.startsWith('min')
      ? 60_000
      : m[2]!.startsWith('h')
        ? 3_600_000
        : m[2] === 'day'
          ? 86_400_000
          : 7 * 86_400_000;
    return now - n * unit;
  }
  // "in the past 2h", "last 30m"
  m = /\b(?:last|past)\s+(\d+)\s*(m|h|d)\b/.exec(t);
  if (m) return now - Number(m[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 'm'];
  // "since 10am", "since 2:30 pm"
  m = /\bsince\s+(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\b/.exec(t);
  if (m) {
    const d = new Date(now);
    d.setUTCHours((Number(m[1]) % 12) + (m[3] === 'p' ? 12 : 0), Number(m[2] ?? 0), 0, 0);
    return d.getTime() > now ? d.getTime() - 86_400_000 : d.getTime();
  }
  // "since midnight", "since 9" (an hour of today)
  m =
    /\bsince\s+(midnight|(?:0?\d|1\d|2[0-3])\b(?![:.,]?\d|\s*(?:[ap]\.?m\b|min|minutes?|h\b|hours?|hrs?|d\b|days?|weeks?|months?|years?|restarts?|times?|pods?|%)))/.exec(
      t,
    );
  if (m) {
    const d = new Date(now);
    d.setUTCHours(m[1] === 'midnight' ? 0 : Number(m[1]), 0, 0, 0);
    return d.getTime() > now ? d.getTime() - 86_400_000 : d.getTime();
  }
  m = /\bsince\s+(\d{1,2}):(\d{2})\b/.exec(t);
  if (m) {
    const d = new Date(now);
    d.setUTCHours(Number(m[1]), Number(m[2]), 0, 0);
    return d.getTime() > now ? d.getTime() - 86_400_000 : d.getTime();
  }
  m = /\bsince\s+(?:last\s+)?(sunday|monday|tuesday|wednesday|thursday|friday|saturday)\b/.exec(t);
  if (m) {
    const want = DAYS.indexOf(m[1]!);
    const d = new Date(now);
    d.setUTCHours(0, 0, 0, 0);
    let back = (d.getUTCDay() - want + 7) % 7;
    if (back === 0) back = 7;
    return d.getTime() - back * 86_400_000;
  }
  m = /\bsince\s+(\d{4}-\d{2}-\d{2}(?:[t ]\d{2}:\d{2}(?::\d{2})?z?)?)/.exec(t);
  if (m) {
    const v = Date.parse(
      m[1]!.toUpperCase().replace(' ', 'T') + (m[1]!.length > 10 && !/z$/i.test(m[1]!) ? 'Z' : ''),
    );
    if (Number.isFinite(v)) return v;
  }
  if (/\btoday\b/.test(t)) {
    const d = new Date(now);
    d.setUTCHours(0, 0, 0, 0);
    return d.getTime();
  }
  if (/\byesterday\b/.test(t)) {
    const d = new Date(now);
    d.setUTCHours(0, 0, 0, 0);
    return d.getTime() - 86_400_000;
  }
  return undefined;
}

function parseQuestion(
  message: string,
  namespaces: string[],
  subjects: Subject[],
  now: number,
): Question | undefined {
  const t = message.toLowerCase();
  const rootfs = readOnlyRootfsQuestion(t, namespaces, nearWords(t));
  if (rootfs) return rootfs;
  const jvmHeap = jvmHeapQuestion(t, namespaces);
  if (jvmHeap) return jvmHeap;
  const primary = primaryQuestion(t, namespaces, subjects);
  if (primary) return primary;
  const claims = nodeClaimsQuestion(t, subjects);
  if (claims) return claims;
  const timeouts = probeTimeoutQuestion(t, namespaces);
  if (timeouts) return timeouts;
  const budgets = pdbBlockingQuestion(t, namespaces, nearWords(t));
  if (budgets) return budgets;
  const drain = drainImpactQuestion(t, namespaces, subjects);
  if (drain) return drain;
  const retention = pvcRetentionQuestion(t, namespaces);
  if (retention) return retention;
  const gitops = gitopsQuestion(t, namespaces, nearWords(t));
  if (gitops) return gitops;
  const irsa = irsaQuestion(t, namespaces);
  if (irsa) return irsa;
  // (r31a) which Ingresses have rate limits: their limit-* annotations
  const limited = ingressRateLimitQuestion(t, namespaces, nearWords(t));
  if (limited) return limited;
  const annotated = ingressAnnotationQuestion(t, namespaces, nearWords(t));
  if (annotated) return annotated;
  const qos = qosQuestion(t, namespaces, nearWords(t));
  if (qos) return qos;
  const byNode = readyPodsByNodeQuestion(t, namespaces, nearWords(t));
  if (byNode) return byNode;
  const rotated = rotatedObjectQuestion(t, namespaces, subjects, now);
  if (rotated) return rotated;
  const meshOrExpansion = meshOrExpansionQuestion(t, namespaces, subjects, nearWords(t));
  if (meshOrExpansion) return meshOrExpansion;
  const limits = scalingOrAliasQuestion(t, namespaces);
  if (limits) return limits;
  const state = objectStateQuestion(t, namespaces, now);
  if (state) return state;
  const requested = requestsTotalQuestion(t, namespaces, subjects);
  if (requested) return requested;
  const pending = pendingQuestion(t, namespaces, subjects);
  if (pending) return pending;
  const fleet = fleetQuestion(t, namespaces);
  if (fleet) return fleet;
  const activity = activityQuestion(t, namespaces, subjects, now);
  if (activity) return activity;
  const inventory = inventoryQuestion(message, namespaces, subjects, now);
  if (inventory) return inventory;
  const hygiene = hygieneQuestion(t, namespaces, now);
  if (hygiene) return hygiene;
  const asks =
    /\?|^\s*(how many|which|what|list|show|are there|is there|count|give me|find)\b/.test(t);
  // "security audit: list the containers that run as root" asks too
  if (!asks && !/(?:^|[.,;:!]\s*)(?:list|show|find)\b/.test(t)) return undefined;
  const security = securityQuestion(t, namespaces, subjects);
  if (security) return security;
  if (!asks) return undefined;
  const ns = namespaces[0];
  const status = STATUS_WORDS.find(([re]) => re.test(t) && asksAbout(t, re))?.[1];
  const what =
    /\bnodes?\b/.test(t) && !/\bpods?\b/.test(t)
      ? 'node'
      : /\bjobs?\b/.test(t) && !/\bpods?\b/.test(t)
        ? 'job'
        : 'pod';
  if (
    /\bhow many\b[^?]*\breplicas?\b[^?]*\b(unavailable|not (?:ready|available|running)|missing|down)\b/.test(
      t,
    ) &&
    subjects.length
  )
    return { type: 'replicas', subject: subjects[0]?.name };
  // "which pods logged 'connection reset by peer' since 13:00?", "did X log any 'Y'?": a quoted
  // phrase in the logs
  const phrase =
    /\b(?:logged|logging|log(?:s)? (?:say|show|contain|mention)(?:ing|s)?|(?:did|does|do)\b[^?"'`“‘]{0,60}\blog(?: any)?|(?:say|show|contain|mention)(?:s|ed)? in (?:their|its|the) logs?)\b[^"'`“”‘’]*["'`“‘]([^"'`”’]{3,120})["'`”’]/i.exec(
      message,
    );
  // "X has been logging 'Y' since this morning ... what broke?" reports a symptom and asks for
  // its cause: no count of lines is asked
  const reported =
    phrase &&
    /^logging$/i.test(/\blog\w*/i.exec(phrase[0])?.[0] ?? '') &&
    !/\b(?:which|how many|did|does|do)\b/i.test(message.slice(0, phrase.index)) &&
    /\b(?:what(?:'s| is| has)? (?:broke|broken|happened|wrong|going on)|why\b|root cause)/i.test(
      message,
    );
  // (r26c) "X logged 'Y' during the night. Is it still broken / do we need to do something?"
  // reports what was seen and asks whether it still fails: a health check, not a count of lines
  const stillAsked =
    phrase &&
    !/\b(?:which|how many|how often|did|does|do)\b/i.test(message.slice(0, phrase.index)) &&
    /\b(?:still (?:broken|failing|down|an? (?:issue|problem)|happening|going on|erroring|affected)|(?:need|have) to do (?:something|anything)|anything (?:we need )?to do|(?:is|are) (?:it|they|\w[\w-]*) (?:ok|okay|fine|fixed|resolved|recovered|healthy) now)\b/i.test(
      message.slice(phrase.index + phrase[0].length),
    );
  // (r29b) "X logs say 'Y' from last night. Do we have a memory problem there?" reports what was
  // seen and asks whether it is a real problem: a health check, not a count of lines
  const problemAsked =
    phrase &&
    !/\b(?:which|how many|how often|did|does|do)\b/i.test(message.slice(0, phrase.index)) &&
    /\b(?:(?:do|does) (?:we|it|they|\w[\w-]*) (?:have|has) an? (?:real |actual )?(?:[\w-]+ )?(?:problem|issue|leak)|is (?:there|this|that|it) an? (?:real |actual )?(?:[\w-]+ )?(?:problem|issue)|should (?:we|i) (?:worry|be (?:worried|concerned))|(?:anything|something) to worry about)\b/i.test(
      message.slice(phrase.index + phrase[0].length),
    );
  // "how many 'could not serialize access' errors has X logged since 14:00?"
  const counted =
    (reported || stillAsked || problemAsked ? null : phrase) ??
    /\bhow many\s+(?:times\s+)?["'`“‘]([^"'`”’]{3,120})["'`”’][^?]{0,60}\blog(?:ged|s)?\b/i.exec(
      message,
    );
  if (counted?.[1])
    return {
      type: 'log_errors',
      subject: subjects[0]?.name,
      since: resolveSince(t, now),
      pattern: counted[1],
    };
  // "what did order-router log about its circuit breakers since 14:00?"
  const about =
    /\blog(?:ged|ging|s)?\b[^?]{0,40}?\babout\s+(?:its\s+|the\s+|their\s+)?([a-z][\w -]{2,60}?)(?=\s+(?:since|in the|during|over|today|after|before)\b|[?.,]|$)/.exec(
      t,
    );
  if (about?.[1]) {
    const topic = about[1]
      .split(/[\s-]+/)
      .filter((w) => w.length > 2 && !/^(the|and|any|its|their)$/.test(w))
      .map((w) => w.replace(/(?:ies)$/, 'y').replace(/s$/, ''));
    if (topic.length)
      return { type: 'log_errors', subject: subjects[0]?.name, since: resolveSince(t, now), topic };
  }
  // "which pods are using the uploads volume / pvc data-0?"
  if (/\b(?:which|what) pods?\b[^?]*\b(?:us(?:e|es|ing)|mount(?:s|ing)?|attached)\b/.test(t)) {
    const claim =
      /\b([a-z0-9][a-z0-9.-]*[a-z0-9])\s+(?:volume|pvc|claim|persistent ?volume ?claim)\b/.exec(
        t,
      )?.[1] ??
      /\b(?:pvc|claim|persistentvolumeclaim)\s+([a-z0-9][a-z0-9.-]*[a-z0-9])\b/.exec(t)?.[1];
    if (claim && !STOP.has(claim) && !/^(the|a|this|that|shared|same)$/.test(claim))
      return { type: 'uses', kind: 'pvc', name: claim, namespace: ns };
  }
  // "which pods use the stripe-api-key secret (env or mounted)?"
  const uses =
    /\b(?:use|uses|using|mount|mounts|mounting|reference|references|read|reads)\b[^?]{0,30}?\b(?:the\s+)?([a-z0-9][a-z0-9.-]*[a-z0-9])\s+(secret|configmap|config map)\b/.exec(
      t,
    ) ??
    /\b(?:use|uses|using|mount|mounts|reference|references)\b[^?]{0,30}?\b(secret|configmap|config map)\s+([a-z0-9][a-z0-9.-]*[a-z0-9])\b/.exec(
      t,
    );
  if (uses) {
    const kindWord = /secret/.test(uses[2]!) || /secret/.test(uses[1]!) ? 'secret' : 'configmap';
    const name = /secret|config/.test(uses[1]!) ? uses[2]! : uses[1]!;
    return { type: 'uses', kind: kindWord, name, namespace: ns };
  }
  // "when did nightly-billing-rollup last succeed / last run, how long did it take?"
  if (
    subjects.length &&
    (/\bwhen did\b[^?]*\blast (?:succeed|succeeded|success|complete|completed|finish|finished|run|ran)\b/.test(
      t,
    ) ||
      /\blast (?:successful|succeeded|completed|good) (?:run|job|execution)\b/.test(t))
  )
    return { type: 'last_run', subject: subjects[0]?.name };
  // "which node is kafka-2 running on?", "where does checkout run?"
  if (
    subjects.length &&
    (/\b(?:which|what) nodes?\b[^?]*\b(?:run|runs|running|scheduled|placed|on)\b/.test(t) ||
      /\bwhere (?:is|are|does|do)\b[^?]*\b(?:run|running|scheduled|placed)\b/.test(t))
  )
    return { type: 'placement', subject: subjects.find((s) => s.kind !== 'node')?.name };
  // "which pods have no memory limit?", "pods without cpu requests"
  const unset =
    /\b(?:no|without|missing|lack(?:ing)?|not? set)\b[^?]*?\b(memory|mem|ram|cpu)\s+(limits?|requests?)\b/.exec(
      t,
    ) ??
    /\b(memory|mem|ram|cpu)\s+(limits?|requests?)\b[^?]*\b(?:not set|missing|unset|set to nothing)\b/.exec(
      t,
    );
  // "which services have no endpoints (behind them)?", "services without endpoints"
  if (
    /\bservices?\b[^?]*\b(?:no|without|zero|0|empty)\s+(?:ready\s+)?endpoints?\b/.test(t) ||
    /\bendpoints?\b[^?]*\b(?:empty|none|missing)\b/.test(t)
  )
    return { type: 'no_endpoints', namespace: ns };
  // "which deployments don't define a readiness probe?", "pods without a liveness probe"
  const noProbe =
    /\b(?:no|without|missing|lack(?:ing)?|(?:do|does)(?:n'?t| not) (?:define|have|set|configure))\b[^?]{0,20}?\b(readiness|liveness|startup)\s+probes?\b/.exec(
      t,
    );
  if (noProbe)
    return {
      type: 'no_probe',
      probe: (noProbe[1]![0]!.toUpperCase() + noProbe[1]!.slice(1)) as
        'Readiness' | 'Liveness' | 'Startup',
      namespace: ns,
      kind: /\bdeployments?\b/.test(t)
        ? 'deployment'
        : /\bstatefulsets?\b/.test(t)
          ? 'statefulset'
          : /\bdaemonsets?\b/.test(t)
            ? 'daemonset'
            : undefined,
    };
  // "which volumes in data are still on gp2?", "which PVCs use the standard storage class?"
  const sc =
    /\b(?:volumes?|pvcs?|claims?|persistent ?volume ?claims?|disks?)\b[^?]{0,40}?\b(?:on|use|uses|using|with|in)\s+(?:the\s+)?(?:storage ?class\s+)?([a-z0-9][a-z0-9.-]*[a-z0-9])(?:\s+storage ?class)?\s*(?:\?|$|\.|,)/.exec(
      t,
    );
  if (sc?.[1] && !STOP.has(sc[1]) && sc[1] !== ns && !/^(the|a|this|that|same|it)$/.test(sc[1]))
    return { type: 'storage_class', name: sc[1], namespace: ns };
  // "which services in shop are exposed through a LoadBalancer, and what's their address?"
  if (
    /\bload ?balancers?\b/.test(t) &&
    /\b(?:services?|exposed|address(?:es)?|ips?|hostnames?)\b/.test(t) &&
    // r27b: not a fact the request states ("has the load balancer address") before it asks why
    // something else fails ("... Why is there no DNS record?")
    !(
      /\bwhy\b/.test(t) &&
      !t.split(/(?<=[.?!])\s+/).some((x) => /\bload ?balancers?\b/.test(x) && /\?\s*$/.test(x))
    )
  )
    return { type: 'load_balancers', namespace: ns };
  // "what's the memory limit on search-api (and which pod is closest to it)?"
  const limit =
    !unset &&
    subjects.length &&
    /\b(?:what(?:'s| is| are)?|show|tell me|how (?:much|high))\b[^?]*\b(memory|mem|ram|cpu)\s+(?:requests?\s*(?:\/|and|&)\s*)?(?:limits?|requests?)\b/.exec(
      t,
    );
  if (limit)
    return {
      type: 'limit',
      resource: limit[1] === 'cpu' ? 'cpu' : 'memory',
      subject: subjects[0]?.name,
    };
  if (unset)
    return {
      type: 'unset',
      resource: unset[1] === 'cpu' ? 'cpu' : 'memory',
      field: unset[2]!.startsWith('limit') ? 'limits' : 'requests',
      namespace: ns,
    };
  // asked, not quoted: an alert's "has not matched the expected number of replicas" counts nothing
  if (asksAbout(t, /\bhow many\b|\bcount\b|\bnumber of\b/))
    return { type: 'count', what, status, namespace: ns, since: resolveSince(t, now) };
  if (
    /\b(errors?|exceptions?|warnings?|failures?)\b[^?]*\blogs?\b|\blogs?\b[^?]*\b(errors?|exceptions?)\b/.test(
      t,
    )
  )
    return { type: 'log_errors', subject: subjects[0]?.name, since: resolveSince(t, now) };
  if (
    /\b(most|highest|top|biggest)\b[^?]*\b(memory|ram|cpu)\b|\b(memory|cpu)\b[^?]*\b(most|highest|top)\b/.test(
      t,
    )
  )
    return { type: 'top', resource: /\bcpu\b/.test(t) ? 'cpu' : 'memory', namespace: ns };
  if (/\b(which|what)\b[^?]*\b(version|image|tag|release|build)s?\b/.test(t) && subjects.length) {
    // "in prod vs staging": the environments compared (namespaces named like them)
    const environments = [
      ...new Set(
        t.match(
          /\b(prod|production|staging|stage|dev|development|qa|test|uat|preprod|canary)\b/g,
        ) ?? [],
      ),
    ];
    return { type: 'version', subject: subjects[0]?.name, environments };
  }

  // "list"/"show" as a request ("list the failing pods"), not a noun ("a failed pod in the list")
  if (
    (/\bwhich\b|\bwhat pods\b/.test(t) ||
      /(?:^|[.,;:!?]\s*|\b(?:please|can you|could you)\s+)(?:list|show)\b/.test(t)) &&
    status
  )
    return { type: 'which', what, status, namespace: ns, since: resolveSince(t, now) };
  if (
    /\bnodes?\b/.test(t) &&
    /\b(wrong|ok|healthy|ready|problem|issue)\b/.test(t) &&
    !subjects.length
  )
    return { type: 'nodes' };
  return undefined;
}

/** a question that asks for a list, not one that quotes an error ("... is forbidden: privileged") */
const ASKS_FOR_LIST =
  /\b(?:which|what|who|whose|any|anything|anyone|anybody|list|show|are there|is there|how many|find|give me)\b/;

/**
 * Questions about how workloads are exposed and privileged, and about a Deployment's revisions:
 * "anything running as root?", "what node ports are open?", "who uses host networking?",
 * "show me the rollout history of X", "what revisions does X have?".
 */
function securityQuestion(
  t: string,
  namespaces: string[],
  subjects: Subject[],
): Question | undefined {
  // "which pods logged 'privileged mode'?" asks about logs
  if (/\blog(?:ged|ging|s)?\b/.test(t)) return undefined;
  const ns = namespaces[0];
  const near = [
    ...t.matchAll(/\b(?:in|within|inside|across)\s+(?:the\s+)?[`'"]?([a-z0-9][a-z0-9-]*)/g),
  ]
    .map((m) => m[1]!)
    .filter((w) => !STOP.has(w));
  if (
    ASKS_FOR_LIST.test(t) &&
    /\b(?:run(?:s|ning)?|runs? as|execut\w*|as)\s+(?:the\s+)?root\b|\bprivileged\b|\broot (?:users?|containers?|pods?|privileges?)\b|\buid 0\b|\brunasuser:? 0\b/.test(
      t,
    ) &&
    !/\b(?:forbidden|violat\w*|not allowed|denied|rejected|admission|podsecurity|cannot|can'?t|won'?t|fails?|failing|failed)\b/.test(
      t,
    )
  )
    return { type: 'privileged', namespace: ns, near };
  if (ASKS_FOR_LIST.test(t) && /\bnode ?ports?\b/.test(t))
    return { type: 'node_ports', namespace: ns, near };
  // "not counting kube-system", "outside kube-system", "except the monitoring namespace"
  const excluded = [
    ...t.matchAll(
      /\b(?:not counting|outside(?: of)?|except(?: for)?|excluding|other than|besides|apart from|ignoring|ignore|not in)\s+(?:the\s+)?[`'"]?([a-z0-9][a-z0-9-]*)/g,
    ),
  ]
    .map((m) => m[1]!)
    .filter((n) => !STOP.has(n) || n === 'default');
  const outside = {
    namespace: namespaces.find((n) => !excluded.includes(n)),
    ...(excluded.length ? { excluded } : {}),
    near: near.filter((w) => !excluded.includes(w)),
  };
  if (ASKS_FOR_LIST.test(t) && /\bhost ?network(?:ing)?\b|\bhost net\b/.test(t))
    return { type: 'host_network', ...outside };
  // "who mounts host paths?", "which workloads use hostPath volumes?", "what touches the node's
  // filesystem directly?" (not "the node's filesystem is full", not a policy that refused one)
  const nodeFiles =
    /\b(?:node|host)(?:['’]s|s['’])?\s+(?:own\s+|root\s+)?(?:file ?systems?|director(?:y|ies)|dirs|folders?|paths?)\b|\b(?:director(?:y|ies)|dirs|folders?|paths?|file ?systems?)\s+(?:of|from|on)\s+(?:the\s+|their\s+|its\s+)?(?:node|host)s?\b/.test(
      t,
    ) &&
    /\b(?:mount\w*|touch\w*|access\w*|writ\w*|reads?|reading|use[sd]?|using|expos\w*|shar\w*)\b/.test(
      t,
    ) &&
    !/\b(?:full|pressure|space|filling|usage|free|inodes?)\b/.test(t);
  if (
    ASKS_FOR_LIST.test(t) &&
    (/\bhost ?paths?\b/.test(t) || nodeFiles) &&
    !/\b(?:forbidden|violat\w*|not allowed|denied|rejected|admission|podsecurity|cannot|can'?t|won'?t|fails?|failing|failed)\b/.test(
      t,
    )
  )
    return { type: 'host_path', ...outside };
  // "what revisions does billing have?": the word after "does" names it (checked once listed)
  const subject =
    subjects.find((s) => !s.kind || s.kind === 'deployment')?.name ??
    /\brevisions? (?:does|do|did|has|have) (?:the )?([a-z0-9][a-z0-9-]*[a-z0-9])\b/
      .exec(t)?.[1]
      ?.replace(/^(?:it|they|this|that)$/, '');
  if (
    subject &&
    (/\b(?:rollout|deployment|deploy|revision|release)s? history\b|\bhistory of\b/.test(t) ||
      (/\b(?:which|what|show|list|how many)\b[^?]*\brevisions?\b/.test(t) &&
        !/\b(?:crash\w*|fail\w*|error\w*|broken|why)\b/.test(t)))
  )
    return { type: 'rollout_history', subject };
  return undefined;
}

/** "have not run successfully", "haven't succeeded", "no successful run", "never completed" */
const NO_SUCCESS =
  /(?:\bnot|n['’]t|\bnever)\s+(?:yet\s+|once\s+|even\s+)?(?:been\s+)?(?:(?:run|ran|completed?|finished)\s+(?:successfully|ok|cleanly|with success)|succeed(?:ed)?|complete[sd]?|finish(?:ed)?)\b|\b(?:no|without(?: an?| any)?|missing(?: an?)?|lack(?:s|ing)? an?)\s+(?:recent\s+)?success(?:ful)?(?:\s+(?:runs?|completions?|jobs?|executions?))?\b|\bfailed to (?:succeed|complete|run successfully)\b/;

/** words that make a message an incident report, not a question about the cluster's state */
const REPORTS_A_FAILURE =
  /\b(?:forbidden|denied|rejected|exceeded|cannot|can'?t|couldn'?t|won'?t|fail(?:s|ed|ing|ure)?|errors?|crash\w*|broken|403|unauthori[sz]ed)\b/;

/**
 * Questions about what happened lately in a namespace (or the whole cluster): which Jobs failed
 * and why, which pods cannot pull their image, which containers restarted and how each last
 * ended, which Deployments rolled out in a window. Asked as questions or as requests; one object
 * named with "why" ("why does checkout-api keep restarting?") is an incident, not a list.
 */
function activityQuestion(
  t: string,
  namespaces: string[],
  subjects: Subject[],
  now: number,
): Question | undefined {
  // "what's wrong?", "any idea why?" ask about one incident, not for a list
  const asked = t.replace(
    /\bwhat(?:'s| is| was)?\s+(?:wrong|going on|happening|happened|up with|the (?:problem|issue|cause|fix))\b|\bwhat (?:should|can|do|could) (?:i|we)\b|\bany (?:idea|clue|hint|help|thoughts?)s?\b/g,
    ' ',
  );
  const anyOf =
    /\bany\s+(?:pods?|containers?|namespaces?|images?|pull\w*|imagepull\w*|errimagepull|jobs?|cron ?jobs?|runs?|rollouts?|deploy\w*|releases?|restarts?|new)\b/;
  const lists =
    /\b(?:which|what|who|anything|anyone|list|show|find|tell me|give me|is there|are there|were there|how many|count)\b/.test(
      asked,
    ) || anyOf.test(asked);
  if (!lists && !/\?/.test(t)) return undefined;
  const ns = namespaces[0];
  const near = [
    ...t.matchAll(
      /\b(?:in|for|of|within|across|from)\s+(?:the\s+)?(?:ns\s+|namespace\s+)?[`'"]?([a-z0-9][a-z0-9-]*)/g,
    ),
  ]
    .map((m) => m[1]!)
    // "the payments pods", "the batch jobs": a namespace may name them
    .concat(
      [
        ...t.matchAll(
          /\b([a-z0-9][a-z0-9-]*)\s+(?:namespace|ns|pods|containers|jobs|cron ?jobs|deployments)\b/g,
        ),
      ].map((m) => m[1]!),
    )
    .filter((w) => !STOP.has(w));
  const many =
    /\b(?:containers|pods|jobs|cron ?jobs|runs|which|what|anything|everything)\b/.test(asked) ||
    anyOf.test(asked);
  const incident =
    /\bwhy\b/.test(t) &&
    !many &&
    subjects.some((s) => s.from !== 'context' && s.from !== 'message-word');
  if (incident) return undefined;
  // "overnight", "last night": since 18:00 the day before
  const night = new Date(now).setUTCHours(0, 0, 0, 0) - 6 * 3_600_000;
  const since =
    resolveSince(t, now) ?? (/\bovernight\b|\blast night\b/.test(t) ? night : undefined);
  // a list asked for, about what the words after it name ("which ... restarted")
  const listOf = (what: string) =>
    new RegExp(
      `\\b(?:which|what|list|show|how many|anything|any|were there|are there|was there|is there)\\b[^?.]{0,60}${what}`,
    ).test(asked);
  // "which pods are in ImagePullBackOff?", "anything stuck pulling images?", "which pods can't
  // pull their image?", "any pull errors across namespaces?"
  if (
    lists &&
    /imagepullbackoff|errimagepull|invalidimagename|\bimage ?pull(?:s|ing)?\b|\bpull(?:ing)?\s+(?:the\s+|their\s+|its\s+|an?\s+)?(?:container\s+)?images?\b|\bpull (?:errors?|failures?|issues?|problems?)\b|\b(?:can'?t|cannot|unable to|fail(?:s|ed|ing)? to|won'?t|could ?n['’]?t)\s+pull\b|\bstuck pulling\b/.test(
      t,
    )
  ) {
    const all =
      /\b(?:any|all|every|each|across(?: all)?)\s+(?:the\s+)?namespaces?\b|\bcluster[ -]?wide\b|\b(?:across|in) the (?:whole |entire )?cluster\b|--all-namespaces|(?:^|\s)-a\b/.test(
        t,
      );
    return { type: 'image_pull', namespace: all ? undefined : ns, all, near };
  }
  // "which containers restarted, and what was the last termination reason of each?", "what
  // restarted in data and why?", "why did containers restart in X?" (not "should I restart X?")
  if (
    /\brestart(?:ed|s|ing)?\b/.test(t) &&
    (listOf('\\brestart') ||
      /\bany\s+restarts\b/.test(asked) ||
      /\bwhy (?:did|do|does|are|were|have|has)\b[^?.]{0,30}\b(?:containers|pods)\b[^?.]{0,30}\brestart/.test(
        asked,
      )) &&
    (/\bcontainers?\b/.test(t) ||
      /\b(?:terminat\w*|exit(?:ed)? codes?|last state|reasons?|why|oom\w*|killed)\b/.test(t) ||
      /\b(?:what|anything|something|who)\b[^?.]{0,20}\brestart/.test(t)) &&
    !/\b(?:should|can|could|safe to|how (?:do|to|can)|please|need to|want to)\b[^?.]{0,30}\brestart\b/.test(
      t,
    )
  )
    return { type: 'restarts', namespace: ns, since, near };
  // "which CronJobs have not run successfully in the last 24 hours?", "cronjobs without a
  // successful run since yesterday", "which cron jobs haven't succeeded today?"
  if (
    /\bcron ?jobs?\b|\bscheduled jobs?\b/.test(t) &&
    !/\bcron ?jobs? runs?\b/.test(t) &&
    listOf('\\b(?:cron ?jobs?|scheduled jobs?)\\b') &&
    NO_SUCCESS.test(t) &&
    !/\bevict\w*|\boom\w*/.test(t)
  )
    return { type: 'cronjob_success', since, namespace: ns, near };
  // "which jobs failed today and why?", "any cronjob runs that failed since midnight?"
  if (
    /\b(?:cron ?)?jobs?\b|\bbatch\b/.test(t) &&
    listOf('\\b(?:cron ?jobs?|jobs?|job runs?|runs|executions)\\b') &&
    /\bfail(?:ed|ing|s|ures?)?\b|\berror(?:ed)?\b|\bdid ?n[o'’]?t (?:succeed|complete|finish)\b|\bunsuccessful\b|\bcrashed\b/.test(
      t,
    ) &&
    !/\bevict\w*|\boom\w*/.test(t)
  )
    return { type: 'failed_jobs', namespace: ns, since, near };
  // "which deployments rolled out in the last 2 hours?", "what got deployed in the last hour?",
  // "any rollouts since 9?", "any new images since midnight?"
  if (
    since !== undefined &&
    listOf(
      '\\b(?:roll|rolled|deploy|re-?deploy|releas|shipped|went out|revision|new (?:image|version|revision|release|build)|image (?:change|update|bump)|changed|updated)',
    ) &&
    (/\broll(?:ed|ing)?[ -]?outs?\b|\brolled\b|\b(?:re-?)?deployed\b|\bdeploys\b|\breleased?\b|\breleases\b|\bshipped\b|\bwent out\b|\bnew (?:images?|versions?|revisions?|releases?|builds?)\b|\brevisions?\b|\bimage (?:changes?|updates?|bumps?)\b/.test(
      t,
    ) ||
      /\b(?:deployments?|workloads?|apps?)\b[^?.]{0,40}\b(?:changed|updated)\b/.test(t)) &&
    !REPORTS_A_FAILURE.test(t) &&
    !/\bwhy\b|\blatency\b|\bslow\w*|\btime ?outs?\b|\bspik\w*|\b5\d\ds?\b/.test(t)
  )
    return { type: 'rollouts', since, namespace: ns, near };
  return undefined;
}

/**
 * Whether the sentence that names `topic` asks about it, or the sentence after it does ("pods got
 * evicted. which ones and why?"). A report that only mentions it before asking something else
 * ("also saw an Evicted pod in the list. anything we still need to do?") does not; "the list" is
 * not "list".
 */
function asksAbout(t: string, topic: RegExp): boolean {
  const sentences = t.split(/(?<=[.!?])\s+|\n+/);
  return sentences.some(
    (s, i) =>
      topic.test(s) &&
      (/\?|\b(?:how|which|what|who|whose|where|(?<!\bthe |\ba )list|show|tell me|give me|are we|is there|are there|any)\b/.test(
        s,
      ) ||
        (/\b(?:which|what|why|how many|list|show)\b/.test(sentences[i + 1] ?? '') &&
          !/\b(?:need|should|have|got) to do\b|\banything\b/.test(sentences[i + 1] ?? ''))),
  );
}

/**
 * Questions about the namespace's state that no fault answers: how close it is to its quota,
 * what was evicted and why, what an environment variable is set to in each workload, which
 * ServiceAccount a workload runs as and what is bound to it. Asked as questions or as requests
 * ("quota usage for ns batch", "list the evicted pods").
 */
function inventoryQuestion(
  message: string,
  namespaces: string[],
  subjects: Subject[],
  now: number,
): Question | undefined {
  const t = message.toLowerCase();
  const ns = namespaces[0];
  const near = [
    ...t.matchAll(
      /\b(?:in|for|of)\s+(?:the\s+)?(?:ns\s+|namespace\s+)?[`'"]?([a-z0-9][a-z0-9-]*)/g,
    ),
  ]
    .map((m) => m[1]!)
    .filter((w) => !STOP.has(w));
  const asking =
    /\?|\b(?:how|which|what|who|whose|where|list|show|tell me|give me|are we|is there|are there|any)\b/.test(
      t,
    );
  // "how close are we to the namespace quota?", "quota usage for ns batch", "are we near the quota?"
  if (
    /\b(?:resource ?)?quotas?\b/.test(t) &&
    (/\b(?:how (?:close|near|far|much)|near|close to|usage|used|use|left|headroom|room|remaining|status|consum\w*|hit(?:ting)?|reach\w*|at)\b/.test(
      t,
    ) ||
      asking) &&
    !/\bexceeded quota\b|\bforbidden\b|\bfail(?:s|ed|ing)?\b/.test(t)
  )
    return { type: 'quota', namespace: ns, near, ...plannedAddition(message, subjects) };
  // "which pods were evicted in the last day and why?", "what got evicted today?"
  if (
    /\bevict(?:ed|ions?)\b/.test(t) &&
    asksAbout(t, /\bevict(?:ed|ions?)\b/) &&
    !/\bdrain|\bpdb\b|disruption ?budget|(?:cannot|can'?t|won'?t|unable to) (?:be )?evict|evictions? (?:fail|block|stuck|hang)/.test(
      t,
    )
  )
    return { type: 'evicted', namespace: ns, since: resolveSince(t, now), near };
  // "what LOG_LEVEL is every deployment running with?", "what is the env var log_level set to?"
  const variable =
    /\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b/.exec(message)?.[1] ??
    /\benv(?:ironment)?\s+var(?:iable)?s?\s+[`'"]?([A-Za-z_][A-Za-z0-9_]*)[`'"]?/i.exec(
      message,
    )?.[1];
  if (
    variable &&
    !/^(?:var|vars|variable|variables|is|set|the|of|in)$/i.test(variable) &&
    /\b(?:what|which|show|list|tell me|give me|value|values|set to|running with|runs? with|set in|per)\b/.test(
      t,
    ) &&
    (/\b(?:env\w*|variables?|vars?|set|values?|configured|running with|runs? with)\b/.test(t) ||
      /\b(?:each|every|per|all|which)\b[^?]*\b(?:deployments?|workloads?|services?|pods?|apps?|statefulsets?|daemonsets?)\b/.test(
        t,
      )) &&
    !REPORTS_A_FAILURE.test(t) &&
    !/\b(?:why|missing|not set|unset|undefined)\b/.test(t) &&
    // "which pods use the STRIPE_KEY secret (env or mounted)?" asks who uses a Secret
    !/\b(?:use|uses|using|mount|mounts|mounting|reference|references)\b[^?]{0,40}?\b(?:secret|configmap|config map)\b/.test(
      t,
    ) &&
    // "which pods logged 'UPSTREAM_TIMEOUT'?" asks about logs
    !/\blogged\b|\blogs? (?:say|show|contain|mention)|\bin (?:the|their|its) logs?\b/.test(t)
  )
    return {
      type: 'env',
      variable,
      namespace: ns,
      near,
      kind: /\bdeployments?\b/.test(t)
        ? 'deployment'
        : /\bstatefulsets?\b/.test(t)
          ? 'statefulset'
          : /\bdaemonsets?\b/.test(t)
            ? 'daemonset'
            : undefined,
    };
  // "which service account does payouts-api run as, and what roles does it get?", "what
  // permissions does X have?"
  const workload = subjects.find(
    (s) =>
      !s.kind ||
      ['deployment', 'statefulset', 'daemonset', 'pod', 'job', 'cronjob'].includes(s.kind),
  );
  if (
    workload &&
    asking &&
    (/\bservice ?accounts?\b|\bserviceaccount\b/.test(t) ||
      /\b(?:what|which)\b[^?]*\b(?:permissions?|privileges|rbac|(?:cluster ?)?roles?|role ?bindings?)\b/.test(
        t,
      ) ||
      /\bwhat can\b[^?]*\bdo\b/.test(t)) &&
    !REPORTS_A_FAILURE.test(t) &&
    !/\b(?:root|privileged|host ?network)\b/.test(t)
  )
    return { type: 'service_account', subject: workload.name, namespace: workload.namespace ?? ns };
  return undefined;
}

/**
 * Questions about leftovers and drift in a namespace: claims no pod mounts, images on a floating
 * tag, suspended CronJobs and when they last ran, what was created in a window. Asked as
 * questions or as requests ("new pods since 10:00", "anything running :latest?").
 */
function hygieneQuestion(t: string, namespaces: string[], now: number): Question | undefined {
  if (REPORTS_A_FAILURE.test(t) || /\bwhy\b/.test(t)) return undefined;
  const ns = namespaces[0];
  const near = [
    ...t.matchAll(
      /\b(?:in|for|of|within|across)\s+(?:the\s+)?(?:ns\s+|namespace\s+)?[`'"]?([a-z0-9][a-z0-9-]*)/g,
    ),
  ]
    .map((m) => m[1]!)
    .filter((w) => !STOP.has(w));
  const asking =
    /\?|\b(?:how many|which|what|who|list|show|find|tell me|give me|is there|are there|any|anything|count)\b/.test(
      t,
    );
  // "which PVCs in data are larger than 100Gi (and which pods use them)?", "claims of at least
  // 1Ti", "any volumes over 500G?"
  const sized = asking ? claimsBySize(t) : undefined;
  if (sized) return { ...sized, namespace: ns, near };
  // "which PVCs aren't mounted by any pod?", "unused / orphaned volumes", "claims not attached to anything"
  if (
    asking &&
    /\b(?:pvcs?|persistent ?volume ?claims?|(?:volume )?claims?|volumes?|disks?)\b/.test(t) &&
    (/\b(?:unused|orphan(?:ed|s)?|dangling|unattached|unmounted|unreferenced|leftover|left over|abandoned)\b/.test(
      t,
    ) ||
      /(?:\bnot|n['’]t|\bnever)\s+(?:being\s+|currently\s+|even\s+)?(?:mounted|attached|used|in use|referenced|claimed by)\b/.test(
        t,
      ) ||
      /\b(?:no|without(?: an?)?)\s+pods?\s+(?:mount|use|using|attached|referenc)/.test(t) ||
      /\b(?:nothing|no one|nobody|no pod)\s+(?:mounts|uses|is using|references)\b/.test(t))
  )
    return { type: 'unmounted_claims', namespace: ns, near };
  // "which containers run :latest or no tag?", "anything on latest?", "which images are untagged"
  if (
    asking &&
    (/:latest\b|\buntagged\b|\bunpinned\b|\bnot pinned\b|\bfloating tags?\b/.test(t) ||
      /\blatest\b[^?.]{0,25}\btags?\b|\btags?\b[^?.]{0,25}\blatest\b/.test(t) ||
      /\b(?:no|without(?: an?)?|missing(?: an?)?)\s+(?:image\s+)?tags?\b/.test(t) ||
      /\b(?:run(?:s|ning)?|on|using|uses?)\s+(?:the\s+)?latest\b(?!\s+(?:version|release|build|deploy\w*|rollout|revision|change))/.test(
        t,
      )) &&
    /\b(?:images?|tags?|containers?|pods?|deployments?|workloads?|running|anything|:latest)\b|:latest/.test(
      t,
    )
  )
    return { type: 'floating_images', namespace: ns, near };
  // "which cronjobs are suspended / paused, and when did each last run?"
  if (
    asking &&
    /\bcron ?jobs?\b|\bscheduled jobs?\b/.test(t) &&
    /\b(?:suspend(?:ed)?|paused|disabled|turned off|on hold)\b/.test(t)
  )
    return { type: 'suspended_cronjobs', namespace: ns, near };
  // "which pods were created in the last hour?", "what came up in the last 30 minutes", "new pods since 10:00"
  const since = resolveSince(t, now);
  if (
    since !== undefined &&
    /\b(?:created|new|newly|came up|come up|spun up|brought up|launched|appeared|born|started(?! (?:to|failing|crash\w*|erroring|throwing|returning|timing|logging))|got started)\b/.test(
      t,
    ) &&
    // what was created: objects, or "what / anything ... came up" (not "latency went up since")
    (/\b(?:pods?|deployments?|statefulsets?|daemonsets?|jobs?|cron ?jobs?|services?|pvcs?|persistent ?volume ?claims?|replicasets?|workloads?|objects?|resources?)\b/.test(
      t,
    ) ||
      /\b(?:what|which|anything|something)\b[^?]{0,30}\b(?:created|came up|spun up|launched|appeared|new)\b/.test(
        t,
      )) &&
    !/\brestart\w*|\bevict\w*|\bkill\w*|\blatency\b|\bslow\w*|\btime ?outs?\b|\bspik\w*|\b5\d\ds?\b/.test(
      t,
    )
  ) {
    const kind = /\bpods?\b/.test(t)
      ? 'pod'
      : /\bdeployments?\b/.test(t)
        ? 'deployment'
        : /\bstatefulsets?\b/.test(t)
          ? 'statefulset'
          : /\bcron ?jobs?\b/.test(t)
            ? 'cronjob'
            : /\bjobs?\b/.test(t)
              ? 'job'
              : /\bservices?\b/.test(t)
                ? 'service'
                : /\b(?:pvcs?|persistent ?volume ?claims?)\b/.test(t)
                  ? 'persistentvolumeclaim'
                  : 'pod';
    return { type: 'created', kind, since, namespace: ns, near };
  }
  return undefined;
}

const SPELLED: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  ten: 10,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
};

/** bytes of a storage unit as people write it: binary (Gi, GiB), decimal (G, GB) */
const STORAGE_UNITS: Record<string, number> = {
  ki: 1024,
  mi: 1024 ** 2,
  gi: 1024 ** 3,
  ti: 1024 ** 4,
  pi: 1024 ** 5,
  k: 1e3,
  m: 1e6,
  g: 1e9,
  t: 1e12,
  p: 1e15,
};

/** a size with a storage unit ("100Gi", "1 TiB", "500G", "750GB"; a bare "5m" is minutes) */
const SIZE = String.raw`(\d+(?:\.\d+)?)\s*(kib|mib|gib|tib|pib|ki|mi|gi|ti|pi|kb|mb|gb|tb|pb|g|t|p)\b`;
const LARGER_THAN = new RegExp(
  String.raw`(?<!\bno )(?<![a-z])(larger|bigger|greater|more|higher|over|above|exceed(?:s|ing)?|at least|no (?:less|smaller) than|>=?|≥)\s*(?:than\s+|or equal(?: to)?\s+)?(?:the\s+size\s+of\s+)?${SIZE}(\s+or\s+(?:more|larger|bigger|above|over)\b|\s+and\s+(?:up|above|over|more|larger|bigger)\b|\+)?`,
);
const SMALLER_THAN = new RegExp(
  String.raw`(?<!\bno )(?<![a-z])(smaller|less|lower|under|below|at most|no (?:more|larger|bigger) than|<=?|≤)\s*(?:than\s+|or equal(?: to)?\s+)?${SIZE}(\s+or\s+(?:less|smaller|below|under)\b)?`,
);

/**
 * A question about claims above (or under) a size: the size and which way it compares. Asks about
 * claims (PVCs, volume claims, volumes, disks) and names a size with a unit after a comparison.
 */
function claimsBySize(
  t: string,
): Omit<Extract<Question, { type: 'claims_by_size' }>, 'namespace' | 'near'> | undefined {
  if (!/\b(?:pvcs?|persistent ?volume ?claims?|(?:volume )?claims?|volumes?|disks?)\b/.test(t))
    return undefined;
  // a rate, memory or CPU is no claim's size ("pods over 2Gi of memory")
  if (/\b(?:memory|ram|heap|cpu|per (?:second|minute|hour|day))\b|\/s\b/.test(t)) return undefined;
  // "claims of 100Gi or more": the comparison after the size
  const after = new RegExp(
    String.raw`()${SIZE}(\s+(?:or|and)\s+(?:more|larger|bigger|above|over|up)\b)`,
  ).exec(t);
  const up = LARGER_THAN.exec(t) ?? after;
  const m = up ?? SMALLER_THAN.exec(t);
  if (!m) return undefined;
  const unit = m[3]!.replace(/b$/, '');
  const bytes = Number(m[2]) * (STORAGE_UNITS[unit] ?? NaN);
  if (!(bytes > 0)) return undefined;
  const inclusive =
    /^(?:at least|at most|no (?:less|smaller|more|larger|bigger) than|>=|<=|≥|≤)$/.test(m[1]!) ||
    /\bor equal\b/.test(m[0]) ||
    !!m[4];
  const size = `${m[2]}${unit.length === 2 ? `${unit[0]!.toUpperCase()}i` : unit.toUpperCase()}`;
  return { type: 'claims_by_size', bytes, size, inclusive, ...(up ? {} : { below: true }) };
}

/** "for more than 10 minutes", "longer than 5m", "over an hour", "10+ min" -> ms */
export function pendingLongerThan(text: string): number | undefined {
  const t = text.replace(/\bhalf an hour\b/g, '30 minutes');
  const unit = (u: string) =>
    /^d/.test(u) ? 86_400_000 : /^h/.test(u) ? 3_600_000 : /^s/.test(u) ? 1000 : 60_000;
  const amount =
    '(\\d+(?:\\.\\d+)?|(?:an?|one|two|three|four|five|ten|fifteen|twenty|thirty)(?=\\s))\\s*(s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)\\b';
  const m =
    new RegExp(
      `(?:\\b(?:more than|over|longer than|above|at least|in excess of|older than|beyond)|>=?)\\s*${amount}`,
    ).exec(t) ?? new RegExp(`\\b${amount}\\s*(?:or (?:more|longer)\\b|\\+|plus\\b)`).exec(t);
  const plus = /\b(\d+)\+\s*(s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)\b/.exec(t);
  const hit = m ?? plus;
  if (!hit) return undefined;
  const v = SPELLED[hit[1]!] ?? Number(hit[1]);
  return Number.isFinite(v) && v > 0 ? v * unit(hit[2]!) : undefined;
}

/**
 * "which pods have been Pending for more than 10 minutes, and why?", "which pods can't be
 * scheduled and why?", "pods pending longer than 5m in ml?": the Pending pods (for longer than
 * the time said) with the scheduler's reason for each. One object named with "why" ("why is
 * checkout-api pending?") is an incident, not a list; nodes that are unschedulable are cordoned.
 */
function pendingQuestion(
  t: string,
  namespaces: string[],
  subjects: Subject[],
): Question | undefined {
  const pending =
    /\bpending\b/.test(t) ||
    /\b(?:can'?t|cannot|could ?n['’]?t|won'?t|unable to|not|never|fail(?:s|ed|ing)? to)\s+(?:be\s+|being\s+|get\s+|getting\s+)?(?:scheduled|schedule|placed)\b|\bunschedulable\s+pods?\b|\bpods?\b[^?.]{0,30}\bunschedulable\b|\bfailedscheduling\b|\bfailed scheduling\b|\bstuck (?:in )?scheduling\b/.test(
      t,
    );
  if (!pending) return undefined;
  // "which nodes are unschedulable?" asks about cordoned nodes
  if (/\bnodes?\b/.test(t) && !/\b(?:pods?|workloads?|replicas?|deployments?|jobs?)\b/.test(t))
    if (!/\bpending\b/.test(t) || /\b(?:which|what|any|list|show) nodes?\b/.test(t))
      return undefined;
  // "pending" as a word of something else: a pending PVC, a pending LoadBalancer address, a
  // pending rollout, a CSR
  if (
    /\b(?:pvcs?|claims?|volumes?|load ?balancers?|external[ -]?ips?|addresse?s?|certificates?|csrs?|rollouts?|changes?|requests?|approvals?|alerts?|updates?|upgrades?)\b[^?.]{0,20}\bpending\b|\bpending\s+(?:pvcs?|claims?|volumes?|load ?balancers?|external|address\w*|certificates?|csrs?|rollouts?|changes?|approvals?|alerts?|updates?|upgrades?)\b/.test(
      t,
    ) &&
    !/\bpods?\b/.test(t)
  )
    return undefined;
  // "what's wrong?", "any idea why?" ask about one incident, not for a list
  const asked = t.replace(
    /\bwhat(?:'s| is| was)?\s+(?:wrong|going on|happening|happened|up with|the (?:problem|issue|cause|fix))\b|\bwhat (?:should|can|do|could) (?:i|we)\b|\bany (?:idea|clue|hint|help|thoughts?)s?\b/g,
    ' ',
  );
  const lists =
    /\b(?:which|what|who|list|show|find|tell me|give me|is there|are there|how many|count)\b/.test(
      asked,
    ) || /\bany\s+(?:pods?|workloads?|deployments?|replicas?|pending|unschedulable)\b/.test(asked);
  if (!lists && !/\?/.test(t)) return undefined;
  // "why is checkout-api pending?", "why are the metrics-ingester pods Pending?": one
  // workload's incident, not a list
  if (!lists && subjects.some((s) => s.from !== 'context' && s.from !== 'message-word'))
    return undefined;
  // ... nor is "orders-api scaled up but half of its pods are still Pending, why?" when the
  // context names the same workload the message does
  if (
    !lists &&
    subjects.some((s) => s.from === 'context' && s.name.length > 3 && namesToken(t, s.name))
  )
    return undefined;
  const over = pendingLongerThan(t);
  // "how many pods are pending?" counts (the count question answers it)
  if (
    /\bhow many\b|\bcount\b|\bnumber of\b/.test(t) &&
    over === undefined &&
    !/\bwhy\b|\breasons?\b/.test(t)
  )
    return undefined;
  const near = nearWords(t, 'namespace|ns|pods');
  return {
    type: 'pending',
    namespace: namespaces[0],
    ...(over !== undefined ? { over } : {}),
    near,
  };
}

/**
 * Questions about how the cluster is laid out and what runs unmanaged or degraded: nodes per zone
 * and instance type, pods no controller owns, the hosts Ingresses serve with their TLS Secrets,
 * workloads with fewer ready replicas than desired. Asked as questions or as requests.
 */
function fleetQuestion(t: string, namespaces: string[]): Question | undefined {
  const asking =
    /\?|\b(?:how many|how are|how is|which|what|who|list|show|find|tell me|give me|is there|are there|any|count|breakdown|break down)\b/.test(
      t,
    );
  if (!asking) return undefined;
  const ns = namespaces[0];
  // "the shop namespace", "the shop ingresses"
  const near = nearWords(t, 'namespace|ns|ingress(?:es)?');
  // "which statefulsets are not fully ready, and why?" asks for a list with the reasons; any
  // other question with "why" is about an incident
  if (/\bwhy\b/.test(t)) {
    const kind = underReplicatedKind(t);
    return kind ? { type: 'under_replicated', kind, namespace: ns, near, why: true } : undefined;
  }
  const failure =
    REPORTS_A_FAILURE.test(t) ||
    /\b(?:pending|stuck|unschedulable|schedul\w*|conflict|evict\w*|not ready|notready|down)\b/.test(
      t,
    );
  // "how many nodes per zone / instance type?", "how are our nodes spread across AZs?", "what
  // instance types do we run, per zone?", "spot vs on-demand nodes"
  const instanceTypes =
    /\b(?:instance|machine|vm|node)[ -]?(?:types?|sizes?|families|family|class(?:es)?|skus?)\b/.test(
      t,
    );
  const zones = /\b(?:(?:availability )?zones?|azs?|failure[ -]domains?|topology|regions?)\b/.test(
    t,
  );
  const capacity = /\bspot\b|\bon[ -]demand\b|\bpreemptible\b|\bcapacity[ -]types?\b/.test(t);
  const nodes = /\b(?:nodes?|workers?|instances?|machines?|vms?|fleet)\b/.test(t);
  // "how many pods run on spot nodes?" asks about pods, not about the nodes' layout
  if (
    !failure &&
    !/\b(?:pods?|deployments?|workloads?|replicas?|containers?|statefulsets?|daemonsets?)\b/.test(
      t,
    ) &&
    (instanceTypes ||
      (nodes &&
        (zones || capacity) &&
        /\b(?:how many|how are|how is|per|each|every|by|spread|distribut\w*|split|balanced|across|breakdown|break down|count|which|what|list|show)\b/.test(
          t,
        )))
  )
    return { type: 'node_topology' };
  // "which node runs the most pods?", "busiest node by pod count", "how many pods per node?",
  // "node with the fewest pods": pods counted on each node
  if (!failure && podsPerNodeAsked(t)) {
    const named = namespaces.find((n) => new RegExp(`\\b${n}\\b`).test(t));
    return { type: 'pods_per_node', namespace: named, near: named ? [] : near };
  }
  // "which pods aren't owned by anything?", "bare / naked / orphan / standalone pods", "pods not
  // managed by a controller", "any pods not owned by a deployment?"
  if (
    /\bpods?\b/.test(t) &&
    !/\b(?:pvcs?|claims?|volumes?|disks?|replicasets?)\b/.test(t) &&
    (/\b(?:bare|naked|orphan(?:ed|s)?|standalone|stand-alone|unmanaged|unowned|ownerless|controllerless|free[ -]standing)\s+pods?\b/.test(
      t,
    ) ||
      /\bpods?\b[^?.]{0,60}(?:\bnot|n['’]t|\bnever)\s+(?:be(?:ing)?\s+)?(?:owned|managed|controlled|created|backed)\s+by\b/.test(
        t,
      ) ||
      /\bpods?\b[^?.]{0,60}\b(?:without|with no|no|lacking|missing)\s+(?:an?\s+|any\s+)?(?:owner|controller|owner ?references?|ownerreferences?|parent)s?\b/.test(
        t,
      ) ||
      /\b(?:nothing|no controller|no one|nobody)\s+(?:owns|manages|controls)\b/.test(t))
  )
    return { type: 'bare_pods', namespace: ns, near };
  // round22 (r22i): "which ingress paths point at a Service that doesn't exist, or at a port the
  // Service doesn't have?"
  if (
    /\bingress(?:es)?\b/.test(t) &&
    /\b(?:services?|svcs?|backends?)\b/.test(t) &&
    /\b(?:which|what|list|any)\b/.test(t) &&
    !REPORTS_A_FAILURE.test(t) &&
    /\b(?:does(?:n't| not) exist|do(?:n't| not) exist|no longer exists?|not exist\w*|non-?existent|missing|no such|(?:does(?:n't| not)|do(?:n't| not)) (?:have|expose))\b/.test(
      t,
    )
  )
    return { type: 'ingress_backends', namespace: ns, near };
  // "which hosts do the shop ingresses serve, with which TLS secret?", "which domains ... and with
  // which certificate secret?"
  // "which Ingresses have no TLS?", "ingresses serving plain http", "hosts without https"
  const noTls = NO_TLS.test(t);
  if (
    /\b(?:ingress(?:es)?|hosts?|hostnames?|domains?|urls?|fqdns?|virtual hosts?)\b/.test(t) &&
    (/\b(?:tls|ssl|https|certs?|certificates?|secrets?)\b/.test(t) || noTls) &&
    /\b(?:ingress(?:es)?|serve[sd]?|serving|exposed?|routes?|routed)\b/.test(t) &&
    !REPORTS_A_FAILURE.test(t) &&
    !/\b(?:expir\w*|x509|invalid|mismatch\w*|untrusted|renew\w*|handshake|wrong|self[ -]signed|insecure|not secure|warnings?|fake)\b/.test(
      t,
    )
  )
    return { type: 'ingress_tls', namespace: ns, near, ...(noTls ? { missing: true } : {}) };
  // "which deployments have fewer ready replicas than desired (and since when)?", "which
  // deployments are under-replicated / degraded?", "deployments below their desired count"
  const kind = underReplicatedKind(t);
  if (kind) return { type: 'under_replicated', kind, namespace: ns, near };
  return undefined;
}

/** "no TLS", "without https", "TLS not configured", "plain HTTP": asks for what lacks TLS */
const NO_TLS =
  /\b(?:no|without|missing|lack(?:s|ing)?|not (?:using|use|have|serve|serving|terminat\w*|configured with|set up with)|(?:do|does|did|have|has)(?:n['’]t| not) (?:have|use|serve|terminate|configure|set up|got)|never)\s+(?:an?\s+|any\s+)?(?:tls|ssl|https|certs?|certificates?)\b|\b(?:tls|ssl|https)\b[^?.]{0,20}\b(?:not (?:configured|set up|enabled|set)|missing|disabled|unset)\b|\bplain[ -]?(?:text )?http\b|\bhttp[ -]only\b|\bunencrypted\b|\bnon[ -]?(?:tls|https)\b/;

/**
 * The kind a question about workloads below their desired replicas asks about ("which
 * deployments are degraded?", "which statefulsets are not fully ready?"), else undefined.
 */
function underReplicatedKind(t: string): string | undefined {
  const kind =
    /\bstatefulsets?\b|\bsts\b/.test(t) && !/\bdeployments?\b/.test(t)
      ? 'statefulset'
      : 'deployment';
  if (
    /\b(?:deployments|statefulsets|workloads|deploys)\b|\b(?:which|any|what)\s+(?:\w+\s+)?(?:deployment|statefulset|workload)\b/.test(
      t,
    ) &&
    (/\b(?:fewer|less|lower|below|under|short of|not at)\b[^?.]{0,40}\b(?:ready|desired|replicas?|wanted|target|expected|count|spec)\b/.test(
      t,
    ) ||
      /\bunder[ -]?replicated\b|\bdegraded\b|\b(?:not|n['’]t)\s+(?:fully\s+)?(?:ready|available|at full (?:capacity|strength))\b|\b(?:missing|unavailable|unready)\s+(?:replicas?|pods?)\b/.test(
        t,
      ) ||
      /\bready\b[^?.]{0,30}\b(?:<|less than|fewer than|below)\b[^?.]{0,20}\bdesired\b/.test(t)) &&
    /\b(?:which|what|any|list|show|find|how many)\b/.test(t) &&
    !/\b(?:wrong|broken|crash\w*|fail\w*|errors?)\b/.test(t)
  )
    return kind;
  return undefined;
}

const MOST_PODS =
  /\b(?:most|fewest|least|(?:highest|largest|biggest|greatest|lowest|smallest) (?:number|count) of)\s+(?:\w+\s+)?pods\b/;

/** "which node runs the most pods?", "pods per node", "busiest node by pod count" */
function podsPerNodeAsked(t: string): boolean {
  if (!/\bpods?\b/.test(t) || !/\bnodes?\b/.test(t)) return false;
  // "which node is kafka-2 on", "which node uses the most memory": another question
  if (/\b(?:memory|cpu|ram|disk|storage|network|bandwidth|load|utili[sz]\w*)\b/.test(t))
    return false;
  return (
    // "which node runs the most pods", "what node has the most running pods"
    (MOST_PODS.test(t) &&
      /\b(?:which|what|whichever)\s+(?:\w+\s+)?nodes?\b|\bnodes?\s+(?:with|has|have|having|hosts?|hosting|runs?|running|carr(?:y|ies|ying)|holds?|holding|that)\b/.test(
        t,
      )) ||
    // "busiest / most crowded / most loaded node by pod count"
    /\b(?:busiest|most (?:crowded|packed|loaded|populated)|fullest)\s+nodes?\b[^?.]{0,40}\bpods?\b/.test(
      t,
    ) ||
    // "pod count per node", "how many pods per node / on each node", "pods by node"
    /\bpods?(?:\s+(?:count|counts|number|numbers|total|totals))?\s+(?:(?:are\s+|is\s+)?(?:running|scheduled|placed)\s+)?(?:per|by|on each|on every|for each|across(?: the)?|across all)\s+nodes?\b/.test(
      t,
    ) ||
    /\bhow many pods\b[^?.]{0,40}\b(?:each|every|per)\s+node\b/.test(t) ||
    /\b(?:pod count|number of pods)\s+(?:of|on|for)\s+(?:each|every)\s+node\b/.test(t)
  );
}

/** an HPA's maximum reached: "maxed out", "at their ceiling", "can't scale further" */
const AT_MAX =
  /\bmax(?:ed)?[ -]?out\b|\bmaxed\b|\btopped out\b|\bceilings?\b|\b(?:at|reached?|reaching|hit|hits|hitting|running at|sitting at|stuck at|pinned (?:at|to)|pegged (?:at|to)|equal to)\s+(?:the\s+|their\s+|its\s+)?(?:max(?:imum)?|cap|upper (?:limit|bound)|limit|max ?replicas|maxreplicas)\b|\b(?:can'?t|cannot|can not|unable to|could ?n['’]?t|won'?t|not able to)\s+scale\s+(?:any\s+)?(?:further|more|higher|up|out|beyond|past)\b|\bno (?:more )?(?:room|headroom) to scale\b|\bscaled (?:all the way |fully )?(?:up |out )?to (?:the |their |its )?max(?:imum)?\b/;

/**
 * The words a question places the asked-about objects in: "in shop", "for the payments
 * namespace", "across ns data", and the word before a noun ("the shop namespace"; `nouns` adds
 * others, "the shop pods"); stop words are none.
 */
function nearWords(t: string, nouns = 'namespace|ns'): string[] {
  return [
    ...t.matchAll(
      /\b(?:in|for|of|from|within|across)\s+(?:the\s+)?(?:ns\s+|namespace\s+)?[`'"]?([a-z0-9][a-z0-9-]*)/g,
    ),
  ]
    .map((m) => m[1]!)
    .concat(
      [...t.matchAll(new RegExp(String.raw`\b([a-z0-9][a-z0-9-]*)\s+(?:${nouns})\b`, 'g'))].map(
        (m) => m[1]!,
      ),
    )
    .filter((w) => !STOP.has(w));
}

/**
 * Questions read off one kind's own fields: which HorizontalPodAutoscalers are at their maximum
 * replicas now ("which autoscalers are maxed out?", "is any HPA at its ceiling?"), which Services
 * are of type ExternalName and the host each aliases ("what external names do our services point
 * at?", "which services alias an outside host?"). Asked as questions or as requests.
 */
function scalingOrAliasQuestion(t: string, namespaces: string[]): Question | undefined {
  const asking =
    /\?|\b(?:which|what|whose|who|any|anything|is there|are there|list|show|find|tell me|give me|how many|count)\b/.test(
      t,
    );
  if (!asking || /\bwhy\b/.test(t)) return undefined;
  const ns = namespaces[0];
  const near = nearWords(t);
  // the words that ask, taken out: "can't scale further" is no failure reported
  const rest = t.replace(new RegExp(AT_MAX.source, 'g'), ' ');
  const incident =
    REPORTS_A_FAILURE.test(rest) ||
    /\b(?:slow\w*|latenc\w*|time ?outs?|timing out|5\d\d|5xx|oom\w*|throttl\w*)\b/.test(rest);
  if (incident) return undefined;
  // the cluster autoscaler scales nodes, not pods
  const hpa =
    /\bhpas?\b|\bhorizontal ?pod ?autoscal\w*|\bpod autoscal\w*/.test(t) ||
    (/\bauto-?scal\w*|\bmax(?:imum)? ?replicas\b|\bmaxreplicas\b/.test(t) &&
      !/\bcluster[ -]?autoscal\w*|\bkarpenter\b|\bnode ?(?:groups?|pools?)\b|\bnodes\b/.test(t));
  if (hpa && AT_MAX.test(t)) return { type: 'hpas_at_max', namespace: ns, near };
  // "which services are ExternalName?", "which services alias an outside host?"
  if (
    /\bexternal[ -]?names?\b/.test(t) ||
    (/\bservices?\b|\bsvcs?\b/.test(t) &&
      (/\b(?:alias(?:es|ed|ing)?|cnames?)\b/.test(t) ||
        /\b(?:point(?:s|ing)?|map(?:s|ped)?|resolv(?:e|es|ing)|redirect(?:s|ing)?|forward(?:s|ing)?)\s+(?:at|to)\s+(?:an?\s+|the\s+|some\s+)?(?:outside|external|off-cluster|remote|third-party)\b/.test(
          t,
        )))
  )
    return { type: 'external_names', namespace: ns, near };
  return undefined;
}

const COUNTS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  ten: 10,
};

/** "add two more etl-worker replicas (2 CPU / 3Gi each)": how many pods of what size */
function plannedAddition(
  message: string,
  subjects: Subject[],
): { add?: { count: number; subject?: string; cpu?: string; memory?: string } } {
  const t = message.toLowerCase();
  const m = /\b(\d+|one|two|three|four|five|six|ten)\s+(?:more|extra|additional|new)\b/.exec(t);
  if (!m) return {};
  const count = COUNTS[m[1]!] ?? Number(m[1]);
  if (!(count > 0)) return {};
  const cpu = /\b(\d+(?:\.\d+)?)\s*(m\b|millicores?|cpus?|cores?|vcpus?)\b/.exec(t);
  const memory = /\b(\d+(?:\.\d+)?)\s*(gi|mi|gb|mb|g|m)\b(?!\s*(?:cpu|core))/.exec(
    t.replace(cpu?.[0] ?? '\u0000', ' '),
  );
  const unit = (u: string) => ({ gi: 'Gi', gb: 'G', g: 'G', mi: 'Mi', mb: 'M', m: 'M' })[u] ?? u;
  return {
    add: {
      count,
      subject: subjects.find((s) => !s.kind || s.kind === 'deployment' || s.kind === 'statefulset')
        ?.name,
      ...(cpu ? { cpu: /^m/.test(cpu[2]!) ? `${cpu[1]}m` : cpu[1] } : {}),
      ...(memory ? { memory: `${memory[1]}${unit(memory[2]!)}` } : {}),
    },
  };
}

/**
 * "how much CPU and memory do the pods of analytics request in total?", "total cpu requests in
 * batch", "sum of the memory requests across the namespace": the namespace's requests (or limits)
 * added up. Not a workload's own limit, not what is left of a quota, not usage.
 */
function requestsTotalQuestion(
  t: string,
  namespaces: string[],
  subjects: Subject[],
): Question | undefined {
  if (!/\b(?:cpus?|cores?|vcpus?|millicores?|memory|mem|ram)\b/.test(t)) return undefined;
  const requests =
    /\brequest(?:s|ed|ing)?\b|\breserv(?:e|es|ed|ing|ations?)\b|\bask(?:s|ed)? for\b/.test(t);
  const limits = /\blimits?\b/.test(t) && !requests;
  if (!requests && !limits) return undefined;
  const total =
    /\b(?:total|totals|totaled|totalled|sum|summed|altogether|all together|combined|in all|overall|aggregated?|add(?:s|ed)? up|put together)\b/.test(
      t,
    ) ||
    // "how much CPU do the pods of analytics request?": the namespace's pods, not one workload's
    (/\bhow (?:much|many)\b/.test(t) &&
      /\b(?:all (?:the |of the )?pods|the pods|pods (?:in|of)|namespace)\b/.test(t) &&
      !subjects.some((s) => s.from !== 'context' && s.from !== 'message-word'));
  if (!total) return undefined;
  // "pods without memory requests", "over the quota", "insufficient cpu": other questions
  if (
    /\b(?:no|without|missing|lack(?:s|ing)?|not set|unset)\b[^?.]{0,30}\b(?:requests?|limits?)\b|\bquotas?\b/.test(
      t,
    ) ||
    REPORTS_A_FAILURE.test(t) ||
    /\binsufficient\b|\bpending\b|\bwhy\b|\b(?:use|uses|using|used|usage|consum\w*)\b/.test(t)
  )
    return undefined;
  const near = nearWords(t);
  return {
    type: 'requests_total',
    field: limits ? 'limits' : 'requests',
    namespace: namespaces[0],
    near,
  };
}

/** a word that refers back to an object named elsewhere ("that ConfigMap"), never its name */
const NOT_A_CONFIG_NAME =
  /^(?:that|this|the|a|an|same|which|what|its|their|our|your|any|every|each|one|shared|new|old|other|whole|given|said)$/;

/**
 * Questions read off one object's own state: which workloads read a ConfigMap or Secret (env,
 * envFrom, volumes; "before I change it, what needs a restart?"), which certificates expire in a
 * window and whether each renews, which nodes run an older kubelet, which PersistentVolumes sit in
 * a phase (Released, Available, Failed) with their former claims and sizes. Asked as questions or
 * requests; a message that reports a failure ("x509: certificate has expired", "why is ...") is
 * an incident.
 */
function objectStateQuestion(t: string, namespaces: string[], now: number): Question | undefined {
  const asking =
    /\?|\b(?:which|what|who|whose|list|show|find|tell me|give me|is there|are there|any|how many|how much)\b/.test(
      t,
    );
  // "what's wrong?", "what is going on?" ask about one incident
  if (
    !asking ||
    /\bwhy\b|\bwhat(?:'s| is| was)?\s+(?:wrong|going on|happening|happened|the (?:problem|issue|cause))\b/.test(
      t,
    )
  )
    return undefined;
  const ns = namespaces[0];
  const near = nearWords(t);
  // "which workloads read that ConfigMap (env, envFrom, mounted)?": the ConfigMap or Secret the
  // message names anywhere, asked for its readers
  const isName = (w: string) =>
    !NOT_A_CONFIG_NAME.test(w) &&
    !STOP.has(w) &&
    !/^(?:configmaps?|config|maps?|secrets?|reads?|uses?|mounts?|references?|consumes?|loads?)$/.test(
      w,
    );
  const named = [
    ...[
      ...t.matchAll(
        /\b[`'"]?([a-z0-9][a-z0-9.-]*[a-z0-9])[`'"]?\s+(configmap|config map|secret)\b/g,
      ),
    ].map((m) => ({ at: m.index, name: m[1]!, kind: m[2]! })),
    ...[
      ...t.matchAll(/\b(configmap|config map|secret)\s+[`'"]?([a-z0-9][a-z0-9.-]*[a-z0-9])\b/g),
    ].map((m) => ({ at: m.index, name: m[2]!, kind: m[1]! })),
  ]
    .filter((x) => isName(x.name))
    .sort((a, b) => a.at - b.at)[0];
  const configName = named?.name;
  if (
    configName &&
    !REPORTS_A_FAILURE.test(t) &&
    /\b(?:which|what|who|list|show|find|any|anything)\b[^?.]{0,40}\b(?:workloads?|pods?|deployments?|statefulsets?|daemonsets?|cron ?jobs?|jobs?|apps?|applications?|services?|consumers?|readers?|users?|anything|containers?)\b[^?]{0,60}\b(?:reads?|reading|uses?|using|mounts?|mounting|references?|referencing|consumes?|consuming|depends? on|loads?|pulls? in|picks? up|gets?)\b/.test(
      t,
    )
  ) {
    const kind = named!.kind === 'secret' ? 'secret' : 'configmap';
    return {
      type: 'uses',
      kind,
      name: configName,
      namespace: ns,
      ...(/\b(?:workloads?|deployments?|statefulsets?|daemonsets?|cron ?jobs?|apps?|applications?)\b/.test(
        t,
      )
        ? { by: 'workload' as const }
        : {}),
    };
  }
  if (REPORTS_A_FAILURE.test(t) && !/\b(?:renew\w*|issu\w*)\b/.test(t)) return undefined;
  // "which TLS certificates expire in the next 30 days?", "certs expiring this month"
  if (
    /\b(?:which|what|list|show|any|how many|find)\b[^?.]{0,40}\b(?:certs?|certificates?|tls)\b/.test(
      t,
    ) &&
    /\bexpir(?:e|es|ing|y|ation)\b|\brun(?:s|ning)? out\b|\bdue (?:for|to) (?:renew\w*|expire)\b/.test(
      t,
    ) &&
    !/\bx509\b|\bhandshake\b|\bhas expired\b|\bhave expired\b|\bverify failed\b|\b(?:errors?|crash\w*|broken|denied|refused)\b/.test(
      t,
    )
  ) {
    const n =
      /\b(?:next|within|in|coming|upcoming)\s+(?:the\s+)?(?:next\s+)?(\d+|a|one|two|three|four|six)\s*(days?|d|weeks?|w|months?|hours?|h)\b/.exec(
        t,
      );
    const count = n ? (COUNTS[n[1]!] ?? (/^an?$/.test(n[1]!) ? 1 : Number(n[1]))) : undefined;
    const unit = n
      ? /^h/.test(n[2]!)
        ? 3_600_000
        : /^w/.test(n[2]!)
          ? 7 * 86_400_000
          : /^m/.test(n[2]!)
            ? 30 * 86_400_000
            : 86_400_000
      : undefined;
    const within =
      count && unit
        ? count * unit
        : /\b(?:this|next) week\b/.test(t)
          ? 7 * 86_400_000
          : 30 * 86_400_000;
    void now;
    return { type: 'cert_expiry', within, namespace: ns, near };
  }
  if (REPORTS_A_FAILURE.test(t)) return undefined;
  // "which nodes still run an older kubelet?", "which nodes are not on 1.31 yet?"
  if (
    /\bnodes?\b/.test(t) &&
    (/\bkubelets?\b/.test(t) ||
      (/\bversions?\b/.test(t) &&
        /\b(?:upgrad\w*|older|old|outdated|behind|still|yet|kubernetes|k8s)\b/.test(t)) ||
      /\b(?:still|yet)\b[^?.]{0,40}\bv?1\.\d+\b/.test(t)) &&
    !/\b(?:pods?|images?|containers?|deployments?)\b[^?.]{0,30}\bversions?\b/.test(t)
  ) {
    const target = /\bv?(1\.\d{1,2})(?:\.\d+)?\b/.exec(t)?.[1];
    return { type: 'kubelet_versions', ...(target ? { target } : {}) };
  }
  // "which PVs are Released (claim deleted, volume kept)?", "persistent volumes still available"
  const pv =
    /\bpvs?\b|\bpersistent ?volumes?\b(?!\s*claims?)|\bebs volumes?\b|\bvolumes?\b/.test(t) &&
    !/\bpvcs?\b|\bpersistent ?volume ?claims?\b/.test(t);
  const phase = /\breleased\b/.test(t)
    ? 'Released'
    : /\b(?:pvs?|persistent ?volumes?)\b[^?.]{0,30}\b(?:available|unbound|unclaimed)\b|\b(?:available|unbound|unclaimed)\s+(?:pvs?|persistent ?volumes?)\b/.test(
          t,
        )
      ? 'Available'
      : undefined;
  if (pv && phase) return { type: 'volumes_by_phase', phase };
  return undefined;
}
