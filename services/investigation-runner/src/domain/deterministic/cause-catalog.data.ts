/**
 * The causes the deterministic engine recognises, kept as data: add an entry to teach it a new
 * failure. Each entry is tested against the facts a run observed: events (`reason`, `message`),
 * container states (`reason`, `message`, exit code), object status and conditions, log lines and
 * free text. `text` is a case-insensitive regular expression; its named groups fill the
 * `{name}` placeholders of `cause` and `fix` (and `{subject}` names the affected workload).
 *
 * role `cause` explains an incident; `symptom` needs an explanation (the engine looks for a
 * cause on the same subject: a CrashLoopBackOff is explained by the last fatal log line).
 */
export type FactSource = 'event' | 'state' | 'status' | 'condition' | 'log' | 'text' | 'metric';

export interface CauseEntry {
  id: string;
  /** the failure class (the investigation-quality classes) */
  class: string;
  title: string;
  role: 'cause' | 'symptom';
  /** 0..1: how surely one match names the cause */
  strength: number;
  on: FactSource[];
  /** regular expression on the reason (event reason, container state reason, condition type) */
  reason?: string;
  /** regular expression on the message / log line / text */
  text?: string;
  cause: string;
  fix: string;
  /** match `text` case-sensitively (names like ENV_VARS must be upper case) */
  caseSensitive?: boolean;
  /**
   * a controller's record about what it applies (a GitOps controller, a deploy Job): the finding
   * is about any subject its fact, its object or its workload names
   */
  namesSubject?: boolean;
}

export const CAUSE_CATALOG: CauseEntry[] = [
  // ---------------------------------------------------------------- memory
  {
    id: 'oom_killed',
    class: 'oom_killed',
    title: 'container killed for exceeding its memory limit (OOMKilled)',
    role: 'cause',
    strength: 0.9,
    on: ['state', 'event', 'log', 'text'],
    text: '\\bOOMKilled\\b|memory cgroup out of memory|out of memory: kill|\\bOOM[- ]?kill',
    cause:
      '{subject} is being OOMKilled{in_container}: the container uses more memory than its limit{limit} allows and the kernel kills it (exit code 137){tmpfs}{limit_from}',
    fix: 'Raise the memory limit of {subject}{in_container} above its working set{oom_also}; check `kubectl top pod` against the limit.',
  },
  {
    // class metadata lives outside the heap: -Xmx and the container limit do not matter, the
    // JVM's -XX:MaxMetaspaceSize does (a release that loads more classes needs more)
    id: 'jvm_metaspace_exhausted',
    class: 'crashloop_panic',
    title: 'the JVM ran out of Metaspace (class metadata, capped by MaxMetaspaceSize)',
    role: 'cause',
    strength: 0.88,
    on: ['log'],
    // Spring wraps it: "... threw exception with message: Metaspace"
    text: 'java\\.lang\\.OutOfMemoryError: (?:Metaspace|Compressed class space)[^\\n]*|threw exception with message: (?:Metaspace|Compressed class space)\\b[^\\n]*',
    cause:
      '{subject} runs out of Metaspace{in_container}: "{fact}". Metaspace holds the classes the JVM loaded, outside the heap, and -XX:MaxMetaspaceSize caps it{metaspace}: more classes (new dependencies, generated or reloaded classes) than the cap holds end the JVM. Not the heap, not the container memory limit{limit}',
    fix: 'Raise -XX:MaxMetaspaceSize of {subject}{metaspace} (or drop the cap and let the container limit bound it), or find what loads so many classes (a class loader leak shows as Metaspace growing with every reload).',
  },
  {
    // the runtime's own heap cap (V8's --max-old-space-size, the JVM's -Xmx) reached: the process
    // aborts (V8: exit 134) or throws, while the container may be far below its limit; when the
    // kernel did kill the container, oom_killed's state match is the stronger finding
    id: 'runtime_heap_exhausted',
    class: 'oom_killed',
    title: 'the runtime ran out of its heap (heap cap below the container limit)',
    role: 'cause',
    strength: 0.86,
    on: ['log'],
    text: 'JavaScript heap out of memory|Reached heap limit[^\\n]*|java\\.lang\\.OutOfMemoryError[^\\n]*',
    cause:
      '{subject} runs out of its runtime heap{in_container}: "{fact}". The heap cap{heap} is reached, not the container memory limit{limit}; the runtime aborts the process',
    fix: 'Raise the heap cap of {subject}{heap} toward the container limit{limit} (leave room for memory off the heap), or hold less in memory per request (stream or page large exports); a heap profile shows what fills it.',
  },
  {
    // "OutOfMemoryError: unable to create native thread" is not about memory: the process may
    // not start another thread (the pod's PIDs limit, the kubelet's podPidsLimit, ulimit -u)
    id: 'thread_limit_reached',
    class: 'crashloop_panic',
    title: 'the process cannot start more threads (PIDs limit)',
    role: 'cause',
    // above runtime_heap_exhausted, whose java.lang.OutOfMemoryError pattern matches this line too
    strength: 0.9,
    on: ['log'],
    text: 'java\\.lang\\.OutOfMemoryError: unable to create (?:new )?native thread[^\\n]*|pthread_create failed[^\\n]*|runtime: failed to create new OS thread[^\\n]*|fork: (?:retry: )?Resource temporarily unavailable',
    cause:
      '{subject} cannot start more threads{in_container}: "{fact}". This is not a lack of memory: the process reached the number of processes/threads it may run (the pod\'s PIDs limit, set by the kubelet\'s podPidsLimit, or its ulimit), so every new thread fails',
    fix: "Count the threads of {subject} against the pids limit (in the container: `cat /sys/fs/cgroup/pids.current` and `pids.max`; the kubelet config's podPidsLimit); bound its thread pools (per-request or fan-out threads), or raise podPidsLimit for its nodes.",
  },
  {
    // a pre-fork worker pool (Celery/billiard, gunicorn): the kernel OOM-kills a child at the
    // container's memory limit while the main process, and so the container, keeps running
    id: 'worker_sigkilled',
    class: 'oom_killed',
    title: 'worker processes killed with SIGKILL (OOM kill of a child)',
    role: 'cause',
    strength: 0.88,
    on: ['log'],
    text: "Worker exited prematurely: signal 9 \\(SIGKILL\\)[^\\n]*|exited with 'signal 9 \\(SIGKILL\\)'[^\\n]*|Worker \\(pid:\\d+\\) was sent SIGKILL! Perhaps out of memory\\?",
    cause:
      '{subject}\'s worker processes are killed with SIGKILL ("{fact}"): the kernel\'s OOM killer kills a child process when the container reaches its memory limit{limit}; the main process survives, so the container keeps running and may not show OOMKilled',
    fix: 'Raise the memory limit of {subject}{in_container} above what one worker needs for its largest task times the pool size, or run fewer workers / recycle them (Celery: --max-memory-per-child, --concurrency); check `kubectl top pod` against the limit.',
  },
  // ---------------------------------------------------------------- image pull
  {
    id: 'image_not_found',
    class: 'image_pull',
    title: 'image tag does not exist',
    role: 'cause',
    strength: 0.92,
    on: ['event', 'state'],
    text: '(?:pull(?:ing)? image|image) "?(?<image>[\\w./:@-]+)"?[^\\n]*(?:manifest unknown|not found|manifest for \\S+ not found|no such manifest|does not exist)|manifest for (?<image2>[\\w./:@-]+) not found',
    cause:
      'the image {image}{image2} of {subject}{pull_init} cannot be pulled: that tag/manifest does not exist in the registry (ImagePullBackOff){pull_init_effect}',
    fix: 'Fix the image reference of {subject} to a tag that exists (check the registry), or push the missing tag; then the pods pull again.',
  },
  {
    id: 'image_pull_auth',
    class: 'image_pull',
    title: 'registry refuses the image pull (authentication)',
    role: 'cause',
    strength: 0.9,
    on: ['event', 'state'],
    // only about an image (a cloud API's "UnauthorizedOperation" in a volume event is not)
    text: '(?=[^\\n]*(?:[Pp]ull|[Ii]mage|registry|manifest))(?:[^\\n]*?image "?(?<image>[\\w./:@-]+)"?[^\\n]*)?(?:pull access denied|unauthorized|authentication required|no basic auth credentials|403 Forbidden|denied: requested access|insufficient_scope)',
    cause:
      'the registry refuses to let {subject} pull {image}: pull access denied / unauthorized (missing or wrong imagePullSecret)',
    fix: 'Give {subject} a valid imagePullSecret for the registry (or attach it to its ServiceAccount) and check the credentials have pull rights.',
  },
  {
    id: 'image_registry_unreachable',
    class: 'image_pull',
    title: 'image registry cannot be reached',
    role: 'cause',
    strength: 0.88,
    on: ['event', 'state'],
    text: '(?:image "?(?<image>[\\w./:@-]+)"?[^\\n]*)?(?:dial tcp: lookup (?<host>[\\w.-]+)[^\\n]*no such host|lookup (?<host2>[\\w.-]+)[^\\n]*(?:no such host|server misbehaving)|(?<host3>[\\w.-]+)[^\\n]*i/o timeout)',
    cause:
      'the registry host {host}{host2}{host3} of {image} cannot be reached from the nodes (ErrImagePull): the registry name is wrong or unreachable',
    fix: 'Correct the registry host in the image reference of {subject} (or fix DNS / egress to the registry).',
  },
  {
    // imagePullPolicy: Never: the kubelet only runs an image already on the node
    id: 'image_never_pull',
    class: 'image_pull',
    title: 'image not on the node and imagePullPolicy is Never (ErrImageNeverPull)',
    role: 'cause',
    strength: 0.93,
    on: ['event', 'state', 'status'],
    text: '[Ii]mage "(?<image>[\\w./:@-]+)" is not present with pull policy of Never|\\bErrImageNeverPull\\b',
    cause:
      '{subject} cannot start: its image {image} is not present on the node and its imagePullPolicy is Never, so the kubelet never pulls it (ErrImageNeverPull); this is not a registry or credentials problem',
    fix: 'Set imagePullPolicy of {subject} to IfNotPresent (or Always) so nodes pull {image}, or roll back the change that set Never; Never only suits images pre-loaded on every node.',
  },
  {
    id: 'image_pull_backoff',
    class: 'image_pull',
    title: 'image cannot be pulled (ImagePullBackOff)',
    role: 'symptom',
    strength: 0.6,
    on: ['state', 'event', 'status'],
    reason: '^(ImagePullBackOff|ErrImagePull|InvalidImageName)$',
    cause: '{subject} cannot pull its image {image} (ImagePullBackOff)',
    fix: 'Check the image name, tag and pull secret of {subject} (`kubectl describe pod` events show the registry answer).',
  },
  // ---------------------------------------------------------------- config objects
  {
    // a subPath whose key the ConfigMap/Secret lacks: the kubelet makes an empty directory and
    // runc cannot mount it onto the file path (StartError, exit 128)
    id: 'subpath_key_missing',
    class: 'crashloop_config',
    title: 'a subPath mount fails (the key is missing: a directory mounted onto a file)',
    role: 'cause',
    strength: 0.93,
    on: ['event', 'state'],
    text: 'error mounting "[^"]*volume-subpaths/(?<volume>[^/"]+)/[^"]*" to rootfs at "(?<target>[^"]+)"[^\\n]*?(?:not a directory|mount a directory onto a file)',
    cause:
      '{subject} cannot start its container: the subPath mount of volume {volume} at {target} fails ("{fact}"). The key that subPath names is missing from the ConfigMap or Secret behind {volume}, so the kubelet creates an empty directory and runc cannot mount it onto a file',
    fix: 'Make the subPath of {subject} at {target} name a key that exists in the ConfigMap/Secret of volume {volume} (or add that key back); then the container starts.',
  },
  {
    id: 'missing_configmap',
    class: 'create_container_config',
    title: 'referenced ConfigMap does not exist',
    role: 'cause',
    strength: 0.93,
    on: ['event', 'state'],
    text: 'configmaps? "(?<cm>[^"]+)" not found',
    cause:
      '{subject} cannot start: the ConfigMap "{cm}" it references does not exist (CreateContainerConfigError)',
    fix: 'Create the ConfigMap {cm} in the namespace (or fix the name referenced by {subject}).',
  },
  {
    id: 'missing_secret',
    class: 'create_container_config',
    title: 'referenced Secret does not exist',
    role: 'cause',
    strength: 0.93,
    on: ['event', 'state'],
    text: 'secrets? "(?<secret>[^"]+)" not found',
    cause:
      '{subject} cannot start: the Secret "{secret}" it references does not exist (CreateContainerConfigError){secret_source}',
    fix: '{secret_fix}Create the Secret {secret} in the namespace (or fix the name referenced by {subject}).',
  },
  {
    id: 'missing_key',
    class: 'create_container_config',
    title: 'referenced key missing in a ConfigMap or Secret',
    role: 'cause',
    strength: 0.94,
    on: ['event', 'state'],
    text: "couldn'?t find key (?<key>[\\w.-]+) in (?<what>ConfigMap|Secret) (?<ref>[\\w./-]+)",
    cause:
      '{subject} cannot start: key "{key}" is missing from {what} {ref} (CreateContainerConfigError)',
    fix: 'Add the key {key} to {what} {ref} (or fix the key name in the env of {subject}).',
  },
  {
    id: 'create_container_config',
    class: 'create_container_config',
    title: 'container configuration error',
    role: 'symptom',
    strength: 0.6,
    on: ['state', 'event'],
    reason: '^CreateContainerConfigError$',
    cause: '{subject} cannot create its container (CreateContainerConfigError)',
    fix: 'Check the ConfigMaps and Secrets {subject} references.',
  },
  // ---------------------------------------------------------------- scheduling and storage
  {
    id: 'pvc_storageclass_missing',
    class: 'pvc_pending',
    title: 'StorageClass does not exist',
    role: 'cause',
    strength: 0.95,
    on: ['event', 'condition', 'text'],
    text: 'storageclass(?:\\.storage\\.k8s\\.io)? "(?<sc>[^"]+)" not found',
    cause:
      'the PersistentVolumeClaim {subject} stays Pending: its StorageClass "{sc}" does not exist, so no volume is provisioned',
    fix: 'Use an existing StorageClass in the claim (see `kubectl get storageclass`) or create "{sc}"; recreate the PVC (storageClassName is immutable).',
  },
  {
    id: 'pvc_no_volume',
    class: 'pvc_pending',
    title: 'no PersistentVolume matches the claim',
    role: 'cause',
    strength: 0.9,
    on: ['event', 'condition'],
    text: 'no persistent volumes available for this claim|no volume plugin matched|waiting for a volume to be created|(?:cannot|could not) find (?:a )?(?:matching )?persistent ?volume',
    cause:
      'the PersistentVolumeClaim {subject} stays Pending: no PersistentVolume matches it{claim_request} (no persistent volumes available for this claim and no dynamic provisioning)',
    fix: 'Create a PersistentVolume that matches the claim (size, access mode, storageClassName, selector) or give the claim a StorageClass with a provisioner.',
  },
  {
    id: 'unbound_pvc',
    class: 'pending_pvc',
    title: 'pod waits for an unbound PersistentVolumeClaim',
    role: 'symptom',
    strength: 0.8,
    on: ['event', 'condition'],
    text: 'unbound immediate PersistentVolumeClaims|persistentvolumeclaim "(?<pvc>[^"]+)" (?:not found|is being deleted)|pod has unbound',
    cause: '{subject} stays Pending: its PersistentVolumeClaim {pvc} is not bound',
    fix: 'Get the claim bound: check `kubectl describe pvc` for why (StorageClass, matching PV).',
  },
  {
    // required podAffinity: the pod may only go where pods with given labels run; when none of
    // them runs (renamed, scaled to zero, moved), no node qualifies
    id: 'sched_pod_affinity',
    class: 'pending_scheduling',
    title: 'required pod affinity matches no running pod',
    role: 'cause',
    strength: 0.91,
    on: ['event', 'condition'],
    text: "didn'?t match pod affinity rules|didn'?t satisfy (?:existing pods )?affinity rules|didn'?t match pod affinity/anti-affinity",
    cause:
      '{subject} stays Pending: its required pod affinity{pod_affinity} ("{fact}"): it may only run on a node next to pods with those labels',
    fix: 'Point the podAffinity of {subject}{pod_affinity} at labels its peer pods carry (`kubectl get pods -l <selector> -A`), or make it preferred instead of required.',
  },
  {
    id: 'sched_selector',
    class: 'pending_scheduling',
    title: 'no node matches the pod’s node selector / affinity',
    role: 'cause',
    strength: 0.9,
    on: ['event', 'condition'],
    text: "didn'?t match (?:Pod's )?node (?:affinity/)?selector|node\\(s\\) didn'?t match node selector|MatchNodeSelector|didn'?t satisfy existing pods anti-affinity|didn'?t match pod anti-affinity",
    cause:
      '{subject} stays Pending: no node matches its node selector / affinity{selector} ("{fact}")',
    fix: 'Fix the nodeSelector/affinity of {subject} to labels that nodes have (`kubectl get nodes --show-labels`), or label a node accordingly.',
  },
  {
    id: 'sched_volume_affinity',
    class: 'pending_scheduling',
    title: 'its volume is pinned to nodes the pod cannot use',
    role: 'cause',
    strength: 0.88,
    on: ['event', 'condition'],
    text: 'node\\(s\\) had volume node affinity conflict|volume node affinity conflict',
    cause:
      '{subject} stays Pending: its PersistentVolume can only be attached in a zone/node where it cannot be scheduled ("{fact}")',
    fix: "Run {subject} where its volume is (nodes in the PersistentVolume's zone, matching selectors/taints), or use a StorageClass with volumeBindingMode WaitForFirstConsumer and recreate the claim.",
  },
  {
    // the scheduler evicted the pods for a pod of higher priority; their replacements then wait
    // for capacity the preemptor took
    id: 'preempted_by_priority',
    class: 'pending_scheduling',
    title: 'pods preempted by a pod of higher priority',
    role: 'cause',
    strength: 0.93,
    on: ['event', 'condition'],
    text: 'Preempted by (?:a )?pod (?<preemptor>[\\w./-]+)(?: on node (?<node>[\\w.-]+))?|preempting to accommodate a higher priority pod',
    cause:
      "{subject}'s pods were preempted: the scheduler evicted them to make room for a pod of higher priority (its PriorityClass outranks {subject}'s), and their replacements stay Pending while that pod holds the capacity ({fact})",
    fix: "Give {subject} a PriorityClass that matches its importance (or lower the preemptor's, or set its preemptionPolicy: Never), and add capacity so both fit; `kubectl get pods -A -o custom-columns=NAME:.metadata.name,PRIORITY:.spec.priorityClassName` shows who outranks whom.",
  },
  {
    id: 'sched_insufficient',
    class: 'pending_scheduling',
    title: 'not enough cpu/memory on any node',
    role: 'cause',
    strength: 0.88,
    on: ['event', 'condition'],
    // not the kubelet's MemoryPressure condition ("kubelet has insufficient memory available")
    text: '(?<!has )Insufficient (?<res>cpu|memory|nvidia\\.com/gpu|ephemeral-storage|pods|[\\w./-]+)',
    cause:
      '{subject} stays Pending: no node has enough free {res} for its requests{requests} ("{fact}"){capacity}{autoscaler}{capacity_holder}',
    fix: 'Lower the {res} requests of {subject}, free capacity, or add nodes{autoscaler_fix}.{capacity_holder_fix}',
  },
  {
    // cluster-autoscaler's NotTriggerScaleUp event / its log: the group cannot grow
    id: 'autoscaler_max_size',
    class: 'pending_scheduling',
    title: 'pods Pending and the cluster autoscaler is at the node group maximum',
    role: 'cause',
    // below sched_insufficient: with its Insufficient event, this is said as why no node comes
    strength: 0.86,
    on: ['event', 'log'],
    text: "didn't trigger scale-up[^\\n]*max node group size reached|Skipping node group (?<group>\\S+) - max size reached",
    cause:
      '{subject} stays Pending: no node has room for its requests{requests}, and the cluster autoscaler adds no node because the node group is at its max size ("{fact}")',
    fix: 'Raise the max size of the node group{group} the cluster autoscaler scales (or add a node group for {subject}), or lower the requests of {subject}; until then the Pending pods wait.',
  },
  {
    // r28a: an apply (a GitOps sync, kubectl apply) that changes a StatefulSet field outside the
    // few the API server lets change (most often volumeClaimTemplates: a persistence size bumped
    // in the same change as the image): the whole apply fails, nothing of it is applied
    id: 'apply_statefulset_spec_forbidden',
    class: 'recent_change',
    title: 'the change cannot be applied: it changes a StatefulSet field that cannot be updated',
    role: 'cause',
    strength: 0.9,
    on: ['event', 'condition', 'status', 'log', 'text'],
    namesSubject: true,
    text: '(?<what>StatefulSet(?:\\.apps)? \\\\?"[\\w.-]+\\\\?") is invalid: spec: Forbidden: updates to statefulset spec for fields other than [^\\n]*?are forbidden',
    cause:
      'the change never reached the cluster: applying {what} fails ("{fact}"). The change touches a StatefulSet field the API server does not let change in place{sts_claim_change}, so the whole apply (the GitOps sync or kubectl apply) fails and the pods keep the previous version, image included',
    fix: '{sts_claim_fix}Take that change out (keep the StatefulSet spec outside template, replicas, updateStrategy as it is live) and apply again; to change it anyway, delete the StatefulSet with `kubectl delete statefulset --cascade=orphan` (pods and PVCs stay) and let the sync re-create it.',
  },
  {
    // r28a: Velero's CSI snapshot of a volume not ready within the backup's csiSnapshotTimeout
    // (10m by default; a volume grown larger snapshots slower): the item fails, the backup ends
    // PartiallyFailed, the volume has no restorable snapshot from that run
    id: 'velero_csi_snapshot_timeout',
    class: 'job_failed',
    title: "Velero's CSI snapshot of a volume times out (csiSnapshotTimeout)",
    role: 'cause',
    strength: 0.88,
    on: ['log'],
    // about the workload whose claim it names, not about Velero
    namesSubject: true,
    text: 'Error backing up item[^\\n]*?backup=(?<backup>[\\w./-]+)[^\\n]*?groupResource=persistentvolumeclaims, namespace=(?<pvc_ns>[\\w-]+), name=(?<pvc>[\\w.-]+)\\)[^\\n]*?timed out waiting for the condition',
    cause:
      'the Velero backup {backup} ends PartiallyFailed: the CSI snapshot of PVC {pvc_ns}/{pvc} was not ready within the backup\'s csiSnapshotTimeout (10m unless the Schedule sets it), so Velero gave up on that volume ("{fact}"){velero_snapshot_done}. That volume has no snapshot from this backup',
    fix: "Raise csiSnapshotTimeout on the Velero Schedule's template (and on manual backups, `velero backup create --csi-snapshot-timeout`) above how long a snapshot of {pvc} takes (a larger volume snapshots slower), then check the next backup completes; until then back that volume up another way.",
  },
  // ------------------------------------ r28a: the cluster autoscaler cannot add or finish removing nodes
  {
    // NotTriggerScaleUp "in backoff after failed scale-up": the cloud refused the last scale-up
    // (a quota, no capacity); the autoscaler's log quotes the cloud's answer
    id: 'autoscaler_scale_up_failed_backoff',
    class: 'pending_scheduling',
    title:
      "pods Pending: the cluster autoscaler's scale-up failed and the node group is in backoff",
    role: 'cause',
    // above sched_insufficient(_on_allowed_node): with its Insufficient event, this says why no
    // node comes
    strength: 0.93,
    on: ['event'],
    text: "didn't trigger scale-up[^\\n]*in backoff after failed scale-up",
    cause:
      '{subject} stays Pending: no node has room for its requests{requests}, and the cluster autoscaler tried to add nodes but the scale-up failed, so the node group is in backoff ("{fact}"){scale_up_error}',
    fix: '{scale_up_fix}Until the node group can grow the Pending pods wait; raising the max size of the group does not help, it is not at its maximum.',
  },
  {
    // ToBeDeletedByClusterAutoscaler: the autoscaler taints a node before deleting it; a taint
    // that stays (the autoscaler restarted or failed between taint and delete) keeps the node
    // unusable, and the autoscaler counts it as "being deleted", not as capacity
    id: 'autoscaler_to_be_deleted_taint_left',
    class: 'pending_scheduling',
    title:
      'nodes keep the ToBeDeletedByClusterAutoscaler taint of a scale-down that never finished',
    role: 'cause',
    // above sched_insufficient and sched_taint: why the tainted nodes are no capacity
    strength: 0.89,
    on: ['event', 'condition'],
    text: 'untolerated taint\\(?s?\\)? ?\\{ToBeDeletedByClusterAutoscaler: ?(?<since>\\d+)\\}',
    cause:
      '{subject} stays Pending: nodes carry the cluster autoscaler\'s ToBeDeletedByClusterAutoscaler taint{tainted_nodes}, so nothing schedules there ("{fact}"){taint_story}',
    fix: 'Remove the ToBeDeletedByClusterAutoscaler taint from {tainted_fix} (`kubectl taint node <node> ToBeDeletedByClusterAutoscaler-`), or delete those nodes so the group can replace them; find why the autoscaler stopped mid scale-down (its previous container: OOMKilled, evicted) and give it room (memory limit).',
  },
  {
    id: 'sched_too_many_pods',
    class: 'pending_scheduling',
    title: 'every node is at its maximum number of pods',
    role: 'cause',
    strength: 0.86,
    on: ['event', 'condition'],
    text: '\\d+ Too many pods',
    cause:
      '{subject} stays Pending: the nodes already run as many pods as they may (kubelet maxPods) ("{fact}")',
    fix: 'Add nodes (cluster autoscaler) or free pod slots; raise maxPods only if the nodes and the CNI have room for more pod IPs.',
  },
  {
    id: 'sched_taint',
    class: 'pending_scheduling',
    title: 'nodes have taints the pod does not tolerate',
    role: 'cause',
    strength: 0.87,
    on: ['event', 'condition'],
    text: "untolerated taint\\(?s?\\)? ?\\{?(?<taint>[^}\\n,]*)\\}?|had taints? (?:\\{(?<taint2>[^}]+)\\} )?that the pod didn'?t tolerate|had taint \\{(?<taint3>[^}]+)\\}",
    cause:
      '{subject} stays Pending: the nodes carry a taint {taint}{taint2}{taint3} it does not tolerate ("{fact}")',
    fix: 'Add a matching toleration to {subject} (if it should run there) or remove the taint from the nodes.',
  },
  // ------------------------------------ nodes, scheduling and container status the kubelet reports
  {
    // the scheduler's NodeVolumeLimits filter: every node already attaches as many volumes as
    // its CSI driver allows (an EBS attach limit per instance type)
    id: 'sched_volume_limit',
    class: 'pending_scheduling',
    title: 'every node is at its limit of attached volumes',
    role: 'cause',
    strength: 0.9,
    on: ['event', 'condition'],
    text: 'node\\(s\\) exceed max volume count|exceeds? (?:the )?max(?:imum)? (?:attachable )?volume count|max volume count',
    cause:
      '{subject} stays Pending{pending_pods}: "{fact}". Each node already has as many volumes attached as it may take (the CSI driver\'s attach limit per node, for EBS a limit per instance type{attach_limit}), so no node can attach the volumes of its new pods: this is the node volume attach limit, not cpu or memory',
    fix: 'Add nodes (or an instance type that attaches more volumes) where {subject} may run, or spread the pods that mount volumes over more nodes (topologySpreadConstraints); `kubectl get csinode <node> -o yaml` shows the allocatable volume count of each node.',
  },
  {
    // the kubelet re-admits the pods bound to it (after its restart, a changed kubeReserved /
    // systemReserved) against the node's allocatable: what no longer fits is failed at admission
    id: 'kubelet_admission_rejected',
    class: 'eviction',
    title: 'the kubelet rejected pods at admission (OutOfcpu / OutOfmemory)',
    role: 'cause',
    // above sched_insufficient: the Pending replacement is its consequence
    strength: 0.93,
    on: ['event', 'status'],
    text: "(?:Pod was rejected: )?Node didn'?t have enough resource: (?<res>[\\w./-]+), requested: (?<requested>\\d+), used: (?<used>\\d+), capacity: (?<admit_capacity>\\d+)",
    cause:
      '{subject}\'s pod{rejected_pods} was rejected by the kubelet of node {node} at admission (phase Failed, reason OutOf{res}): "{fact}". The kubelet admits the pods bound to it against the node\'s allocatable {res}{node_allocatable}, which no longer holds their requests{also_rejected}{kubelet_restart}; the Pending replacement is the consequence, not the cause',
    fix: 'Give node {node} back the allocatable {res} its pods need (undo the kubeReserved/systemReserved change, or move pods off it), or lower the {res} requests of {subject}; the Failed pods stay as records (`kubectl delete pod --field-selector=status.phase=Failed`).',
  },
  {
    // containerd: an image built for another OS (a Linux image on a Windows node, or the reverse)
    id: 'image_os_mismatch',
    class: 'image_pull',
    title: "pods scheduled onto nodes of another operating system than their image's",
    role: 'cause',
    strength: 0.95,
    on: ['event', 'state'],
    text: 'image operating system "(?<image_os>[\\w-]+)" cannot be used on this platform',
    cause:
      '{subject} cannot run its image on the nodes its pods were scheduled to{os_nodes}: "{fact}". The image is built for {image_os}, and those nodes run another operating system, so the container runtime refuses it; it is not the image tag or a pull secret. {subject} has no kubernetes.io/os nodeSelector{os_selector}, so the scheduler may place it on any node',
    fix: 'Add nodeSelector kubernetes.io/os: {image_os} to the pod template of {subject} (and taint the nodes of the other OS so workloads must tolerate them to land there); then delete its stuck pods so they are scheduled again.',
  },
  {
    // not matched line by line: diagnose finds containers of long-running workloads whose last
    // run ended Completed (exit code 0) and that the kubelet restarts (restartPolicy Always)
    id: 'container_exits_completed',
    class: 'crashloop_config',
    title: 'the container ends successfully (exit code 0) and is restarted over and over',
    role: 'cause',
    strength: 0.9,
    on: [],
    cause:
      "{subject} is in CrashLoopBackOff without failing: its container {container} exits successfully (exit code 0, reason Completed) after each start{restarts}. It runs {command}, which does its work and ends instead of running on; a {controller}'s pods restart always (restartPolicy Always), so the kubelet starts it again and backs off. Its logs show no error because nothing failed{command_change}",
    fix: 'Run the long-running process of {subject} as its command again{previous_command}; a one-shot script belongs in a Job (or an init container), not in the main container of a {controller}.',
  },
  {
    // a log shipper (promtail, fluent-bit, vector, grafana-agent) whose pushes the log store
    // refuses with 429: Loki's per-tenant ingestion rate limit
    id: 'log_push_rate_limited',
    class: 'dependency_failure',
    title: "the log store refuses the log agents' pushes: ingestion rate limit (429)",
    role: 'cause',
    strength: 0.92,
    on: ['log'],
    text: '(?:Ingestion|Per stream) rate limit exceeded(?:[^\\n]*?\\(limit: (?<ingest_limit>\\d+) bytes\\/sec\\))?',
    cause:
      '{subject} cannot deliver the logs it collects: the log store answers its pushes with 429 Too Many Requests, {ingest_said} ("{fact}"). The agent retries and then drops the batches, so lines of every pod on its nodes go missing in the store (and in Grafana) while the applications themselves run fine{log_store}',
    fix: 'Raise the ingestion rate limit of the log store (Loki: limits_config ingestion_rate_mb and ingestion_burst_size_mb, or a per-tenant override) above the volume the agents send, or cut that volume (a workload logging at debug, a chatty stream: drop or sample it in the agent); the agents then catch up.',
  },
  {
    id: 'failed_scheduling',
    class: 'pending_scheduling',
    title: 'pod cannot be scheduled',
    role: 'symptom',
    strength: 0.6,
    on: ['event', 'condition'],
    reason: '^(FailedScheduling|Unschedulable)$',
    cause: '{subject} stays Pending: the scheduler finds no node for it',
    fix: 'Read the FailedScheduling message: requests, selectors, taints, volumes.',
  },
  // ---------------------------------------------------------------- jobs
  {
    id: 'job_deadline',
    class: 'job_failed',
    title: 'Job ran past its activeDeadlineSeconds',
    role: 'cause',
    strength: 0.9,
    on: ['event', 'condition'],
    // not a gRPC status ("rpc error: code = DeadlineExceeded" of a probe or a call)
    text: '(?<!Progress)(?<!code = )DeadlineExceeded|Job was active longer than specified deadline',
    cause:
      'the Job {subject} failed with DeadlineExceeded: it ran longer than its activeDeadlineSeconds{deadline} and was terminated',
    fix: 'Make {subject} finish sooner (less work per run, faster dependency) or raise spec.activeDeadlineSeconds.',
  },
  {
    id: 'job_backoff',
    class: 'job_failed',
    title: 'Job failed: BackoffLimitExceeded',
    role: 'symptom',
    strength: 0.7,
    on: ['event', 'condition'],
    text: 'BackoffLimitExceeded|Job has reached the specified backoff limit',
    cause:
      'the Job {subject} failed (BackoffLimitExceeded): its pods failed {backoff} times in a row',
    fix: 'Read the logs of the failed pods of {subject} for the error and fix it before re-running the Job.',
  },
  // ---------------------------------------------------------------- probes
  {
    id: 'probe_refused',
    class: 'probe_failure',
    title: 'health probe hits a port nothing listens on',
    role: 'cause',
    strength: 0.86,
    on: ['event'],
    reason: '^Unhealthy$',
    text: '(?<probe>Liveness|Readiness|Startup) probe failed: [^\\n]*?(?<url>https?://[\\w.:-]+(?<port>:\\d+)?[^"\\s]*)"?[^\\n]*connection refused',
    cause:
      "{subject}'s {probe} probe fails with connection refused on {url}: nothing listens on the probed port{probe_port} (the probe's port does not match the container's)",
    fix: 'Point the {probe} probe of {subject} at the port the app listens on (containerPort{app_port}).',
  },
  {
    id: 'probe_status',
    class: 'probe_failure',
    title: 'health probe gets an error status (wrong path)',
    role: 'cause',
    strength: 0.86,
    on: ['event'],
    reason: '^Unhealthy$',
    text: '(?<probe>Liveness|Readiness|Startup) probe failed: HTTP probe failed with statuscode: (?<code>[1-4]\\d\\d)',
    cause:
      "{subject}'s {probe} probe gets HTTP {code} from {probe_target}: the probe path is wrong or the endpoint fails",
    fix: 'Point the {probe} probe of {subject} at a health endpoint that exists (check the path) and answers 200.',
  },
  {
    // 429 Too Many Requests to the kubelet's probe: a rate limiter that does not exempt the
    // health endpoint counts the probes with the traffic
    id: 'probe_rate_limited',
    class: 'probe_failure',
    title: 'health probe answered 429 by a rate limiter',
    role: 'cause',
    strength: 0.87,
    on: ['event'],
    reason: '^Unhealthy$',
    text: '(?<probe>Liveness|Readiness|Startup) probe failed: HTTP probe failed with statuscode: 429',
    cause:
      "{subject}'s {probe} probe gets HTTP 429 Too Many Requests from {probe_target}: a rate limiter{rate_limit} counts the probes with the traffic and refuses them when it is busy, so pods fail the probe under load",
    fix: 'Exempt the health endpoint of {subject} from its rate limiter (or limit per client, not globally); the probe must not compete with traffic.',
  },
  {
    // a stop-the-world collection longer than a second: probes and clients time out meanwhile
    // (unified JVM logging "Pause Full (G1 Compaction Pause) 1531M->1430M(1536M) 2580.242ms",
    // JDK 8 "[Full GC (Ergonomics) ... 2.5123 secs]")
    id: 'jvm_gc_pause',
    class: 'probe_failure',
    title: 'long JVM garbage-collection pauses (heap nearly full)',
    role: 'cause',
    strength: 0.84,
    on: ['log'],
    text: '(?<pause>Pause (?:Full|Young|Remark|Cleanup)\\b[^\\n]*?(?<heap>\\d+[MG]->\\d+[MG]\\(\\d+[MG]\\))? (?<ms>[1-9]\\d{3,}(?:\\.\\d+)?)ms)|(?<pause2>Full GC[^\\n]*?(?<secs>[1-9]\\d*\\.\\d+) secs)',
    cause:
      '{subject} stops for seconds in garbage collection ("{fact}"): its heap is nearly full, so the JVM runs back-to-back full GC pauses during which it answers nothing; probes and clients time out meanwhile{gc_probe}',
    fix: 'Give {subject} more heap (-Xmx / MaxRAMPercentage, with the container memory limit to match) or find what fills it (a heap dump); meanwhile a readiness timeoutSeconds longer than the pauses keeps pods in the Service.',
  },
  {
    // gunicorn's master kills a worker that did not answer within --timeout (default 30 s)
    id: 'gunicorn_worker_timeout',
    class: 'hpa_throttling',
    title: 'gunicorn workers killed for exceeding their timeout',
    role: 'cause',
    // above the ingress's failed upstream requests it explains
    strength: 0.9,
    on: ['log'],
    text: '\\[CRITICAL\\] WORKER TIMEOUT \\(pid:\\d+\\)',
    cause:
      '{subject}\'s gunicorn workers do not answer within gunicorn\'s --timeout, so the master kills them ("{fact}") and the proxy in front answers 502 for those requests{saturation}',
    fix: 'Find why requests of {subject} take longer than the worker timeout (CPU at its limit, an autoscaler at its maximum, a slow dependency), fix that first; raise --timeout or use async workers only for work that is meant to be long.',
  },
  {
    id: 'probe_timeout',
    class: 'probe_failure',
    title: 'health probe times out (slow start or overload)',
    role: 'cause',
    strength: 0.8,
    on: ['event'],
    reason: '^Unhealthy$',
    text: '(?<probe>Liveness|Readiness|Startup) probe failed: [^\\n]*(?:context deadline exceeded|Client\\.Timeout|timeout|timed out)',
    cause:
      "{subject}'s {probe} probe times out{probe_target}: the app does not answer within the probe's timeout (slow start or overload), {probe_effect}{cpu_limit_from}",
    fix: 'Give {subject} a startupProbe or a larger initialDelaySeconds/failureThreshold/timeoutSeconds for its {probe} probe, and check why it starts slowly.{cpu_limit_fix}',
  },
  {
    // the app's own health endpoint fails because a dependency it checks is slow or down; the
    // probe that calls it (readiness: out of the Service; liveness: restarted) comes from events
    id: 'health_checks_dependency',
    class: 'probe_failure',
    title: 'the health check waits on a dependency',
    role: 'cause',
    strength: 0.88,
    on: ['log'],
    text: '(?:readiness|readyz|liveness|livez|health) check (?:failed|failing|error)[^\\n]*?(?:"check"\\s*:\\s*"(?<check>[\\w.-]+)"|\\bcheck=(?<check2>[\\w.-]+)|\\bdependency[=:]\\s*"?(?<check3>[\\w.-]+))',
    cause:
      '{subject}\'s {probe} check also checks its dependency {check}{check2}{check3} and fails when that one is slow or down ("{fact}"): {probe_effect}',
    fix: 'Take {check}{check2}{check3} out of the {probe} check of {subject} (a health check should test the process itself; degrade or fail only the requests that need it), and find why {check}{check2}{check3} is slow.',
  },
  {
    id: 'probe_failed',
    class: 'probe_failure',
    title: 'health probe failing',
    role: 'symptom',
    strength: 0.65,
    on: ['event'],
    reason: '^Unhealthy$',
    text: '(?<probe>Liveness|Readiness|Startup) probe (?:failed|errored)',
    cause: "{subject}'s {probe} probe is failing",
    fix: 'Check the probe of {subject} (port, path, timeouts) against what the app serves.',
  },
  // ---------------------------------------------------------------- nodes
  {
    id: 'node_not_ready',
    class: 'node_not_ready',
    title: 'node NotReady',
    role: 'cause',
    strength: 0.85,
    on: ['condition', 'event'],
    text: 'container runtime network not ready[^\\n]*|NetworkPluginNotReady[^\\n]*|cni plugin not initialized|Kubelet stopped posting node status|NodeNotReady|status is now: NodeNotReady|node is not ready|container runtime is down|PLEG is not healthy|network plugin is not ready',
    cause:
      'node {node} is NotReady ("{fact}"): its kubelet stopped reporting, so the pods on it are unreachable and get evicted{node_cause}',
    fix: '{node_fix}Check node {node}: kubelet and container runtime status (`systemctl status kubelet`, its logs), network and the machine itself; cordon and drain it if it does not recover.',
  },
  {
    // the cloud route controller could not create the route to the node's pod CIDR: the node is
    // Ready, its pods run, but nothing routes traffic between them and other nodes' pods
    id: 'node_network_unavailable',
    class: 'node_not_ready',
    title: 'node NetworkUnavailable (no route to its pods)',
    role: 'cause',
    strength: 0.9,
    on: ['condition', 'event'],
    reason: 'NoRouteCreated|FailedToCreateRoute|NetworkUnavailable',
    text: "RouteController failed to create a route[^\\n]*|Could not create route[^\\n]*|Quota '\\w+' exceeded[^\\n]*|NoRouteCreated",
    cause:
      'node {node} has NetworkUnavailable=True ("{fact}"): the cloud network has no route to the pod addresses of that node, so its pods cannot reach pods on other nodes (nor be reached from them) although they run and look healthy',
    fix: 'Fix what keeps the route controller from creating the route of node {node} (its events say: a quota such as ROUTES exceeded, or missing permissions), then check the condition clears; meanwhile cordon {node} and move its pods to other nodes.',
  },
  {
    // node-problem-detector's KernelDeadlock: a task (the container runtime) hung in the kernel;
    // the kubelet cannot manage containers there and the node goes NotReady (PLEG)
    id: 'node_kernel_deadlock',
    class: 'node_not_ready',
    title: 'a node has a kernel deadlock (a hung task, node-problem-detector)',
    role: 'cause',
    strength: 0.9,
    on: ['condition', 'event', 'log'],
    reason: '^(?:KernelDeadlock|DockerHung|TaskHung|ContainerdHung)$',
    text: 'task \\S+ blocked for more than \\d+ seconds[^\\n]*|KernelDeadlock[^\\n]*|(?:Docker|Task|Containerd)Hung[^\\n]*',
    cause:
      'node {subject} has a kernel deadlock (KernelDeadlock, reported by node-problem-detector): "{fact}". A task (the container runtime) hangs in the kernel, so the kubelet cannot manage the containers there: pods on it hang or stop answering, new ones stay in ContainerCreating, and the node goes NotReady when the kubelet\'s PLEG check fails',
    fix: 'Cordon and drain {subject}, then reboot or replace it (a task hung in the kernel does not recover by itself); if it recurs, check the kernel and runtime versions and the disk the task waited on.',
  },
  {
    id: 'node_pressure',
    class: 'eviction',
    title: 'node under resource pressure',
    role: 'cause',
    strength: 0.75,
    on: ['condition', 'event'],
    reason:
      '^(MemoryPressure|DiskPressure|PIDPressure|EvictionThresholdMet|NodeHasDiskPressure|NodeHasInsufficientMemory)$',
    text: 'has (?<res>memory|disk|PID) pressure|NodeHas(?<res2>Disk|Memory|PID)Pressure|has insufficient (?<res3>memory|disk)|Attempting to reclaim (?<res4>[\\w-]+)|EvictionThresholdMet',
    cause:
      'node {node} is under {res}{res2}{res3}{res4} pressure and the kubelet evicts pods ("{fact}")',
    fix: 'Free {res}{res2}{res3}{res4} on node {node} (find the largest consumers), set requests/limits that reflect real use, or add capacity.',
  },
  {
    id: 'evicted_pids',
    class: 'eviction',
    title: 'pods evicted because the node ran out of process IDs',
    role: 'cause',
    strength: 0.88,
    on: ['status', 'event', 'state', 'condition'],
    // "The node was low on resource: pids", NodeHasInsufficientPID / PIDPressure
    text: 'The node was low on resource: pids[^\\n]*|PIDPressure True[^\\n]*|NodeHasInsufficientPID[^\\n]*|kubelet has insufficient PID available',
    cause:
      'node {node} ran out of process IDs (PIDPressure), so the kubelet evicts pods such as {subject} ("{fact}"): a pod on it spawns processes it never reaps (leaked or zombie/defunct child processes)',
    fix: 'Find the pod with the most processes on node {node} (`ps` / the pids cgroup: a browser, a shell loop or a worker that forks without reaping), fix its leak (an init such as tini to reap children, close what it starts) and cap pods with a PID limit (kubelet podPidsLimit).',
  },
  {
    id: 'evicted',
    class: 'eviction',
    title: 'pods evicted by the kubelet',
    role: 'cause',
    strength: 0.85,
    on: ['status', 'event', 'state'],
    text: 'The node (?:was low on|had condition:?) (?:resource: )?\\[?(?<res>[\\w-]+)\\]?|Evicted|ephemeral local storage usage exceeds|Usage of EmptyDir volume',
    cause: '{subject} pods were evicted by the kubelet of node {node}: "{fact}"',
    fix: 'Set memory/ephemeral-storage requests and limits on {subject} that match its real use (and find what filled the node), so it is not the first evicted.',
  },
  // ---------------------------------------------------------------- permissions
  {
    // no credentials at all: the API server sees system:anonymous (no token mounted)
    id: 'rbac_anonymous_no_token',
    class: 'rbac_denied',
    title: 'calls the Kubernetes API without credentials (no ServiceAccount token mounted)',
    role: 'cause',
    strength: 0.94,
    on: ['log', 'event', 'text'],
    text: 'User \\\\?"system:anonymous\\\\?" cannot (?<verb>\\w+) resource \\\\?"(?<res>[^"\\\\]+)|Service ?[Aa]ccount token file does not exist|/var/run/secrets/kubernetes\\.io/serviceaccount/token: no such file',
    cause:
      '{subject} calls the Kubernetes API without credentials, so the API server treats it as system:anonymous and refuses it ("{fact}"): no ServiceAccount token is mounted in its pods (automountServiceAccountToken: false on the pod or its ServiceAccount), so its RBAC rules never apply',
    fix: 'Mount the token again (`automountServiceAccountToken: true` on the pod spec, or a projected serviceAccountToken volume) and roll out {subject}; its Role and RoleBinding then apply.',
  },
  {
    id: 'rbac_forbidden',
    class: 'rbac_denied',
    title: 'ServiceAccount forbidden by RBAC',
    role: 'cause',
    strength: 0.92,
    on: ['log', 'event', 'text', 'state'],
    // quotes may come escaped (a Status body printed inside a JSON log line)
    text: 'forbidden: User \\\\?"(?<user>[^"\\\\]+)\\\\?" cannot (?<verb>\\w+) resource \\\\?"(?<res>[^"\\\\]+)\\\\?"(?: in API group \\\\?"(?<group>[^"\\\\]*)\\\\?")?(?: in the namespace \\\\?"(?<ns>[^"\\\\]+)\\\\?"| at the cluster scope)?',
    cause:
      '{subject} is denied by RBAC: {user} cannot {verb} {res}{in_ns} ("{fact}"): its ServiceAccount lacks a Role/RoleBinding for that',
    fix: 'Grant {user} the {verb} permission on {res} with a Role and RoleBinding (least privilege), or run {subject} with the ServiceAccount that has it.',
  },
  {
    id: 'serviceaccount_missing',
    class: 'rbac_denied',
    title: 'ServiceAccount does not exist',
    role: 'cause',
    strength: 0.93,
    on: ['event', 'condition', 'status', 'text'],
    text: '(?:error looking up service account [\\w.-]+/[\\w.-]+: )?serviceaccounts? "(?<sa>[^"]+)" not found',
    cause:
      'the pods of {subject} cannot be created: the ServiceAccount "{sa}" they run as does not exist ("{fact}")',
    fix: 'Create the ServiceAccount {sa} in the namespace (with the Role/RoleBindings it needs), or set serviceAccountName of {subject} to one that exists.',
  },
  {
    // IRSA: the pod's projected token is exchanged by STS, which must trust the cluster's OIDC
    // issuer through an IAM identity provider (a rebuilt cluster has a new issuer URL)
    id: 'aws_oidc_provider_missing',
    class: 'rbac_denied',
    title: 'AWS STS does not trust the cluster (IRSA OIDC provider missing)',
    role: 'cause',
    strength: 0.89,
    on: ['log', 'text'],
    text: 'No OpenIDConnect provider found[^\\n]*|InvalidIdentityToken[^\\n]*',
    cause:
      '{subject} cannot get AWS credentials through the IAM role of its ServiceAccount (IRSA): "{fact}". STS does not trust the cluster\'s OIDC issuer: no IAM OpenIDConnect (OIDC) provider exists for it (a rebuilt cluster has a new issuer URL)',
    fix: "Create the IAM OIDC identity provider for the cluster's issuer URL (`eksctl utils associate-iam-oidc-provider --approve`) and point the role's trust policy at the new issuer; then restart {subject}.",
  },
  {
    // Vault's Kubernetes auth refuses the pod's ServiceAccount token: the role is bound to other
    // ServiceAccount names or namespaces (the agent init container never renders the secrets)
    id: 'vault_kubernetes_login_denied',
    class: 'rbac_denied',
    title: "Vault refuses the pod's Kubernetes login (403 permission denied)",
    role: 'cause',
    strength: 0.92,
    on: ['log'],
    text: '/v1/auth/(?<mount>[\\w/-]*kubernetes[\\w/-]*)/login\\b[^\\n]*?Code: 403\\.[^\\n]*?permission denied',
    cause:
      '{subject} cannot log in to Vault: Vault\'s Kubernetes auth ({mount}) answers 403 permission denied to its pod ("{fact}"): the Vault role it asks for is not bound to the ServiceAccount the pod runs as{service_account} (bound_service_account_names / namespaces), so the agent never gets a token or renders the secrets',
    fix: 'Bind the ServiceAccount of {subject}{service_account} to its Vault role (bound_service_account_names and namespaces), or run the pods as the ServiceAccount the role names; a ServiceAccount renamed in a release needs the role changed with it.',
  },
  // ---------------------------------------------------------------- network
  {
    id: 'dns_failure',
    class: 'dns_failure',
    title: 'DNS resolution fails',
    role: 'cause',
    strength: 0.86,
    on: ['log', 'event', 'text', 'state'],
    text: '(?:lookup (?<host>[\\w.-]+)(?: on [\\d.:]+)?: (?:no such host|server misbehaving|i/o timeout|read udp[^\\n]*i/o timeout))|getaddrinfo (?:ENOTFOUND|EAI_AGAIN) (?<host2>[\\w.-]+)|server can\'t find (?<host6>[\\w-]+(?:\\.[\\w-]+)*): NXDOMAIN|(?:Name or service not known|Temporary failure in name resolution|NXDOMAIN|could not resolve host:? ?(?<host3>[\\w.-]+)?|UnknownHostException:? ?(?<host4>[\\w.-]+)?|host not found in upstream "(?<host5>[\\w.-]+))',
    cause:
      '{subject} cannot resolve {host}{host2}{host3}{host4}{host5}{host6}: DNS lookups fail ("{fact}"){advertised}{peer_dns}',
    fix: '{dns_fix}',
  },
  {
    // a mesh proxy (Linkerd) that cannot connect to a destination's endpoints puts the service in
    // fail-fast and answers 503 for it at once
    id: 'mesh_proxy_fail_fast',
    class: 'dependency_failure',
    title: "the client's mesh proxy cannot connect to the destination's endpoints (fail-fast)",
    role: 'cause',
    strength: 0.88,
    on: ['log'],
    text: 'service in fail-fast[^\\n]*|linkerd_reconnect: Failed to connect[^\\n]*',
    cause:
      '{subject}\'s mesh proxy cannot connect to {mesh_dest}: "{fact}". It stops trying (fail-fast) and answers 503 for it at once{unmeshed}',
    fix: '{unmeshed_fix}Check that the pods of {mesh_dest} accept connections from the proxy on their port (the NetworkPolicies in front of them, their readiness) and that the mesh is the same on both sides.',
  },
  {
    // not matched line by line: diagnose pairs a sidecar-less client's resets with a meshed
    // dependency
    id: 'mesh_mtls_plaintext_refused',
    class: 'tls_certificate',
    title: 'a client outside the service mesh is refused by a sidecar that requires mTLS',
    role: 'cause',
    strength: 0.91,
    on: [],
    cause:
      '{subject} has no service-mesh sidecar, while {dependency} runs the {proxy} sidecar: its calls to {dependency} are reset ("{fact}"){refused}. A sidecar that requires mutual TLS (an Istio PeerAuthentication in STRICT mode for {dependency}\'s namespace, or Linkerd\'s authenticated-only policy) drops plaintext connections, and a client without a sidecar speaks plaintext',
    fix: 'Put {subject} in the mesh (sidecar injection: label its namespace istio-injection=enabled or its pods sidecar.istio.io/inject=true, then restart it), or set the PeerAuthentication of {dependency} to PERMISSIVE (a portLevelMtls exception for its port) until every client has a sidecar; `kubectl get peerauthentication -A` shows which policy turned STRICT.',
  },
  {
    // the app's first connections go out before its sidecar has its configuration
    id: 'mesh_proxy_not_ready_at_start',
    class: 'crashloop_connection',
    title: 'the app starts before its mesh sidecar is ready',
    role: 'cause',
    strength: 0.9,
    on: [],
    cause:
      '{subject} starts before its {proxy} sidecar is ready: its first connection fails at {failed_at} ("{fact}") while the proxy is not ready yet{not_ready} (ready at {ready_at}), so the app exits and the kubelet restarts it once; the second start, with the proxy ready, works',
    fix: 'Make the app wait for the sidecar: Istio `holdApplicationUntilProxyStarts: true` (the pod annotation `proxy.istio.io/config: \'{ "holdApplicationUntilProxyStarts": true }\'`, or mesh-wide in meshConfig.defaultConfig), or native sidecars (Kubernetes 1.29+); or have the app retry its first connections.',
  },
  {
    // the CNI cannot give a new pod an address: the node's (or its subnet's) IPs are used up
    id: 'pod_ip_exhausted',
    class: 'node_not_ready',
    title: 'new pods get no IP address on the node (CNI addresses used up)',
    role: 'cause',
    strength: 0.9,
    on: ['event'],
    reason: 'FailedCreatePodSandBox',
    text: 'failed to assign an IP address[^\\n"]*|failed to allocate (?:an? )?IP(?:v4)? address[^\\n"]*|no (?:more )?(?:free )?IP addresses? (?:available|left)[^\\n"]*|no IP addresses available in range set[^\\n"]*|InsufficientFreeAddressesInSubnet',
    cause:
      'the pods of {subject} on node {node} get no IP address ("{fact}"): the CNI has no address left to give them, so their sandbox is never created and they stay ContainerCreating{cni_error}',
    fix: "Give node {node} pod addresses again: AWS VPC CNI: free addresses in its subnet (a larger or additional subnet, prefix delegation, a lower WARM_IP_TARGET / WARM_ENI_TARGET); other CNIs: the node's pod CIDR or IP pool. Meanwhile move the pods to nodes that have addresses (cordon {node}).",
  },
  {
    // containerd still holds the pod's sandbox name from an attempt before it or the node
    // restarted uncleanly: it refuses every new try to create that sandbox (containerd/cri#1014)
    id: 'sandbox_name_reserved',
    class: 'node_not_ready',
    title:
      "the node's container runtime still holds the pod's sandbox name (containerd state left from before a restart)",
    role: 'cause',
    strength: 0.9,
    on: ['event'],
    reason: 'FailedCreatePodSandBox',
    text: 'failed to reserve sandbox name[^\\n]*',
    cause:
      'the pods of {subject} on node {node} stay ContainerCreating: the container runtime (containerd) on {node} refuses to create their sandbox ("{fact}"). It still holds that sandbox name from an earlier attempt, left in its state by a restart of containerd or of the node, so every retry of the kubelet is refused while new pods start there',
    fix: 'Restart containerd on {node} (`systemctl restart containerd`) so it drops the stale reservation, or delete the stuck pods so they are recreated under new names; if it comes back after reboots, check that containerd stops cleanly before the node shuts down and upgrade it.',
  },
  {
    // the kubelet knows a CSI driver only while its node plugin runs on that node
    id: 'csi_driver_not_registered',
    class: 'pending_pvc',
    title: "the volume's CSI driver is not registered on the node (its node plugin is not running)",
    role: 'cause',
    strength: 0.9,
    on: ['event'],
    text: 'driver name (?<driver>[\\w.-]+) not found in the list of registered CSI drivers',
    cause:
      '{subject}\'s volume cannot be mounted on node {node}: the CSI driver {driver} is not registered there ("{fact}"), because its node plugin does not run on that node{csi_node}',
    fix: 'Get the {driver} node plugin running on {node}{csi_node_fix}; once it registers, the kubelet mounts the volume and the pod starts. Until then, cordon {node} so the pod can run elsewhere.',
  },
  {
    // not matched line by line: diagnose pairs an unhealthy kube-proxy / CNI pod with the pods of
    // its node that time out
    id: 'node_network_agent_down',
    class: 'dependency_failure',
    title: "the node's network agent is down (kube-proxy / CNI)",
    role: 'cause',
    strength: 0.95,
    on: [],
    cause:
      '{subject} fails on node {node} only: {agent_kind} does not run there ({fact}), so pod {pod} on that node gets no answer from Services and lookups ("{symptom}"){elsewhere}',
    fix: 'Fix {agent} on node {node} (its error says why: kernel modules, configuration, the node image) or cordon and drain {node} so the pods of {subject} move to healthy nodes.',
  },
  {
    // not matched line by line: diagnose compares the GOMAXPROCS a Go runtime logs with the
    // container's CPU limit
    id: 'go_maxprocs_over_limit',
    class: 'hpa_throttling',
    title: "the Go runtime runs more threads than the container's CPU limit (GOMAXPROCS)",
    role: 'cause',
    strength: 0.9,
    on: [],
    cause:
      "{subject} is CPU-throttled: its Go runtime runs with GOMAXPROCS {procs} (the node's CPU count) under a CPU limit of {procs_limit}, so {procs} threads spend the CFS quota early in every period and the container is throttled for the rest of it{cpu_use}; requests, and its health endpoint, answer in seconds{probe_effect}",
    fix: 'Set GOMAXPROCS of {subject} from its CPU limit (env GOMAXPROCS from resourceFieldRef limits.cpu, or go.uber.org/automaxprocs; Go 1.25 does it by itself), and give its liveness probe a timeout that survives load; raise the CPU limit if it still needs more.',
  },
  {
    // not matched line by line: diagnose compares the port an app says it listens on with the
    // targetPort of the Service in front of it, when connections to that targetPort are refused
    id: 'service_port_not_listened',
    class: 'recent_change',
    title: "the app listens on another port than its Service's targetPort",
    role: 'cause',
    strength: 0.93,
    on: [],
    cause:
      '{subject} listens on port {listen}{listen_source}, but its Service {service} sends traffic to port {target} (targetPort), where nothing listens: every connection is refused ("{refused}"), so clients get 502s while the pods look Running{no_readiness}',
    fix: 'Make {subject} listen on {target} again (drop the setting that moved it to {listen}), or point the Service targetPort (and containerPort, probes) of {service} at {listen}; add a readiness probe on that port so a pod that does not listen there never gets traffic.',
  },
  {
    // not matched line by line: diagnose finds a StatefulSet whose first members exist, the last
    // of them not Ready, and the rest never created (OrderedReady waits for it)
    id: 'statefulset_ordered_ready_blocked',
    class: 'probe_failure',
    title: 'StatefulSet members never created: OrderedReady waits for a member that is not Ready',
    role: 'cause',
    strength: 0.9,
    on: [],
    cause:
      'the StatefulSet {subject} has {existing} of its {desired} members: with podManagementPolicy OrderedReady{policy_source} it creates {next} only once {waiting} is Ready, and {waiting} is not ({fact}){peers}',
    fix: 'If {subject} needs its peers to become Ready (a clustered store such as etcd, ZooKeeper, Consul that waits for a quorum), set podManagementPolicy: Parallel (a new StatefulSet: it cannot be changed in place, so recreate it keeping its claims) or make its readiness not wait for the peers; otherwise fix why {waiting} is not Ready.',
  },
  {
    // not matched line by line: diagnose compares the drain/shutdown timeout an app is given (its
    // environment, or what it logs when it starts or stops) with its pods' grace period
    id: 'drain_exceeds_grace_period',
    class: 'recent_change',
    title: 'pods killed before their graceful shutdown ends (drain longer than the grace period)',
    role: 'cause',
    strength: 0.9,
    on: [],
    cause:
      "{subject}'s pods are killed before their graceful shutdown ends: it drains for up to {drain} ({drain_source}) after SIGTERM, but terminationGracePeriodSeconds is {grace}, so the kubelet sends SIGKILL {grace} s after each pod is told to stop and every connection it still holds breaks (502s, dropped streams) on every rollout or scale-down{stopped}",
    fix: 'Raise terminationGracePeriodSeconds of {subject} above its drain time plus any preStop delay (at least {suggest} s), or lower its drain timeout below {grace} s.',
  },
  {
    // not matched line by line: diagnose reads the egress NetworkPolicies of pods whose
    // connections to a port time out
    id: 'netpol_blocks_port',
    class: 'dependency_failure',
    title: 'an egress NetworkPolicy does not open the port a dependency listens on',
    role: 'cause',
    strength: 0.93,
    on: [],
    cause:
      "{subject}'s connections to {target} time out because egress NetworkPolicies select its pods and do not open port {port}: {policies}{created} open only {opened}, so the packets are dropped and the connection gets no answer",
    fix: 'Add port {port} to the egress rules of {policies} (to the destination {subject} now uses), or point {subject} back at a port the policy opens.',
  },
  {
    // not matched line by line: diagnose reads the egress NetworkPolicies of pods whose lookups
    // time out
    id: 'netpol_blocks_dns',
    class: 'dns_failure',
    title: 'an egress NetworkPolicy blocks DNS (port 53)',
    role: 'cause',
    strength: 0.94,
    on: [],
    cause:
      "{subject}'s name lookups time out because egress NetworkPolicies select its pods and allow no DNS: {policies}{created} open only {opened}, not port 53 (UDP and TCP) to kube-dns, so every lookup of {host} gets no answer while the cluster DNS itself is fine",
    fix: 'Add an egress rule for DNS to the policies of {subject} (UDP and TCP port 53 to the kube-dns pods in kube-system), or roll back the NetworkPolicy change ({policies}); then lookups resolve again.',
  },
  {
    id: 'dns_upstream_unreachable',
    class: 'dns_failure',
    title: 'cluster DNS cannot reach its upstream resolver',
    role: 'cause',
    strength: 0.9,
    on: ['log'],
    // coredns: "[ERROR] plugin/errors: 2 api.stripe.com. A: read udp 10.0.18.171:51403->10.20.0.3:53: i/o timeout"
    text: 'plugin/errors: \\d+ (?<qname>\\S+) \\w+: (?:read|dial) udp [\\d.:]+->(?<upstream>[\\d.]+):53: i/o timeout|plugin/forward: no healthy upstreams?[^\\n]*|no healthy upstream[^\\n]*',
    cause:
      'cluster DNS (coredns) cannot reach its upstream resolver {upstream}: lookups of names outside the cluster time out ("{fact}")',
    fix: "Check the `forward` line of the coredns Corefile (ConfigMap coredns in kube-system) and the upstream resolver {upstream}: point it back at a resolver that answers (the VPC resolver or the nodes' /etc/resolv.conf).",
  },
  {
    // ingress-nginx: the Secret an Ingress names under spec.tls does not exist in the Ingress's
    // namespace (Secrets are namespaced), so the controller serves its self-signed default
    id: 'ingress_tls_secret_missing',
    class: 'tls_certificate',
    title: 'Ingress TLS Secret not found: the default (fake) certificate is served',
    role: 'cause',
    strength: 0.9,
    on: ['log', 'event'],
    text: 'local SSL certificate (?<secret>[\\w.-]+/[\\w.-]+) was not found|Error getting SSL certificate "(?<secret2>[^"]+)"',
    cause:
      'the TLS Secret {secret}{secret2} that an Ingress names does not exist, so the ingress controller serves its default self-signed certificate ("Kubernetes Ingress Controller Fake Certificate") for its hosts ("{fact}"){secret_elsewhere}',
    fix: 'Create the Secret {secret}{secret2} in the namespace of the Ingress (an Ingress only sees Secrets of its own namespace: copy it, or let cert-manager issue it there), or point spec.tls.secretName at a Secret that exists.',
  },
  {
    // cert-manager's ACME order refused by the CA's rate limit: no certificate, no Secret
    id: 'acme_rate_limited',
    class: 'tls_certificate',
    title: 'the ACME CA refuses a new certificate (rate limit)',
    role: 'cause',
    strength: 0.93,
    on: ['log', 'event'],
    text: 'urn:ietf:params:acme:error:rateLimited[^\\n]*|too many certificates \\(\\d+\\) already issued[^\\n]*',
    cause:
      'cert-manager cannot get a certificate for {subject}: the ACME CA (Let\'s Encrypt) refuses new orders with its rate limit ("{fact}"). Until it is issued the TLS Secret does not exist, so the ingress controller serves its default self-signed certificate ("Fake Certificate") and browsers warn',
    fix: 'Stop re-issuing for the same names (keep the TLS Secret when namespaces or Certificates are recreated, or back it up and restore it), wait for the retry time the CA gives, or meanwhile serve a certificate from another issuer; see https://letsencrypt.org/docs/rate-limits/.',
  },
  {
    id: 'clock_skew',
    class: 'tls_certificate',
    title: "the node's clock is behind (TLS certificates not yet valid)",
    role: 'cause',
    strength: 0.95,
    on: ['log', 'text', 'event'],
    text: 'certificate has expired or is not yet valid: current time (?<current>[\\dT:.Z+-]+) is before (?<notbefore>[\\dT:.Z+-]+)',
    cause:
      "{subject}'s clock is behind: TLS verification fails because its current time ({current}) is before the certificate's start ({notbefore}), so the certificate is not yet valid for it (clock skew on its node; the certificate itself is valid)",
    fix: 'Fix time sync (NTP / chrony) on the node that runs the failing pod and move the pod off it meanwhile (cordon the node, delete the pod); the certificate itself is fine.',
  },
  {
    id: 'tls_unknown_authority',
    class: 'tls_certificate',
    title: 'TLS certificate signed by a CA the client does not trust',
    role: 'cause',
    strength: 0.91,
    on: ['log', 'text', 'event'],
    // Go, OpenSSL/Python, Node and Java words for "the chain does not end at a CA I trust"
    text: '(?:https?://(?<host>[\\w-]+(?:\\.[\\w-]+)+)[^\\n]*?)?(?:x509: certificate signed by unknown authority|unable to get local issuer certificate|self[- ]signed certificate in certificate chain|UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|unable to find valid certification path to requested target|PKIX path building failed)',
    cause:
      '{subject} does not trust the TLS certificate {tls_server} presents: it is signed by a CA that is not in the trust bundle of {subject}{trust} ("{fact}"), typically after the CA was rotated or a server certificate was re-issued by a new CA',
    fix: 'Add the CA that now signs the certificate of {tls_server} to the trust bundle {subject} reads{trust} (or re-issue the server certificate from a CA the clients trust), then restart {subject} so it reloads it; do not turn verification off.',
  },
  {
    // Go 1.15+ ignores the Common Name: a server certificate without subjectAltName fails
    id: 'tls_legacy_common_name',
    class: 'tls_certificate',
    title: "a server's TLS certificate has no SAN (legacy Common Name only)",
    role: 'cause',
    strength: 0.92,
    on: ['log', 'text'],
    text: '(?:https?://(?<host>[\\w-]+(?:\\.[\\w-]+)+)[^\\n]*?)?x509: certificate relies on legacy Common Name field[^\\n]*',
    cause:
      'the TLS certificate {tls_server} presents has only a Common Name and no subjectAltName (SAN), which {subject} no longer accepts ("{fact}"): Go 1.15 and later ignore the Common Name, so a client built with a newer Go rejects a certificate older builds accepted',
    fix: 'Re-issue the certificate of {tls_server} with its DNS names in subjectAltName (cert-manager dnsNames, or `-addext subjectAltName=DNS:...`); meanwhile roll {subject} back to the build that worked. Do not turn verification off.',
  },
  {
    // the expired certificate is the server's the app calls, not one the cluster serves
    id: 'tls_remote_expired',
    class: 'tls_certificate',
    title: "a called server's TLS certificate expired",
    role: 'cause',
    strength: 0.92,
    on: ['log', 'text'],
    text: '(?:Get|Post|Put|Patch|Delete|Head|request to|connecting to|dial)[^\\n]{0,20}?\\\\?"?https?://(?<host>[\\w-]+(?:\\.[\\w-]+)+)[^\\n]*?(?:x509: certificate has expired|certificate has expired|CERT_HAS_EXPIRED|certificate is not valid after)',
    cause:
      '{subject}\'s calls to {host} fail: the TLS certificate {host} presents has expired ("{fact}")',
    fix: 'The expired certificate is the one {host} serves: have its owner renew it (check with `openssl s_client -connect {host}:443 -servername {host}`); until then the calls of {subject} to it fail.',
  },
  {
    id: 'tls_expired',
    class: 'tls_certificate',
    title: 'TLS certificate expired',
    role: 'cause',
    strength: 0.9,
    on: ['log', 'event', 'text', 'condition'],
    text: 'x509: certificate has expired[^\\n]*|certificate (?:has )?expired|CERT_HAS_EXPIRED|certificate is not valid after|NotAfter[^\\n]*expired|SSL certificate problem: certificate has expired',
    cause:
      'a TLS certificate has expired ("{fact}"): {subject} rejects or serves an expired certificate',
    fix: 'Renew the expired certificate (and its Secret), then find why automatic renewal did not happen (cert-manager Certificate/Order/Challenge status).',
  },
  {
    // "remote error": the peer's alert. The server refuses the certificate this client presents
    // (mutual TLS): the client's own certificate has expired
    id: 'client_cert_expired',
    class: 'tls_certificate',
    title: 'the client certificate it presents has expired (mTLS)',
    role: 'cause',
    strength: 0.89,
    on: ['log'],
    text: 'remote error: tls: expired certificate[^\\n]*',
    cause:
      'the server {subject} calls refuses the client certificate {subject} presents: it has expired ("{fact}"){cert_reload}',
    fix: '{cert_reload_fix}Renew the client certificate of {subject} (or check that the renewed one is what it loads), then check its calls succeed.',
  },
  {
    id: 'tls_renewal_failed',
    class: 'tls_certificate',
    title: 'certificate renewal failing',
    role: 'cause',
    strength: 0.9,
    // cert-manager's record names the Certificate it renews (its Challenge "<cert>-<rev>-<hash>")
    namesSubject: true,
    on: ['event', 'condition', 'log', 'text'],
    text: "(?:Failed to (?:renew|issue|create Order)|renewal (?:has )?failed|Issuing certificate as Secret[^\\n]*failed|challenge[^\\n]*(?:403|failed|invalid|error)|\\bACME\\b(?![-.])[^\\n]*(?:403|failed|error|invalid)|acme: authorization error|Error presenting challenge|Failed to finalize Order|wrong status code '\\d+', expected '200'|self check failed|propagation check failed|Waiting for (?:HTTP-01|DNS-01) challenge propagation[^\\n]*)[^\\n]*",
    cause:
      'the certificate {certificate} cannot be renewed: "{fact}", so it will expire (or has){solver_cause}',
    fix: 'Fix what the ACME challenge needs{solver_fix}, then check the Certificate is Ready again.',
  },
  {
    id: 'dependency_auth_failed',
    class: 'dependency_failure',
    title: 'a dependency refuses its credentials',
    role: 'cause',
    strength: 0.87,
    on: ['log', 'event', 'text'],
    text: 'password authentication failed for user "(?<user>[^"]+)"|Access denied for user \'(?<user2>[^\']+)\'|Mongo\\w*Error: Authentication failed|SASL authentication failed|NOAUTH Authentication required|WRONGPASS invalid username-password pair',
    cause:
      '{subject} is refused by its dependency: its credentials are rejected ("{fact}"): wrong, missing or rotated credentials',
    fix: 'Check the credentials {subject} uses (its Secret and env) against the dependency, and whether they were rotated; restart {subject} once the Secret is right.',
  },
  {
    id: 'port_bind_failed',
    class: 'crashloop_config',
    title: 'the app cannot listen on its port',
    role: 'cause',
    strength: 0.86,
    on: ['log', 'state'],
    text: 'listen tcp (?<addr>[\\w.\\[\\]:]*:\\d+): bind: (?:permission denied|address already in use)|listen (?:EACCES|EADDRINUSE)(?:: [\\w ]+)? (?<addr2>[\\w.:\\[\\]]*:\\d+)|(?:bind|listen)\\(\\) to (?<addr3>[\\d.:\\[\\]]+:\\d+) failed \\((?:13: Permission denied|98: Address already in use)\\)|Address already in use[^\\n]*?(?:port|:)\\s*(?<addr4>\\d+)|Port (?<addr5>\\d+) (?:was|is) already in use',
    cause:
      '{subject} exits at start: it cannot listen on {addr}{addr2}{addr3}{addr4}{addr5} ("{fact}"): a port below 1024 as a non-root user, or a port another process in the pod already uses{port_owner}',
    fix: 'Make {subject} listen on an unprivileged port that nothing else in the pod uses (and point its Service targetPort and probes at it), or grant NET_BIND_SERVICE.',
  },
  {
    id: 'missing_module',
    class: 'crashloop_config',
    title: 'the image lacks a module or class the app needs',
    role: 'cause',
    strength: 0.87,
    on: ['log', 'state'],
    text: "Cannot find module '(?<module>[^']+)'|ModuleNotFoundError: No module named '(?<module2>[^']+)'|ImportError: No module named '?(?<module3>[\\w.]+)|Could not find or load main class (?<module4>[\\w.$]+)|error while loading shared libraries: (?<module5>[\\w.+-]+)",
    cause:
      '{subject} crashes at start: {module}{module2}{module3}{module4}{module5} is not in its image ("{fact}")',
    fix: 'Rebuild the image of {subject} with {module}{module2}{module3}{module4}{module5} (dependencies, lockfile, build stage copy), or roll back to the last image that started.',
  },
  {
    id: 'dependency_timeout',
    class: 'dependency_failure',
    title: 'a dependency times out',
    role: 'cause',
    strength: 0.84,
    on: ['log', 'event', 'text'],
    // a failing health probe is the kubelet's call, not a dependency of the app
    text: '(?<!probe failed:[^\\n]*)(?:(?:timeout|timed out)[^\\n]{0,60}?(?:connecting to|connect(?:ing)? to|to|dialing) (?<host>[\\w-]+(?:\\.[\\w-]+)+(?::\\d+)?|[\\w-]+:\\d+)|dial tcp (?<host2>[\\w.-]+:\\d+): (?:i/o timeout|connect: connection timed out)|connection to (?<host3>[\\w.-]+(?::\\d+)?) timed out|(?:Connect|Read|Socket)TimeoutException[^\\n]*?(?<host4>(?<![\\w.-])(?!(?:org|com|java|javax|jdk|sun|io|net)\\.|[\\w.-]*\\.(?:java|kt|scala|py|go|js|ts|rb|cs)\\b)[\\w-]+(?:\\.[\\w-]+)+(?::\\d+)?)|(?:connecting|connect) to (?<host5>[\\w-]+(?:\\.[\\w-]+)*:\\d+)[^\\n]{0,60}?(?:timed out|timeout)|connection to server at "(?<host6>[\\w.-]+)"[^\\n]*?failed: (?:Connection timed out|timeout expired)|host=(?<host7>[\\w-]+(?:\\.[\\w-]+)*:\\d+)[^\\n]*?(?:timed out|timeout|TimeoutException)|https?://(?<host8>[\\w-]+(?:\\.[\\w-]+)*)(?::\\d+)?[^\\s"]*"?[^\\n]{0,20}?(?:Read timed out|Connect timed out|timed out|deadline exceeded)|(?:Connect|Read)(?:Timeout(?:Error|Exception)?| ?timeout)[^\\n]{0,40}?(?:endpoint URL|url|request for)?[: ]*\\\\?"?https?://(?<host9>[\\w-]+(?:\\.[\\w-]+)*))',
    cause:
      '{subject} cannot reach its dependency {host}{host2}{host3}{host4}{host5}{host6}{host7}{host8}{host9}: connections time out ("{fact}")',
    fix: 'Check {host}{host2}{host3}{host4}{host5}{host6}{host7}{host8}{host9}: is it up and accepting connections (its own health, connection limits), and the network path / NetworkPolicy / security group between {subject} and it.',
  },
  {
    id: 'dependency_refused',
    class: 'dependency_failure',
    title: 'a dependency refuses connections',
    role: 'cause',
    strength: 0.84,
    on: ['log', 'event', 'text'],
    // a failing health probe is the kubelet's call, not a dependency of the app
    text: '(?<!probe failed:[^\\n]*)(?:dial tcp (?<host>[\\w.-]+:\\d+): connect: connection refused|connect ECONNREFUSED (?<host2>[\\w.:-]+)|Connection refused[^\\n]*?(?<!\\\\)(?<host3>(?!\\d{4}-\\d\\d-\\d\\dT|\\d{1,2}:\\d\\d(?::\\d\\d)?\\b|[\\w.-]*\\.(?:go|java|kt|scala|py|js|ts|rb|cs|cpp):\\d)[\\w-]+(?:\\.[\\w-]+)*:\\d+)|(?<![\\w.:-])(?<!\\\\)(?<host4>(?!\\d{4}-\\d\\d-\\d\\dT|\\d{1,2}:\\d\\d(?::\\d\\d)?\\b|[\\w.-]*\\.(?:go|java|kt|scala|py|js|ts|rb|cs|cpp):\\d)[\\w-]+(?:\\.[\\w-]+)*:\\d+)[^\\n]*Connection refused|could not connect to server: Connection refused[^\\n]*?"(?<host5>[\\w.-]+)"|Error connecting to (?<host6>[\\w.-]+(?::\\d+)?)|connection to server at "(?<host7>[\\w.-]+)"[^\\n]*?failed: Connection refused|ConnectionRefusedError|ECONNREFUSED|Connection refused)',
    cause:
      '{subject} cannot connect to {host}{host2}{host3}{host4}{host5}{host6}{host7}: connection refused ("{fact}"){stale_config}',
    fix: '{stale_config_fix}Check that {host}{host2}{host3}{host4}{host5}{host6}{host7} is running with ready endpoints on that port (`kubectl get endpoints`), and that {subject} points at the right host and port.',
  },
  // ---------------------------------------------------------------- quotas
  {
    id: 'quota_exceeded',
    class: 'quota_limitrange',
    title: 'ResourceQuota exceeded',
    role: 'cause',
    strength: 0.93,
    on: ['event', 'condition', 'text'],
    text: 'exceeded quota: (?<quota>[\\w.-]+)[^\\n]*',
    cause:
      'new pods of {subject} are rejected: the namespace ResourceQuota "{quota}" is exhausted ("{fact}")',
    fix: 'Raise the ResourceQuota {quota} or lower the requests/limits (or replicas) of {subject}; free quota used by other workloads.',
  },
  {
    id: 'limitrange_rejected',
    class: 'quota_limitrange',
    title: 'LimitRange rejects the pod',
    role: 'cause',
    strength: 0.92,
    on: ['event', 'condition', 'text'],
    text: '(?:maximum|minimum) (?<res>cpu|memory|storage|ephemeral-storage) usage per (?<scope>Container|Pod) is (?<limit>[\\w.]+)[^\\n]*|(?<res2>cpu|memory) max limit to request ratio per (?<scope2>Container|Pod) is (?<limit2>[\\d.]+)[^\\n]*|must specify (?:limits|requests)\\.[\\w]+',
    cause: 'new pods of {subject} are rejected by the namespace LimitRange: "{fact}"',
    fix: 'Set the {res}{res2} requests/limits of {subject} within the LimitRange ({scope}{scope2} max/min or limit-to-request ratio {limit}{limit2}) or change the LimitRange.',
  },
  // ---------------------------------------------------------------- scaling
  {
    id: 'hpa_maxed',
    class: 'hpa_throttling',
    title: 'autoscaler at its maximum replicas',
    role: 'cause',
    strength: 0.8,
    on: ['condition', 'event'],
    // ScalingLimited True also means "at the minimum" (TooFewReplicas): not a ceiling
    text: 'TooManyReplicas|desired replica count is more than the maximum replica count|ScalingLimited(?![^\\n]*(?:TooFewReplicas|less than the minimum))',
    cause:
      'the HorizontalPodAutoscaler of {subject} is at its maximum ({max} replicas) and cannot add capacity while load stays above target{targets}',
    fix: 'Raise maxReplicas of the HPA of {subject} (cluster capacity permitting) and find what drives the load; consider making each replica cheaper.',
  },
  {
    // the HPA's scaleTargetRef names a workload that no longer exists (renamed by a chart):
    // nothing scales the real one
    id: 'hpa_target_missing',
    class: 'hpa_throttling',
    title: 'the HorizontalPodAutoscaler targets a workload that does not exist',
    role: 'cause',
    strength: 0.89,
    on: ['event', 'condition'],
    reason: 'FailedGetScale|AbleToScale',
    text: '(?<scale_kind>deployments|statefulsets|replicasets|replicationcontrollers)/scale(?:\\.apps)? "(?<target>[\\w.-]+)" not found',
    cause:
      'the HorizontalPodAutoscaler {subject} scales nothing: its scaleTargetRef names the {target_kind} {target}, which does not exist ("{fact}"){unscaled}',
    fix: 'Point the scaleTargetRef of HorizontalPodAutoscaler {subject} at the workload that runs now{unscaled_name} (or delete the stale HPA and create one for it), then check that `kubectl get hpa` shows its current metrics.',
  },
  {
    id: 'cpu_throttled',
    class: 'hpa_throttling',
    title: 'CPU throttled at its limit',
    role: 'cause',
    strength: 0.75,
    on: ['log', 'text', 'event', 'metric'],
    text: 'cpu[^\\n]{0,40}throttl\\w*|throttl\\w*[^\\n]{0,40}cpu|CPUThrottlingHigh',
    cause:
      '{subject} is CPU-throttled: it needs more CPU than its limit{cpu_limit} ("{fact}"){uneven}',
    fix: '{uneven_fix}Raise (or remove) the CPU limit of {subject}, or reduce its CPU use.',
  },
  // ---------------------------------------------------------------- crashes (from logs)
  {
    id: 'missing_env',
    class: 'crashloop_config',
    title: 'required environment variable missing',
    role: 'cause',
    strength: 0.88,
    on: ['log', 'state'],
    caseSensitive: true,
    text: '(?:[Ee]nvironment variable|[Ee]nv(?:ironment)? var(?:iable)?|[Ee]nv|ENV)\\s+[\'"`]?(?<var>[A-Z][A-Z0-9_]{2,})[\'"`]?\\s+(?:is\\s+)?(?:not set|missing|required|undefined|empty|must be set)|(?:[Mm]issing|[Rr]equired|MISSING|REQUIRED) (?:required )?(?:environment variable|env var(?:iable)?|setting|configuration|config)s?:?\\s+[\'"`]?(?<var2>[A-Za-z][A-Za-z0-9_.]{2,})|KeyError: [\'"](?<var3>[A-Z][A-Z0-9_]{2,})[\'"]|\\b(?<var4>[A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Z]{4,})\\s+(?:must be set|is required|is not set|not set|is missing|is empty)|[Rr]equired (?:key|variable|env(?:ironment)? var(?:iable)?|setting|config(?:uration)? key) [\'"`]?(?<var5>[A-Z][A-Z0-9_]{2,})[\'"`]? (?:missing|not set|is missing|not found|undefined|is empty)',
    cause: '{subject} crashes at start because {var}{var2}{var3}{var4}{var5} is not set ("{fact}")',
    fix: 'Set {var}{var2}{var3}{var4}{var5} in the environment of {subject} (Deployment env / ConfigMap / Secret), then let it restart.',
  },
  {
    id: 'invalid_config_value',
    class: 'crashloop_config',
    title: 'invalid configuration value',
    role: 'cause',
    strength: 0.86,
    on: ['log', 'text'],
    caseSensitive: true,
    text: '[Ii]nvalid [^\\n]{0,60}? for (?<var>[A-Z][A-Z0-9_]{3,})|\\b(?<var2>[A-Z][A-Z0-9]*_[A-Z0-9_]+)[^\\n]{0,40}(?:is invalid|invalid value|malformed|cannot be parsed)|[Ii]nvalid (?:value|setting) [\'"]?(?<val>[^\'"\\s]+)[\'"]? for (?:config(?:uration)? )?(?:key |setting )?[\'"]?(?<key>[\\w.-]+)',
    cause:
      '{subject} fails because of a bad configuration value: {var}{var2}{key} is invalid ("{fact}")',
    fix: 'Correct {var}{var2}{key} in the configuration of {subject} (or roll back the config change that set it).',
  },
  {
    id: 'missing_config_file',
    class: 'crashloop_config',
    title: 'configuration file missing',
    role: 'cause',
    strength: 0.86,
    on: ['log', 'state'],
    text: "open (?<path>/[\\w./-]+): no such file or directory|(?<path2>/[\\w./-]+\\.(?:ya?ml|json|conf|cfg|ini|toml|properties|xml|env)):? no such file|FileNotFoundError: [^\\n]*'(?<path3>[^']+)'|(?:config(?:uration)? file|could not (?:open|read|load) (?:config|file))[^\\n]*?(?<path4>/[\\w./-]+)[^\\n]*(?:not found|no such file|does not exist)",
    cause:
      '{subject} crashes at start: its configuration file {path}{path2}{path3}{path4} does not exist ("{fact}")',
    fix: 'Mount the file {path}{path2}{path3}{path4} into {subject} (ConfigMap volume with the right key and mountPath) or point the app at where it is.',
  },
  {
    id: 'bad_flag',
    class: 'crashloop_config',
    title: 'unknown or invalid command-line flag',
    role: 'cause',
    strength: 0.9,
    on: ['log', 'state'],
    text: 'flag provided but not defined: (?<flag>-+[\\w.-]+)|unknown (?:flag|option|shorthand flag)[: ]+\'?(?<flag2>-*[\\w.-]+)|unrecognized (?:option|arguments?)[: ]+\'?(?<flag3>-+[\\w.=-]+)|invalid (?:value|argument) "?(?<val>[^"\\s]+)"? for (?:flag )?"?(?<flag4>-+[\\w.-]+)|no such option:? (?<flag5>-+[\\w.-]+)',
    cause:
      '{subject} exits at start: it is given a command-line flag it does not accept {flag}{flag2}{flag3}{flag4}{flag5} ("{fact}")',
    fix: 'Fix the args/command of {subject} (remove or correct {flag}{flag2}{flag3}{flag4}{flag5}; check the flags of the image version it runs).',
  },
  {
    // out of inodes: writes fail with ENOSPC although the disk has free bytes; the kubelet
    // evicts pods to reclaim inodes
    id: 'node_inodes_exhausted',
    class: 'eviction',
    title: 'node out of inodes (no space left on device with free disk)',
    role: 'cause',
    strength: 0.9,
    on: ['event', 'condition', 'status', 'text'],
    text: 'low on resource: inodes[^\\n]*|reclaim inodes|inodes? (?:exhausted|free: ?0)|InodePressure',
    cause:
      'the node ran out of inodes, not bytes: writes fail with "no space left on device" although the disk has free space, and the kubelet evicts pods to reclaim inodes ({fact})',
    fix: 'Find and delete what creates millions of small files on the node (`df -i`, then `find <dir> -xdev | cut -d/ -f2-3 | sort | uniq -c | sort -n`: session files, caches, temp files) and make {subject} clean them up or write them to a volume of its own.',
  },
  {
    id: 'disk_full',
    class: 'eviction',
    title: 'disk full',
    role: 'cause',
    strength: 0.85,
    on: ['log', 'event', 'text'],
    text: 'no space left on device|ENOSPC|disk (?:is )?full|disk usage[^\\n]*(?:9[5-9]|100)%',
    cause: '{subject} ran out of disk space ("{fact}")',
    fix: 'Free or grow the volume of {subject} (and find what fills it: logs, segments, temp files); alert before it reaches 100%.',
  },
  {
    // PostgreSQL's statement_timeout cancels a statement that runs longer: the slow requests fail
    id: 'pg_statement_timeout',
    class: 'dependency_failure',
    title: "queries cancelled by PostgreSQL's statement_timeout",
    role: 'cause',
    strength: 0.88,
    on: ['log', 'text'],
    text: 'canceling statement due to statement timeout[^\\n]*',
    cause:
      'PostgreSQL cancels {subject}\'s queries that run longer than its statement_timeout{statement_timeout} ("{fact}"), so the slowest requests (large accounts, big reports) fail while small ones work',
    fix: 'Give {subject} a statement_timeout its slowest legitimate query fits in{statement_timeout_fix}, or make that query faster (an index, a smaller page); if a change lowered it, roll that change back.',
  },
  {
    // KEDA cannot read a ScaledObject's trigger (the queue, the topic): it cannot scale its target,
    // and a target at minReplicaCount 0 stays at zero while the work piles up
    id: 'keda_scaler_failed',
    class: 'dependency_failure',
    title: "KEDA cannot read a ScaledObject's trigger, so it cannot scale it",
    role: 'cause',
    strength: 0.9,
    on: ['event'],
    reason: '^KEDAScalerFailed$',
    cause:
      'KEDA cannot read the trigger of ScaledObject {subject} ("{fact}"), so it cannot scale {keda_target}{keda_auth}',
    fix: 'Fix what the trigger is refused{keda_auth_fix}, then check the ScaledObject is Ready and Active again; scale {keda_target_name} by hand meanwhile.',
  },
  {
    // Redis with min-replicas-to-write refuses writes while fewer replicas are connected
    id: 'redis_noreplicas',
    class: 'dependency_failure',
    title: 'Redis refuses writes: not enough replicas connected (min-replicas-to-write)',
    role: 'cause',
    strength: 0.9,
    on: ['log', 'text'],
    text: 'NOREPLICAS Not enough good replicas to write',
    cause:
      'Redis refuses {subject}\'s writes: fewer replicas are connected to its primary than its min-replicas-to-write requires{redis_min_replicas} ("{fact}"); reads still work{redis_missing}',
    fix: 'Bring the missing Redis replica back{redis_missing_fix} (its pod: scheduling, volume, node), or lower min-replicas-to-write for the time being.',
  },
  {
    // a write sent to a MySQL/MariaDB server running read-only: a replica, or a primary demoted by
    // a failover, reached by a host name that points at one member instead of the primary
    id: 'mysql_read_only',
    class: 'dependency_failure',
    title: 'writes go to a read-only MySQL server (a replica)',
    role: 'cause',
    strength: 0.88,
    on: ['log', 'text'],
    text: 'running with the --read-only option so it cannot execute this statement|\\bError 1290\\b|ER_OPTION_PREVENTS_STATEMENT|super-read-only option',
    cause:
      '{subject} sends its writes to a MySQL server that runs read-only ("{fact}"): a replica, or a former primary after a failover{db_host_pinned}',
    fix: 'Point {subject} at the current primary (the Service or endpoint that follows failovers, not one member{db_host_fix}) and restart it so its pool reconnects; check which member is primary now.',
  },
  {
    // a JWT signed with a key the verifier's JWKS does not hold: the identity provider rotated
    // its signing keys and the verifier still has the old set (a local copy, a long cache)
    id: 'jwks_no_matching_key',
    class: 'dependency_failure',
    title: "tokens signed with a key the service's JWKS does not have",
    role: 'cause',
    strength: 0.9,
    on: ['log', 'text'],
    text: 'JWKSNoMatchingKey[^\\n]*|ERR_JWKS_NO_MATCHING_KEY|no applicable key found in the JSON Web Key Set|unable to find a signing key that matches[^\\n]*|(?:signing )?key (?:with )?kid[ =:\'"]+[\\w-]+[\'"]? (?:was )?not found[^\\n]*',
    cause:
      '{subject} rejects tokens signed with a key its JSON Web Key Set does not hold ("{fact}"): the identity provider rotated its signing key (a new kid) and {subject} still verifies with the old key set{jwks_source}',
    fix: "Refresh the key set {subject} verifies with{jwks_fix} (or have it fetch the provider's JWKS URL and refetch on an unknown kid), then restart it or wait for the mounted file to update.",
  },
  {
    // MongoDB authenticated the user but its roles do not cover the database or command
    id: 'mongo_not_authorized',
    class: 'dependency_failure',
    title: 'MongoDB refuses the command: the user has no role for it',
    role: 'cause',
    strength: 0.88,
    on: ['log', 'text'],
    text: 'not authorized on (?<mongo_db>[\\w.-]+) to execute command[^\\n]{0,80}',
    cause:
      '{subject} is authenticated to MongoDB but not authorized on database {mongo_db} ("{fact}", code 13 Unauthorized): the roles of its user do not grant that command on {mongo_db} (a changed user, role or database name)',
    fix: "Give the MongoDB user of {subject} a role on {mongo_db} again (readWrite on {mongo_db}, in the user's definition: the operator's resource or `db.grantRolesToUser`), or point {subject} at the database its user may use.",
  },
  {
    // a Java/Spring keystore opened with a password that is not its own: the keystore (or its
    // password) was replaced without the other, often by a rotation that updates one Secret
    id: 'keystore_password_incorrect',
    class: 'crashloop_config',
    title: 'the keystore does not open with the password it is given',
    role: 'cause',
    strength: 0.9,
    on: ['log', 'text'],
    text: '(?:keystore|key store|truststore|trust store) password was incorrect|Keystore was tampered with, or password was incorrect|failed to decrypt safe contents entry',
    cause:
      '{subject} cannot open its keystore: the password it is given is not the keystore\'s ("{fact}"), so the keystore and its password no longer belong together{secret_updated}',
    fix: "Give {subject} the password of the keystore it now mounts (update the password Secret with the new keystore's password, or sync both from the same source), or restore the keystore that matches the old password; then restart the pods.",
  },
  {
    // Redis at its maxmemory refuses writes (an OOM error reply, not a kernel OOM kill): with
    // maxmemory-policy noeviction it evicts nothing, reads still work
    id: 'redis_maxmemory_refused',
    class: 'dependency_failure',
    title: 'Redis refuses writes at its maxmemory',
    role: 'cause',
    strength: 0.9,
    on: ['log', 'text'],
    text: "(?:OOM )?command not allowed when used memory > 'maxmemory'",
    cause:
      'Redis refuses {subject}\'s writes: it is at its maxmemory and evicts nothing to make room{redis_policy} ("{fact}"); reads still work, so only what writes fails. This is Redis\'s own memory limit, not a Kubernetes OOM kill',
    fix: 'Give that Redis an eviction policy that fits its use (allkeys-lru or volatile-lru for a cache or sessions with a TTL) or a larger maxmemory (within its container limit){redis_policy_fix}; find what fills it (keys without a TTL: `redis-cli --bigkeys`, `INFO memory`).',
  },
  {
    // Istio's Envoy refuses a request no AuthorizationPolicy allows: 403 "RBAC: access denied"
    id: 'mesh_authorization_denied',
    class: 'dependency_failure',
    title: 'an Istio AuthorizationPolicy denies the caller (403 RBAC: access denied)',
    role: 'cause',
    strength: 0.9,
    on: ['log', 'text'],
    text: 'RBAC: access denied[^\\n]*|\\b403\\b[^\\n]*rbac_access_denied_matched_policy\\[[^\\]]*\\][^\\n]*',
    cause:
      'the service mesh refuses {subject}\'s requests with 403 "RBAC: access denied" ("{fact}"): an Istio AuthorizationPolicy on the destination does not allow {subject}\'s identity (its ServiceAccount principal), so its sidecar rejects the calls before the app sees them{mesh_policy}',
    fix: "Add {subject}'s principal (cluster.local/ns/<namespace>/sa/<serviceaccount>) to the ALLOW rules of the destination's AuthorizationPolicy{mesh_policy_fix}, or roll the policy back.",
  },
  {
    // PostgreSQL's protection against transaction ID wraparound: it stops assigning XIDs
    id: 'pg_xid_wraparound',
    class: 'dependency_failure',
    title: 'PostgreSQL refuses writes to avoid transaction ID wraparound',
    role: 'cause',
    strength: 0.92,
    on: ['log', 'text'],
    text: 'database is not accepting commands (?:that assign new (?:XIDs|transaction IDs) )?to avoid wraparound data loss in database "?(?<dbname>[\\w-]+)"?[^\\n]*',
    cause:
      'PostgreSQL refuses the writes of {subject} ("{fact}"): the database {dbname} is close to transaction ID wraparound, because (auto)vacuum has not frozen its old rows, and PostgreSQL stops assigning transaction IDs to protect the data',
    fix: 'VACUUM (FREEZE) the database {dbname} (the oldest tables by age(relfrozenxid) first; on older versions in single-user mode), and remove what held vacuum back: long-running or idle-in-transaction sessions, abandoned replication slots, orphaned prepared transactions.',
  },
  {
    // a container's /dev/shm is 64 MB unless a memory-backed emptyDir is mounted there;
    // PostgreSQL's parallel workers share their hash tables through it
    id: 'pg_shm_exhausted',
    class: 'dependency_failure',
    title: "PostgreSQL runs out of shared memory in /dev/shm (the container's 64M default)",
    role: 'cause',
    strength: 0.9,
    on: ['log', 'text'],
    text: 'could not resize shared memory segment "?[^"\\s]+"? to \\d+ bytes: No space left on device',
    cause:
      'PostgreSQL fails {subject}\'s queries because /dev/shm is full ("{fact}"): its parallel query workers share memory through /dev/shm, and a container\'s /dev/shm is 64M unless a memory-backed emptyDir is mounted there',
    fix: 'Mount an emptyDir with medium: Memory (a sizeLimit of a few GiB) at /dev/shm in the PostgreSQL pod, or lower max_parallel_workers_per_gather / work_mem so parallel queries need less shared memory.',
  },
  {
    // a new PostgreSQL major version started on a data directory of the previous one
    id: 'pg_data_major_version_mismatch',
    class: 'crashloop_config',
    title: 'PostgreSQL data directory from an older major version',
    role: 'cause',
    strength: 0.93,
    on: ['log'],
    text: 'database files are incompatible with server(?:[^\\n]*?initialized by PostgreSQL version (?<old>\\d+)[^\\n]*?this version (?<new>[\\d.]+))?',
    cause:
      '{subject} runs a PostgreSQL major version that cannot open its data directory ("{fact}"): the image was upgraded across a major version, which needs pg_upgrade or a dump and restore, so the server exits at start',
    fix: 'Roll the image of {subject} back to the major version of its data directory, then upgrade properly (pg_upgrade, logical replication or dump/restore into a new volume) before moving to the new major version.',
  },
  {
    // Envoy's circuit breaker of an upstream cluster is full: it answers 503 itself (flag UO)
    id: 'envoy_circuit_breaker_overflow',
    class: 'dependency_failure',
    title: "Envoy's circuit breaker rejects requests (overflow, 503 UO)",
    role: 'cause',
    strength: 0.9,
    on: ['log', 'text'],
    text: 'reset reason: overflow|" 50[34] UO |\\bupstream_rq_pending_overflow\\b',
    cause:
      'Envoy\'s circuit breaker for the upstream of {subject} is full: once max_connections, max_pending_requests or max_requests of that cluster are in use, Envoy rejects further requests itself with 503 (response flag UO, "reset reason: overflow") without sending them, while the upstream may be healthy ("{fact}")',
    fix: "Raise the cluster's circuit_breakers thresholds (max_connections / max_pending_requests / max_requests) to what the upstream can take (Istio: the DestinationRule's connectionPool), or roll back the change that lowered them; Envoy's stats `upstream_rq_pending_overflow` and `upstream_cx_overflow` show which limit trips.",
  },
  {
    // a MongoDB client that finds no primary: a majority of the replica set is down or unreachable
    id: 'mongo_no_primary',
    class: 'crashloop_connection',
    title: 'MongoDB replica set has no primary',
    role: 'cause',
    strength: 0.9,
    on: ['log', 'text'],
    text: 'ReplicaSetNoPrimary|no writable primary|NotWritablePrimary|not (?:writable )?primary|\\bnot master\\b',
    cause:
      '{subject} finds no primary in its MongoDB replica set, so every write fails ("{fact}"){mongo_why}',
    fix: '{mongo_fix}',
  },
  {
    // the kernel's connection-tracking table of a node is full: new connections are dropped
    id: 'node_conntrack_full',
    class: 'dependency_failure',
    title: "node's conntrack table full: new connections dropped",
    role: 'cause',
    strength: 0.92,
    on: ['event', 'text', 'log', 'condition'],
    text: 'nf_conntrack: (?:nf_conntrack: )?table full, dropping packet|conntrack table (?:is )?full|ConntrackFull',
    cause:
      'the connection-tracking table of the node is full ("{fact}"): the kernel drops the packets of new connections, so calls from the pods on that node time out while the same calls from other nodes work',
    fix: 'Raise net.netfilter.nf_conntrack_max on the node (kube-proxy --conntrack-max-per-core / --conntrack-min, or a sysctl DaemonSet) and find what opens so many connections there (connection reuse, short-lived connections, a scan); meanwhile cordon the node and move its pods.',
  },
  {
    // a queue declared with other arguments than the queue on the broker
    id: 'rabbitmq_inequivalent_arg',
    class: 'crashloop_config',
    title: 'RabbitMQ refuses the queue declaration (406 PRECONDITION_FAILED, inequivalent arg)',
    role: 'cause',
    strength: 0.93,
    on: ['log', 'text'],
    text: "PRECONDITION_FAILED - inequivalent arg '(?<arg>[^']+)' for queue '(?<queue>[^']+)'[^\\n]*",
    cause:
      '{subject} declares the queue {queue} with another {arg} than the queue that already exists on the broker, so RabbitMQ refuses the declaration with 406 PRECONDITION_FAILED and closes the channel ("{fact}")',
    fix: 'Declare {queue} with the arguments it has on the broker (roll back the setting that changed {arg}), or migrate deliberately: a new queue with the new arguments, move the consumers, then delete the old one; queue arguments cannot change in place.',
  },
  {
    // a Redis that now requires a password the client does not send
    id: 'redis_noauth',
    class: 'crashloop_connection',
    title: 'Redis requires a password the client does not send (NOAUTH)',
    role: 'cause',
    strength: 0.93,
    on: ['log', 'text'],
    text: 'NOAUTH Authentication required|WRONGPASS invalid username-password pair',
    cause:
      '{subject} connects to Redis without the password it requires ("{fact}"): the server has requirepass (or ACL users) set, and the connection settings of {subject} carry no password, or an old one',
    fix: 'Give {subject} the Redis password (REDIS_PASSWORD / the password in its REDIS_URL, from the Secret the server uses) and restart it; or, if the password was set by mistake, remove requirepass from the server.',
  },
  {
    id: 'panic',
    class: 'crashloop_panic',
    title: 'application crash (panic / unhandled exception)',
    role: 'cause',
    strength: 0.8,
    on: ['log'],
    // Rust: "thread 'main' panicked at src/x.rs:88:41:" (1.73+; the message, on the next line, is
    // joined to it with the trace) or "panicked at 'msg', src/x.rs:4:5" (before)
    text: '^\\s*panic: [^\\n]*|\\bpanic: [^\\n]*|thread \'[^\'\\n]*\' panicked at [^\\n]*|Traceback \\(most recent call last\\)|Exception in thread "[^"]+" [\\w.$]+[^\\n]*|Unhandled(?:Promise)?Rejection[^\\n]*|uncaught exception[^\\n]*|segmentation fault|SIGSEGV[^\\n]*|fatal error: [^\\n]*|(?:NullPointer|IllegalState|IllegalArgument|ClassNotFound|NoSuchMethod)(?:Exception|Error)[^\\n]*|(?:TypeError|ReferenceError|AttributeError|ValueError|ZeroDivisionError|IndexError|KeyError): [^\\n]*',
    cause: '{subject} crashes: the application fails with "{fact}"',
    fix: 'Fix the crash in {subject} (the stack trace in its previous logs points at the code), or roll back to the last version that ran.',
  },
  {
    // the binary starts but the dynamic loader cannot find a library it links: a base image
    // changed (glibc to musl/Alpine, a slimmer distro) or a package was dropped; exit code 127
    // too, so it must outrank command_not_found
    id: 'shared_library_missing',
    class: 'crashloop_config',
    title: 'a shared library the binary needs is missing from the image',
    role: 'cause',
    strength: 0.9,
    on: ['log', 'state'],
    text: 'Error loading shared library (?<lib>[^\\s:]+)[^\\n]*|error while loading shared libraries: (?<lib2>[^\\s:]+)[^\\n]*|Error relocating [^\\n]*symbol not found[^\\n]*',
    cause:
      '{subject} cannot load a shared library its binary is linked against: "{fact}". The image does not contain it (or a compatible C library): a base image change (glibc to musl on Alpine, a slimmer distro) or a dropped package',
    fix: 'Build {subject} on a base image that has the library {lib}{lib2} (a glibc image for a glibc-linked binary, or install the package, e.g. `apk add libstdc++`), or roll back to the last image that started.',
  },
  {
    // Elasticsearch/OpenSearch refuse to start in production mode below the kernel's
    // vm.max_map_count of 262144: a node-level sysctl (an init container, a DaemonSet, the
    // node image) that new nodes lack
    id: 'es_max_map_count',
    class: 'crashloop_config',
    title: "the node's vm.max_map_count is too low for Elasticsearch (bootstrap check)",
    role: 'cause',
    strength: 0.91,
    on: ['log'],
    text: 'max virtual memory areas vm\\.max_map_count \\[(?<have>\\d+)\\] is too low[^\\n]*',
    cause:
      '{subject} fails its bootstrap check and exits: "{fact}". The kernel setting vm.max_map_count of the node it runs on is {have}, below what Elasticsearch needs (262144); it is a node setting, made by a privileged sysctl init container, a DaemonSet or the node image, and nodes without it (a new node pool) fail',
    fix: 'Set vm.max_map_count=262144 on the nodes {subject} runs on: a privileged init container running `sysctl -w vm.max_map_count=262144`, or extend the sysctl DaemonSet (its nodeSelector/tolerations) or the node image to the new nodes.',
  },
  // ------------------------------------------------ failures their own lines name (and what they point at)
  {
    // bootstrap.memory_lock: true asks Elasticsearch to mlockall its heap; a container whose
    // RLIMIT_MEMLOCK is the runtime's default (Kubernetes has no per-pod ulimit) cannot, and the
    // bootstrap check stops the node (exit 78)
    id: 'es_memory_lock_failed',
    class: 'crashloop_config',
    title: 'Elasticsearch memory locking requested but not allowed (bootstrap check, memlock)',
    role: 'cause',
    strength: 0.92,
    on: ['log'],
    text: 'memory locking requested for (?:elasticsearch|opensearch) process but memory is not locked',
    cause:
      '{subject}{memlock_pod} fails its bootstrap check and exits (exit code 78): "{fact}". Its settings ask for memory locking (bootstrap.memory_lock: true), but the container may not lock memory: its RLIMIT_MEMLOCK (ulimit -l){memlock_limit} is the container runtime\'s default, and Kubernetes has no per-pod ulimit to raise it',
    fix: 'Remove bootstrap.memory_lock from {subject} (disable swap on the nodes instead, which Kubernetes nodes usually have off), or raise the memlock limit of the container runtime on its nodes (containerd/docker LimitMEMLOCK=infinity) before setting it again.',
  },
  {
    // Spring Boot without spring.datasource.url: with profile-specific files, the active profile
    // decides which application-<profile>.yml is loaded; a renamed profile loads none
    id: 'spring_datasource_url_missing',
    class: 'crashloop_config',
    title: 'Spring Boot has no DataSource URL (no configuration for the active profile)',
    role: 'cause',
    strength: 0.9,
    on: ['log'],
    text: "Failed to configure a DataSource: 'url' attribute is not specified[^\\n]*",
    cause:
      '{subject} stops at startup: "{fact}": no spring.datasource.url is set in the configuration it loaded{spring_profiles}. This is its configuration, not the database being down',
    fix: '{spring_fix}',
  },
  {
    // IRSA: STS checks the token's aud claim; the EKS pod identity webhook projects the token
    // with the audience of the ServiceAccount's eks.amazonaws.com/audience (sts.amazonaws.com
    // when absent), applied when pods are created
    id: 'aws_token_audience_incorrect',
    class: 'rbac_denied',
    title: "AWS STS refuses the pod's web identity token: wrong audience",
    role: 'cause',
    // above aws_oidc_provider_missing, whose InvalidIdentityToken matches this line too
    strength: 0.91,
    on: ['log', 'text'],
    text: '(?:InvalidIdentityToken[^\\n]*)?Incorrect token audience[^\\n]*',
    cause:
      '{subject} cannot get AWS credentials through the IAM role of its ServiceAccount (IRSA): STS refuses its web identity token for its audience ("{fact}"). STS accepts only tokens whose aud claim is sts.amazonaws.com (or what the IAM OIDC provider lists){token_audience}',
    fix: '{token_audience_fix}',
  },
  {
    // the kernel's ENOENT for exec: the file, or the interpreter its #! line names, does not
    // exist; a script with Windows (CRLF) line endings names "/bin/sh\r"
    id: 'exec_no_such_file',
    class: 'crashloop_config',
    title: 'the container command cannot be executed: no such file or directory',
    role: 'cause',
    strength: 0.89,
    on: ['log', 'state', 'event'],
    text: 'exec (?<script>/[\\w./-]+): no such file or directory',
    cause: '{subject} cannot start its command {script}: "{fact}". {exec_cause}',
    fix: '{exec_fix}',
  },
  {
    // "1 Insufficient cpu, 5 node(s) didn't match Pod's node affinity/selector": the nodes its
    // affinity allows (a DaemonSet pod's own node) lack room; the others were never candidates
    id: 'sched_insufficient_on_allowed_node',
    class: 'pending_scheduling',
    title: 'the node(s) the pod may run on lack free cpu/memory for its requests',
    role: 'cause',
    // above sched_selector, whose "didn't match Pod's node affinity/selector" is in the line
    strength: 0.92,
    on: ['event', 'condition'],
    text: "(?<!has )\\b(?<count>\\d+) Insufficient (?<res>cpu|memory)\\b[^\\n]*?\\d+ node\\(s\\) didn'?t match (?:Pod's )?node (?:affinity/)?selector|\\d+ node\\(s\\) didn'?t match (?:Pod's )?node (?:affinity/)?selector[^\\n]*?\\b(?<count2>\\d+) Insufficient (?<res2>cpu|memory)\\b",
    cause:
      '{subject} stays Pending: {allowed_node} has not enough free {res}{res2} for its requests{requests} ("{fact}"); the other nodes were never candidates (its node affinity/selector{owner_pin}){node_load}',
    fix: 'Lower the {res}{res2} request of {subject}{requests}, or make room on {allowed_node} (move or shrink what requests most there){priority_fix}.',
  },
  {
    // helm keeps a release's state in Secrets sh.helm.release.v1.<release>.v<N>; a helm process
    // killed mid-upgrade (a CI Job's deadline, a cancelled pipeline) leaves the latest one
    // pending-*, and every later upgrade refuses to start
    id: 'helm_release_pending_operation',
    class: 'job_failed',
    title: 'a Helm release is stuck in a pending operation (another operation is in progress)',
    role: 'cause',
    strength: 0.93,
    on: ['log', 'text'],
    text: '(?:(?:UPGRADE|INSTALL|ROLLBACK) FAILED: )?another operation \\(install/upgrade/rollback\\) is in progress',
    cause:
      'the Helm release{helm_release} cannot be upgraded: every helm upgrade fails with "{fact}". Helm records the release as still in a pending operation{helm_pending}, left by a helm process that did not finish{helm_killed}, so it refuses any new operation until the release is rolled back',
    fix: '{helm_fix}',
    namesSubject: true,
  },
  // ------------------------------------------------ end of: failures their own lines name
  {
    // a client speaking TLS to a port that answers plain HTTP reads "HTTP/1.1 400" as a TLS
    // record: OpenSSL reports a wrong version number
    id: 'tls_to_plain_port',
    class: 'tls_certificate',
    title: 'a client speaks TLS to a port that answers plain HTTP',
    role: 'cause',
    strength: 0.89,
    on: ['log'],
    text: '(?:\\[SSL: )?(?:wrong version number|WRONG_VERSION_NUMBER)[^\\n]{0,80}',
    cause:
      '{subject} speaks TLS to a port that answers plain HTTP: "{fact}". OpenSSL reads the server\'s plain-HTTP answer as a TLS record of an unknown version, so the port it calls (or the Service targetPort behind it) is not the TLS listener{plain_port}',
    fix: 'Point {subject} at the TLS port of the server (check the Service port and targetPort: https must map to the port the app serves TLS on), or call it over http:// if the port is meant to be plain.',
  },
  {
    id: 'command_not_found',
    class: 'crashloop_config',
    title: 'container command not found',
    role: 'cause',
    strength: 0.88,
    on: ['state', 'event', 'log'],
    // "sh: 1: foo: not found", "bash: foo: command not found", "entrypoint.sh: line 5: foo: command not found" (not "<image>: not found")
    text: 'exec: "(?<cmd>[^"]+)": executable file not found|(?:^|(?:sh|bash)(?:: \\d+)?: |line \\d+: )(?<cmd2>[\\w./-]+): (?:command )?not found|exit code:? ?127\\b|StartError[^\\n]*no such file',
    cause:
      '{subject} cannot start its command {cmd}{cmd2}: it is not in the image ("{fact}"){mounted_over}',
    fix: '{cmd_fix}',
  },
  {
    id: 'exec_format_error',
    class: 'crashloop_config',
    title: 'image built for another CPU architecture',
    role: 'cause',
    strength: 0.9,
    on: ['log', 'state', 'event'],
    text: 'exec format error|exec user process caused:? exec format error',
    cause:
      '{subject} cannot run its binary: "{fact}": the image is built for another CPU architecture (platform) than the node it runs on (for example an arm64-only image on amd64 nodes)',
    fix: "Build and push {subject} for the nodes' architecture (a multi-arch image, `docker buildx build --platform linux/amd64,linux/arm64`), or roll back to the last image that ran; or schedule it on nodes of the image's arch (`kubernetes.io/arch`).",
  },
  {
    id: 'too_many_open_files',
    class: 'crashloop_panic',
    title: 'out of file descriptors (EMFILE)',
    role: 'cause',
    strength: 0.88,
    on: ['log', 'state', 'event'],
    text: 'EMFILE|too many open files',
    cause:
      '{subject} runs out of file descriptors: "{fact}" (EMFILE, too many open files): a descriptor leak (sockets or files never closed) or a limit too low for its load',
    fix: 'Find what keeps descriptors open in {subject} (open sockets/files growing over time: a leak), fix or roll back; raise the open-files limit only if the load needs it.',
  },
  {
    id: 'permission_denied_path',
    class: 'crashloop_config',
    title: 'permission denied on a file or volume',
    role: 'cause',
    strength: 0.85,
    on: ['log', 'state'],
    text: '(?:open|mkdir|create|write|creat|lock|rename|remove|chmod)\\s+"?(?<path>/[^\\s:"]+)"?[^\\n]{0,40}?:\\s*permission denied|EACCES[^\\n]{0,40}?(?<path2>/[^\\s\'",]+)|(?<path3>/[^\\s:"]+)[^\\n]{0,20}: Permission denied',
    cause:
      '{subject} is denied access to {path}{path2}{path3} ("{fact}"): the user its container runs as cannot write there (the volume belongs to another user or group)',
    fix: "Give the container's user access to {path}{path2}{path3}: set `securityContext.fsGroup` (and runAsUser/runAsGroup) on the pod of {subject} so the volume is group-writable, or fix the ownership with an init container.",
  },
  {
    id: 'java_deadlock',
    class: 'probe_failure',
    title: 'application deadlock',
    role: 'cause',
    strength: 0.85,
    on: ['log'],
    text: 'Found (?:one|\\d+) Java-level deadlock|all goroutines are asleep - deadlock',
    cause:
      '{subject} deadlocks ("{fact}"): its threads wait on each other, it stops answering, its liveness probe times out and the kubelet restarts it',
    fix: 'Fix the lock ordering in {subject} (the thread dump names the threads and locks); until then, a restart recovers it.',
  },
  {
    id: 'image_pull_rate_limited',
    class: 'image_pull',
    title: 'registry rate-limits image pulls',
    role: 'cause',
    strength: 0.92,
    on: ['event', 'state'],
    text: 'toomanyrequests[^\\n]*|pull rate limit[^\\n]*|429 Too Many Requests[^\\n]*',
    cause:
      'the registry refuses to pull the image of {subject}: it rate-limits pulls ("{fact}"), so the pod stays in ImagePullBackOff',
    fix: "Pull {subject}'s image with authenticated credentials (an imagePullSecret with a paid/authenticated account), or from a mirror / pull-through cache; then the pull is retried.",
  },
  {
    id: 'podsecurity_violation',
    class: 'quota_limitrange',
    title: 'pods rejected by Pod Security admission',
    role: 'cause',
    strength: 0.92,
    on: ['event', 'condition', 'status'],
    text: 'violates PodSecurity "(?<level>[^"]+)"[^\\n]*',
    cause:
      'the pods of {subject} are rejected: they violate PodSecurity "{level}" of the namespace ("{fact}"), so the controller cannot create them',
    fix: 'Set the securityContext the "{level}" Pod Security level requires on {subject} (runAsNonRoot, allowPrivilegeEscalation: false, capabilities drop ALL, seccompProfile RuntimeDefault), or roll back the change that dropped it.',
  },
  {
    id: 'admission_webhook_denied',
    class: 'quota_limitrange',
    title: 'pods rejected by an admission webhook',
    role: 'cause',
    strength: 0.9,
    on: ['event', 'condition', 'status'],
    text: 'admission webhook "(?<webhook>[^"]+)" denied the request[^\\n]*',
    cause:
      'the admission webhook {webhook} rejects what {subject} creates ("{fact}"){policy_said}, so no pod is created',
    fix: 'Make {subject} meet the policy the webhook {webhook} enforces{policy_fix}, or ask its owners for an exception.',
  },
  // ------------------------------------------------ round20 (r20logs): a product's own line and the fact behind it
  {
    // pg_dump refuses a server of a newer major version ("aborting because of server version
    // mismatch"; its detail line names both versions): the database was upgraded, the backup
    // image was not
    id: 'pg_dump_server_version_mismatch',
    class: 'job_failed',
    title:
      'the PostgreSQL server is newer than the pg_dump that dumps it (server version mismatch)',
    role: 'cause',
    strength: 0.93,
    on: ['log'],
    text: '(?:pg_dump|pg_dumpall)(?:: error)?: aborting because of server version mismatch',
    cause:
      '{subject} cannot dump its database: "{fact}"{pg_versions}. pg_dump refuses to dump a server of a newer major version than its own: the database was upgraded, but the image {subject} runs{pg_image} still ships the older pg_dump',
    fix: "Run {subject} with a pg_dump of the server's major version or newer{pg_fix} (a backup image built on the new PostgreSQL client), then re-run it; nothing is wrong with the database or its credentials.",
  },
  {
    // initdb refuses a data directory that is not empty; the root of a new ext4 volume holds
    // lost+found, so a volume mounted straight at PGDATA cannot be initialised
    id: 'initdb_directory_not_empty',
    class: 'crashloop_config',
    title: "PostgreSQL's initdb refuses a data directory that is not empty",
    role: 'cause',
    strength: 0.93,
    on: ['log'],
    text: 'initdb: (?:error: )?directory "(?<datadir>[^"]+)" exists but is not empty',
    cause:
      '{subject} cannot initialise its database and exits: "{fact}"{initdb_detail}{initdb_volume}',
    fix: '{initdb_fix}',
  },
  {
    // MongoDB runs transactions (and retryable writes, which carry transaction numbers) only on a
    // replica set member or through mongos; a standalone mongod refuses them (code 20,
    // IllegalOperation) while plain reads and writes work
    id: 'mongodb_transactions_on_standalone',
    class: 'dependency_failure',
    title: 'MongoDB refuses transactions: the server is a standalone, not a replica set',
    role: 'cause',
    strength: 0.93,
    on: ['log'],
    text: 'Transaction numbers are only allowed on a replica set member or mongos',
    cause:
      '{subject} fails every write it runs in a transaction: "{fact}". The MongoDB server it uses{mongo_server} is a standalone mongod, not a replica set member (or mongos), and MongoDB runs multi-document transactions and retryable writes only on a replica set or a sharded cluster{mongo_topology}; reads and plain writes still work',
    fix: "Run that MongoDB as a replica set (a single-member replica set is enough: --replSet and rs.initiate(), or the chart's replicaset architecture) and add replicaSet=<name> to the connection string of {subject}; or point {subject} back at a replica set.",
  },
  {
    // BullMQ keeps a job's hash and its lock as Redis keys; a Redis that evicts keys under
    // maxmemory (any policy but noeviction) drops them, and the worker cannot finish the job
    id: 'bullmq_job_key_missing',
    class: 'dependency_failure',
    title:
      "BullMQ's job keys vanish from Redis (Missing key/lock for job): Redis evicts the queue's keys",
    role: 'cause',
    strength: 0.9,
    on: ['log'],
    text: 'Missing (?:key|lock) for job \\S+? ?\\.? ?(?:moveToFinished|moveToDelayed|moveToFailed|extendLock|updateProgress|retryJob|changeDelay)?',
    cause:
      '{subject} loses queued jobs: "{fact}". The job\'s keys are gone from Redis before the worker finishes it{bullmq_policy}',
    fix: '{bullmq_fix}',
  },
  {
    // Confluent's cp-kafka configure script exits when KAFKA_PORT is set (the old "port"
    // property); a Service named "kafka" injects KAFKA_PORT=tcp://<ip>:<port> into every pod
    // created after it (service links, enableServiceLinks defaults to true)
    id: 'kafka_port_env_deprecated',
    class: 'crashloop_config',
    title: 'the Kafka image refuses a deprecated KAFKA_PORT/KAFKA_HOST setting in its environment',
    role: 'cause',
    strength: 0.92,
    on: ['log'],
    text: '(?<prop>port|advertised\\.port|host|advertised\\.host) is deprecated\\. Please use KAFKA_ADVERTISED_LISTENERS instead\\.?',
    cause: '{subject} exits while configuring Kafka: "{fact}"{kafka_env_source}',
    fix: '{kafka_env_fix}',
  },
  {
    // a broker's meta.properties keeps the cluster ID it joined; ZooKeeper (or the KRaft quorum)
    // now hands out another: its data was lost (a ZooKeeper without persistent storage) or the
    // broker points at another ensemble/chroot
    id: 'kafka_inconsistent_cluster_id',
    class: 'crashloop_config',
    title:
      "a Kafka broker's stored cluster ID does not match the cluster's (InconsistentClusterIdException)",
    role: 'cause',
    strength: 0.93,
    on: ['log'],
    text: "InconsistentClusterIdException: The Cluster ID (?<new_id>\\S+) doesn't match stored clusterId (?:Some\\()?(?<stored_id>[\\w-]+)\\)? in meta\\.properties[^\\n]*",
    cause:
      '{subject} refuses to start: "{fact}". The cluster ID in meta.properties on its data volume ({stored_id}) is not the one ZooKeeper now holds ({new_id}){kafka_zk_lost}',
    fix: '{kafka_zk_fix}',
  },
  // ------------------------------------------------ end of: round20 (r20logs)
  // ------------------------------------------------ rollouts and scaling (round20, r20roll)
  // the variables of these rules: finding-vars-r20roll.ts; the rules that compare several facts:
  // diagnose-rollouts.ts
  {
    // not matched line by line: diagnose-rollouts compares the deployment controller's scale-down
    // with what the workload's HorizontalPodAutoscaler asked for
    id: 'replicas_reset_under_hpa',
    class: 'recent_change',
    title:
      "a deploy reset the replicas of a workload its autoscaler scales (spec.replicas applied over the HPA's count)",
    role: 'cause',
    strength: 0.94,
    on: [],
    cause:
      '{subject} was cut from {from} to {to} replicas at once ("{fact}"{reset_at}), and not by its HorizontalPodAutoscaler: the Deployment\'s own spec.replicas was set to {to}{applied}. When a manifest applied over an autoscaled Deployment carries spec.replicas (or drops it: kubectl apply then removes the field and the API defaults it to 1), the deployment controller scales to that number at once, before any rolling update, so maxUnavailable does not protect capacity; the few pods left take the whole load until the autoscaler scales up again{hpa_climb}',
    fix: "Remove spec.replicas from the manifest the deploy applies for {subject} and from its last-applied-configuration (`kubectl apply edit-last-applied`, or server-side apply with the field left to the HPA), as the HorizontalPodAutoscaler documentation advises for autoscaled workloads; right now `kubectl scale deployment {subject} --replicas={from}` (or raise the HPA's minReplicas) restores the capacity.",
  },
  {
    // not matched line by line: diagnose-rollouts compares the pods' CPU by their age
    id: 'load_pinned_to_old_pods',
    class: 'hpa_throttling',
    title:
      'load stays on the oldest pods after a scale-up (long-lived connections, balanced per connection)',
    role: 'cause',
    strength: 0.86,
    on: [],
    cause:
      '{subject} is slow although its autoscaler added pods: only its oldest pods carry the load ({fact}){pinned_detail}. Kube-proxy (a ClusterIP Service) balances connections, not requests: clients that hold long-lived HTTP/2 connections (gRPC multiplexes every call over the connection it opened at start-up, keep-alive HTTP likewise) stay pinned to the pods they connected to before the scale-up, so the new pods idle and more replicas or a higher maxReplicas do not help',
    fix: 'Spread requests, not connections, for {subject}: client-side load balancing over a headless Service (gRPC round_robin), an L7 proxy or service mesh, or a bounded connection lifetime on the server (gRPC MaxConnectionAge) so clients reconnect and reach the new pods.',
  },
  {
    // not matched line by line: diagnose-rollouts reads the pods' readiness gate conditions
    id: 'lb_target_health_gate_failing',
    // not probe_failure: the kubelet's probes pass, the pods are not failing by their own state
    class: 'dependency_failure',
    title:
      "the load balancer's health check of the pods fails (AWS Load Balancer Controller readiness gate)",
    role: 'cause',
    strength: 0.93,
    on: [],
    cause:
      "{subject}'s new pods never turn Ready: their containers are ready, but the pod readiness gate {gate} of the AWS Load Balancer Controller stays False (\"{fact}\"){lb_check}. The target group's health check of the load balancer fails on these pods, so the gate, the pod's Ready condition and the rollout wait{lb_path_note}",
    fix: '{lb_fix}',
  },
  {
    // the kubelet gives every file of a volume the pod's fsGroup before it starts any container;
    // with fsGroupChangePolicy Always (the default) it walks the whole volume on each mount
    id: 'volume_ownership_change_slow',
    class: 'create_container_config',
    title:
      "the kubelet is still changing the ownership of every file of a volume to the pod's fsGroup",
    role: 'cause',
    // above failed_mount: its "context deadline exceeded" is this walk running out of time
    strength: 0.93,
    on: ['event'],
    reason: '^VolumePermissionChangeInProgress$',
    text: 'Setting volume ownership for [^\\n]*?(?:is taking longer than expected[^\\n]*|processed (?<files>\\d+) files[^\\n]*)',
    cause:
      '{subject} cannot start: before it starts any container the kubelet is still setting the ownership of every file of its volume{owned_volume} to the pod\'s fsGroup{fs_group} ("{fact}"). With fsGroupChangePolicy unset (Always) the kubelet changes the ownership recursively, file by file, on every mount: on a volume with millions of files this takes longer than the mount may, so FailedMount "context deadline exceeded" follows and the pod stays in Init or ContainerCreating; the storage itself is fine',
    fix: 'Set securityContext.fsGroupChangePolicy: OnRootMismatch on the pod of {subject} (the kubelet then skips the walk when the root of the volume already has the right group), or drop the fsGroup the change added if the files are owned right already; waiting lets the walk finish, but it starts again on every restart.',
  },
  {
    // a request of the AWS ALB/NLB health checker answered with an error code by the pod
    id: 'lb_health_check_path_failing',
    class: 'dependency_failure',
    title: "the load balancer's health check path answers an error (ELB-HealthChecker)",
    role: 'cause',
    strength: 0.9,
    on: ['log'],
    text: '(?=[^\\n]*ELB-HealthChecker)(?:[^\\n]*?"(?:GET|HEAD) (?<hc_path>/[^\\s"?]*)[^"\\n]*" (?<hc_code>[45]\\d\\d)\\b|[^\\n]*?"url"\\s*:\\s*"(?<hc_path2>/[^"?]*)[^\\n]*?"status(?:Code)?"\\s*:\\s*(?<hc_code2>[45]\\d\\d)\\b)[^\\n]*',
    cause:
      'the load balancer\'s health check of {subject} fails: its health checker (ELB-HealthChecker) asks {hc_path}{hc_path2} and the app answers {hc_code}{hc_code2} ("{fact}"){lb_check}. The target group marks these pods unhealthy{lb_gate_note}',
    fix: '{lb_fix}',
  },
  {
    // helm upgrade first rebuilds the objects of the release deployed now from its stored manifest:
    // an API version the cluster no longer serves stops it before the new chart is looked at
    id: 'helm_release_manifest_removed_api',
    class: 'job_failed',
    title:
      'a Helm upgrade fails on an API version the stored release manifest uses and the cluster no longer serves',
    role: 'cause',
    strength: 0.94,
    on: ['log', 'text', 'event'],
    text: 'unable to build kubernetes objects from current release manifest: [^\\n]*?no matches for kind \\\\?"(?<kind>\\w+)\\\\?" in version \\\\?"(?<apiver>[\\w./-]+)\\\\?"[^\\n]*',
    cause:
      'the Helm release{helm_release_name} cannot be upgraded: "{fact}". Helm first rebuilds the objects of the release deployed now from the manifest stored in its current release record (Secret sh.helm.release.v1.<release>.v<revision>{helm_current}), and that manifest declares {kind} as {apiver}, an API version the cluster no longer serves{removed_in}{k8s_version}; the upgrade stops there before the new chart is even rendered, whatever the chart now says',
    fix: 'Rewrite the stored release manifest to served API versions with the helm-mapkubeapis plugin (`helm mapkubeapis <release> -n <namespace>`), or patch the release record; then upgrade with a chart that uses the current API version of {kind}.',
    namesSubject: true,
  },
  {
    // not matched line by line: diagnose-rollouts reads Karpenter's NodeClaims and nominations
    id: 'karpenter_nodes_never_register',
    class: 'pending_scheduling',
    title: 'Karpenter launches nodes for the pending pods but they never register with the cluster',
    role: 'cause',
    strength: 0.95,
    on: [],
    cause:
      '{subject} stays Pending although Karpenter provisions capacity for it: the instances of its NodeClaims ({nodeclaims}) launch but their nodes never register with the cluster ("{fact}"){claim_cycle}{node_role}',
    fix: '{node_role_fix}',
  },
  // ------------------------------------------------ end of: rollouts and scaling (round20, r20roll)
  // ---------------------------------------------------------------- delivery: a change not applied
  {
    // a GitOps controller (Flux's Kustomization dry-run, Argo CD's sync) or kubectl apply that
    // changes a field the API server does not let change in place: nothing of the change is
    // applied, the old version keeps running
    id: 'apply_field_immutable',
    class: 'recent_change',
    title: 'the change cannot be applied: it changes an immutable field',
    role: 'cause',
    strength: 0.9,
    on: ['event', 'condition', 'status', 'log', 'text'],
    namesSubject: true,
    text: '(?<what>[A-Z][A-Za-z]+(?:\\.[a-z][\\w.]*)? \\\\?"[\\w.-]+\\\\?") is invalid: (?<field>[\\w.\\[\\]]+): [^\\n]*?field is immutable(?: when `immutable` is set)?',
    cause:
      'the change never reached the cluster: applying {what} fails because it changes {field}, an immutable field ("{fact}"). The API server refuses to change it in place, so the apply (the GitOps sync or kubectl apply) fails and what runs keeps the previous version',
    fix: 'Keep {field} of {what} as it is in the cluster, or replace the object: delete and re-create it (Flux: `force: true` on the Kustomization; Argo CD: the Replace=true sync option); an immutable ConfigMap or Secret takes new data under a new name (a kustomize configMapGenerator hash) that the workload then points at.',
  },
  {
    // ingress-nginx's validating webhook refuses an Ingress whose host and path another Ingress
    // already serves: the new route is never created, the old Ingress keeps answering there
    id: 'ingress_path_already_defined',
    class: 'job_failed',
    title: 'the Ingress was refused: its host and path are already defined in another Ingress',
    role: 'cause',
    strength: 0.92,
    on: ['log', 'event', 'text'],
    namesSubject: true,
    text: 'admission webhook \\\\?"(?<webhook>[^"\\\\]+)\\\\?" denied the request: host \\\\?"(?<host>[^"\\\\]+)\\\\?" and path \\\\?"(?<path>[^"\\\\]+)\\\\?" is already defined in ingress (?<other>[\\w.-]+(?:/[\\w.-]+)?)',
    cause:
      'the Ingress of {subject} was never created: the admission webhook {webhook} denied it because host {host} and path {path} are already defined in Ingress {other} ("{fact}"). That Ingress still owns the route, so requests to {host}{path} reach its backend, not the new one',
    fix: 'Remove the route {path} from Ingress {other} (or delete that Ingress if it is retired), then apply the new Ingress again (re-run the deploy).',
  },
  {
    // etcd at its backend quota raises the NOSPACE alarm and refuses every write: the API
    // server answers writes with this error while reads still work
    id: 'etcd_space_exceeded',
    class: 'dependency_failure',
    title: 'etcd is out of space (NOSPACE alarm): the API refuses every write',
    role: 'cause',
    strength: 0.93,
    on: ['log', 'event', 'text', 'condition', 'status'],
    namesSubject: true,
    text: 'mvcc: database space exceeded|"alarm":"NOSPACE"|alarm:NOSPACE',
    cause:
      'etcd is out of space: it reached its backend quota (--quota-backend-bytes) and raised the NOSPACE alarm, so the API server refuses every write with "etcdserver: mvcc: database space exceeded" ("{fact}"). Syncs, deploys, status and lease updates and events all fail, while reads still work',
    fix: 'Free etcd: compact to the current revision (`etcdctl compact`), defragment every member (`etcdctl defrag`), then disarm the alarm (`etcdctl alarm disarm`); raise --quota-backend-bytes if the data needs it, and find what grew (Events, large ConfigMaps or Secrets, objects written often).',
  },
  {
    // each nginx worker holds at most worker_connections connections, clients and upstreams
    // together: past it nginx answers at once with an error (a 500 without an upstream), while
    // its CPU stays low and a CPU autoscaler sees nothing
    id: 'nginx_worker_connections',
    class: 'hpa_throttling',
    title: 'nginx has no free worker connections (worker_connections)',
    role: 'cause',
    strength: 0.9,
    on: ['log'],
    text: '(?<conns>\\d+ )?worker_connections are not enough[^\\n]*',
    cause:
      '{subject} runs out of nginx connections: "{fact}". Each worker process holds at most worker_connections connections ({conns}per worker, client and upstream connections together); with few worker processes and more traffic, nginx fails new requests at once (500 without reaching the upstream) while its CPU stays low, so a CPU autoscaler does not add pods',
    fix: 'Raise worker_connections (with worker_rlimit_nofile) and set worker_processes auto in the nginx configuration of {subject}, or add replicas; scale it on connections or requests rather than CPU.',
  },
  {
    id: 'hpa_metrics_unavailable',
    class: 'hpa_throttling',
    title: 'autoscaler cannot read metrics',
    role: 'cause',
    strength: 0.88,
    on: ['condition', 'event', 'status'],
    text: 'FailedGetResourceMetric[^\\n]*|FailedComputeMetricsReplicas[^\\n]*|unable to get metrics for resource[^\\n]*|unable to fetch metrics from resource metrics API[^\\n]*|the server is currently unable to handle the request \\(get pods\\.metrics\\.k8s\\.io\\)',
    cause:
      'the HorizontalPodAutoscaler of {subject} cannot read its metrics ("{fact}"): the resource metrics API (metrics.k8s.io, served by metrics-server) does not answer, so it cannot scale out{metrics_server}',
    fix: 'Restore the metrics API (check the metrics-server Deployment in kube-system and the v1beta1.metrics.k8s.io APIService); scale {subject} by hand meanwhile.',
  },
  {
    // a Pods/Object/External metric comes from an adapter (prometheus-adapter, KEDA, a cloud
    // adapter) behind custom.metrics.k8s.io / external.metrics.k8s.io, not from metrics-server
    id: 'hpa_custom_metrics_unavailable',
    class: 'hpa_throttling',
    title: 'autoscaler cannot read its custom metric (metrics adapter down)',
    role: 'cause',
    strength: 0.9,
    on: ['condition', 'event', 'status'],
    text: 'FailedGet(?:Pods|Object|External)Metric[^\\n]*|unable to fetch metrics from (?:custom|external) metrics API[^\\n]*|(?:custom|external)\\.metrics\\.k8s\\.io[^\\n]*',
    cause:
      'the HorizontalPodAutoscaler of {subject} cannot read its custom metric ("{fact}"): the custom/external metrics API (custom.metrics.k8s.io or external.metrics.k8s.io, served by an adapter such as prometheus-adapter or KEDA) does not answer, so it cannot scale',
    fix: 'Restore the metrics adapter behind the APIService v1beta1.custom.metrics.k8s.io (its pods, e.g. prometheus-adapter, and their logs); scale {subject} by hand meanwhile.',
  },
  {
    id: 'cronjob_forbid_active',
    class: 'job_failed',
    title: 'CronJob runs skipped: the previous run is still active',
    role: 'cause',
    strength: 0.85,
    on: ['event'],
    reason: '^JobAlreadyActive$',
    text: 'prior execution is (?:still )?running|concurrency policy is Forbid|JobAlreadyActive',
    cause:
      '{subject} skips its runs: the previous run is still active and its concurrencyPolicy is Forbid ("{fact}"): that run hangs{active_run}',
    fix: 'Find why the active run of {subject} hangs (its pod logs), end it (delete the Job) so runs resume, and set activeDeadlineSeconds so a hung run ends on its own.',
  },
  {
    // PHP-FPM's pool at its process cap: requests queue for a worker while the CPU idles
    id: 'php_fpm_max_children',
    class: 'hpa_throttling',
    title: 'PHP-FPM has no free worker (pm.max_children reached)',
    role: 'cause',
    strength: 0.9,
    on: ['log'],
    text: 'server reached pm\\.max_children setting \\((?<children>\\d+)\\)',
    cause:
      '{subject} is saturated: PHP-FPM runs all {children} of its workers (pm.max_children) and queues every other request, so the web server in front of it times out waiting (502/504) while CPU stays low ("{fact}")',
    fix: 'Find what holds the PHP-FPM workers of {subject} (its slowlog: slow calls to other services), raise pm.max_children within the memory limit (workers × memory per worker), and scale on busy workers rather than CPU.',
  },
  {
    // Django's host header check (ALLOWED_HOSTS): 400 Bad Request for a host not listed
    id: 'django_disallowed_host',
    class: 'recent_change',
    title: 'the application rejects the host name (Django ALLOWED_HOSTS)',
    role: 'cause',
    strength: 0.92,
    on: ['log'],
    text: "Invalid HTTP_HOST header: '(?<host>[^']+)'",
    cause:
      '{subject} answers 400 Bad Request for {host}: that host is not in its Django ALLOWED_HOSTS, so it rejects every request addressed to it ("{fact}"); hosts in the list still work',
    fix: 'Add {host} to ALLOWED_HOSTS of {subject} (the setting, or the environment variable / ConfigMap that feeds it) and roll it out.',
  },
  {
    // a query on a hot standby cancelled by WAL replay (vacuum removed rows it still needed)
    id: 'pg_standby_conflict',
    class: 'dependency_failure',
    title: 'queries on the PostgreSQL standby are cancelled (conflict with recovery)',
    role: 'cause',
    strength: 0.93,
    on: ['log'],
    text: 'canceling statement due to conflict with recovery',
    cause:
      "{subject} fails because its query on a PostgreSQL hot standby is cancelled: replaying the primary's cleanup (vacuum) removes row versions the query still needs, and the standby waits at most max_standby_streaming_delay before it cancels the query ({fact})",
    fix: 'For long queries on the standby of {subject}: turn on hot_standby_feedback (or raise max_standby_streaming_delay), or run them against a replica kept for reports; retrying alone fails again while vacuum runs on the primary.',
  },
  {
    // Kafka authorizes each operation of an authenticated principal against its ACLs: a
    // principal that logs in but has no ACL (a renamed SASL user, a new mTLS certificate name)
    id: 'kafka_authorization_failed',
    class: 'crashloop_connection',
    title: "Kafka refuses the client's principal access to a topic or group (ACLs)",
    role: 'cause',
    strength: 0.89,
    on: ['log'],
    text: '(?:Topic|Group|TransactionalId|Cluster)AuthorizationException[^\\n]*|(?:TOPIC|GROUP|TRANSACTIONAL_ID|CLUSTER)_AUTHORIZATION_FAILED[^\\n]*|Not authorized to access (?:topics|group)[^\\n]*',
    cause:
      '{subject} is refused by the Kafka brokers\' ACLs: "{fact}". It authenticates, but the principal it now uses has no ACL for the topic or group (a renamed SASL user or a new certificate name keeps the old ACLs){kafka_principal}',
    fix: "Grant the ACLs to the principal {subject} uses (`kafka-acls --add --allow-principal User:<name> --operation Write --operation Describe --topic <topic>`), or go back to the principal the ACLs name; the brokers' authorizer log says which principal is Denied.",
  },
  {
    // the broker refuses a record larger than the topic's max.message.bytes
    id: 'kafka_record_too_large',
    class: 'dependency_failure',
    title: 'Kafka rejects records larger than the topic allows',
    role: 'cause',
    strength: 0.92,
    on: ['log'],
    text: 'RecordTooLargeException|MESSAGE_TOO_LARGE',
    cause:
      '{subject} cannot publish: Kafka rejects its records as larger than the topic accepts (the topic\'s max.message.bytes, 1 MB by default) ("{fact}"){record_size}',
    fix: "Make the records of {subject} smaller (keep large payloads such as files elsewhere and send a reference), or raise the topic's max.message.bytes (and the consumers' fetch sizes) to fit them; a larger producer max.request.size alone does not help.",
  },
  // ------------------------------------------------ network paths and DNS (round20, r20net)
  {
    // external-dns with the TXT registry changes only the records whose TXT owner is its own
    // --txt-owner-id: a record another cluster's external-dns created (a blue/green switch) is
    // skipped at every sync, so it keeps pointing at what that cluster published
    id: 'external_dns_owner_mismatch',
    class: 'dns_failure',
    title: 'external-dns skips a DNS record that another owner id owns',
    role: 'cause',
    strength: 0.93,
    on: ['log'],
    text: 'Skipping endpoint (?<record>\\S+) (?:\\d+ )?IN (?<rtype>(?!TXT\\b)[A-Z]+) (?<current>[^\\s\\\\"]+)[^\\n]*?because owner id does not match, found: \\\\?"(?<found>[^"\\\\]+)\\\\?", required: \\\\?"(?<required>[^"\\\\]+)',
    cause:
      'external-dns does not update the DNS record {record}: its TXT registry record names owner id "{found}", while this external-dns runs with --txt-owner-id={required}, so every sync skips it ("{fact}") and {record} still points at {current}',
    fix: 'Hand {record} over to owner id {required}: change external-dns/owner={found} in its TXT registry record to {required} (or delete the stale TXT and {rtype} records so external-dns creates them again); then check that {record} resolves to the current load balancer.',
  },
  {
    // not matched line by line: diagnose places the cluster DNS replicas of clients whose lookups
    // fail (all of them on nodes that are NotReady)
    id: 'dns_replicas_on_unready_node',
    class: 'dns_failure',
    title: 'every cluster DNS replica runs on a node that is NotReady',
    role: 'cause',
    strength: 0.95,
    on: [],
    cause:
      'cluster DNS (coredns / kube-dns) is down: {replicas} coredns replicas ({dns_pods}) run on {dns_nodes}, which is {node_state}{node_since}, so their pods are not ready, kube-dns has no ready endpoints and every lookup in the cluster fails ({subject} cannot resolve {host})',
    fix: 'Get coredns running elsewhere now: delete its pods on {dns_nodes} (or `kubectl -n kube-system rollout restart deployment coredns`) so they are scheduled on Ready nodes, and bring {dns_nodes} back; then spread the replicas (pod anti-affinity or a topologySpreadConstraint on kubernetes.io/hostname) so one node cannot take cluster DNS down.',
  },
  {
    // not matched line by line: diagnose reads the ingress NetworkPolicies of a namespace whose
    // clients time out at the gateway against the namespaces' labels
    id: 'netpol_namespace_label_missing',
    class: 'dependency_failure',
    title: 'a NetworkPolicy admits traffic by a namespace label that the namespace does not carry',
    role: 'cause',
    strength: 0.94,
    on: [],
    cause:
      "{subject}'s pods drop the ingress controller's connections: NetworkPolicy {policy} admits port {ports} only from namespaces labelled {ns_selector} (its namespaceSelector), but {nobody}{meant}, and no other policy admits traffic from outside the namespace, so the connections to {subject} from Ingress {ingress} time out (504) while its pods are Running and Ready",
    fix: 'Give the namespace of the ingress controller the label {ns_selector}{meant_fix}; then the policy {policy} admits the controller again.',
  },
  // ------------------------------------------------ scheduling: who holds the capacity, who evicts (round21, r21sched)
  // the variables of these rules: finding-vars-r21sched.ts (also the CronJob whose piled-up runs
  // hold the requests, said by sched_insufficient's {capacity_holder})
  {
    // cluster-autoscaler's ScaleDown event ("deleting pod for node scale down") on a pod it
    // deletes to remove an underused node: a Job's pod is not restarted where it was, the attempt
    // is lost and counts against backoffLimit (a Deployment's pod is replaced: not this)
    id: 'job_pod_evicted_by_scale_down',
    class: 'job_failed',
    title: "a Job's pods evicted by the cluster autoscaler's scale-down",
    role: 'cause',
    strength: 0.9,
    // not matched line by line: diagnose-r21sched.ts keeps the events on a Job's pods
    on: [],
    cause:
      '{subject} does not finish: {evicted_runs} evicted by the cluster autoscaler\'s scale-down ("{fact}"){ca_line}. The autoscaler removes a node it finds underused and evicts (SIGTERM) the pods on it; a pod without the annotation cluster-autoscaler.kubernetes.io/safe-to-evict: "false" does not stop it, so each run is killed before it ends{ca_backoff}',
    fix: 'Annotate the pod template of {ca_job} with cluster-autoscaler.kubernetes.io/safe-to-evict: "false" so the cluster autoscaler does not remove the node under a running pod (and checkpoint long work so a restarted run resumes), then re-run the Job.',
  },
  {
    // not matched line by line: diagnose-r21sched.ts compares an Ingress's force-ssl-redirect, the
    // ingress controller's Service (its https port sent to the plain http port: TLS ends at the
    // load balancer), its ConfigMap (use-forwarded-headers) and its access log (308 for the backend)
    id: 'ingress_ssl_redirect_loop',
    class: 'recent_change',
    title:
      'an Ingress forces the redirect to https behind a load balancer that ends TLS: a 308 redirect loop',
    role: 'cause',
    strength: 0.93,
    on: [],
    cause:
      '{subject} is answered with a redirect loop{hosts}: Ingress {ingress} sets {annotation}: "true", but TLS ends at the load balancer in front of the ingress controller: its Service {lb_service} sends {lb_ports}{lb_cert}, so the controller receives every request as plain HTTP and answers 308 to https again, forever (browsers give up with ERR_TOO_MANY_REDIRECTS){access}{forwarded}',
    fix: 'Remove {annotation} from Ingress {ingress} (redirect http to https at the load balancer instead), or let the controller know the original scheme: terminate TLS on the controller (the https port to its https targetPort), or set use-forwarded-headers: "true" in its ConfigMap when the load balancer sends X-Forwarded-Proto (an AWS NLB does not).',
  },
  // ------------------------------------------------ end of: scheduling (round21, r21sched)
  // ------------------------------------------------ round21 (r21data): what a process sized from the data it found
  // (not matched line by line: diagnose-r21data.ts compares a log line with the container's limit,
  // its restart history, its volume claim and Secret)
  {
    // a JVM that does not see its container's limit sizes its heap from the node's memory
    id: 'jvm_heap_over_container_limit',
    class: 'oom_killed',
    title: "the JVM sizes its heap from the node's memory, above the container's memory limit",
    role: 'cause',
    // above oom_killed's state match (0.9): it says why the container outgrows its limit
    strength: 0.93,
    on: [],
    cause:
      '{subject} is OOMKilled (exit code 137): its JVM does not see the container\'s memory limit of {heap_limit} and sized its heap from the node\'s memory: it logs "{fact}", a maximum heap of {heap_max} above the limit, so the heap grows past the limit and the kernel kills the container{jvm_version}',
    fix: "Run {subject} on a JVM that reads the container's limit (Java 8u372+, 11.0.16+ or 17+ read cgroup v2), or cap its heap explicitly below the limit of {heap_limit} (-Xmx, or -XX:MaxRAM with MaxRAMPercentage) and leave room for memory off the heap; raising the limit does not help while the heap is sized from the node.",
  },
  {
    // Redis forks a child for a background save (RDB) or an AOF rewrite: every page the parent
    // writes meanwhile is copied (copy-on-write), on top of the dataset, under the same limit
    id: 'redis_fork_cow_oom',
    class: 'oom_killed',
    title:
      "Redis is OOMKilled during background saves (the fork's copy-on-write on top of maxmemory)",
    role: 'cause',
    strength: 0.93,
    on: [],
    cause:
      '{subject} is OOMKilled (exit code 137) during its background saves (BGSAVE/RDB): the killed run\'s log ends in a save that never finished ("{fact}"). Redis forks a child to write the snapshot, and every page written meanwhile is copied (copy-on-write) on top of the dataset{redis_maxmemory}, so together they exceed the container\'s memory limit{limit}{redis_save}; each restart drops what was not saved and reloads the dataset',
    fix: 'Keep Redis\'s maxmemory of {subject}{redis_maxmemory_fix} well below the container limit{limit} (about half to 60% of it leaves room for the fork\'s copy-on-write), or raise the limit; or save less often or not at all (save "") if the data may be lost.',
  },
  {
    // a database chart reinstalled with its volume kept: the new random password goes to the new
    // Secret, the kept data directory still has the old one (initialisation is skipped)
    id: 'db_password_kept_on_persisted_data',
    class: 'crashloop_connection',
    title: 'the database kept its old password on persisted data; its Secret has a new one',
    role: 'cause',
    // above dependency_auth_failed (0.87): it says why the password no longer matches
    strength: 0.92,
    on: [],
    cause:
      '{subject} is refused by its database: "{fact}". The database {db_pod} started on existing data ("{persisted}") from PVC {claim} (created {claim_created}), so it skipped initialisation and kept the old password of user{db_user} stored in that data, while {newer} is newer than the data: the new password{secret_name} that {subject} sends was never applied to the database',
    fix: 'Set the old password back{secret_name} (or the password of user{db_user} in the database to the new one: ALTER USER ... PASSWORD), or make the chart use an existing Secret with the old password (auth.existingSecret); then restart {subject}. Deleting PVC {claim} re-initialises the database but drops its data.',
  },
  // ------------------------------------------------ end of: round21 (r21data)
  // ------------------------------------------------ round22 (r22j): what a product's own line says about its peers
  {
    // Prometheus takes an exclusive flock on its TSDB directory; "resource temporarily
    // unavailable" (EAGAIN) means another live Prometheus holds it on the same volume — the old pod
    // a RollingUpdate keeps running until the new one is ready (a ReadWriteMany volume lets both
    // mount it) — not a corrupt WAL
    id: 'tsdb_lock_held',
    class: 'crashloop_config',
    title: 'Prometheus cannot lock its TSDB directory: another instance holds the lock',
    role: 'cause',
    strength: 0.94,
    on: ['log'],
    text: 'lock DB directory: resource temporarily unavailable[^\\n]*',
    cause:
      '{subject} exits at start: it cannot take the lock on its TSDB data directory ("{fact}"). Another Prometheus process holds that lock on the same volume{lock_holder}: a Deployment with strategy RollingUpdate keeps the old pod running until the new pod is ready, and a shared (ReadWriteMany) volume lets both mount it, so the new pod never starts and the rollout never completes',
    fix: 'Set the strategy of {subject} to Recreate (or run it as a StatefulSet), so the old pod stops and releases the lock before the new one starts; the rollout then completes. Nothing is wrong with the data itself.',
  },
  {
    // Galera marks safe_to_bootstrap=1 in grastate.dat only on the last member to leave the
    // cluster cleanly; when every member stopped at once (a scale to zero, all nodes replaced) none
    // is marked, so the first member refuses to bootstrap and the others find no primary to join
    id: 'galera_not_safe_to_bootstrap',
    class: 'crashloop_config',
    title: 'Galera cluster cannot start: no member is safe to bootstrap (all members went down)',
    role: 'cause',
    strength: 0.94,
    on: ['log'],
    text: 'It is not safe to bootstrap (?:form|from) this node[^\\n]*|safe_to_bootstrap[^\\n]{0,40}(?:is set to 0|=\\s*0)[^\\n]*',
    cause:
      'the Galera cluster {subject} cannot start again: "{fact}". Galera marks only the last member that left the cluster cleanly as safe to bootstrap (safe_to_bootstrap: 1 in grastate.dat); {galera_members}all members went down at the same time (a scale to zero, a node group replaced or shut down), so none is marked, the first member refuses to bootstrap a new cluster and the others find no primary component to join',
    fix: 'Bootstrap the cluster from the member with the highest seqno in its grastate.dat (the Bitnami chart: galera.bootstrap.forceSafeToBootstrap=true with galera.bootstrap.bootstrapFromNode set to that member, or MARIADB_GALERA_FORCE_SAFETOBOOTSTRAP=yes on it), let the others join, then remove the force again; scale the StatefulSet down member by member (never all at once) so the last one leaves cleanly.',
  },
  {
    // cluster-autoscaler keeps an underused node when a pod on it has local storage (emptyDir,
    // hostPath) and it runs with --skip-nodes-with-local-storage (the default before 1.29 charts);
    // it logs the node and the pod at every loop
    id: 'ca_scale_down_blocked_local_storage',
    class: 'pending_scheduling',
    title:
      'cluster-autoscaler does not remove underused nodes: pods with local storage (emptyDir) on them',
    role: 'cause',
    strength: 0.86,
    on: ['log'],
    text: 'node (?<ca_node>\\S+) cannot be removed: pod with local storage present: (?<ca_pod>\\S+)',
    cause:
      'cluster-autoscaler does not scale down the underused nodes: "{fact}". {ca_local_storage}It skips a node whose pods use local storage (an emptyDir or hostPath volume; --skip-nodes-with-local-storage=true), because removing the node would lose that data',
    fix: 'Annotate those pods cluster-autoscaler.kubernetes.io/safe-to-evict-local-volumes: "<volume names>" (or safe-to-evict: "true") when their local storage is scratch space, or run cluster-autoscaler with --skip-nodes-with-local-storage=false; the nodes are then removed at the next scale-down loop.',
  },
  {
    // Elasticsearch rejects a log record (400) whose field is a plain value where its index maps
    // an object: fluent-bit's kubernetes filter sends labels as kubernetes.labels.<key>, and with
    // Replace_Dots Off a dotted label (app.kubernetes.io/name) makes kubernetes.labels.app an
    // object, so a pod with a plain `app` label has every record refused and dropped
    id: 'es_object_mapping_conflict',
    class: 'dependency_failure',
    title: 'Elasticsearch rejects log records: a field is a value where the index maps an object',
    role: 'cause',
    strength: 0.92,
    on: ['log'],
    text: '(?:mapper_parsing_exception|document_parsing_exception)[^\\n]{0,60}?object mapping for \\[(?<es_field>[^\\]]+)\\] tried to parse field \\[[^\\]]+\\] as object, but found a concrete value',
    cause:
      'Elasticsearch refuses the records {subject} sends it with status 400 ("{fact}"): in the index, {es_field} is mapped as an object, but these records carry a plain value there, so each of them is rejected and dropped (the chunk cannot be retried) while the rest of the logs arrive{es_label_owner}',
    fix: '{es_fix}',
  },
  // ------------------------------------------------ end of: round22 (r22j)
  // ------------------------------------------------ round22 (r22i): what a controller or admission set that nobody wrote
  // the variables of these rules: finding-vars-r22i.ts (also {cpu_limit_from} of the probe rules:
  // a CPU limit a LimitRange default gave at admission)
  {
    // the in-tree AWS cloud provider's service controller: without the annotation
    // service.beta.kubernetes.io/aws-load-balancer-internal it builds an internet-facing load
    // balancer and needs public subnets (tagged kubernetes.io/role/elb); the AWS Load Balancer
    // Controller's own annotations (aws-load-balancer-scheme) mean nothing to it
    id: 'lb_no_suitable_subnets',
    class: 'recent_change',
    title: 'the cloud finds no subnet for the LoadBalancer Service (its address stays pending)',
    role: 'cause',
    strength: 0.9,
    on: ['event'],
    reason: '^SyncLoadBalancerFailed$',
    text: 'could not find any suitable subnets for creating the (?:ELB|NLB|load balancer)[^\\n]*',
    cause:
      'the LoadBalancer Service {subject} gets no address (EXTERNAL-IP pending): the in-tree cloud service controller "{fact}". Without the annotation service.beta.kubernetes.io/aws-load-balancer-internal: "true" it builds an internet-facing load balancer, which needs public subnets tagged kubernetes.io/role/elb, and there are none.{lb_annotations}',
    fix: 'For an internal load balancer annotate Service {subject} with service.beta.kubernetes.io/aws-load-balancer-internal: "true" (or install the AWS Load Balancer Controller and set loadBalancerClass service.k8s.aws/nlb so its aws-load-balancer-scheme annotation applies); for a public one tag public subnets with kubernetes.io/role/elb.',
  },
  {
    // Go's TLS client: the server that answered presents a certificate for other names, so the
    // name resolved to another server (a search domain with a wildcard record, a proxy, a stale
    // record); {dns_search}: the pod's dnsConfig search domain the certificate's names belong to
    id: 'tls_hostname_mismatch',
    class: 'dns_failure',
    title:
      'the server that answers presents a certificate for other names (the name reaches the wrong server)',
    role: 'cause',
    strength: 0.86,
    on: ['log', 'text'],
    text: 'x509: certificate is valid for (?<valid>[^\\n"\\\\]+?), not (?<host>[\\w-]+(?:\\.[\\w-]+)+)',
    cause:
      '{subject} cannot call {host} over TLS: the server that answers presents a certificate for {valid}, not {host} ("{fact}"), so the call reaches another server than the one {host} names{dns_search}',
    fix: '{dns_search_fix}',
  },
  // ------------------------------------------------ end of: round22 (r22i)
  // ------------------------------------------------ round23 (r23b): a product's own line about what it refuses
  // the variables of these rules: finding-vars-r23b.ts
  {
    // ingress-nginx parses a TLS Secret's tls.crt as PEM; a DER (or otherwise non-PEM) certificate
    // fails with this line and the controller then treats the Secret as absent ("local SSL
    // certificate ... was not found. Using default certificate")
    id: 'ingress_tls_secret_not_pem',
    class: 'tls_certificate',
    title:
      'the TLS Secret holds no PEM certificate: the ingress controller serves its default (fake) certificate',
    role: 'cause',
    strength: 0.95,
    on: ['log'],
    text: 'no certificate PEM data found[^\\n]*',
    cause:
      'the ingress controller cannot read the certificate of the TLS Secret{tls_pem_secret} an Ingress names: "{fact}". Its tls.crt is not PEM data (no "-----BEGIN CERTIFICATE-----" block{tls_pem_data}), so the controller treats the Secret as absent and serves its default self-signed certificate ("Kubernetes Ingress Controller Fake Certificate") for the hosts{tls_pem_hosts}; clients fail with "certificate signed by unknown authority"',
    fix: 'Re-create the Secret{tls_pem_secret} with the PEM-encoded certificate and key (a DER file converts with `openssl x509 -inform der -in cert.der -out cert.pem`; `kubectl create secret tls <name> --cert=cert.pem --key=key.pem`); the controller picks it up without a restart.',
  },
  {
    // the OpenTelemetry Collector refuses a config that names a component type its build does not
    // contain (removed in this version, renamed, or not compiled into this distribution)
    id: 'otel_collector_unknown_component',
    class: 'crashloop_config',
    title:
      'the OpenTelemetry Collector refuses its config: a component type this version does not have',
    role: 'cause',
    strength: 0.94,
    on: ['log'],
    text: '\'(?<otel_kind>receivers|processors|exporters|extensions|connectors)\' unknown type: "(?<otel_type>[\\w/.-]+)"[^\\n]*',
    cause:
      '{subject} exits at start because its collector config names a component its build does not contain: "{fact}". The config defines and uses the {otel_singular} "{otel_type}", which this collector version{otel_image} no longer (or never) ships{otel_removed}',
    fix: 'Replace the {otel_type} {otel_singular} in the collector config{otel_config} by one this version ships (the error lists the valid types{otel_replacement}) and remove it from the pipelines, or roll the image back to the previous version until the config is changed.',
  },
  {
    // Liquibase waits (forever, by default 5 min per attempt) for its DATABASECHANGELOGLOCK row;
    // a pod killed mid-migration leaves the row locked, and every new pod waits without listening
    id: 'liquibase_changelog_lock_held',
    class: 'dependency_failure',
    title: 'Liquibase waits for a changelog lock that is never released (stale migration lock)',
    role: 'cause',
    strength: 0.95,
    on: ['log'],
    text: 'Waiting for changelog lock|Could not acquire change ?log lock[^\\n]*',
    cause:
      '{subject} never finishes starting: Liquibase waits for the database changelog lock ("{fact}") before it runs its migrations, and the lock is held{liquibase_holder}. Until the lock row in DATABASECHANGELOGLOCK is released no new pod opens its port, so its probes fail and the kubelet restarts it; a longer initialDelaySeconds would not help',
    fix: 'Release the stale lock once you are sure no migration runs (`liquibase releaseLocks`, or `UPDATE databasechangeloglock SET locked=false, lockgranted=null, lockedby=null WHERE id=1`); then the new pods start. To avoid it: run migrations in a Job before the rollout, or use a session-scoped lock that dies with its connection.',
  },
  {
    // two HorizontalPodAutoscalers over the same pods (a KEDA ScaledObject's keda-hpa-<name> next to
    // a chart's own HPA): since Kubernetes 1.26 the HPA controller scales neither
    // (ScalingActive=False, reason AmbiguousSelector)
    id: 'hpa_ambiguous_selector',
    class: 'hpa_throttling',
    title: 'two HorizontalPodAutoscalers select the same pods: neither scales (AmbiguousSelector)',
    role: 'cause',
    strength: 0.94,
    on: ['condition', 'event', 'status'],
    text: 'AmbiguousSelector[^\\n]*|pods by selector (?<hpa_selector>\\S+) are controlled by multiple HPAs(?:: \\[(?<hpa_list>[^\\]]*)\\])?',
    cause:
      'nothing scales {subject}: its pods are selected by two HorizontalPodAutoscalers ("{fact}"){hpa_pair}, and the HPA controller refuses to scale pods that more than one HPA controls (ScalingActive=False, reason AmbiguousSelector), so {subject} stays at its current replicas whatever the load',
    fix: "Keep one autoscaler for {subject}: delete the other HorizontalPodAutoscaler{hpa_other} (for a chart HPA next to a KEDA ScaledObject: disable the chart's autoscaling, e.g. autoscaling.enabled=false), then check that `kubectl get hpa` shows ScalingActive=True.",
  },
  {
    // a client of a non-HTTP protocol (Redis, MySQL, AMQP...) gets an HTTP answer: its mesh
    // sidecar treats the destination port as HTTP (Istio picks the protocol from the Service port's
    // name or appProtocol: "http", "http-*") and Envoy answers the raw bytes with 400
    // (access log: "400 DPE http1.codec_error")
    id: 'mesh_http_on_tcp_port',
    class: 'dependency_failure',
    title:
      "the mesh sidecar handles a non-HTTP dependency's port as HTTP (protocol chosen from the Service port name)",
    role: 'cause',
    strength: 0.95,
    on: ['log'],
    text: 'invalid (?:reply|response)[^\\n]{0,6}HTTP/1\\.[01] 400 Bad Request[^\\n]*|"- - HTTP/1\\.1" 400 DPE http1\\.codec_error[^\\n]*',
    cause:
      '{subject} gets an HTTP answer where its dependency speaks another protocol ("{fact}"): its mesh sidecar handles the destination{mesh_dest} as HTTP. Istio chooses the protocol of a port from the Service port\'s name (or appProtocol){mesh_port}, so the proxy parses the raw TCP stream as HTTP/1.1, fails (http1.codec_error) and answers 400 Bad Request; the dependency itself is up',
    fix: 'Name the Service port{mesh_port_fix} for its real protocol (tcp-<name>, e.g. tcp-redis, or set appProtocol: tcp) so the sidecar proxies it as plain TCP; nothing is wrong with the dependency itself.',
  },
  // ------------------------------------------------ end of: round23 (r23b)
  // ------------------------------------------------ round24 (r24b): what a failing pod is given from outside its image
  // the variables of these rules: finding-vars-r24b.ts; the finding that compares objects: diagnose-r24b.ts
  {
    // the JVM loads a -javaagent before main(); a jar path that is not in the image ends the VM at
    // once (HotSpot: "Error opening zip file or JAR manifest missing : <path>", then "agent
    // library failed Agent_OnLoad: instrument"); the flag often comes from JAVA_TOOL_OPTIONS set
    // outside the image (a shared ConfigMap), so every pod started after it changed fails
    id: 'jvm_agent_jar_missing',
    class: 'crashloop_config',
    title: 'the JVM is told to load a -javaagent jar that is not in the image',
    role: 'cause',
    strength: 0.95,
    on: ['log'],
    text: 'Error opening zip file or JAR manifest missing ?: ?(?<agent_jar>\\S+)',
    cause:
      '{subject} exits before its application starts: the JVM is told to load the agent jar {agent_jar}{agent_flag}, and that file does not exist in the image ("{fact}"; then "agent library failed Agent_OnLoad: instrument"){agent_others}',
    fix: "Remove the -javaagent:{agent_jar} flag{agent_fix} or ship the agent jar at that path (in the image, or by the agent's injection); rolling back the image does not help while the flag stays.",
  },
  {
    // not matched line by line: diagnose-r24b.ts finds the missing Secret declared in a
    // SecretProviderClass's secretObjects and no pod of the workload mounting that class's CSI
    // volume (the Secrets Store CSI driver creates a synced Secret only on a pod's mount)
    id: 'spc_secret_never_synced',
    class: 'create_container_config',
    title:
      'the Secret is to be synced by a SecretProviderClass, but no pod mounts its CSI volume, so it is never created',
    role: 'cause',
    strength: 0.96,
    on: [],
    cause:
      '{subject} cannot start: the Secret "{secret}" it references does not exist ("{fact}", CreateContainerConfigError). That Secret is declared only in the secretObjects of SecretProviderClass {spc}{spc_provider}, and the Secrets Store CSI driver creates (syncs) such a Secret only while a pod mounts a CSI volume of that SecretProviderClass; the pods of {subject} mount none{spc_volumes}, so no mount ever happens and the Secret is never created. Not a permission problem of the secret store: nothing asked it yet',
    fix: 'Add a volume to the pod template of {subject}: csi: {driver: secrets-store.csi.k8s.io, readOnly: true, volumeAttributes: {secretProviderClass: {spc}}} and a volumeMount for it in the container; the first mount creates Secret {secret} and the pods start.',
  },
  {
    // not matched line by line: diagnose-r24b.ts compares an HPA that cannot find its custom
    // metric with the ServiceMonitor of its workload and the serviceMonitorSelector of the
    // Prometheus (Operator) the adapter reads: a ServiceMonitor without the selected labels is
    // ignored, the pods are not scraped, and the adapter has no series to serve
    id: 'servicemonitor_not_selected',
    class: 'hpa_throttling',
    title:
      'the custom metric the autoscaler scales on is missing: Prometheus does not select the ServiceMonitor of the workload (label missing)',
    role: 'cause',
    strength: 0.95,
    on: [],
    cause:
      'the HorizontalPodAutoscaler of {subject} cannot read its custom metric ("{fact}"), so it never scales out. The metrics adapter answers, but Prometheus has no series for {subject}: Prometheus {prom} selects ServiceMonitors by the label {sm_label} (serviceMonitorSelector), and ServiceMonitor {sm} of {subject} does not carry it (its labels: {sm_labels}), so Prometheus ignores it and {subject} is not scraped{sm_peer}',
    fix: 'Add the label {sm_label} to ServiceMonitor {sm} (for a chart: its serviceMonitor labels / additionalLabels value); once Prometheus scrapes {subject}, the adapter serves the metric and the HPA scales again. Scale {subject} by hand meanwhile.',
  },
  {
    // Airflow's `airflow db check-migrations` (the chart's wait-for-airflow-migrations init
    // container) gives up when the schema is not at the code's head: the database answers, the
    // migrations never ran (the chart runs them in a Job, by default a Helm post-install hook)
    id: 'airflow_migrations_never_run',
    class: 'crashloop_config',
    title: 'Airflow waits for database migrations that never ran (the migration Job did not run)',
    role: 'cause',
    strength: 0.95,
    on: ['log'],
    text: 'There are still unapplied migrations after \\d+ seconds[^\\n]*',
    cause:
      '{subject} never starts: it waits for the Airflow database schema and gives up ("{fact}"). The database answers (the check connects and finds no migration applied), but the migrations never ran{migration_job}',
    fix: '{migration_fix}',
  },
  // ------------------------------------------------ end of: round24 (r24b)
  // ------------------------------------------------ round24 (r24a): why a database's volume filled
  // the variables of these rules: finding-vars-r24a.ts
  {
    // PostgreSQL cannot write a new WAL segment: pg_wal filled the volume. The volume is the
    // symptom; what keeps the WAL is the answer: a replication slot nobody reads (its consumer
    // gone, checkpoints remove nothing) or an archive_command that fails (a segment is kept until
    // archived). pgWalWhy reads the same server's log for either.
    id: 'pg_wal_full',
    class: 'crashloop_config',
    // the title names no mechanism: pg_wal_why says which one (a slot, failing archiving) when the
    // log shows it
    title: "PostgreSQL's WAL directory (pg_wal) filled its volume: disk full",
    role: 'cause',
    strength: 0.9,
    on: ['log'],
    text: 'could not write to file \\W*pg_wal/[^:\\n]*: No space left on device',
    cause:
      '{subject} ran out of disk space: its WAL directory filled the volume ("{fact}"){pg_wal_why}',
    fix: '{pg_wal_fix}',
  },
  {
    // Elasticsearch (7+) cannot elect a master: the voting configuration still lists the
    // master-eligible nodes it had, an election needs a majority of them, and too few are
    // discovered; every request then fails with "SERVICE_UNAVAILABLE/2/no master". esQuorum says
    // which nodes are gone (a master StatefulSet scaled below its voting configuration).
    id: 'es_master_no_quorum',
    class: 'dependency_failure',
    title: 'Elasticsearch cannot elect a master: too few master-eligible nodes for a quorum',
    role: 'cause',
    strength: 0.9,
    on: ['log'],
    text: 'master not discovered or elected yet, an election requires (?:at least )?(?<es_need>\\d+) nodes? with ids from \\[(?<es_ids>[^\\]]*)\\][^\\n]{0,40}?have (?:only )?discovered non-quorum',
    cause:
      'the Elasticsearch cluster has no elected master, so every request fails with "no master" (cluster_block_exception): {subject} logs "master not discovered or elected yet, an election requires at least {es_need} nodes" of the {es_voters} master-eligible nodes in its voting configuration, and it discovers too few of them, not a quorum{es_scaled}',
    fix: '{es_fix}',
  },
  {
    // not matched line by line: diagnose-r24a.ts compares an HPA's metrics (memory above its
    // target, CPU far below, replicas at the maximum)
    id: 'hpa_pinned_at_max_by_memory',
    class: 'hpa_throttling',
    title: 'the HPA is held at its maximum by its memory metric alone',
    role: 'cause',
    strength: 0.86,
    on: [],
    cause:
      'the HorizontalPodAutoscaler {hpa} keeps {subject} at its maximum of {max} replicas because of its memory metric alone: memory is at {mem_now} of the request{mem_request} against a target of {mem_target} (percentage of request), while CPU is at {cpu_now} (target {cpu_target}). The HPA takes the largest replica count any metric asks for, and memory per pod does not fall when pods are added{start_heap}: it never scales down, even with no load',
    fix: 'Drop the memory metric from the HPA {hpa} (scale {subject} on CPU or request rate), or set the memory request of {subject} to what a pod holds at rest so the utilization means load; a JVM heap sized with -Xms/-Xmx stays reserved whatever the traffic.',
  },
  // ------------------------------------------------ end of: round24 (r24a)
  // ------------------------------------------------ round23 (r23a): a CronJob that replaces its own runs
  {
    // not matched line by line: diagnose-r23a.ts compares a CronJob's concurrencyPolicy, the
    // cronjob-controller's "Deleted job" / "Created job" events and its last successful time
    id: 'cronjob_replace_kills_running_job',
    class: 'job_failed',
    title:
      'a CronJob with concurrencyPolicy Replace deletes its still-running Job each time the next run is due',
    role: 'cause',
    strength: 0.93,
    on: [],
    cause:
      '{subject} never finishes a run: it runs on "{schedule}" with concurrencyPolicy: Replace, and each run now takes longer than the time to the next one, so at every scheduled time the cronjob-controller deletes the Job still running and starts a new one ("{fact}"; {replaced_runs}){last_success}{run_took}. No Job fails (a deleted Job is no failure), so only the missing result shows',
    fix: 'Set concurrencyPolicy: Forbid on CronJob {subject} (a run that overlaps the next is then skipped, not killed) or schedule it less often than a run takes, and make the run faster; then check that a run completes.',
  },
  {
    // not matched line by line: diagnose-r23a.ts compares when a pod's process started (its
    // bound service account token was issued) with its first 401 Unauthorized from the API server
    id: 'sa_token_never_reloaded',
    class: 'rbac_denied',
    title:
      "a long-running process never re-reads its rotated service account token: the API server answers 401 Unauthorized once the first token's extended one-year lifetime ends",
    role: 'cause',
    strength: 0.93,
    on: [],
    cause:
      '{subject} gets 401 Unauthorized from the API server ("{fact}"): an authentication failure, not RBAC. Its pod has run since {token_issued} without a restart, and its first 401 came {token_first_401}, {token_age} later: the bound service account token it read at start had an extended lifetime of one year, and the process never reloads the token file the kubelet keeps rotating{token_client}',
    fix: 'Restart {subject} now (a new pod reads a fresh token); for good, build it with a client library that re-reads the projected token file (client-go v0.15.7 or later, a current Kubernetes SDK), or restart it well within a year.',
  },
  // ------------------------------------------------ end of: round23 (r23a)
  // ------------------------------------------------ round25 (r25a): a setting the application reads that is not what it expects
  // the variables of these rules: finding-vars-r25a.ts
  {
    // the kubelet gives every container <SERVICE>_PORT=tcp://<clusterIP>:<port> (and _HOST, ...)
    // for each Service of its namespace that exists when the pod starts (service links,
    // enableServiceLinks true by default): an application that reads <NAME>_PORT as a number
    // fails to parse the URL once a Service of that name appears
    id: 'service_link_env_parsed_as_port',
    class: 'crashloop_config',
    title:
      'the application parses a service-link variable (<SERVICE>_PORT=tcp://<ip>:<port>) the kubelet injects as a number',
    role: 'cause',
    strength: 0.93,
    on: ['log'],
    text: '(?:invalid literal for int\\(\\) with base \\d+: |For input string: |strconv\\.\\w+: parsing |invalid (?:port|number|value)[^\\n\'"]{0,40}?|cannot (?:parse|convert)[^\\n\'"]{0,40}?)[\'"]tcp://(?<link_ip>\\d{1,3}(?:\\.\\d{1,3}){3}):(?<link_port>\\d+)[\'"]',
    cause: '{subject} fails reading its configuration: "{fact}"{link_source}',
    fix: '{link_fix}',
  },
  {
    // Go's net/url: a password with "/", "?" or "#" that is not percent-encoded ends the URL's
    // authority early, so the host part becomes "user:<start of password>" and the parser
    // reports the rest of the password as an invalid port
    id: 'url_password_reserved_char',
    class: 'crashloop_config',
    title: 'a connection URL whose password holds a reserved character that is not percent-encoded',
    role: 'cause',
    strength: 0.93,
    on: ['log'],
    text: 'parse \\\\?"(?<dsn>[a-z][\\w+.-]*://[^/@"\\\\\\s]*?:(?<pw_head>[^/?#@"\\\\:\\s]*)(?<reserved>[/?#])[^"\\s]*@[^"\\s]*?)\\\\?": invalid port \\\\?":\\k<pw_head>\\\\?" after host',
    cause:
      '{subject} cannot parse its connection URL: "{fact}". The port is not wrong: the password in the URL contains "{reserved}", a reserved character that is not percent-encoded, so the URL\'s host part ends at it and the parser reads "user:{pw_head}" as host and port',
    fix: 'Percent-encode the password in the URL ("/" as %2F, "#" as %23, "?" as %3F, "@" as %40, ":" as %3A) where the URL is built (the Secret or the template that writes it after a rotation), or generate passwords without reserved characters; then restart {subject}.',
  },
  {
    // PostgreSQL quotes the user name it refuses: a closing quote on the next line means the name
    // the client sent ends in a newline (a Secret written with echo without -n, or from a file
    // with a final newline)
    id: 'db_user_trailing_newline',
    class: 'crashloop_config',
    title: 'the database user name the application sends ends in a newline',
    role: 'cause',
    strength: 0.94,
    on: ['log'],
    text: '(?<nl_what>password authentication failed for user|role) "(?<nl_user>[^"\\n]*[^"\\s])(?:\\r?\\n"|$)',
    cause:
      '{subject} is refused by its database: "{fact}". The user name it sends ends in a newline: the server quotes it as "{nl_user}" with the closing quote on the next line, so it looks for a user "{nl_user}\\n" that does not exist (the password is not the problem){nl_source}',
    fix: '{nl_fix}',
  },
  {
    // PostgreSQL (SQLSTATE 42703), MySQL (1054) and SQLite refusing a query for a column the
    // table does not have: the code the pod runs expects a schema the database does not have
    // yet (a build newer than the migrations, or a migration rolled back)
    id: 'sql_undefined_column',
    class: 'recent_change',
    title: 'the application queries a column its database does not have (code ahead of the schema)',
    role: 'cause',
    strength: 0.9,
    on: ['log'],
    text: "column (?<col>\"?[\\w.]+\"?) (?:of relation \"?[\\w.]+\"? )?does not exist|Unknown column '(?<col2>[^'\\n]+)' in '[^'\\n]*'|no such column: (?<col3>[\\w.]+)",
    cause:
      '{subject} fails its requests: its database refuses the query, "{fact}": the code it runs expects the column {col}{col2}{col3}, which the database schema does not have (the build is newer than the schema\'s migrations, or a migration was not run or was rolled back)',
    fix: 'Run the image the schema matches (roll back, or pin the image by digest), or apply the migration that adds {col}{col2}{col3} before this build serves traffic.',
  },
  // ------------------------------------------------ end of: round25 (r25a)
  // ------------------------------------------------ round26 (r26b): ingress-nginx and what it proxies
  // not matched line by line: diagnose-r26b.ts compares the controller's access log, the Ingress's
  // annotations, the controller ConfigMap and the backend's own log
  {
    // a request (or an idle websocket) cut at ingress-nginx's proxy read timeout
    id: 'ingress_proxy_read_timeout_cut',
    class: 'dependency_failure',
    title: 'the ingress cuts connections at its proxy read timeout',
    role: 'cause',
    // above ingress_upstream_unavailable and upstream_keepalive_closed (the same 504s)
    strength: 0.9,
    on: [],
    cause:
      'the ingress (ingress-nginx) closes {cut_what} ("{fact}"): its proxy read timeout is {timeout}, because {timeout_source}. {cut_detail}',
    fix: '{timeout_fix}',
  },
  {
    // the pod serves TLS, the ingress proxies plain HTTP to it: the pod's TLS library logs it
    id: 'ingress_plain_http_to_tls_backend',
    class: 'recent_change',
    title: 'the ingress sends plain HTTP to a pod that serves TLS',
    role: 'cause',
    // above upstream_keepalive_closed (the same "upstream prematurely closed connection")
    strength: 0.9,
    on: [],
    cause:
      'the ingress sends plain HTTP to {subject}, which serves only TLS on the port its Service {tls_service} targets{tls_listen}: {subject}\'s TLS layer refuses each request as an "http request" in clear text ("{fact}") and drops the connection, so ingress-nginx logs "upstream prematurely closed connection" and answers 502 Bad Gateway. The Ingress {tls_ingress} still proxies with http:// because {tls_protocol} (ingress-nginx speaks HTTP to the pods unless it says HTTPS); probes that use scheme HTTPS keep the pods Ready',
    fix: 'Add the annotation nginx.ingress.kubernetes.io/backend-protocol: "HTTPS" to the Ingress {tls_ingress} (or give {subject} a plain HTTP port for the ingress again and point the Service at it).',
  },
  {
    // a name with fewer dots than ndots walks the search list: CoreDNS logs the expansions failing
    id: 'dns_search_list_expansion',
    class: 'dns_failure',
    title: "the pod's lookups walk the search list (ndots) and the expansions fail",
    role: 'cause',
    // above dns_failure (the same failed lookups, without why)
    strength: 0.9,
    on: [],
    cause:
      '{subject} fails DNS resolution of {dns_host} now and then ("{fact}"): {dns_host} has {dns_dots} dots, fewer than {dns_ndots_from}, so every lookup is first tried with each search domain of the pod (<ns>.svc.cluster.local, svc.cluster.local, cluster.local, then the node\'s {dns_suffix}), several queries (A and AAAA) per name; CoreDNS forwards {dns_host}.{dns_suffix} upstream and those queries fail ("{dns_line}"){dns_others}, so lookups time out with CoreDNS itself running',
    fix: 'Call {dns_host} by its fully qualified name with a trailing dot ({dns_host}.), or set dnsConfig options ndots: "2" (fewer than the dots of the names it calls) in the pod template of {subject}; reuse connections instead of resolving the name for each one.',
  },
  // ------------------------------------------------ end of: round26 (r26b)
  // ------------------------------------------------ round26 (r26a): a server's or a client's own line about the state it refuses
  // the variables of these rules: finding-vars-r26a.ts
  {
    // libpq refuses a client private key whose file is readable by group or others (a Secret
    // volume's files are 0644 unless its defaultMode says otherwise); the client fails before it
    // connects, so the server logs nothing
    id: 'libpq_key_file_permissions',
    class: 'crashloop_connection',
    title:
      'libpq refuses the client private key: its file has group or world access (Secret volume mode)',
    role: 'cause',
    strength: 0.95,
    on: ['log'],
    text: 'private key file "(?<key_file>[^"\\n]+)" has group or world access[^\\n]*',
    cause:
      "{subject} exits at start and restarts (CrashLoopBackOff): its PostgreSQL client library refuses its client certificate's key before it connects, \"{fact}\". The key {key_file}{key_volume} is readable by group or others: a Secret volume's files get mode 0644 (defaultMode 420) unless the volume sets another, and libpq accepts a key only with 0600 (owned by the process's user) or 0640 (owned by root); the database itself is not involved",
    fix: 'Mount the key with a stricter mode: set defaultMode: 0400 (or 0600) on the Secret volume{key_volume_fix} and run the container as the user that owns it (or 0640 with fsGroup), or copy the key with chmod 0600 in an init step; then restart {subject}.',
  },
  {
    // the mysqljs driver (`mysql` on npm) speaks only mysql_native_password: a MySQL 8 server (or
    // user) that asks for caching_sha2_password, its default since 8.0.4, gets errno 1251
    id: 'mysql_client_auth_plugin_unsupported',
    class: 'crashloop_connection',
    title:
      'the MySQL client cannot speak the authentication plugin the server asks for (ER_NOT_SUPPORTED_AUTH_MODE)',
    role: 'cause',
    strength: 0.95,
    on: ['log'],
    text: 'ER_NOT_SUPPORTED_AUTH_MODE: [^\\n]*|Client does not support authentication protocol requested by server[^\\n]*',
    cause:
      '{subject} cannot log in to MySQL: "{fact}". The server asks for an authentication plugin its client library does not implement{mysql_auth_plugin}; the old Node.js `mysql` (mysqljs) driver and other clients older than MySQL 8 speak only mysql_native_password, while MySQL 8 creates users with caching_sha2_password by default, so the connection fails during the handshake and the process exits',
    fix: "Either move {subject} to a client that supports caching_sha2_password (for Node.js: mysql2), or switch its database user to the old plugin (`ALTER USER '<user>'@'%' IDENTIFIED WITH mysql_native_password BY '<password>'`){mysql_auth_fix}; then restart {subject}.",
  },
  {
    // MySQL refuses to start on a data directory a newer server version upgraded (InnoDB,
    // MY-013171); with a moving tag (mysql:8.0) the node's cached image decides the version
    id: 'mysql_datadir_downgrade',
    class: 'crashloop_config',
    title:
      'MySQL cannot start: its data directory was upgraded by a newer server version (downgrade not supported)',
    role: 'cause',
    strength: 0.96,
    on: ['log'],
    text: 'Cannot boot server version (?<mysql_run>\\d+) on data directory built by version (?<mysql_built>\\d+)\\. Downgrade is not supported[^\\n]*',
    cause:
      '{subject} aborts at start: "{fact}". The data directory was last opened (and upgraded) by MySQL {mysql_built_v}, and this container runs the older {mysql_run_v}; MySQL does not support a downgrade, so it stops before it listens and every client of it fails{mysql_image}',
    fix: 'Run {subject} with MySQL {mysql_built_v} or newer again: pin the image to that exact version (or its digest){mysql_image_fix} instead of a moving tag, and set imagePullPolicy: Always while a moving tag is in use; never start an older server on that volume.',
  },
  {
    // Redis aborts loading an append-only file it cannot parse (a write cut short by a crash or
    // an unclean node reboot); redis-check-aof repairs it
    id: 'redis_aof_bad_format',
    class: 'dependency_failure',
    title: 'Redis cannot load its append-only file (AOF corrupt or truncated) and exits at start',
    role: 'cause',
    strength: 0.96,
    on: ['log'],
    text: '(?:Bad file format|Unexpected end of file) reading the append only file[^\\n]*|The AOF file \\S+ is truncated[^\\n]*',
    cause:
      '{subject} exits at start: Redis cannot load its append only file (AOF), "{fact}". The AOF on its volume is damaged (corrupt or truncated, typically by a write cut short when the process or its node died), Redis refuses to start on it, so it never listens and everything that uses it gets "connection refused"',
    fix: 'Back up the AOF directory on the volume of {subject}, then repair it with `redis-check-aof --fix <appendonly.aof.manifest>` (Redis 7; `redis-check-aof --fix appendonly.aof` before) from a debug pod that mounts the volume, or set aof-load-truncated yes for a truncated tail; restart {subject}. Removing the damaged incr file loses the writes it holds.',
  },
  {
    // Erlang distribution refuses a peer whose cookie differs: RabbitMQ (and any Erlang cluster)
    // nodes log the peer as disallowed, and the node with the other cookie cannot join (Mnesia
    // waits for its tables until the probes kill it)
    id: 'erlang_cookie_mismatch',
    class: 'crashloop_config',
    title:
      "an Erlang cluster refuses a node: its Erlang cookie differs from the other nodes' (disallowed node)",
    role: 'cause',
    strength: 0.93,
    on: ['log'],
    text: "Connection attempt from disallowed node '?(?<erl_node>[\\w.@-]+)'?[^\\n]*|Connection attempt from node '?(?<erl_node2>[\\w.@-]+)'? rejected\\. Invalid challenge reply[^\\n]*|\\.erlang\\.cookie contents do not match[^\\n]*",
    cause:
      'the nodes of {subject} refuse a peer: "{fact}". The Erlang cookie of {erl_peer} differs from the cookie of the other nodes{erl_cookie}, so the cluster rejects its connection, it cannot reach the other nodes\' Mnesia tables ("timeout_waiting_for_tables") and never becomes ready, and its probes restart it',
    fix: 'Give every node the same Erlang cookie: set the cookie explicitly (for the RabbitMQ charts: rabbitmqErlangCookie / auth.erlangCookie) to the value the running nodes use{erl_cookie_fix}, so an upgrade does not generate a new one, then restart {erl_peer}.',
  },
  // ------------------------------------------------ end of: round26 (r26a)
  // ------------------------------------------------ round26 (r26c): what the node or the data says, not the container
  // the finding that compares objects: diagnose-r26c.ts
  {
    // not matched line by line: diagnose-r26c compares the kubelet's SystemOOM on a node with
    // the OOMKilled containers there (no memory limit, or killed at that moment)
    id: 'node_system_oom_victim',
    class: 'oom_killed',
    title: 'the node ran out of memory (SystemOOM): the kernel OOM killer picked this container',
    role: 'cause',
    strength: 0.95,
    on: [],
    cause:
      '{subject} is OOMKilled because its node {node} ran out of memory, not because of its own limit{own_limit}: the kubelet recorded {oom_times} on the node ("{fact}"), and the kernel OOM killer picks a victim among all processes on the node{hog}',
    fix: '{hog_fix}; give {subject} a memory request and limit that match its use, so the kernel stops picking it first and the scheduler accounts for it; `kubectl describe node {node}` and `kubectl top pod -A` show what the node holds.',
  },
  {
    // not matched line by line: diagnose-r26c compares the image digests of one ReplicaSet's pods
    // with the kubelet's "already present on machine" / "Successfully pulled" events
    id: 'tag_split_cached_image',
    class: 'recent_change',
    title:
      'a tag pushed again: pods on nodes that cached the old build still run it (imagePullPolicy IfNotPresent)',
    role: 'cause',
    strength: 0.84,
    on: [],
    cause:
      '{subject} runs two builds under one image reference: {image} resolved to {old_digest} in {old_pods}, but to {new_digest} in the other {new_pods}. The tag was pushed again; on nodes that already had the old image cached the kubelet did not pull ("{fact}": imagePullPolicy IfNotPresent does not ask the registry for a tag it has), so those pods still run the stale, old image.{versions} Requests the Service sends there get the old behaviour',
    fix: "Deploy {subject} with an immutable tag (the version) or by digest (`{image}` → `...@{new_digest}`), or set imagePullPolicy: Always for a moving tag, then restart it (`kubectl rollout restart`); check every pod's imageID afterwards (`kubectl get pods -o jsonpath='{..imageID}'`).",
  },
  {
    // MongoDB refuses data files whose featureCompatibilityVersion is older than it supports
    // (an upgrade that skipped a major version: 4.4 -> 6.0 without 5.0), exit code 62
    id: 'mongod_fcv_too_old',
    class: 'crashloop_config',
    title: "mongod refuses its data files' featureCompatibilityVersion (Wrong mongod version)",
    role: 'cause',
    strength: 0.93,
    on: ['log'],
    text: "Wrong mongod version[^\\n]*?featureCompatibilityVersion[^\\n]*?version: \\\\?\"(?<fcv>\\d+\\.\\d+)\\\\?\"(?:[^\\n]*?(?<expected>expected '\\d+(?:\\.\\d+)*'?(?: or '\\d+(?:\\.\\d+)*'?)*))?",
    cause:
      '{subject} (mongod) refuses to start on its data ("Wrong mongod version"): the data files\' featureCompatibilityVersion is {fcv}, which this mongod version no longer accepts ({expected}). MongoDB upgrades one major version at a time, raising setFeatureCompatibilityVersion before the next: the image was upgraded past a version, so mongod exits (code 62) on every start',
    fix: 'Roll {subject} back to the image that matches featureCompatibilityVersion {fcv}, run `db.adminCommand({setFeatureCompatibilityVersion: "<next major>"})` through each major version in turn (e.g. 4.4 -> 5.0 -> 6.0, one image per step), then upgrade the image; never skip a major version.',
  },
  // ------------------------------------------------ end of: round26 (r26c)
  // ------------------------------------------------ round27 (r27b): a component beside a healthy workload (an issuer, a store at its limit)
  // the variables of these rules: finding-vars-r27b.ts
  {
    // a cert-manager ACME (Cluster)Issuer whose account registration the CA refused (an invalid
    // contact email, a forbidden domain): it stays Ready=False, cert-manager does not retry a
    // BadRequest, and no Certificate that names it is ever issued
    id: 'cert_manager_acme_account_refused',
    class: 'tls_certificate',
    title:
      'the ACME CA refuses to register the account of a cert-manager issuer: nothing it should issue is issued',
    role: 'cause',
    strength: 0.94,
    on: ['condition', 'event'],
    text: '(?:Failed to register ACME account|Error initializing issuer): (?<acme_error>[^\\n]*?(?:urn:ietf:params:acme:error:(?<acme_type>\\w+))?[^\\n]*)$',
    cause:
      'cert-manager cannot issue certificates with {issuer_ref}: the ACME server refused to register its account ("{fact}"){acme_contact}. The issuer stays not Ready (cert-manager does not retry a BadRequest), so {issued_for}',
    fix: 'Correct the account settings of {issuer_ref}{acme_contact_fix} and re-apply it (cert-manager registers the account again on a spec change); then the waiting Certificates are issued and the ingress controller serves them instead of its default certificate.',
  },
  {
    // Elasticsearch refuses to create an index when the cluster is at cluster.max_shards_per_node x
    // data nodes; a daily-index shipper (Filebeat, Fluentd, Logstash) drops every event of the new
    // day while the cluster stays green. The retention job that deletes old indices is the usual
    // reason the count grew
    id: 'elasticsearch_max_shards_open',
    class: 'dependency_failure',
    title:
      'Elasticsearch refuses new indices: the cluster is at its shard limit (max_shards_per_node)',
    role: 'cause',
    strength: 0.93,
    on: ['log'],
    text: 'this action would add \\[\\d+\\] (?:total )?shards, but this cluster currently has \\[(?<shards_open>\\d+)\\]/\\[(?<shards_max>\\d+)\\] maximum (?:normal |frozen )?shards open',
    cause:
      '{subject} cannot write to Elasticsearch: the cluster refuses to create new indices because it already has {shards_open}/{shards_max} shards open, its shard limit (cluster.max_shards_per_node x data nodes): "{fact}". Every event bound for a new (daily) index is rejected (status 400) and dropped, while the cluster itself stays green{shard_retention}',
    fix: 'Delete old indices{shard_retention_fix} to get under the limit (or raise cluster.max_shards_per_node for a while), and keep a retention policy (ILM, or a cleanup job) running; fewer shards per index (number_of_shards, replicas) slows the growth.',
  },
  {
    // external-dns submits every pending change of a zone in one batch: Route53 rejects the whole
    // batch (InvalidChangeBatch) when one record conflicts with a record made by hand (a CNAME
    // where external-dns wants an A/TXT), so no other host of that zone is published either
    id: 'external_dns_change_batch_rejected',
    class: 'dns_failure',
    title:
      "the DNS provider rejects external-dns's whole change batch: one record conflicts with a record made outside it",
    role: 'cause',
    strength: 0.93,
    on: ['log'],
    text: 'InvalidChangeBatch: \\[?RRSet of type (?<rtype>\\w+) with DNS name (?<conflict_host>[a-z0-9*][\\w.-]*?)\\.? is not permitted because a conflicting RRSet of type\\s+(?<other_type>\\w+)[^\\n]*?already exists[^\\n,\\]]*',
    cause:
      'external-dns publishes no new DNS record of the zone: the DNS provider rejects its whole change batch because {conflict_host} already has a {other_type} record that external-dns did not create, where it wants to write {rtype} ("{fact}"){conflict_source}. external-dns submits all changes of a zone together, so every other record of the batch{batch_hosts} fails with it ("failed to submit all changes") at each sync, and those names stay unresolvable (NXDOMAIN)',
    fix: 'Remove the conflict on {conflict_host}: delete the {other_type} record made by hand in the DNS zone (or take {conflict_host} off{conflict_fix} / exclude it from external-dns with a domain filter or annotation); at the next sync external-dns submits the batch and the other records are created.',
  },
  {
    // ingress-nginx leaves out an Ingress whose annotation is riskier than annotations-risk-level
    // allows (v1.12 lowered the default to High; snippets are Critical): its host answers the
    // default backend's 404 although the workload behind it is healthy
    id: 'ingress_nginx_risky_annotation',
    class: 'recent_change',
    title: 'ingress-nginx leaves out an Ingress whose annotation is above annotations-risk-level',
    role: 'cause',
    strength: 0.92,
    on: ['log'],
    text: 'annotation group (?<annotation_group>\\w+) contains risky annotation based on ingress configuration',
    cause:
      'the ingress controller{controller_version} refuses {risky_ingress} because of its {annotation_key} annotation ("{fact}") and leaves it out of its configuration, so requests for {risky_hosts} go to the default backend and get 404 while the pods behind it are healthy. Since ingress-nginx v1.12 (chart 4.12) annotations-risk-level defaults to High and snippet annotations are Critical: allow-snippet-annotations: "true" alone no longer lets them through{risk_level_setting}',
    fix: 'Either set annotations-risk-level: Critical in the ingress controller\'s ConfigMap (besides allow-snippet-annotations: "true"; a risk you accept knowingly), or remove the {annotation_key} annotation from {risky_ingress} and do what it did another way (headers with more_set_headers in a controller-wide setting, or a Helm value); the controller then serves the Ingress again.',
  },
  // ------------------------------------------------ end of: round27 (r27b)
  // ------------------------------------------------ round28 (r28b): a value that means something else than meant
  // the findings of these rules: diagnose-r28b.ts
  {
    // a memory quantity with a lowercase m is in millibytes ("1024m" is about 1 byte): the
    // memory-backed volumes (service-account token, Secrets) sized to the limit cannot be written
    id: 'memory_quantity_millibytes',
    class: 'recent_change',
    title: 'a memory request/limit written with a lowercase "m" (millibytes, not MiB)',
    role: 'cause',
    strength: 0.96,
    on: [],
    cause:
      '{subject} gets almost no memory: its container {container} has {milli_shown}, and a lowercase m suffix in a Kubernetes quantity means milli, so that is {milli_quantities}, not MiB{milli_before}. The kubelet sizes the memory-backed volumes of the pod (the projected service-account token, Secret volumes) to its memory limit, so mounting them fails with "no space left on device" and the pod stays in ContainerCreating{milli_effect}. The node disks are not full',
    fix: 'Write the memory quantities of {subject} with a binary suffix ({milli_intended}; Mi/Gi, not m) and roll out again; a LimitRange minimum or a policy that rejects memory quantities ending in "m" keeps it from coming back.',
  },
  {
    // busybox >= 1.29's nslookup fails short names (search domains) that 1.28's resolved: an init
    // container waiting with "until nslookup <service>" never finishes
    id: 'busybox_nslookup_short_name',
    class: 'recent_change',
    title: "an init container's busybox nslookup wait loop never resolves a short Service name",
    role: 'cause',
    strength: 0.96,
    on: [],
    cause:
      '{subject} never finishes its init container {container} (the pod stays Init:0/1): it waits with nslookup {host} in {image}, and busybox\'s nslookup from 1.29 on answers NXDOMAIN for a short Service name ("{fact}") although the Service {host} exists, because it does not apply the pod\'s DNS search domains the way busybox 1.28 did{nslookup_before}. DNS itself works',
    fix: 'Make {container} of {subject} wait with the full name ({fqdn}), or with a TCP check (nc -z / pg_isready) instead of nslookup, or pin {nslookup_pin}; then the init container finishes and the pods start.',
  },
  {
    // a Service selector that another workload's pods match too (a shared label): those pods
    // join its Endpoints without listening on the targetPort, and their share of connections
    // is refused while the Service's own pods are healthy
    id: 'service_selects_other_workload',
    class: 'dependency_failure',
    title: "a Service's selector also matches the pods of another workload, which refuse its port",
    role: 'cause',
    strength: 0.95,
    on: [],
    cause:
      'the Service {service} sends part of its traffic to the wrong pods: its selector {selector} also matches the pods of {other_workload} ({stray_pods}){endpoints_note}, which do not listen on targetPort {target} (they declare {stray_ports}), so {stray_share} backends refuse connections and clients fail intermittently ("{refused}") while the pods of {service} are healthy',
    fix: 'Make the selector of the Service {service} unique to its own pods{distinct_label}, or remove the shared label from the pod template of {other_workload}; the Endpoints then list only pods that serve port {target}.',
  },
  // ------------------------------------------------ end of: round28 (r28b)
  // ------------------------------------------------ round29 (r29b): a process model that shares what it should not
  // template variables: finding-vars-r29b.ts
  {
    // OpenSSL's "decryption failed or bad record mac" on a database connection (libpq/psycopg2):
    // two processes use one TLS session, a connection opened before a pre-fork server (gunicorn
    // --preload, uWSGI without lazy-apps, multiprocessing) forked its workers; they interleave
    // on its stream and queries fail now and then, while the database is fine
    id: 'db_tls_connection_shared_across_fork',
    class: 'crashloop_panic',
    title:
      'a database connection opened before the workers fork is shared by them (TLS stream corrupted)',
    role: 'cause',
    // above panic (a traceback around the same line)
    strength: 0.9,
    on: ['log'],
    text: '[^\\n]{0,120}SSL error: decryption failed or bad record mac[^\\n]{0,80}',
    cause:
      '{subject} fails some of its database queries with "{fact}": the TLS stream of the connection is corrupted because more than one process uses it. A connection (or pool) opened before the server forks its workers is inherited by every forked worker{fork_origin}; they write and read on the same TLS session, so requests fail intermittently (also as "SSL SYSCALL error: EOF detected") while the database itself is healthy',
    fix: 'Open the database connections of {subject} in each worker after the fork: drop the preload{fork_fix}, or dispose the engine/pool in a post_fork hook (SQLAlchemy: engine.dispose(close=False)); then no two workers share a connection.',
  },
  {
    // uWSGI's own line when every worker is busy and connections overflow the socket's listen
    // backlog (default 100): the ingress then times out connecting (504) and the readiness probe
    // fails (503, no ready endpoints); CPU and memory are idle, the workers wait on something
    id: 'uwsgi_listen_queue_full',
    class: 'dependency_failure',
    title: "the server's workers are all busy: its listen queue is full",
    role: 'cause',
    // above ingress_upstream_unavailable, whose 504s this explains
    strength: 0.9,
    on: ['log'],
    text: '\\*\\*\\* uWSGI listen queue of socket [^\\n]{0,60}full !!! \\((?<queued>\\d+)/(?<backlog>\\d+)\\)[^\\n]*',
    cause:
      '{subject} cannot take new requests: all{uwsgi_workers} of its uWSGI workers are busy, so new connections wait in the socket\'s listen queue until it is full ("{fact}": {queued} queued of a backlog of {backlog}). Then connections are not accepted: the ingress times out connecting (504) and the readiness probe times out (503 once no endpoint is ready). A full queue means the workers do not free up: they are held by requests that do not finish{uwsgi_wait}',
    fix: "Bound the time a worker can spend on one request in {subject}: a timeout on its outgoing calls{uwsgi_wait_fix} and uWSGI's harakiri; more workers/threads (or replicas) only buy time while the slow calls last.",
  },
  // ------------------------------------------------ end of: round29 (r29b)
  // ------------------------------------------------ round29 (r29c): a secret store, a node pool and a mount target that refuse
  // the variables of these rules: finding-vars-r29c.ts; the finding that compares objects: diagnose-r29c.ts
  {
    // the Vault agent (injector init container / sidecar) logs in, but Vault answers 403 on the
    // template's read of a KV v2 path (<mount>/data/<name>): the policy of its role does not grant
    // that path; a policy written as <mount>/<name>/* (the KV v1 form) never matches KV v2's API path
    id: 'vault_kv2_read_denied',
    class: 'rbac_denied',
    title:
      "Vault refuses the agent's read of a KV v2 secret: its policy does not grant the data/ path",
    role: 'cause',
    strength: 0.95,
    on: ['log'],
    text: 'vault\\.read\\((?<vault_mount>[\\w.-]+)/data/(?<vault_rest>[^)\\s]+)\\): permission denied',
    cause:
      '{subject} cannot get its secrets from Vault: the Vault agent reads {vault_mount}/data/{vault_rest} and Vault answers 403 permission denied ("{fact}"), so the template is never rendered and the agent container exits. The Vault policy of the role the agent logs in with does not grant read on that path. {vault_mount}/ is a KV v2 engine (its API path has data/ after the mount): a policy must name path "{vault_mount}/data/...", and a policy path "{vault_mount}/<name>/*" without data/ (the KV v1 form) does not match it',
    fix: 'Grant read on "{vault_mount}/data/{vault_rest}" in the Vault policy of the role of {subject} (for KV v2: path "{vault_mount}/data/<name>/*", and "{vault_mount}/metadata/<name>/*" to list), write the policy again (vault policy write); the agent then renders its template at the next start.',
  },
  {
    // Karpenter launches no node for pending pods when every instance type that would fit takes
    // its NodePool past spec.limits: the pods stay Pending (Insufficient cpu on the nodes there
    // are) while the autoscaler is healthy
    id: 'karpenter_nodepool_limits',
    class: 'pending_scheduling',
    title: 'Karpenter adds no node: the NodePool is at its spec.limits',
    role: 'cause',
    strength: 0.95,
    on: ['event', 'log'],
    text: 'all available instance types exceed limits for nodepool:? \\\\?"(?<nodepool>[\\w.-]+)\\\\?"',
    cause:
      '{subject} has pods that stay Pending because Karpenter will not add a node for them: NodePool {nodepool} would exceed its limits ("{fact}"){nodepool_limits}. Every instance type that fits the pods would take the NodePool past spec.limits, so no NodeClaim is created and the scheduler finds no room on the nodes there are (Insufficient cpu/memory)',
    fix: '{nodepool_fix} (kubectl edit nodepool {nodepool}) or add a second NodePool for these pods; Karpenter then launches a node and the pending pods schedule.',
  },
  {
    // an NFS-backed CSI volume (EFS, Filestore, an NFS server) whose mount times out on some nodes:
    // the CSI node plugin there cannot reach the file system's port 2049 (a security group or
    // firewall that does not allow those nodes); found by diagnose-r29c.ts
    id: 'nfs_mount_timeout_on_nodes',
    class: 'dependency_failure',
    title: 'an NFS/EFS volume cannot be mounted on some nodes: NFS (TCP 2049) times out from them',
    role: 'cause',
    strength: 0.95,
    on: [],
    cause:
      '{subject} cannot mount its NFS/EFS volume on some nodes: the mount times out (FailedMount: DeadlineExceeded) and the CSI node plugin there says why ("{fact}"){nfs_where}. A connection that times out (not refused) to {nfs_target} is traffic dropped on the way: the security group (firewall) of the file system\'s mount targets does not allow NFS (TCP 2049) from {nfs_from}, so the pods stay ContainerCreating',
    fix: "Allow inbound TCP 2049 to the mount targets' security group (or the NFS server's firewall) from {nfs_from}; the kubelet retries the mount and the pods start. Until then, cordon those nodes so the pods schedule where the mount works.",
  },
  // ------------------------------------------------ end of: round29 (r29c)
  // ------------------------------------------------ round29 (r29a): DNS search lists, node-local Services
  // the findings of these rules: diagnose-r29a.ts
  {
    // internalTrafficPolicy: Local: kube-proxy sends ClusterIP traffic only to endpoints on the
    // client's node; clients on nodes without a pod of the Service time out
    id: 'service_internal_traffic_local',
    class: 'dependency_failure',
    title:
      "a Service with internalTrafficPolicy: Local has no endpoint on the failing clients' nodes",
    role: 'cause',
    strength: 0.95,
    on: [],
    cause:
      '{subject} times out calling the Service {service} (namespace {service_ns}) only from nodes without a pod of {service} ("{fact}"): the Service has internalTrafficPolicy: Local, so kube-proxy routes its ClusterIP traffic only to endpoints on the client\'s own node and drops it where there is none. The failing clients are {failing_pods}; the pods of {service} run on {backend_nodes}, and clients beside them work. The pods of {service} are healthy',
    fix: 'Set internalTrafficPolicy of the Service {service} back to Cluster (spec.internalTrafficPolicy: Cluster, the default), or run a pod of {service} on every node its clients run on (a DaemonSet); node-local routing only fits a Service that has an endpoint on every node.',
  },
  {
    // an Istio DestinationRule subset no pod matches any more, while a VirtualService routes to it:
    // the sidecars find no endpoint for it and answer 503 no healthy upstream (UH)
    id: 'istio_subset_selects_no_pod',
    class: 'recent_change',
    title:
      'the DestinationRule subset traffic is routed to selects no pod (503 no healthy upstream)',
    role: 'cause',
    strength: 0.95,
    on: [],
    cause:
      'the DestinationRule {rule} (namespace {rule_ns}) defines subset {subset} as the pods labelled {subset_labels}{route}, but none of the {ready_pods} running pods of {subject} carries that label (they have {carried}){subset_before}. The subset has no endpoints, so every caller\'s sidecar answers 503 "no healthy upstream" ("{fact}") although the pods are Ready and the Service has endpoints',
    fix: 'Make the subset {subset} of the DestinationRule {rule} select the labels the pods now carry ({carried}), or put {subset_labels} back on the pod template of {subject}; keep the label a DestinationRule subset selects stable across releases (not the chart version).',
  },
  {
    // Gateway API: an HTTPRoute's backendRef to a Service of another namespace that no
    // ReferenceGrant there permits: the gateway answers that rule itself (500), the pods are fine
    id: 'httproute_backend_not_granted',
    class: 'recent_change',
    title: "an HTTPRoute's backend in another namespace is not permitted by a ReferenceGrant",
    role: 'cause',
    strength: 0.95,
    on: [],
    cause:
      'the HTTPRoute {route} (namespace {route_ns}) sends a rule to the Service {backend} in namespace {backend_ns}, and the gateway refuses that cross-namespace reference (ResolvedRefs False, "{fact}"){grants}. The gateway answers the requests of that rule itself with 500 and {subject} never receives them; its pods are healthy',
    fix: "{grant_fix}; the route's ResolvedRefs condition turns True and the gateway sends the rule to {backend}.",
  },
  {
    // Istio REGISTRY_ONLY: connections to a host no ServiceEntry registers go to the
    // BlackHoleCluster and are closed at once (the app sees EOF or a reset)
    id: 'mesh_registry_only_unregistered_host',
    class: 'dependency_failure',
    title: 'the mesh (REGISTRY_ONLY) drops calls to an external host no ServiceEntry registers',
    role: 'cause',
    strength: 0.95,
    on: [],
    cause:
      '{subject} cannot call {host}: its Istio sidecar sends those connections to the BlackHoleCluster ("{blackhole}"), which the mesh does only in outboundTrafficPolicy mode REGISTRY_ONLY{mode_source} for a host no ServiceEntry registers{entries}. The sidecar closes the connection at once, so the app sees it fail ("{fact}")',
    fix: 'Register {host} with a ServiceEntry (hosts: [{host}], location: MESH_EXTERNAL, its port and protocol) in {entry_ns} or the mesh root namespace, or set outboundTrafficPolicy back to ALLOW_ANY until every external host {subject} calls is registered.',
  },
  // ------------------------------------------------ end of: round29 (r29a)
  // ------------------------------------------------ round30 (r30b): the node's runtime and CNI refuse a sandbox
  // the variables of these rules: finding-vars-r30b.ts
  {
    // runc cannot load the container's seccomp BPF filter: the node's kernel refuses it (errno
    // 524, ENOTSUPP: a kernel that ran out of bpf_jit_limit, a kernel bug of a node image)
    id: 'runc_seccomp_filter_load_failed',
    class: 'node_not_ready',
    title: "the node's kernel refuses to load the seccomp filter: runc cannot create any sandbox",
    role: 'cause',
    strength: 0.93,
    on: ['event'],
    reason: '^(?:FailedCreatePodSandBox|Failed|FailedKillPod)$',
    text: '(?:unable to init seccomp: )?error loading seccomp filter into kernel[^\\n"]*',
    cause:
      'the pods of {subject} on node {node} stay ContainerCreating: the container runtime there cannot start any sandbox, because runc cannot load the seccomp filter into the kernel ("{fact}"). The kernel of {node}{seccomp_node} refuses the BPF program (errno 524 is ENOTSUPP: the JIT limit net.core.bpf_jit_limit used up, as a kernel bug of some node images does), so every pod scheduled there fails while the same pods start on other nodes; the application is not involved',
    fix: '{seccomp_node_fix}; or, to keep the node, raise net.core.bpf_jit_limit on it and restart containerd. Check the image release notes for the kernel fix before rolling it out again.',
  },
  {
    // Calico's CNI plugin authenticates with the token calico-node writes into its kubeconfig;
    // when calico-node may not renew it (RBAC of an older release), every CNI ADD/DEL is refused
    id: 'calico_cni_unauthorized',
    class: 'node_not_ready',
    title: "Calico's CNI plugin is refused by the API server (its kubeconfig token is not valid)",
    role: 'cause',
    strength: 0.93,
    on: ['event'],
    reason: '^FailedCreatePodSandBox$',
    text: 'plugin type=\\\\?"calico\\\\?" failed \\(add\\): [^\\n"\\\\]*?(?:connection is unauthorized: )?Unauthorized',
    cause:
      'the new pods of {subject} on node {node} stay ContainerCreating: Calico\'s CNI plugin is refused by the API server ("{fact}"), so the kubelet cannot set up (or tear down) any pod network. The plugin authenticates with the token calico-node writes into the CNI kubeconfig on each node; that token has expired or is no longer accepted{calico_token}',
    fix: "{calico_token_fix}; then calico-node writes a fresh token for the CNI kubeconfig and the kubelet's next sandbox retry works (pods stuck Terminating are released too).",
  },
  {
    // the sandbox ("pause") image is the node's, not the pod's: containerd pulls it with the
    // node's own credentials when it is missing from the node (removed by image GC under disk
    // pressure); a refused pull leaves every new pod on that node in ContainerCreating
    id: 'sandbox_image_pull_failed',
    class: 'image_pull',
    title: "the node's container runtime cannot pull its sandbox (pause) image",
    role: 'cause',
    strength: 0.93,
    on: ['event'],
    reason: '^FailedCreatePodSandBox$',
    text: 'failed to get sandbox image \\\\?"(?<sandbox_image>[^"\\\\\\n]+)\\\\?"(?:[^\\n]*?(?<sandbox_status>\\b[45]\\d\\d (?:Unauthorized|Forbidden|Not Found|Too Many Requests)\\b))?[^\\n]*',
    cause:
      'the pods of {subject} on node {node} stay ContainerCreating: the container runtime on {node} cannot get its sandbox ("pause") image {sandbox_image}{sandbox_pull_status} ("{fact}"). Every pod sandbox on that node needs that image; it is no longer in the node\'s image store{sandbox_gc}, and the node cannot pull it again. This is not the application\'s image nor its imagePullSecret: the runtime pulls the sandbox image with the node\'s own registry credentials, and pods on other nodes start',
    fix: "Get {sandbox_image} back on {node}: pull it there with the node's registry credentials (on EKS: `ctr -n k8s.io images pull --user AWS:$(aws ecr get-login-password) {sandbox_image}`), or cordon and replace the node; then keep image garbage collection from removing it (containerd pins its configured sandbox_image; kubelet --pod-infra-container-image on older versions, or a newer node image that pins it) and free the disk that caused the pressure.",
  },
  // ------------------------------------------------ end of: round30 (r30b)
  // ------------------------------------------------ round30 (r30c): a budget used up, a schedule missed
  {
    // not matched line by line: diagnose-r30c.ts weighs a budget's unhealthy pods against a drain
    id: 'pdb_budget_used_by_unready_pod',
    class: 'eviction',
    title: 'PodDisruptionBudget used up by an unhealthy pod: the drain cannot evict a healthy one',
    role: 'cause',
    strength: 0.9,
    on: [],
    cause:
      'the PodDisruptionBudget {pdb} ({budget}) allows 0 disruptions because its budget is already used up by a pod that is not healthy ({broken}: {state}), so the eviction of the healthy pod {pod} from the cordoned node {drained} is refused and the drain waits forever: {fact}',
    fix: 'Fix or delete the unhealthy pod {broken} (its logs say why it fails); once it is ready again, or gone and replaced, the budget allows one disruption and the drain continues. To let drains evict pods that are not ready anyway, set `unhealthyPodEvictionPolicy: AlwaysAllow` on the PodDisruptionBudget {pdb}.',
  },
  {
    // the API server's validation of a pod whose request is above its limit: the limit the
    // template does not set is the namespace LimitRange's default, filled in at admission
    // (variables: finding-vars-r30c.ts)
    id: 'request_above_limit_rejected',
    class: 'quota_limitrange',
    title: 'pods rejected: a resource request above the container limit (a LimitRange default)',
    role: 'cause',
    strength: 0.93,
    on: ['event', 'condition', 'status'],
    text: 'spec\\.(?:initContainers|containers)\\[\\d+\\]\\.resources\\.requests: Invalid value: "(?<over_request>[^"]+)": must be less than or equal to (?<over_res>cpu|memory) limit(?: of (?<over_limit>[\\w.]+))?',
    cause:
      'new pods of {subject} are rejected at creation: the {over_res} request {over_request} is above the {over_res} limit {over_limit} of the container ("{fact}"){limit_default_from}, so the controller creates no pod and the old ones keep running',
    fix: '{limit_default_fix}',
  },
  {
    // not matched line by line: diagnose-r30c.ts reads a CronJob's MissedSchedule events with its
    // startingDeadlineSeconds and last scheduled run
    id: 'cronjob_missed_schedule',
    class: 'job_failed',
    title: 'CronJob runs skipped: the controller missed their start (startingDeadlineSeconds)',
    role: 'cause',
    strength: 0.9,
    on: [],
    cause:
      'the CronJob {cronjob} did not run: its runs were skipped as missed (MissedSchedule{missed_times}){deadline_said}: {fact}',
    fix: '{deadline_fix}; then start the skipped run once by hand (`kubectl create job --from=cronjob/{cronjob} <name>`).',
  },
  // ------------------------------------------------ end of: round30 (r30c)
  // ------------------------------------------------ round30 (r30a): a message broker or object store that refuses what is asked of it
  // the variables of these rules: finding-vars-r30a.ts
  {
    // NATS JetStream refuses to create a stream (err_code 10047): every file stream reserves its
    // max bytes on each of its replicas' servers out of max_file_store, and what the existing
    // streams reserve leaves too little; the stream never exists, its consumers get "stream not found"
    // (found by diagnose-r30a.ts: the app's line and the refusal of the stream it names)
    id: 'jetstream_insufficient_storage',
    class: 'dependency_failure',
    title:
      'JetStream cannot create a stream: insufficient storage resources (max_file_store reserved)',
    role: 'cause',
    strength: 0.95,
    on: [],
    cause:
      '{subject} fails because the JetStream stream {js_stream} it uses was never created ("{js_app_line}"): NATS refused it ("{fact}"). JetStream reserves the max bytes of every file stream on each server that holds a replica of it, out of that server\'s max_file_store{js_store}{js_reserved}; what is left is less than {js_stream} asks for, so the stream does not exist and every app that binds to it fails',
    fix: 'Give JetStream room for {js_stream}: raise max_file_store of the NATS servers (and grow their volumes to match), or lower maxBytes (or replicas) of {js_stream} or of the streams that reserve the space; the stream controller then creates it and its consumers start.',
  },
  {
    // a Kafka client finds no topic it uses ("Topic X not present in metadata", UNKNOWN_TOPIC_OR_PARTITION)
    // while the KafkaTopic of that name is not Ready: the topic operator could not create it and
    // says why (a replication factor above the brokers there are, a bad config); found by
    // diagnose-r30a.ts
    id: 'kafka_topic_not_created',
    class: 'dependency_failure',
    title: 'the Kafka topic an app uses was never created: its KafkaTopic is not Ready',
    role: 'cause',
    strength: 0.95,
    on: [],
    cause:
      '{subject} fails because the Kafka topic {kafka_topic} does not exist ("{kafka_app_line}"): the KafkaTopic {kafka_topic}{topic_where} is not Ready, the topic operator could not create it: "{fact}"{topic_spec}',
    fix: '{topic_fix}; the topic operator then creates {kafka_topic} and {subject} can use it.',
  },
  {
    // an S3 client (Loki's ingesters, a backup) whose writes MinIO refuses: its drives are at the
    // minimum free threshold (XMinioStorageFull, HTTP 507). What fills it: for Loki, a compactor
    // whose retention is not enabled never deletes old chunks (the ConfigMap it mounts is read)
    id: 'object_store_full',
    class: 'dependency_failure',
    title: 'the object store refuses writes: it is full (XMinioStorageFull, 507)',
    role: 'cause',
    strength: 0.95,
    on: ['log'],
    text: 'XMinioStorageFull: [^\\n]*?minimum free drive threshold',
    cause:
      '{subject} cannot write to its object store: MinIO refuses every write because its drives are at the minimum free threshold ("{fact}", HTTP 507 storage full){store_held}{store_retention}',
    fix: '{store_fix}',
  },
  {
    // a PostgreSQL standby whose walreceiver asks the primary for a WAL segment the primary has
    // already removed: it was away (down, Pending) while more WAL than wal_keep_size was written,
    // and no replication slot (nor a WAL archive) kept it; it never catches up by streaming and
    // serves ever older data while it looks Ready
    id: 'pg_standby_wal_removed',
    class: 'dependency_failure',
    title:
      'a PostgreSQL replica cannot catch up: the WAL it needs was already removed on the primary',
    role: 'cause',
    strength: 0.95,
    on: ['log'],
    text: 'requested WAL segment (?<wal_segment>[0-9A-F]{24}) has already been removed',
    cause:
      '{pg_standby} is a PostgreSQL standby that cannot catch up: its walreceiver asks the primary for WAL segment {wal_segment} and the primary has already removed it ("{fact}"). The primary keeps WAL for a standby only up to wal_keep_size unless a replication slot (or a WAL archive the standby can restore from) retains it{pg_slots}; while the standby was away more WAL than that was written, so it stays stuck at that point and serves stale data for reads although the pod is Ready',
    fix: 'Re-create the standby from the primary (for CloudNativePG: delete its PVC and pod so the operator clones it again with pg_basebackup, or `kubectl cnpg destroy` the instance){pg_slots_fix}.',
  },
  // ------------------------------------------------ end of: round30 (r30a)
  // ------------------------------------------------ round31 (r31b): a binary the runtime may not exec
  // the variables of these rules: finding-vars-r31b.ts
  {
    // runc's execve of the container's entrypoint fails with EPERM: the kernel refuses to exec a
    // file whose file capabilities (setcap ...=+ep) are not all in the process's bounding set
    // (a securityContext that drops ALL); a noexec mount or an LSM denial says the same
    id: 'runc_exec_operation_not_permitted',
    class: 'crashloop_config',
    title: 'the runtime may not exec the container binary (operation not permitted)',
    role: 'cause',
    strength: 0.93,
    on: ['state', 'event'],
    text: 'exec: \\\\?"(?<exec_binary>[^"\\\\\n]+)\\\\?": operation not permitted',
    cause:
      '{subject} never starts: the container runtime cannot exec its entrypoint {exec_binary} ("{fact}"), so each try ends in StartError (exit code 128) before the program runs{exec_image}. {exec_caps}',
    fix: '{exec_caps_fix}',
  },
  // ------------------------------------------------ end of: round31 (r31b)
  // ------------------------------------------------ round31 (r31a): an OpenTelemetry Collector without a memory_limiter
  // (not matched line by line: diagnose-r31a.ts reads the collector's mounted config)
  {
    // nothing in the pipeline refuses data when memory runs short: what the exporters cannot
    // send (retries, the sending queue) stays in memory until the kernel kills the container
    id: 'otel_collector_no_memory_limiter',
    class: 'oom_killed',
    title: 'an OpenTelemetry Collector OOMKilled with no memory_limiter processor in its pipelines',
    role: 'cause',
    // above oom_killed's state match (0.9): it says why the collector outgrows its limit
    strength: 0.93,
    on: [],
    cause:
      '{subject} is OOMKilled (exit code 137): its OpenTelemetry Collector config (ConfigMap {collector_config}) runs no memory_limiter processor in its pipelines ("{fact}"), so nothing refuses incoming data when memory runs short; what the exporters cannot deliver is retried and queued in memory{collector_queue} until the container reaches its memory limit{limit}',
    fix: 'Add the memory_limiter processor first in every pipeline of {subject} (ConfigMap {collector_config}; limit_mib or limit_percentage below the container limit{limit}, and GOMEMLIMIT), keep the sending queue small enough to fit, and check why the backend refuses or times out the exports (its ingestion rate limits).',
  },
  {
    // Alertmanager's dispatcher gives up on a notification (an answer it does not retry, such as
    // a 4xx from the receiver, or its retries ran out): the alert fired, nobody is told
    id: 'alertmanager_notify_failed',
    class: 'dependency_failure',
    title: 'Alertmanager cannot deliver notifications to a receiver',
    role: 'cause',
    strength: 0.94,
    on: ['log'],
    text: 'msg="?Notify for alerts failed"?[^\\n]*?err="(?<am_receiver>[\\w.-]+)/(?<am_integration>[\\w-]+)\\[\\d+\\]: (?:(?:[^"\\n\\\\]|\\\\.)*?(?=unexpected status code))?(?<am_error>(?:[^"\\n\\\\]|\\\\.){1,160})',
    cause:
      '{subject} (Alertmanager) fires the alerts but cannot deliver them to receiver {am_receiver}: every notification to its {am_integration} integration fails and is dropped ("{am_error}"); an answer like 404/403 from the receiver is not retried, its URL or credential is no longer valid (a Slack incoming webhook that was disabled or revoked answers 404 no_service)',
    fix: 'Give receiver {am_receiver} of {subject} a valid {am_integration} endpoint (a new webhook URL or token in the Secret or config it reads), reload Alertmanager, and watch alertmanager_notifications_failed_total fall to 0.',
  },
  {
    // the cloud load balancer answers 502 while the pods run and are Ready: its own health check
    // fails (a redirect or 404 on the path it checks), so it has no healthy backend
    id: 'lb_health_check_not_200',
    class: 'probe_failure',
    title:
      "the Ingress's load balancer marks the backend UNHEALTHY: its health check does not get 200",
    role: 'cause',
    strength: 0.93,
    on: [],
    cause:
      '{subject}\'s pods run, but the load balancer of Ingress {lb_ingress} marks their backend UNHEALTHY ({lb_backend}){lb_answer} ("{fact}"){lb_probe}; with no healthy backend the load balancer answers 502',
    fix: 'Give {subject} a health check path that answers 200 without a login: a readinessProbe on it (e.g. {lb_path}), which the GKE ingress copies into its health check, or a BackendConfig healthCheck.requestPath; the backend turns HEALTHY within a few checks.',
  },
  {
    // a log shipper (fluentd, fluent-bit, logstash, vector) whose bulk requests Elasticsearch or
    // OpenSearch refuses with 429: its indexing pressure limit or write queue is full
    id: 'es_bulk_rejected_429',
    class: 'dependency_failure',
    title:
      "Elasticsearch refuses the log shipper's bulk requests (429 es_rejected_execution_exception)",
    role: 'cause',
    strength: 0.92,
    on: ['log'],
    text: 'es_rejected_execution_exception[^\\n]*?(?<es_reason>rejected execution of (?:[a-z_]+ )*operation|rejected execution of [^\\[\\\\"\\n]{1,80})',
    cause:
      '{subject} runs but cannot deliver what it collects: Elasticsearch answers its bulk requests with 429 es_rejected_execution_exception ("{es_reason}"): the cluster is at its indexing pressure limit (indexing_pressure.memory.limit) or its write queue is full, so it refuses more documents. The shipper buffers and retries, its buffer fills, and lines arrive late or are dropped (Kibana lags) while the shipper itself stays Ready',
    fix: "Relieve Elasticsearch rather than restart {subject}: cut the log volume that grew (a workload logging at debug: back to info, or drop/sample it in the shipper), add data nodes or heap to the cluster, and keep the shipper's buffer (total_limit_size, chunk size) big enough to ride it out.",
  },
  // ------------------------------------------------ end of: round31 (r31a)
  // ---------------------------------------------------------------- symptoms
  {
    id: 'crash_loop',
    class: 'crashloop_panic',
    title: 'container keeps crashing (CrashLoopBackOff)',
    role: 'symptom',
    strength: 0.55,
    on: ['state', 'event', 'status'],
    reason: '^(CrashLoopBackOff|BackOff|Error|RunContainerError|StartError)$',
    text: 'Back-off restarting failed container|CrashLoopBackOff',
    cause: '{subject} is in CrashLoopBackOff: its container exits soon after starting{exit}',
    fix: 'Read the previous logs of {subject} (`kubectl logs --previous`) for the error that ends it.',
  },
  {
    id: 'pull_secret_missing',
    class: 'image_pull',
    title: 'imagePullSecret does not exist',
    role: 'cause',
    strength: 0.95,
    on: ['event'],
    text: 'Unable to retrieve some image pull secrets \\((?<secret>[^)]+)\\)',
    cause:
      'the imagePullSecret "{secret}" that {subject} uses does not exist in its namespace, so the registry refuses the pull (ImagePullBackOff)',
    fix: 'Create the pull secret {secret} in the namespace (or point imagePullSecrets of {subject} at the secret that exists).',
  },
  {
    id: 'mesh_proxy_no_config',
    class: 'dependency_failure',
    title: 'service-mesh sidecar has no configuration from its control plane',
    role: 'cause',
    strength: 0.93,
    on: ['log', 'event'],
    // istio-proxy / Envoy: "Envoy proxy is NOT ready: config not received from XDS server (is Istiod running?)"
    text: 'Envoy proxy is NOT ready[^\\n]*|config not received from (?:XDS|Pilot) server[^\\n]*|connection to upstream XDS server (?<host>[\\w.-]+:\\d+) failed[^\\n]*',
    cause:
      '{subject}\'s service-mesh sidecar (Envoy, istio-proxy) is not ready: it has no configuration from its control plane (istiod), so the pod\'s traffic through it fails ("{fact}")',
    fix: 'Bring the mesh control plane back (istiod in istio-system: replicas, endpoints, logs); the sidecars get their configuration when it answers. Pods that already had it keep working.',
  },
  {
    id: 'ingress_upstream_header_too_big',
    class: 'recent_change',
    title: "the ingress rejects the service's response headers (too big for its proxy buffer)",
    role: 'cause',
    strength: 0.93,
    on: ['log'],
    // nginx: "upstream sent too big header while reading response header from upstream"
    text: 'upstream sent too big header[^\\n]*',
    cause:
      '{subject}\'s responses carry headers bigger than the ingress (nginx) proxy buffer, so the ingress answers 502 Bad Gateway ("{fact}"): large Set-Cookie or other response headers',
    fix: 'Raise the proxy buffer of the Ingress of {subject} (annotation nginx.ingress.kubernetes.io/proxy-buffer-size: "16k", or proxy-buffer-size in the controller ConfigMap), or make its response headers smaller (cookies); roll back the change that made them grow.',
  },
  {
    // nginx refuses a request body above client_max_body_size before it reaches the app (413)
    id: 'ingress_body_too_large',
    class: 'recent_change',
    title: 'the ingress refuses request bodies above its size limit (413)',
    role: 'cause',
    strength: 0.9,
    on: ['log'],
    text: 'client intended to send too large (?:chunked )?body(?:: (?<bytes>\\d+) bytes)?',
    cause:
      'the ingress refuses the requests to {subject} whose body is larger than its limit, answering 413 Request Entity Too Large before they reach the pods ("{fact}"): nginx\'s client_max_body_size (ingress-nginx default 1m) applies unless the Ingress sets nginx.ingress.kubernetes.io/proxy-body-size',
    fix: 'Set the annotation nginx.ingress.kubernetes.io/proxy-body-size on the Ingress of {subject} to the largest upload it must take (e.g. "50m"), or restore it if a chart change dropped it; `kubectl describe ingress` shows the annotations it has now.',
  },
  {
    id: 'ingress_upstream_unavailable',
    class: 'dependency_failure',
    title: 'the ingress cannot reach the service behind it',
    role: 'cause',
    // above a plain refusal: the controller's line names the upstream it could not reach
    strength: 0.88,
    on: ['log'],
    // nginx: "connect() failed (111: Connection refused) while connecting to upstream",
    // "upstream timed out (110: Connection timed out) while reading response header", "no live upstreams"
    text: 'connect\\(\\) failed \\(111: Connection refused\\) while connecting to upstream[^\\n]*|upstream timed out \\(110: (?:Connection|Operation) timed out\\)[^\\n]*|no live upstreams while connecting to upstream[^\\n]*|upstream prematurely closed connection[^\\n]*',
    cause:
      'the ingress cannot get an answer from {subject}: its requests to the pods fail ("{fact}"), so clients get 502/504{stopping}{tunnel_mtu}',
    fix: '{stopping_fix}{tunnel_mtu_fix}Check the pods behind {subject} (ready endpoints, the port the Service targets, slow requests against the ingress proxy timeouts).',
  },
  {
    // nginx reuses an idle upstream connection the app has just closed: the app's keep-alive
    // timeout is shorter than the proxy's (Node's default server.keepAliveTimeout is 5 s)
    id: 'upstream_keepalive_closed',
    class: 'dependency_failure',
    title: 'the service closes keep-alive connections the ingress still reuses',
    role: 'cause',
    // above ingress_upstream_unavailable, which matches the same line
    strength: 0.885,
    on: ['log'],
    text: 'upstream prematurely closed connection while reading response header[^\\n]*',
    cause:
      "the ingress's requests to {subject} fail now and then because the pods close the connection under them (\"{fact}\"). When the pods do not restart, the app closes idle keep-alive connections sooner than the proxy stops reusing them: its keep-alive timeout (Node's server.keepAliveTimeout is 5 s by default) is shorter than the ingress's upstream keepalive timeout (60 s in ingress-nginx), so a request sent on a connection the app has just closed gets a 502",
    fix: "Make the keep-alive timeout of {subject} longer than the proxy's (Node: server.keepAliveTimeout and headersTimeout above 60 s; other servers: their idle timeout), or lower the ingress's upstream-keepalive-timeout below the app's.",
  },
  {
    // RabbitMQ blocks publishing connections while a resource alarm is set (free disk below
    // disk_free_limit, memory above vm_memory_high_watermark)
    id: 'rabbitmq_resource_alarm',
    class: 'dependency_failure',
    title: 'a RabbitMQ resource alarm blocks publishers',
    role: 'cause',
    strength: 0.89,
    on: ['log', 'text'],
    text: 'connection blocked by broker[^\\n]*|ConnectionBlockedTimeout[^\\n]*|(?:disk|memory) resource limit alarm set[^\\n]*|Connection\\.Blocked[^\\n]*(?:low on|alarm)[^\\n]*',
    cause:
      'RabbitMQ blocks the connections that publish for {subject} ("{fact}"): a broker resource alarm is set{alarm}, and while it lasts every publisher is paused',
    fix: '{alarm_fix} The alarm clears by itself and the publishers resume.',
  },
  {
    id: 'cloud_access_denied',
    class: 'rbac_denied',
    title: 'the cloud API refuses the identity the pod runs as',
    role: 'cause',
    strength: 0.9,
    on: ['log', 'event', 'text'],
    // AWS: "An error occurred (AccessDenied) when calling the PutObject operation: User:
    // arn:aws:sts::1:assumed-role/x/i-0 is not authorized to perform: s3:PutObject",
    // "UnauthorizedOperation: You are not authorized to perform this operation"; GCP/Azure alike
    text: '(?:An error occurred \\((?:AccessDenied|AccessDeniedException|UnauthorizedOperation|Forbidden)\\) when calling the (?<op>\\w+) operation|UnauthorizedOperation|AccessDeniedException|is not authorized to perform: (?<action>[\\w:*-]+)|AuthorizationFailed|does not have (?:storage\\.\\w+\\.\\w+|[\\w.]+) access)[^\\n]*',
    cause:
      '{subject} is refused by the cloud API: the identity it runs as may not {op}{action} ("{fact}"): the pod uses the wrong IAM role (its ServiceAccount\'s role annotation, e.g. eks.amazonaws.com/role-arn for IRSA, is missing or changed, so it falls back to the node role) or the role lacks the permission',
    fix: 'Check the ServiceAccount of {subject} (the eks.amazonaws.com/role-arn annotation or workload identity binding) and the policy of the role it should assume; restore the annotation or grant {op}{action}.',
  },
  {
    id: 'pvc_provisioning_failed',
    class: 'pvc_pending',
    title: "the volume provisioner cannot create the claim's volume",
    role: 'cause',
    strength: 0.84,
    on: ['event'],
    reason: '^ProvisioningFailed$',
    cause:
      'the claim {subject} cannot be provisioned: the storage driver refuses it ("{fact}"), so the pods that mount it stay Pending',
    fix: "Fix what the provisioner says: an access mode the driver supports (EBS/GCE PD volumes are ReadWriteOnce; ReadWriteMany needs a file store such as EFS/Filestore/NFS), a StorageClass parameter, or the driver's cloud permissions.",
  },
  {
    id: 'vault_sealed',
    class: 'dependency_failure',
    title: 'Vault is sealed',
    role: 'cause',
    strength: 0.93,
    on: ['log', 'event', 'text'],
    // HashiCorp Vault after a restart without auto-unseal: "Vault is sealed", "Sealed true"
    text: 'Vault is sealed[^\\n]*|security barrier not unsealed[^\\n]*|\\bSealed\\s+true\\b',
    cause:
      'Vault is sealed: after a restart it waits to be unsealed, and {subject} fails on it: no client can log in or read its secrets ("{fact}")',
    fix: 'Unseal Vault (`vault operator unseal` with the key shares, on each pod) and configure auto-unseal (cloud KMS / transit) so a restart does not seal it again.',
  },
  {
    id: 'db_host_blocked',
    class: 'crashloop_connection',
    title: 'database blocks the client host after connection errors',
    role: 'cause',
    strength: 0.92,
    on: ['log', 'event', 'text'],
    // MySQL/MariaDB ER_HOST_IS_BLOCKED (1129): max_connect_errors failed handshakes from one host
    text: "Host '(?<client>[^']+)' is blocked because of many connection errors[^\\n]*|ER_HOST_IS_BLOCKED[^\\n]*",
    cause:
      '{subject} cannot open its database: MySQL blocks the client host {client} after too many failed connections (max_connect_errors) ("{fact}"); every pod that connects from that host fails',
    fix: 'Unblock the host on the database (`mysqladmin flush-hosts`, FLUSH HOSTS or TRUNCATE performance_schema.host_cache), then find what made the failed connections (probes, wrong credentials, network resets) and raise max_connect_errors if they are expected.',
  },
  {
    // the statement waited longer than lock_timeout / innodb_lock_wait_timeout for a lock another
    // session holds (a DDL migration behind a long transaction)
    id: 'db_lock_timeout',
    class: 'dependency_failure',
    title: 'database statement gave up waiting for a lock',
    role: 'cause',
    strength: 0.88,
    on: ['log'],
    text: '[^\\n]*(?:canceling statement due to lock timeout|Lock wait timeout exceeded)[^\\n]*',
    cause:
      '{subject} fails because its statement gave up waiting for a table lock ("{fact}"){lock_holder}',
    fix: 'Let the session that holds the lock finish or end it{lock_holder_name}, then run {subject} again; schedule migrations that take exclusive locks away from long transactions (or raise lock_timeout for them).',
  },
  {
    // Elasticsearch refuses a request that would take its heap past a circuit breaker's limit
    id: 'es_circuit_breaker',
    class: 'dependency_failure',
    title: 'Elasticsearch circuit breaker trips (heap limit)',
    role: 'cause',
    strength: 0.89,
    on: ['log', 'text'],
    text: 'circuit_breaking_exception[^\\n]*|\\[(?:parent|fielddata|request)\\] Data too large[^\\n]*',
    cause:
      '{subject} fails because Elasticsearch rejects its requests: a circuit breaker trips because the node\'s heap is nearly full ("{fact}")',
    fix: 'Find what holds the Elasticsearch heap (GET _nodes/stats/breaker, _cat/fielddata: fielddata on a text field is the usual one) and free it (clear the fielddata cache, use a keyword field); give the nodes more heap only after that.',
  },
  {
    // a write sent to a Redis replica (after a failover the address still points at the old
    // master, now demoted)
    id: 'redis_readonly_replica',
    class: 'dependency_failure',
    title: 'writes go to a read-only Redis replica',
    role: 'cause',
    strength: 0.89,
    on: ['log', 'text'],
    text: "READONLY You can'?t write against a read only (?:replica|slave)[^\\n]*",
    cause:
      '{subject} writes to a Redis replica ("{fact}"): the address it uses points at a node that is no longer the master{redis_failover}',
    fix: 'Point {subject} at the current master (through Sentinel or a Service that follows the master role), not at one pod; then find why the master changed.',
  },
  {
    // Redis stops taking writes when its last background save failed (stop-writes-on-bgsave-error
    // yes, the default); its own log says why the save failed (a full volume, permissions)
    id: 'redis_misconf_bgsave',
    class: 'dependency_failure',
    title: 'Redis refuses writes: its RDB snapshot cannot be saved (MISCONF)',
    role: 'cause',
    strength: 0.9,
    on: ['log', 'text'],
    text: "MISCONF Redis is configured to save RDB snapshots, but it(?:'s| is) currently (?:unable|not able) to persist to disk",
    cause:
      'Redis refuses the writes of {subject} ("{fact}"): its last background save (RDB snapshot) failed, and with stop-writes-on-bgsave-error yes Redis disables every write until a save succeeds{redis_save_error}',
    fix: 'Make the Redis save succeed again{redis_save_fix}; then check that `INFO persistence` shows rdb_last_bgsave_status:ok. Setting stop-writes-on-bgsave-error no only hides the failing snapshots.',
  },
  {
    // memcached refuses a store when it is full and may not evict (-M): every write fails, the
    // hit ratio falls, and the reads it no longer answers land on the database behind it
    id: 'memcached_out_of_memory',
    class: 'dependency_failure',
    title: 'memcached is full and refuses writes (evictions disabled)',
    role: 'cause',
    strength: 0.89,
    on: ['log', 'text'],
    text: 'SERVER_ERROR out of memory storing object|out of memory storing object',
    cause:
      'the memcached cache of {subject} refuses to store items ("{fact}"): it is full at its memory limit (-m) and may not evict old items (memcached started with -M: evictions disabled), so every cache write fails, reads miss, and the load falls through to what the cache protects (the database)',
    fix: 'Let memcached evict again (drop -M from its arguments) or give it more memory (-m, and the container limit with it), then restart it; the hit ratio recovers as the cache fills, and the database load falls.',
  },
  {
    // a client that reads from a replica whose lag is NULL: replication to it is not running
    id: 'replica_lag_unknown',
    class: 'dependency_failure',
    title: 'the database replica it reads from does not replicate',
    role: 'symptom',
    strength: 0.6,
    on: ['log'],
    text: 'seconds_behind_(?:source|master)[=:] ?NULL|Seconds_Behind_(?:Source|Master): NULL|replica(?:tion)? lag (?:unknown|is null)',
    cause:
      '{subject} reads from a database replica whose lag is unknown ("{fact}"): replication to it is not running, so it serves data as old as the moment it stopped',
    fix: 'Check the replica {subject} reads from (`SHOW REPLICA STATUS`: Replica_IO_Running, Replica_SQL_Running and the last error), fix what stopped it and START REPLICA.',
  },
  {
    // a MySQL replica whose SQL (applier) thread stopped on an error: it stays up and Ready and
    // serves data frozen at that point; usually a row written on the replica itself (1062)
    id: 'mysql_replica_sql_stopped',
    class: 'dependency_failure',
    title: 'MySQL replication stopped on the replica (SQL thread error)',
    role: 'cause',
    strength: 0.9,
    on: ['log'],
    text: '(?:Replica|Slave) SQL for channel[^\\n]*?Error_code: ?(?<code>\\d+)[^\\n]*|(?:Replica|Slave) SQL for channel[^\\n]*failed executing[^\\n]*|Error running query, (?:replica|slave) SQL thread aborted[^\\n]*',
    cause:
      'replication to the MySQL replica {subject} has stopped: its replica SQL thread failed{replica_error} ("{fact}") and stays stopped, so the replica is up and Ready but serves data frozen at that moment, and everything that reads from it sees stale rows',
    fix: 'On {subject}, resolve the conflicting row the error names (a row written on the replica itself: remove it, or skip that transaction), then START REPLICA and check `SHOW REPLICA STATUS` shows Replica_SQL_Running: Yes and the lag falling; set super_read_only on the replica so nothing writes to it again.',
  },
  {
    // Cassandra answers a query only when enough replicas of its partition are up for the
    // consistency level (QUORUM of RF 3 needs 2)
    id: 'cassandra_unavailable',
    class: 'dependency_failure',
    title: 'Cassandra has too few replicas up for the consistency level',
    role: 'cause',
    strength: 0.88,
    on: ['log', 'text'],
    text: 'Not enough replicas available for query at consistency[^\\n]*|Cannot achieve consistency level[^\\n]*',
    cause:
      'the Cassandra cluster {subject} uses has too few replicas up for the consistency level it asks for ("{fact}"){store_down}',
    fix: 'Bring the Cassandra nodes that are down back{store_down_fix}; until enough replicas answer, reads and writes at that consistency level fail (a lower level trades consistency for availability).',
  },
  {
    // a store replays its write-ahead/commit log at start: a segment cut short by a kill
    // mid-write (an OOM kill, a node crash) stops it at every start
    id: 'store_log_corrupt',
    class: 'crashloop_panic',
    title: 'a data store cannot replay its corrupt write-ahead (commit) log',
    role: 'cause',
    strength: 0.91,
    on: ['log'],
    text: 'opening storage failed[^\\n]*|repair corrupted WAL[^\\n]*|Could not read commit log descriptor[^\\n]*|(?:WAL|write-ahead log|commit ?log)\\b[^\\n]{0,80}\\bcorrupt[^\\n]*|\\bcorrupt(?:ed|ion)? (?:WAL|write-ahead log|commit ?log)[^\\n]*',
    cause:
      '{subject} cannot replay its write-ahead (commit) log at start: "{fact}". A log segment on its volume is corrupt, cut short when the process was killed mid-write (an OOM kill, a node crash), so it exits at every start',
    fix: 'Move the corrupt segment the error names out of the data volume of {subject} (the writes only in it are lost), then let it start; find what killed it mid-write (an OOM kill: raise its memory limit).',
  },
  {
    // maxclients reached: one client (often a new release that leaks connections) holds them all
    id: 'redis_max_clients',
    class: 'dependency_failure',
    title: 'Redis refuses new connections: maxclients reached',
    role: 'cause',
    strength: 0.89,
    on: ['log', 'text'],
    text: 'max number of clients reached[^\\n]*',
    cause:
      'the Redis {subject} uses refuses new connections: "{fact}". Every connection it allows (maxclients) is taken, usually by one client that opens connections and never closes them (a connection leak, a pool without a cap)',
    fix: 'Find the client that holds the connections (`redis-cli CLIENT LIST`, grouped by addr/name) and fix or roll back its leak; then the Redis accepts connections again (raising maxclients only buys time).',
  },
  {
    // Redis Cluster stops serving every command (cluster-require-full-coverage yes) when a master
    // is lost and no replica takes over its hash slots
    id: 'redis_cluster_down',
    class: 'dependency_failure',
    title: 'the Redis Cluster is down (hash slots unserved)',
    role: 'cause',
    strength: 0.89,
    on: ['log', 'text'],
    text: 'CLUSTERDOWN[^\\n]*|Cluster state changed: fail',
    cause:
      'the Redis Cluster {subject} uses is down ("{fact}"): a master was lost and no replica took over its hash slots, so (with cluster-require-full-coverage) the cluster refuses every command{redis_cluster_lost}',
    fix: 'Bring the lost master back{redis_cluster_fix} (or fail its slots over to a replica); then give every master a replica so losing one node does not take the cluster down.',
  },
  {
    // a multi-key command (MGET, MSET, a transaction, a Lua script) over keys of different hash
    // slots: Redis Cluster refuses it, where a single Redis served it
    id: 'redis_crossslot',
    class: 'crashloop_panic',
    title: 'Redis Cluster refuses a multi-key command (CROSSSLOT)',
    role: 'cause',
    strength: 0.9,
    on: ['log', 'text'],
    text: "CROSSSLOT Keys in request don'?t hash to the same slot[^\\n]*",
    cause:
      '{subject} sends Redis Cluster a multi-key command (MGET/MSET, a transaction or a script) whose keys hash to different slots, and the cluster refuses it ("{fact}"); a single Redis accepted the same command, so it fails since {subject} talks to a cluster',
    fix: 'Give the keys one command uses a common hash tag (the same part of each key put between curly braces, so only it is hashed) so they land in one slot, or split the command per key; until then roll back {subject} to the single-Redis configuration.',
  },
  {
    // a queue the consumer expects is not on the broker: deleted, never declared, or declared
    // non-durable (or auto-delete / exclusive) and gone with a broker restart
    id: 'rabbitmq_queue_not_found',
    class: 'crashloop_connection',
    title: 'RabbitMQ has no such queue (404 NOT_FOUND)',
    role: 'cause',
    strength: 0.9,
    on: ['log', 'text'],
    text: "NOT_FOUND - no queue '(?<queue>[^']+)' in vhost '(?<vhost>[^']*)'|no queue '(?<queue2>[^']+)' in vhost '[^']*'",
    cause:
      'the queue {queue}{queue2} does not exist on the RabbitMQ broker, so {subject} cannot consume from it and the broker closes its channel with 404 NOT_FOUND ("{fact}"). A queue is gone when it was deleted, never declared, or declared non-durable (or auto-delete) and the broker restarted{broker_restart}',
    fix: 'Declare {queue}{queue2} again, durable (let the consumer declare it too, with the same arguments as the producer, so a broker restart does not lose it); messages published while it did not exist were dropped.',
  },
  {
    // Elasticsearch's index.mapping.total_fields.limit (1000 by default): documents with new
    // free-form keys add fields until the mapping is full (a "mapping explosion")
    id: 'es_total_fields_limit',
    class: 'dependency_failure',
    title: 'Elasticsearch index mapping full (total fields limit)',
    role: 'cause',
    strength: 0.91,
    on: ['log', 'text'],
    text: 'Limit of total fields \\[(?<limit>\\d+)\\] (?:in index \\[(?<index>[^\\]]+)\\] )?has been exceeded[^\\n]*',
    cause:
      'Elasticsearch refuses the documents {subject} indexes: the mapping of {index} reached its limit of {limit} fields ("{fact}"). Each new key in the documents adds a field (a mapping explosion, typically free-form attributes or ids used as keys)',
    fix: 'Stop indexing free-form keys as fields (map them as `flattened`, or an object with `dynamic: false`, or key/value pairs) and roll back the change that started sending them; raise index.mapping.total_fields.limit only as a stopgap.',
  },
  {
    // Confluent Schema Registry answers 409 when a new schema breaks the subject's compatibility
    id: 'schema_registry_incompatible',
    class: 'recent_change',
    title: 'Schema Registry rejects an incompatible schema (409)',
    role: 'cause',
    strength: 0.91,
    on: ['log', 'text'],
    text: 'Schema being registered is incompatible with an earlier schema(?: for subject \\\\?"(?<schema_subject>[^"\\\\]+)\\\\?")?[^\\n]*',
    cause:
      '{subject} produces with a schema the Schema Registry refuses as incompatible with the earlier versions of subject {schema_subject} (HTTP 409, "{fact}"), so every message it publishes fails to serialize',
    fix: "Roll back {subject} to the schema the subject accepts, then change it compatibly (a new optional field with a default, not a changed type) or register it under a new subject; do not lower the subject's compatibility level to let it through.",
  },
  {
    // RabbitMQ 3.8.15+ closes the channel of a consumer that holds a delivery unacknowledged
    // longer than consumer_timeout (30 min by default); the message goes back to the queue
    id: 'rabbitmq_consumer_ack_timeout',
    class: 'dependency_failure',
    title:
      'RabbitMQ closes the channel of a consumer that acknowledges too late (consumer_timeout)',
    role: 'cause',
    strength: 0.9,
    on: ['log', 'text'],
    text: 'PRECONDITION_FAILED - delivery acknowledgement on channel \\d+ timed out(?:\\. Timeout value used: (?<ack_ms>\\d+) ms)?|delivery acknowledgement on channel \\d+ timed out\\. Timeout value used: (?<ack_ms2>\\d+) ms',
    cause:
      '{subject} holds a message longer than RabbitMQ\'s consumer timeout{ack_timeout} before acknowledging it ("{fact}"): the broker closes its channel (PRECONDITION_FAILED) and puts the message back, so the same long job is delivered again and again, never finishes, and the queue behind it grows',
    fix: 'Make {subject} acknowledge within the timeout (split the long job, or acknowledge on receipt and track completion elsewhere), or raise consumer_timeout for that queue (a policy or the x-consumer-timeout queue argument, or rabbitmq.conf) above the longest job.',
  },
  {
    // a Kafka producer or consumer told that the partition's leader is gone or moved: the
    // brokers' trouble, seen from the client (it explains nothing by itself)
    id: 'kafka_client_no_leader',
    class: 'dependency_failure',
    title: 'Kafka clients find no leader for their partitions',
    role: 'symptom',
    strength: 0.7,
    on: ['log'],
    text: 'NOT_LEADER_OR_FOLLOWER|LEADER_NOT_AVAILABLE|NotLeaderOrFollowerException|Expiring \\d+ record\\(s\\) for [\\w.-]+',
    cause:
      '{subject}\'s Kafka client finds no leader for some partitions ("{fact}"): a broker that led them is gone or failing',
    fix: 'Check the Kafka brokers: the one that led these partitions (its pod, its disk, its log) and the under-replicated partitions.',
  },
  {
    // a broker whose every log directory failed (disk I/O errors) stops itself
    id: 'kafka_log_dir_failed',
    class: 'crashloop_panic',
    title: 'a Kafka broker stops: its log directories failed (disk I/O errors)',
    role: 'cause',
    strength: 0.92,
    on: ['log'],
    text: 'Shutdown broker because all log dirs in [^\\n]*have failed|(?:Error while|Failed to)[^\\n]*(?:log dir|checkpoint)[^\\n]*(?:I/O|Input/output) error|java\\.io\\.IOException: Input/output error',
    cause:
      'Kafka broker {subject} shuts itself down: its log directories failed with disk I/O errors ("{fact}"), so the partitions it led have to move and clients see NOT_LEADER_OR_FOLLOWER until they do',
    fix: "Replace the failing disk (volume) of {subject}: check the node's kernel log for I/O errors on that device, move the broker to a healthy volume, and let it re-replicate; meanwhile make sure the other brokers took over its partitions (under-replicated partitions).",
  },
  {
    // the Java client's coordinator leaves the group when poll() is not called again within
    // max.poll.interval.ms: a batch of max.poll.records takes longer to process than that
    id: 'kafka_max_poll_interval',
    class: 'dependency_failure',
    title: 'Kafka consumers exceed max.poll.interval.ms and are dropped from their group',
    role: 'cause',
    strength: 0.88,
    on: ['log', 'text'],
    text: 'consumer poll timeout has expired[^\\n]*|CommitFailedException[^\\n]*|max\\.poll\\.interval\\.ms[^\\n]*(?:exceeded|expired|longer than)[^\\n]*',
    cause:
      '{subject}\'s Kafka consumers take longer between two poll() calls than max.poll.interval.ms{poll_interval} ("{fact}"): the group coordinator drops them, the group rebalances again and again, their commits fail and the lag grows{poll_records}',
    fix: 'Lower max.poll.records of {subject}{poll_records_fix} so a batch is processed well within max.poll.interval.ms, or raise max.poll.interval.ms above the time a batch takes (or process faster).',
  },
  {
    // ClickHouse: every INSERT makes a part; too many small inserts outrun the merges
    id: 'clickhouse_too_many_parts',
    class: 'dependency_failure',
    title: 'ClickHouse rejects inserts: too many parts (inserts too small and too frequent)',
    role: 'cause',
    strength: 0.9,
    on: ['log', 'text'],
    text: 'Too many parts \\(\\d+[^)]*\\)[^\\n"]*|TOO_MANY_PARTS',
    cause:
      'ClickHouse rejects the inserts of {subject} ("{fact}"): each INSERT creates a part, and inserts this small and this frequent outrun the background merges until the partition reaches parts_to_throw_insert',
    fix: 'Insert into ClickHouse in fewer, larger batches (thousands of rows, seconds apart, or async_insert=1) from {subject}; restore the batching a recent change shortened. Raising parts_to_throw_insert only buys time.',
  },
  {
    // PgBouncer's own answer when its client limit is reached (PostgreSQL says "too many clients")
    id: 'pooler_max_client_conn',
    class: 'dependency_failure',
    title: 'connection pooler (PgBouncer) client limit reached',
    role: 'cause',
    strength: 0.9,
    on: ['log', 'event', 'text'],
    text: 'no more connections allowed \\(max_client_conn\\)|\\bmax_client_conn\\b',
    cause:
      '{subject} cannot get database connections: the connection pooler PgBouncer{db} refuses new clients ("{fact}"): all its clients together open more connections than its max_client_conn allows',
    fix: "Raise max_client_conn in pgbouncer.ini (and the pooler's file-descriptor limit), or lower pool size × replicas of the clients of PgBouncer{db}; roll back the change that added clients (a scale-up, a bigger pool).",
  },
  {
    id: 'db_too_many_connections',
    class: 'dependency_failure',
    title: 'database connection limit reached',
    role: 'cause',
    strength: 0.88,
    on: ['log', 'event', 'text'],
    text: 'too many clients already|remaining connection slots are reserved|too many connections|max_connections|ER_CON_COUNT_ERROR|connection limit exceeded',
    cause:
      '{subject} cannot get database connections: the database{db} refuses new ones ("{fact}"): the clients open more connections than max_connections allows',
    fix: 'Lower the connection pool size of {subject} (pool size × replicas must stay under the database max_connections) or raise max_connections; roll back the change that raised it.',
  },
  {
    id: 'probe_slow_start',
    class: 'probe_failure',
    title: 'killed by its liveness probe while still starting (slow start)',
    role: 'cause',
    strength: 0.86,
    on: [],
    cause:
      '{subject} is restarted by its {probe} probe before it has finished starting: the probe hits {url} (the port the app declares) before the app listens there, and the kubelet kills it (slow start){cpu_limit_from}',
    fix: 'Give {subject} a startupProbe (or a larger initialDelaySeconds / failureThreshold on its {probe} probe) that covers its real start time.{cpu_limit_fix}',
  },
  {
    id: 'probe_unhealthy_5xx',
    class: 'probe_failure',
    title: 'health endpoint reports the app unhealthy (5xx)',
    role: 'symptom',
    strength: 0.6,
    on: ['event'],
    reason: '^Unhealthy$',
    text: '(?<probe>Liveness|Readiness|Startup) probe failed: HTTP probe failed with statuscode: (?<code>5\\d\\d)',
    cause: "{subject}'s {probe} probe gets HTTP {code}: the app reports itself unhealthy",
    fix: 'Find why the health endpoint of {subject} fails (its logs name the dependency or check that fails).',
  },
  {
    id: 'pvc_volume_taken',
    class: 'pending_pvc',
    title: 'the PersistentVolume the claim asks for is bound to another claim',
    role: 'cause',
    strength: 0.93,
    on: ['event', 'condition'],
    text: 'volume "(?<pv>[^"]+)" already bound to a different claim',
    cause:
      'the PersistentVolumeClaim {subject} stays Pending: the PersistentVolume "{pv}" it asks for is already bound to a different claim{claim}',
    fix: 'Release {pv} from the other claim (delete that claim and clear the PV claimRef, reclaim policy permitting) or point {subject} at a free volume.',
  },
  {
    id: 'rollout_stuck',
    class: 'recent_change',
    title: 'rollout not progressing',
    role: 'symptom',
    strength: 0.5,
    on: ['condition', 'event'],
    text: 'ProgressDeadlineExceeded|has timed out progressing',
    cause: 'the rollout of {subject} does not progress: its new pods do not become available',
    fix: 'Find why the new pods of {subject} do not become ready (their events and logs), then fix or roll back.',
  },
  {
    // an admission webhook with failurePolicy Fail that the API server cannot reach: every
    // create it covers is refused (a policy engine's service without endpoints, a timeout)
    id: 'admission_webhook_unreachable',
    class: 'quota_limitrange',
    title: 'admission webhook unreachable: the API server refuses the pods',
    role: 'cause',
    strength: 0.93,
    on: ['event', 'condition', 'text'],
    text: 'failed calling webhook \\\\?"(?<webhook>[^"\\\\]+)\\\\?"[^\\n]*?(?:(?<why>no endpoints available) for service \\\\?"(?<service>[^"\\\\]+)|(?<why2>context deadline exceeded|connection refused|i/o timeout|x509: [^"\\n]{0,80}|service \\\\?"[^"\\\\]+\\\\?" not found))',
    cause:
      'the API server cannot reach the admission webhook {webhook} ({why}{why2}{for_service}), and the webhook fails closed, so it refuses to create the pods of {subject} ("{fact}")',
    fix: "Bring the webhook's backend back (the pods behind {webhook_service}: their events and logs), or, while it is down, set the webhook configuration's failurePolicy to Ignore or exclude the namespace; then the controller creates the pods by itself.",
  },
  {
    id: 'deployment_paused',
    class: 'recent_change',
    title: 'rollout paused: the new version never rolls out',
    role: 'cause',
    strength: 0.9,
    on: ['condition'],
    reason: '^DeploymentPaused$',
    cause:
      'the Deployment {subject} is paused (spec.paused: true, "{fact}"), so its changed template never rolls out: its pods still run the previous version{running}',
    fix: 'Resume the rollout (`kubectl rollout resume deployment/{subject}`) and watch `kubectl rollout status`; if it was paused on purpose, finish what it was paused for first.',
  },
  {
    id: 'priority_class_missing',
    class: 'quota_limitrange',
    title: 'the pod template names a PriorityClass that does not exist',
    role: 'cause',
    strength: 0.9,
    on: ['event', 'condition'],
    text: 'no PriorityClass with name (?<pc>[\\w.-]+) was found[^\\n]*',
    cause:
      'the pods of {subject} are refused at admission: "{fact}". The pod template names priorityClassName {pc}, which no longer exists, so its controller cannot create any pod',
    fix: 'Recreate the PriorityClass {pc} (its value as before), or change priorityClassName in the pod template of {subject} to one that exists.',
  },
  {
    // a claim deleted while a pod still mounts it stays Terminating (kubernetes.io/pvc-protection);
    // a new pod that names it is not scheduled
    id: 'pvc_being_deleted',
    class: 'pending_pvc',
    title: 'the PersistentVolumeClaim the pod needs is being deleted',
    role: 'cause',
    strength: 0.91,
    on: ['event', 'condition'],
    text: 'persistentvolumeclaim "(?<claim>[^"]+)" is being deleted',
    cause:
      '{subject} cannot be scheduled: its PersistentVolumeClaim {claim} is being deleted ("{fact}"). A claim deleted while a pod still mounts it stays Terminating (finalizer kubernetes.io/pvc-protection) until that pod is gone{pvc_holders}',
    fix: 'If the claim was deleted by mistake, it cannot be undeleted: let the pods that mount it finish{pvc_holders_fix}, then recreate the claim (from a snapshot or by re-binding its PersistentVolume, whose reclaim policy must be Retain) before {subject} starts again.',
  },
  {
    id: 'replica_failure',
    class: 'quota_limitrange',
    title: 'controller cannot create pods',
    role: 'symptom',
    strength: 0.6,
    on: ['event', 'condition'],
    reason: '^(FailedCreate|ReplicaFailure)$',
    cause: 'the controller of {subject} cannot create its pods ("{fact}")',
    fix: 'Read the FailedCreate message of {subject}: quota, LimitRange, admission webhook or ServiceAccount.',
  },
  {
    // a ReadWriteOnce volume attaches to one node: a second pod on another node (a rolling
    // update's new pod, a rescheduled one) waits until the first lets go
    id: 'multi_attach',
    class: 'create_container_config',
    title: 'ReadWriteOnce volume already attached to another node (Multi-Attach)',
    role: 'cause',
    strength: 0.9,
    on: ['event'],
    text: 'Multi-Attach error for volume "(?<vol>[^"]+)"[^\\n]*',
    cause:
      '{subject} cannot start: its volume {vol} is ReadWriteOnce and still attached to another node, where a pod of its own uses it ("{fact}"). A rolling update that starts the new pod before the old one stops, on another node, cannot share it',
    fix: 'Use the Recreate strategy (or maxSurge 0) for {subject} while it mounts a ReadWriteOnce claim, or move to ReadWriteMany storage; deleting the old pod lets the volume detach.',
  },
  {
    // kubelet mounts an NFS volume itself: a server that moved or does not answer leaves the
    // pods in ContainerCreating (the event carries the mount arguments: server and export)
    id: 'nfs_mount_failed',
    class: 'dependency_failure',
    title: 'an NFS volume cannot be mounted (its server does not answer)',
    role: 'cause',
    strength: 0.87,
    on: ['event'],
    reason: '^FailedMount$',
    text: 'MountVolume\\.SetUp failed for volume "(?<vol>[^"]+)"[^\\n]*(?:\\n[^\\n]*){0,3}?-t nfs4? [^\\n]*?(?<server>[\\w.-]+):(?<export>/\\S*)|mount\\.nfs4?: [^\\n]*',
    cause:
      '{subject} cannot mount its NFS volume{nfs_vol}: the NFS server{nfs_server} does not answer the mount from the node ("{fact}"), so its pods stay in ContainerCreating',
    fix: 'Check the server and export the PersistentVolume of {subject} names{nfs_server}: if the share moved, recreate the PV and PVC with the new server; if not, make the server reachable from the nodes (NFS, TCP 2049).',
  },
  {
    id: 'failed_mount',
    class: 'create_container_config',
    title: 'volume cannot be mounted',
    role: 'cause',
    strength: 0.8,
    on: ['event'],
    reason: '^(FailedMount|FailedAttachVolume)$',
    text: 'MountVolume\\.SetUp failed for volume "(?<vol>[^"]+)"[^\\n]*|Unable to attach or mount volumes[^\\n]*|AttachVolume\\.Attach failed[^\\n]*',
    cause: '{subject} cannot mount its volume {vol}: "{fact}"',
    fix: 'Fix the volume {vol} of {subject} (the ConfigMap/Secret/PVC it names must exist and be attachable).',
  },
  {
    // not matched line by line: diagnose compares Ingress backends with the Services' ports
    id: 'ingress_backend_missing',
    class: 'dependency_failure',
    title: 'Ingress routes to a Service port that does not exist',
    role: 'cause',
    strength: 0.9,
    on: [],
    cause:
      'the Ingress {ingress} routes {host}{path} to service {service} port {port}, but Service {service} exposes only port {ports}: the controller has no upstream for that path and answers 503 while the pods are healthy',
    fix: 'Point the backend of Ingress {ingress} at a port Service {service} exposes (the service port, not the container port: {ports}), or add port {port} to the Service.',
  },
  {
    // not matched line by line: diagnose compares the Ingress's class with the IngressClasses
    id: 'ingress_class_unserved',
    class: 'dependency_failure',
    title: 'the Ingress asks for an ingress class no controller serves',
    role: 'cause',
    strength: 0.9,
    on: [],
    cause:
      'the Ingress {ingress} asks for ingressClassName {class}, which no IngressClass defines; the classes the cluster serves are {served}. No ingress controller takes it, so it has no address and nothing routes or publishes {hosts}, while the pods behind it are fine',
    fix: 'Set spec.ingressClassName of Ingress {ingress} to a class the cluster serves, one of: {served}; or install the controller and IngressClass for {class}; once a controller takes it, the Ingress gets an address and DNS for {hosts} is published.',
  },
  {
    // not matched line by line: diagnose reads the Ingress annotation and the service's 404s
    id: 'ingress_rewrite_fixed',
    class: 'recent_change',
    title: 'the Ingress rewrites every path to one target (rewrite-target without a capture group)',
    role: 'cause',
    strength: 0.88,
    on: [],
    cause:
      'the Ingress {ingress} rewrites every request for {host}{path} to "{target}" (nginx.ingress.kubernetes.io/rewrite-target without a capture group), so {subject} gets "{target}" instead of the real path and answers 404',
    fix: 'Remove the rewrite-target annotation from Ingress {ingress}, or make it a capture group (path `{path}(.*)` with use-regex and rewrite-target `/$1`); roll back the Ingress change that added it.',
  },
  {
    // not matched line by line: diagnose reads spec.suspend of the CronJobs seen
    id: 'cronjob_suspended',
    class: 'job_failed',
    title: 'CronJob suspended: it schedules no runs',
    role: 'cause',
    strength: 0.88,
    on: [],
    cause:
      'the CronJob {cronjob} is suspended (spec.suspend: true), so it starts no Job at all: {fact}',
    fix: 'Resume it when that is intended (`kubectl patch cronjob {cronjob} -p \'{"spec":{"suspend":false}}\'`), then run the missed work once by hand (`kubectl create job --from=cronjob/{cronjob}`); startingDeadlineSeconds decides whether missed runs start by themselves.',
  },
  {
    // not matched line by line: diagnose counts an autoscaler's rescale events both ways
    id: 'hpa_flapping',
    class: 'hpa_throttling',
    title: 'autoscaler flapping: it scales up and down again and again',
    role: 'cause',
    // above the ingress's refused connections it explains (pods removed while serving)
    strength: 0.9,
    on: [],
    cause:
      'the HorizontalPodAutoscaler {hpa} of {subject} is flapping: it scaled up {up} times and down {down} times{window}, so each scale-down removes pods that are still needed and the next load spike meets too few (a sawtooth in latency and errors): {fact}',
    fix: 'Slow its scale-down: set behavior.scaleDown.stabilizationWindowSeconds to 300 (the default) or more, and limit scale-down policies (e.g. 1 pod or 10% per minute); consider a higher minReplicas for the usual load.',
  },
  {
    // not matched line by line: diagnose reads the container states of Job pods
    id: 'job_sidecar_never_exits',
    class: 'job_failed',
    title: "a sidecar keeps the Job's pod running after its work finished",
    role: 'cause',
    strength: 0.93,
    on: [],
    cause:
      'the work of {subject} finished, but its pod does not: the sidecar container {sidecar} keeps running after {done} exited 0, so the Job never completes (and a CronJob with concurrencyPolicy Forbid skips every later run): {fact}',
    fix: 'Make the sidecar stop when the work is done: run it as a native sidecar (an initContainer with restartPolicy: Always, Kubernetes 1.29+), or have {done} end it on exit (Istio: `curl -XPOST localhost:15020/quitquitquit`, or annotate the pod `sidecar.istio.io/inject: "false"` if the job needs no mesh); then delete the stuck Job so runs resume.',
  },
  {
    // not matched line by line: diagnose resolves Service target port names against the pods
    id: 'service_target_port_undeclared',
    class: 'dependency_failure',
    title: 'Service targets a port name its pods do not declare (no endpoints)',
    role: 'cause',
    strength: 0.9,
    on: [],
    cause:
      'the Service {service} sends traffic to the port named "{port}", which its pods do not declare (they have {declared}), so the endpoints controller lists no pod and every request to it fails (503 / connection refused) although the pods are ready: {fact}',
    fix: 'Make the targetPort of Service {service} name a port the pods declare (or use the port number), or give the container port back the name "{port}"; `kubectl get endpoints {service}` should then list the pods.',
  },
  {
    // not matched line by line: diagnose compares node taints with DaemonSet tolerations
    id: 'daemonset_untolerated_taint',
    class: 'pending_scheduling',
    title: 'DaemonSet does not tolerate the taint of some nodes: it does not run there',
    role: 'cause',
    strength: 0.85,
    on: [],
    cause:
      'the DaemonSet {daemonset} does not tolerate the taint {taint}, so the DaemonSet controller puts no pod on {nodes} and what it does per node is missing there: {fact}',
    fix: 'Add a toleration for {taint} to the pod template of {daemonset} (or `operator: Exists` with no key, for an agent that must run on every node) and let it roll out; `kubectl get ds {daemonset}` should then desire one pod per node.',
  },
  {
    // not matched line by line: diagnose weighs the budgets of pods left on cordoned nodes
    id: 'pdb_blocks_drain',
    class: 'eviction',
    title: 'PodDisruptionBudget allows no disruption: the drain cannot evict a pod',
    role: 'cause',
    strength: 0.88,
    on: [],
    cause:
      'the PodDisruptionBudget {pdb} ({budget}) allows 0 disruptions, so the eviction of {pod} from the cordoned node {node} is refused and the drain waits forever: {fact}',
    fix: 'Let one pod go: scale the workload up by one first (its budget then allows a disruption), or change the budget to `maxUnavailable: 1` (minAvailable equal to the replicas never allows an eviction); then the drain continues by itself. Check `kubectl get pdb -A` for other budgets at 0 before the next drain.',
  },
  {
    // not matched line by line: diagnose compares Service selectors with pod labels
    id: 'service_selects_no_pod',
    class: 'dependency_failure',
    title: 'Service selector matches no pod (no endpoints)',
    role: 'cause',
    strength: 0.9,
    on: [],
    cause:
      'the Service {service} selects {selector}, but no pod carries these labels (its pods have {labels}), so it has no endpoints and every request to it fails (503 / connection refused) although the pods are ready',
    fix: "Make the selector of Service {service} match the labels of its pods (or the pods' labels match the selector), e.g. `kubectl get endpoints {service}` should then list the pods.",
  },
  {
    // not matched line by line: diagnose counts error records that repeat (see appErrors)
    id: 'app_errors',
    class: 'app_error',
    title: 'the application keeps logging the same error',
    role: 'symptom',
    strength: 0.45,
    on: [],
    cause: '{subject} keeps failing with "{fact}" ({count} times in its logs since {since})',
    fix: 'Find what changed for {subject} before {since} (a rollout, its configuration, a dependency or its data) and fix or roll it back; the error names the failing call.',
  },
  {
    id: 'http_5xx',
    class: 'dependency_failure',
    title: 'requests failing with 5xx',
    role: 'symptom',
    strength: 0.4,
    on: ['log', 'text', 'event'],
    text: '\\b(?:HTTP/\\d(?:\\.\\d)? |status[=: ]+|"status(?:Code)?"\\s*:\\s*|\\s)5\\d\\d\\b[^\\n]*(?:error|upstream|unavailable|gateway)|(?:error|upstream|unavailable|gateway)[^\\n]*"status(?:Code)?"\\s*:\\s*5\\d\\d\\b',
    cause: '{subject} answers requests with 5xx errors',
    fix: 'Find the first error behind the 5xx answers of {subject} in its logs and its dependencies.',
  },
];
