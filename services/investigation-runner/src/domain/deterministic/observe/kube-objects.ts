import { lokiRetention } from './config-r30a';
import { kindOf } from '../tool-profile';
import {
  arr,
  emptyContainer,
  newObject,
  num,
  parseTime,
  rec,
  str,
  strMap,
  keptConfigValue,
  type CallContext,
  type ContainerView,
  type HostPathView,
  type IngressBackend,
  type ObjectView,
  type Observed,
  type StateView,
} from './views';

// ---------------------------------------------------------------- Kubernetes API objects

/** a value a tool server masked ("***", "<12 bytes, value hidden ...>") */
export const HIDDEN_VALUE = /^\*+$|^<\d+ bytes, value (?:hidden|never shown)/;

export function fromKubeObject(o: Record<string, unknown>, ctx: CallContext, out: Observed): void {
  const kind = kindOf(String(o['kind'])) ?? String(o['kind']).toLowerCase();
  const meta = rec(o['metadata']);
  const spec = rec(o['spec']);
  const status = rec(o['status']);
  if (kind === 'event' || o['involvedObject'] || o['regarding']) return fromKubeEvent(o, ctx, out);
  const name = str(meta['name']) ?? '';
  if (!name) return;
  const v = newObject(kind, name, ctx.tool);
  v.namespace = str(meta['namespace']);
  v.labels = strMap(meta['labels']);
  v.created = parseTime(meta['creationTimestamp']);
  const owner = rec(arr(meta['ownerReferences'])[0]);
  if (owner['kind'] && owner['name'])
    v.owner = {
      kind: kindOf(String(owner['kind'])) ?? String(owner['kind']),
      name: String(owner['name']),
    };
  // a pod no controller owns (no ownerReferences) is gone for good once deleted or drained
  if (kind === 'pod' && (o['spec'] || o['status']))
    v.fields['ownedBy'] =
      owner['kind'] && owner['name'] ? `${owner['kind']}/${owner['name']}` : 'none';
  if (meta['deletionTimestamp']) v.fields['terminating'] = 'true';
  const ann = strMap(meta['annotations']);
  // a pod kept out of the mesh on purpose: its sidecar.istio.io/inject annotation or label
  const inject =
    ann['sidecar.istio.io/inject'] ?? strMap(meta['labels'])['sidecar.istio.io/inject'];
  if (kind === 'pod' && inject !== undefined) v.fields['sidecarInject'] = inject;
  // a StorageClass's fields sit at the top level, not under spec ('' = allowVolumeExpansion unset)
  if (kind === 'storageclass') {
    if (str(o['provisioner'])) v.fields['provisioner'] = String(o['provisioner']);
    v.fields['allowVolumeExpansion'] =
      typeof o['allowVolumeExpansion'] === 'boolean' ? String(o['allowVolumeExpansion']) : '';
  }
  if (ann['deployment.kubernetes.io/revision'])
    v.fields['revision'] = ann['deployment.kubernetes.io/revision'];
  // the LimitRanger admission plugin's note: limits the pod spec did not set came from a LimitRange
  if (ann['kubernetes.io/limit-ranger'])
    v.fields['limitRanger'] = ann['kubernetes.io/limit-ranger'];
  // (r24a) the VerticalPodAutoscaler admission controller's note: resources it set at admission
  if (ann['vpaUpdates']) v.fields['vpaUpdates'] = ann['vpaUpdates'];
  // a ServiceAccount's annotations (IRSA's role and token audience), an Ingress's and a
  // LoadBalancer Service's (the cloud load balancer's settings: where TLS ends)
  if (
    kind === 'serviceaccount' ||
    kind === 'ingress' ||
    (kind === 'service' && (spec['type'] === 'LoadBalancer' || Object.keys(ann).length))
  )
    v.fields['annotations'] = JSON.stringify(ann);
  // (r24b) who applies a workload: Argo CD's tracking id, a `kubectl apply` (its annotation)
  if (['deployment', 'statefulset', 'daemonset', 'cronjob'].includes(kind)) {
    v.fields['metadataRead'] = 'true';
    if (ann['argocd.argoproj.io/tracking-id'])
      v.fields['argocdTrackingId'] = ann['argocd.argoproj.io/tracking-id'];
    if (ann['kubectl.kubernetes.io/last-applied-configuration'])
      v.fields['kubectlApplied'] = 'true';
  }
  // what the last `kubectl apply` asked for spec.replicas ("none": its manifest had no replicas)
  const applied = ann['kubectl.kubernetes.io/last-applied-configuration'];
  if (applied && (kind === 'deployment' || kind === 'statefulset'))
    try {
      const r = rec(rec(JSON.parse(applied) as unknown)['spec'])['replicas'];
      v.fields['appliedReplicas'] = typeof r === 'number' ? String(r) : 'none';
    } catch {
      // a cut annotation says nothing
    }
  if (ann['kubernetes.io/change-cause'])
    v.fields['changeCause'] = ann['kubernetes.io/change-cause'];
  // a rollback renumbers the revision it went back to: the numbers it had before
  if (ann['deployment.kubernetes.io/revision-history'])
    v.fields['revisionHistory'] = ann['deployment.kubernetes.io/revision-history'];
  v.conditions = arr(status['conditions']).map((c) => {
    const r = rec(c);
    return {
      type: str(r['type']) ?? '',
      status: str(r['status']) ?? '',
      reason: str(r['reason']),
      message: str(r['message']),
      at: parseTime(r['lastTransitionTime']) ?? parseTime(r['lastHeartbeatTime']),
    };
  });
  v.status = str(status['phase']);
  v.reason = str(status['reason']);
  v.message = str(status['message']);
  // what a rollout changed besides images and env: the template's annotations (checksum/config)
  const templateNotes = strMap(rec(rec(spec['template'])['metadata'])['annotations']);
  if (kind !== 'pod' && Object.keys(templateNotes).length)
    v.fields['templateAnnotations'] = JSON.stringify(templateNotes);
  const podSpec =
    kind === 'pod'
      ? spec
      : rec(rec(rec(spec['jobTemplate'])['spec'])['template'])['spec']
        ? rec(rec(rec(rec(spec['jobTemplate'])['spec'])['template'])['spec'])
        : rec(rec(spec['template'])['spec']);
  const specContainers = arr(podSpec['containers']).map(rec);
  for (const c of specContainers) {
    const cv = containerFromSpec(c);
    v.containers.push(cv);
    if (cv.image) v.images.push(cv.image);
  }
  // a pod's init containers after its containers (their requests count by the scheduler's rule)
  if (kind === 'pod' && specContainers.length)
    for (const c of arr(podSpec['initContainers']).map(rec))
      v.containers.push({ ...containerFromSpec(c), init: true });
  if (Object.keys(rec(podSpec['nodeSelector'])).length)
    v.fields['nodeSelector'] = Object.entries(strMap(podSpec['nodeSelector']))
      .map(([k, x]) => `${k}=${x}`)
      .join(',');
  if (podSpec['affinity']) v.fields['affinity'] = JSON.stringify(podSpec['affinity']).slice(0, 600);
  // the group the kubelet gives every file of the pod's volumes, and whether it walks them each time
  const podSecurity = rec(podSpec['securityContext']);
  if (num(podSecurity['fsGroup']) !== undefined)
    v.fields['fsGroup'] = String(num(podSecurity['fsGroup']));
  if (str(podSecurity['fsGroupChangePolicy']))
    v.fields['fsGroupChangePolicy'] = String(str(podSecurity['fsGroupChangePolicy']));
  const tol = arr(podSpec['tolerations'])
    .map(rec)
    .map(
      (t) =>
        `${str(t['key']) ?? ''}${t['value'] ? `=${str(t['value'])}` : ''}:${str(t['effect']) ?? ''}`,
    );
  if (tol.length) v.fields['tolerations'] = tol.join(',');
  const claims: string[] = [];
  const cms: string[] = [];
  const secrets: string[] = [];
  // RAM-backed emptyDir volumes (medium: Memory) and where the containers mount them: what is
  // written there counts against the container's memory limit
  const mounts = new Map<string, string>();
  // files mounted one by one (subPath): they never receive updates of their ConfigMap/Secret
  const subPaths: string[] = [];
  for (const c of arr(podSpec['containers']).map(rec))
    for (const m of arr(c['volumeMounts']).map(rec)) {
      const name = str(m['name']);
      const path = str(m['mountPath']);
      if (name && path && !mounts.has(name)) mounts.set(name, path);
      if (name && path && str(m['subPath'])) subPaths.push(`${path} from ${name}`);
    }
  if (subPaths.length) v.fields['subPathMounts'] = subPaths.join(', ');
  // every mount of the main containers: a volume mounted over a directory of the image hides it
  const mountPaths = arr(podSpec['containers'])
    .map(rec)
    .flatMap((c) => arr(c['volumeMounts']).map(rec))
    .filter((m) => str(m['mountPath']) && !str(m['subPath']))
    .map((m) => `${String(m['mountPath'])} from ${String(m['name'] ?? '')}`);
  if (mountPaths.length) v.fields['mountPaths'] = [...new Set(mountPaths)].join(', ');
  const tmpfs: string[] = [];
  for (const vol of arr(podSpec['volumes']).map(rec)) {
    const name = str(vol['name']);
    if (name && str(rec(vol['emptyDir'])['medium']) === 'Memory')
      tmpfs.push(`${name}${mounts.get(name) ? ` at ${mounts.get(name)}` : ''}`);
  }
  if (tmpfs.length) v.fields['memoryVolumes'] = tmpfs.join(', ');
  // hostPath volumes: a directory of the node in the pod, and where its containers mount it
  if (specContainers.length) {
    const all = [...arr(podSpec['initContainers']), ...arr(podSpec['containers'])].map(rec);
    v.fields['hostPaths'] = JSON.stringify(
      arr(podSpec['volumes'])
        .map(rec)
        .filter((vol) => str(rec(vol['hostPath'])['path']) !== undefined)
        .map((vol): HostPathView => {
          const name = str(vol['name']) ?? '';
          const type = str(rec(vol['hostPath'])['type']);
          const mounts = all
            .flatMap((c) => arr(c['volumeMounts']).map(rec))
            .filter((m) => m['name'] === name && str(m['mountPath']))
            .map((m) => `${String(m['mountPath'])}${m['readOnly'] === true ? ' (ro)' : ''}`);
          return {
            volume: name,
            path: String(rec(vol['hostPath'])['path']),
            ...(type ? { type } : {}),
            ...(mounts.length ? { mounts: [...new Set(mounts)] } : {}),
          };
        }),
    );
  }
  if (podSpec['hostNetwork'] === true) v.fields['hostNetwork'] = 'true';
  else if (kind === 'pod' && specContainers.length) v.fields['hostNetwork'] = 'false';
  // what the pod spec says of privilege, per container (init containers too): privileged, and
  // the user it runs as (its own securityContext over the pod's)
  if (kind === 'pod' && specContainers.length)
    v.fields['podSecurity'] = JSON.stringify(containerSecurity(podSpec));
  if (str(podSpec['dnsPolicy'])) v.fields['dnsPolicy'] = String(podSpec['dnsPolicy']);
  // the resolver settings the pod spec adds (dnsConfig): its search domains and ndots
  const dnsConfig = rec(podSpec['dnsConfig']);
  const searches = arr(dnsConfig['searches']).filter((x) => str(x));
  if (searches.length) v.fields['dnsSearches'] = searches.map(String).join(',');
  const ndots = arr(dnsConfig['options'])
    .map(rec)
    .find((o) => o['name'] === 'ndots')?.['value'];
  if (ndots !== undefined && ndots !== null) v.fields['dnsNdots'] = String(ndots);
  // the containers with a preStop hook ("none": the spec was read and none has one)
  if (specContainers.length)
    v.fields['preStop'] =
      specContainers
        .filter(
          (c) =>
            rec(rec(c['lifecycle'])['preStop']) &&
            Object.keys(rec(rec(c['lifecycle'])['preStop'])).length,
        )
        .map((c) => String(c['name']))
        .join(',') || 'none';
  // KEDA: what a ScaledObject scales, how far down, on which triggers (and their authentication);
  // the Secrets a TriggerAuthentication reads
  // Karpenter: the IAM role an EC2NodeClass gives its nodes, the NodeClass a NodeClaim uses and
  // the node it became
  if (kind === 'ec2nodeclass') {
    if (str(spec['role'])) v.fields['role'] = String(spec['role']);
    if (str(status['instanceProfile']))
      v.fields['instanceProfile'] = String(status['instanceProfile']);
  }
  // (r30a) a CloudNativePG Cluster: whether HA replication slots keep WAL for its standbys, its
  // wal_keep_size, whether it archives WAL (spec.backup)
  if (kind === 'cluster' && spec['replicationSlots'] !== undefined) {
    const ha = rec(rec(spec['replicationSlots'])['highAvailability']);
    v.fields['replicationSlotsHA'] = String(ha['enabled'] ?? false);
    const keep = rec(rec(spec['postgresql'])['parameters'])['wal_keep_size'];
    if (str(keep)) v.fields['walKeepSize'] = String(keep);
    if (rec(spec['backup'])['barmanObjectStore'] !== undefined) v.fields['walArchive'] = 'true';
  }
  // (r29c) a NodePool's limits and what its nodes hold now
  if (kind === 'nodepool') {
    if (spec['limits'] !== undefined) v.fields['limits'] = JSON.stringify(rec(spec['limits']));
    if (status['resources'] !== undefined)
      v.fields['resources'] = JSON.stringify(rec(status['resources']));
  }
  if (kind === 'nodeclaim') {
    const ref = str(rec(spec['nodeClassRef'])['name']);
    if (ref) v.fields['nodeClass'] = ref;
    if (str(status['nodeName'])) v.fields['nodeName'] = String(status['nodeName']);
  }
  if (kind === 'scaledobject') {
    const target = str(rec(spec['scaleTargetRef'])['name']);
    if (target) v.fields['scaleTarget'] = target;
    const min = num(spec['minReplicaCount']);
    v.fields['minReplicaCount'] = String(min ?? 0);
    v.fields['triggers'] = JSON.stringify(
      arr(spec['triggers'])
        .map(rec)
        .map((t) => {
          const m = strMap(t['metadata']);
          return {
            type: str(t['type']) ?? '',
            source: m['queueName'] ?? m['topic'] ?? m['stream'] ?? m['query'] ?? '',
            auth: str(rec(t['authenticationRef'])['name']) ?? '',
          };
        }),
    );
  }
  if (kind === 'triggerauthentication')
    v.fields['secrets'] = [
      ...new Set(
        arr(spec['secretTargetRef'])
          .map((r) => str(rec(r)['name']))
          .filter((n): n is string => !!n),
      ),
    ].join(',');
  // a StatefulSet creates its members one by one, each once the one before is Ready, unless
  // Parallel (absent: OrderedReady, the default)
  if (kind === 'statefulset' && str(spec['podManagementPolicy']))
    v.fields['podManagementPolicy'] = String(spec['podManagementPolicy']);
  // (r28a) what happens to its claims when it is scaled down or deleted: Retain unless set;
  // "none" when the spec was read and has no policy
  if (kind === 'statefulset' && Object.keys(spec).length) {
    const policy = rec(spec['persistentVolumeClaimRetentionPolicy']);
    v.fields['pvcRetention'] = Object.keys(policy).length
      ? `whenDeleted=${str(policy['whenDeleted']) ?? 'Retain'},whenScaled=${str(policy['whenScaled']) ?? 'Retain'}`
      : 'none';
  }
  // how long the kubelet waits after SIGTERM before it kills the containers (default 30 s)
  if (kind === 'pod' && specContainers.length)
    v.fields['terminationGracePeriodSeconds'] = String(
      num(podSpec['terminationGracePeriodSeconds']) ?? 30,
    );
  // which ConfigMap each volume holds (a subPath mount names the volume, not the ConfigMap)
  const cmVolumes: Record<string, string> = {};
  for (const vol of arr(podSpec['volumes']).map(rec)) {
    const c = str(rec(vol['persistentVolumeClaim'])['claimName']);
    if (c) claims.push(c);
    const cm = str(rec(vol['configMap'])['name']);
    if (cm) cms.push(cm);
    if (cm && str(vol['name'])) cmVolumes[str(vol['name'])!] = cm;
    const s = str(rec(vol['secret'])['secretName']);
    if (s) secrets.push(s);
    // a projected volume gathers ConfigMaps and Secrets into one directory (not the API access
    // volume every pod gets: kube-root-ca.crt is published into every namespace)
    for (const src of arr(rec(vol['projected'])['sources']).map(rec)) {
      const pcm = str(rec(src['configMap'])['name']);
      if (pcm === 'kube-root-ca.crt') continue;
      if (pcm) cms.push(pcm);
      if (pcm && str(vol['name']) && !cmVolumes[str(vol['name'])!])
        cmVolumes[str(vol['name'])!] = pcm;
      const ps = str(rec(src['secret'])['name']);
      if (ps) secrets.push(ps);
    }
  }
  if (claims.length) v.fields['claims'] = claims.join(',');
  if (cms.length) v.fields['configMaps'] = cms.join(',');
  if (Object.keys(cmVolumes).length) v.fields['configMapVolumes'] = JSON.stringify(cmVolumes);
  // what each volume is ("persistentVolumeClaim data-0", "emptyDir"): where a container's data lives
  const volumeSources: Record<string, string> = {};
  for (const vol of arr(podSpec['volumes']).map(rec)) {
    const name = str(vol['name']);
    const claim = str(rec(vol['persistentVolumeClaim'])['claimName']);
    if (name && claim) volumeSources[name] = `persistentVolumeClaim ${claim}`;
    // a Secrets Store CSI volume: the SecretProviderClass it mounts (r24b)
    else if (name && str(rec(rec(vol['csi'])['volumeAttributes'])['secretProviderClass']))
      volumeSources[name] =
        `csi ${str(rec(vol['csi'])['driver']) ?? ''} secretProviderClass ${str(rec(rec(vol['csi'])['volumeAttributes'])['secretProviderClass'])}`;
    else if (name && vol['emptyDir'] !== undefined)
      volumeSources[name] =
        str(rec(vol['emptyDir'])['medium']) === 'Memory' ? 'emptyDir (Memory)' : 'emptyDir';
  }
  if (Object.keys(volumeSources).length) v.fields['volumeSources'] = JSON.stringify(volumeSources);
  // the kubelet injects <SERVICE>_PORT and related variables for every Service unless told not to
  if (podSpec['enableServiceLinks'] === false) v.fields['enableServiceLinks'] = 'false';
  if (secrets.length) v.fields['secrets'] = secrets.join(',');
  const pullSecrets = arr(podSpec['imagePullSecrets'])
    .map((x) => str(rec(x)['name']))
    .filter(Boolean);
  if (pullSecrets.length) v.fields['imagePullSecrets'] = pullSecrets.join(',');
  if (str(podSpec['serviceAccountName']))
    v.fields['serviceAccount'] = String(podSpec['serviceAccountName']);
  if (kind === 'pod') {
    v.node = str(spec['nodeName']);
    if (str(status['podIP'])) v.fields['podIP'] = String(status['podIP']);
    if (str(status['hostIP'])) v.fields['hostIP'] = String(status['hostIP']);
    if (str(status['qosClass'])) v.fields['qosClass'] = String(status['qosClass']);
    const initNames = new Set(
      [...arr(podSpec['initContainers']), ...arr(status['initContainerStatuses'])].map(
        (c) => str(rec(c)['name']) ?? '',
      ),
    );
    const statuses = [
      ...arr(status['initContainerStatuses']),
      ...arr(status['containerStatuses']),
    ].map(rec);
    for (const s of statuses) {
      const cname = str(s['name']) ?? '';
      let cv = v.containers.find((c) => c.name === cname);
      if (!cv) {
        cv = emptyContainer(cname);
        v.containers.push(cv);
      }
      if (cv.image && str(s['image']) && s['image'] !== cv.image) cv.specImage = cv.image;
      cv.image = str(s['image']) ?? cv.image;
      if (str(s['imageID'])) cv.imageID = String(s['imageID']);
      cv.restarts = num(s['restartCount']);
      cv.ready = s['ready'] === true;
      const st = rec(s['state']);
      const ls = rec(s['lastState']);
      cv.waiting = stateOf(rec(st['waiting']));
      cv.terminated = stateOf(rec(st['terminated']));
      cv.last = stateOf(rec(ls['terminated']));
      if (!st['waiting'] && !st['terminated'] && st['running']) cv.ready = cv.ready ?? true;
    }
    v.restarts = v.containers.reduce((a, c) => a + (c.restarts ?? 0), 0);
    for (const c of v.containers) if (initNames.has(c.name)) c.init = true;
    v.status = podStatusText(v) ?? v.status;
  } else {
    for (const k of [
      'replicas',
      'readyReplicas',
      'availableReplicas',
      'updatedReplicas',
      'unavailableReplicas',
      'currentReplicas',
      'desiredReplicas',
      'failed',
      'succeeded',
      'active',
      'numberReady',
      'desiredNumberScheduled',
      'numberUnavailable',
    ]) {
      const n = num(status[k]);
      if (n !== undefined) v.fields[`status.${k}`] = String(n);
    }
    for (const k of [
      'replicas',
      'minReplicas',
      'maxReplicas',
      'backoffLimit',
      'activeDeadlineSeconds',
      'storageClassName',
      'volumeName',
      'schedule',
      'concurrencyPolicy',
      'suspend',
      // (r30c) how late a CronJob's run may start before it is skipped as missed
      'startingDeadlineSeconds',
      'unschedulable',
      'provisioner',
      'secretName',
      'dnsNames',
      'issuerRef',
      // a SecretProviderClass's provider and the Secrets it syncs (r24b)
      'secretObjects',
      'provider',
    ]) {
      const x = spec[k];
      if (x !== undefined) v.fields[k] = typeof x === 'object' ? JSON.stringify(x) : String(x);
    }
    if (kind === 'cronjob') {
      // '' = no spec.timeZone: the schedule is read in kube-controller-manager's zone
      v.fields['timeZone'] = str(spec['timeZone']) ?? '';
      if (str(status['lastScheduleTime']))
        v.fields['lastScheduleTime'] = String(status['lastScheduleTime']);
      // a note a person left on it ("suspended for maintenance CHG-4471")
      const note = Object.entries(ann).find(([k]) =>
        /note|reason|comment|change|description/i.test(k),
      );
      if (note) v.fields['note'] = note[1].slice(0, 200);
    }
    if (kind === 'persistentvolumeclaim' || kind === 'persistentvolume') {
      if (str(status['phase'])) v.status = String(status['phase']);
      const cap =
        str(rec(spec['capacity'])['storage']) ??
        str(rec(rec(spec['resources'])['requests'])['storage']);
      if (cap) v.fields['capacity'] = cap;
      // a claim's size: what was provisioned (status.capacity), apart from what it asks
      if (kind === 'persistentvolumeclaim') {
        const provisioned = str(rec(status['capacity'])['storage']);
        if (provisioned) v.fields['storageCapacity'] = provisioned;
        const asked = str(rec(rec(spec['resources'])['requests'])['storage']);
        if (asked) v.fields['storageRequest'] = asked;
      }
      const modes = arr(spec['accessModes']).map(String);
      if (modes.length) v.fields['accessModes'] = modes.join(',');
      const claim = rec(spec['claimRef']);
      if (claim['name'])
        v.fields['claim'] = `${str(claim['namespace']) ?? ''}/${str(claim['name'])}`;
      if (str(spec['persistentVolumeReclaimPolicy']))
        v.fields['reclaimPolicy'] = String(spec['persistentVolumeReclaimPolicy']);
    }
    // cert-manager's Certificate: when it expires and when cert-manager will renew it
    if (kind === 'certificate')
      for (const k of ['notBefore', 'notAfter', 'renewalTime'])
        if (str(status[k])) v.fields[k] = String(status[k]);
    if (kind === 'node') {
      const taints = arr(spec['taints'])
        .map(rec)
        .map(
          (t) => `${str(t['key'])}${t['value'] ? `=${str(t['value'])}` : ''}:${str(t['effect'])}`,
        );
      if (taints.length) v.fields['taints'] = taints.join(',');
      // "aws:///eu-west-1a/i-0abc": the zone when no topology label says it
      if (str(spec['providerID'])) v.fields['providerID'] = String(spec['providerID']);
      v.fields['allocatable'] = JSON.stringify(rec(status['allocatable']));
      const kubelet = str(rec(status['nodeInfo'])['kubeletVersion']);
      if (kubelet) v.fields['kubeletVersion'] = kubelet;
      const ready = v.conditions.find((c) => c.type === 'Ready');
      v.status = ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : v.status;
      if (spec['unschedulable'] === true) v.status = `${v.status ?? 'Ready'},SchedulingDisabled`;
    }
    if (kind === 'horizontalpodautoscaler') {
      v.fields['scaleTarget'] =
        `${str(rec(spec['scaleTargetRef'])['kind']) ?? ''}/${str(rec(spec['scaleTargetRef'])['name']) ?? ''}`;
      const cm = arr(status['currentMetrics'])
        .map((m) => JSON.stringify(m))
        .join(' ');
      if (cm) v.fields['currentMetrics'] = cm.slice(0, 600);
      const metrics = arr(spec['metrics'])
        .map((m) => JSON.stringify(m))
        .join(' ');
      if (metrics) v.fields['metrics'] = metrics.slice(0, 600);
      // each metric's current / target, as the TARGETS column of `kubectl get hpa` prints it
      const current = arr(status['currentMetrics']).map(rec);
      const targets = arr(spec['metrics'])
        .map(rec)
        .map((m, i) => {
          const body = (x: Record<string, unknown>) =>
            rec(
              x['resource'] ?? x['containerResource'] ?? x['pods'] ?? x['object'] ?? x['external'],
            );
          const want = body(m);
          const target = rec(want['target']);
          const now = rec(body(current[i] ?? {})['current']);
          const name = str(want['name']) ?? str(rec(want['metric'])['name']) ?? '';
          if (target['averageUtilization'] !== undefined)
            return `${name}: ${now['averageUtilization'] !== undefined ? `${str(now['averageUtilization'])}%` : '<unknown>'}/${str(target['averageUtilization'])}%`;
          return `${name}: ${str(now['averageValue']) ?? str(now['value']) ?? '<unknown>'}/${str(target['averageValue']) ?? str(target['value']) ?? ''}`;
        });
      if (targets.length) v.fields['targets'] = targets.join(', ');
      // how fast it may shrink: 0 s lets it scale down at once after every scale-up
      const down = num(rec(rec(spec['behavior'])['scaleDown'])['stabilizationWindowSeconds']);
      if (down !== undefined) v.fields['scaleDownStabilization'] = String(down);
    }
    // (r24b) Prometheus Operator: what a ServiceMonitor selects, which ServiceMonitors a
    // Prometheus selects (by their labels; '' = every one, '?' = by expressions)
    if (kind === 'servicemonitor')
      v.fields['selector'] = Object.entries(strMap(rec(spec['selector'])['matchLabels']))
        .map(([k, x]) => `${k}=${x}`)
        .join(',');
    if (kind === 'prometheus' && spec['serviceMonitorSelector'] !== undefined) {
      const sel = rec(spec['serviceMonitorSelector']);
      v.fields['serviceMonitorSelector'] = arr(sel['matchExpressions']).length
        ? '?'
        : Object.entries(strMap(sel['matchLabels']))
            .map(([k, x]) => `${k}=${x}`)
            .join(',');
    }
    if (kind === 'poddisruptionbudget') {
      // what a drain's evictions are weighed against: the budget, what it selects, what it allows
      for (const k of ['minAvailable', 'maxUnavailable'])
        if (spec[k] !== undefined) v.fields[k] = String(spec[k]);
      v.fields['selector'] = Object.entries(strMap(rec(spec['selector'])['matchLabels']))
        .map(([k, x]) => `${k}=${x}`)
        .join(',');
      for (const k of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods']) {
        const n = num(status[k]);
        if (n !== undefined) v.fields[k] = String(n);
      }
    }
    if (kind === 'statefulset') {
      const partition = num(rec(rec(spec['updateStrategy'])['rollingUpdate'])['partition']);
      if (partition !== undefined) v.fields['partition'] = String(partition);
    }
    if (kind === 'resourcequota') {
      v.fields['hard'] = JSON.stringify(rec(status['hard']));
      v.fields['used'] = JSON.stringify(rec(status['used']));
    }
    if (kind === 'limitrange')
      v.fields['limits'] = JSON.stringify(spec['limits'] ?? []).slice(0, 800);
    if (kind === 'service') {
      v.fields['selector'] = Object.entries(strMap(spec['selector']))
        .map(([k, x]) => `${k}=${x}`)
        .join(',');
      v.fields['ports'] = JSON.stringify(spec['ports'] ?? []).slice(0, 300);
      if (str(spec['clusterIP'])) v.fields['clusterIP'] = String(spec['clusterIP']);
      // a headless Service publishes the DNS names of ready pods only, unless told otherwise
      if (spec['clusterIP'] === 'None')
        v.fields['publishNotReadyAddresses'] = String(spec['publishNotReadyAddresses'] === true);
      if (str(spec['externalName'])) v.fields['externalName'] = String(spec['externalName']);
      if (str(spec['type'])) v.fields['type'] = String(spec['type']);
      // (r29a) Local: kube-proxy sends traffic only to endpoints on the client's own node (internal)
      // or the node the load balancer picked (external; healthCheckNodePort tells which have one)
      if (str(spec['internalTrafficPolicy']))
        v.fields['internalTrafficPolicy'] = String(spec['internalTrafficPolicy']);
      if (str(spec['externalTrafficPolicy']))
        v.fields['externalTrafficPolicy'] = String(spec['externalTrafficPolicy']);
      if (num(spec['healthCheckNodePort']) !== undefined)
        v.fields['healthCheckNodePort'] = String(spec['healthCheckNodePort']);
      // ClientIP: each client stays on the pod it first reached (for timeoutSeconds)
      if (str(spec['sessionAffinity']) && spec['sessionAffinity'] !== 'None') {
        const timeout = num(rec(rec(spec['sessionAffinityConfig'])['clientIP'])['timeoutSeconds']);
        v.fields['sessionAffinity'] =
          `${String(spec['sessionAffinity'])}${timeout !== undefined ? ` (timeoutSeconds ${timeout})` : ''}`;
      }
      // the node ports it opens on every node (a LoadBalancer allocates them too)
      v.fields['nodePorts'] = arr(spec['ports'])
        .map(rec)
        .filter((x) => num(x['nodePort']) !== undefined)
        .map((x) => `${str(x['port']) ?? ''}:${str(x['nodePort'])}/${str(x['protocol']) ?? 'TCP'}`)
        .join(',');
      const lb = arr(rec(status['loadBalancer'])['ingress'])
        .map((i) => str(rec(i)['hostname']) ?? str(rec(i)['ip']) ?? '')
        .filter(Boolean);
      if (lb.length) v.fields['externalAddress'] = lb.join(',');
    }
    // (r29a) Istio: a DestinationRule's subsets (the pod labels each selects), a VirtualService's
    // routes (host, subset, weight)
    if (kind === 'destinationrule') {
      if (str(spec['host'])) v.fields['host'] = String(spec['host']);
      v.fields['subsets'] = JSON.stringify(
        arr(spec['subsets'])
          .map(rec)
          .map((x) => ({ name: str(x['name']) ?? '', labels: strMap(x['labels']) })),
      );
    }
    // (r29a) Gateway API: a route's backends and what its parents say of its references; a
    // ReferenceGrant's from/to
    if (kind === 'httproute') {
      v.fields['backendRefs'] = JSON.stringify(
        arr(spec['rules'])
          .map(rec)
          .flatMap((r) => arr(r['backendRefs']).map(rec))
          .map((b) => ({
            kind: str(b['kind']) ?? 'Service',
            name: str(b['name']) ?? '',
            namespace: str(b['namespace']) ?? v.namespace ?? '',
          })),
      );
      const refused = arr(status['parents'])
        .map(rec)
        .flatMap((x) => arr(x['conditions']).map(rec))
        .filter((c) => c['type'] === 'ResolvedRefs' && c['status'] === 'False');
      if (refused.length)
        v.fields['refsUnresolved'] = refused
          .map((c) => `${str(c['reason']) ?? ''}: ${str(c['message']) ?? ''}`)
          .join(' | ');
    }
    if (kind === 'referencegrant') {
      v.fields['grantFrom'] = JSON.stringify(
        arr(spec['from'])
          .map(rec)
          .map((x) => ({ kind: str(x['kind']) ?? '', namespace: str(x['namespace']) ?? '' })),
      );
      v.fields['grantTo'] = JSON.stringify(
        arr(spec['to'])
          .map(rec)
          .map((x) => ({ kind: str(x['kind']) ?? '', name: str(x['name']) ?? '' })),
      );
    }
    if (kind === 'serviceentry') v.fields['hosts'] = arr(spec['hosts']).map(String).join(',');
    if (kind === 'virtualservice')
      v.fields['routes'] = JSON.stringify(
        arr(spec['http'])
          .map(rec)
          .flatMap((h) => arr(h['route']).map(rec))
          .map((r) => {
            const d = rec(r['destination']);
            return {
              host: str(d['host']) ?? '',
              subset: str(d['subset']) ?? '',
              weight: num(r['weight']) ?? 100,
            };
          }),
      );
    if (kind === 'networkpolicy') {
      // which pods it selects ('' = every pod of the namespace) and, for egress, the ports each
      // rule opens ('*' = a rule without ports opens them all)
      const sel = rec(spec['podSelector']);
      v.fields['podSelector'] = Object.entries(strMap(sel['matchLabels']))
        .map(([k, x]) => `${k}=${x}`)
        .join(',');
      if (arr(sel['matchExpressions']).length) v.fields['podSelectorExpressions'] = 'true';
      const types = arr(spec['policyTypes']).map(String);
      const egress = arr(spec['egress']).map(rec);
      if (!types.length && egress.length) types.push('Ingress', 'Egress');
      v.fields['policyTypes'] = types.join(',');
      v.fields['egressPorts'] = JSON.stringify(
        egress.map((r) =>
          arr(r['ports']).length
            ? arr(r['ports'])
                .map(rec)
                .map((x) => `${String(x['port'] ?? '*')}/${String(x['protocol'] ?? 'TCP')}`)
            : ['*'],
        ),
      );
    }
    if (kind === 'networkpolicy') {
      // each ingress rule: the ports it opens ('*': all) and whom it admits ('*': anyone; per
      // peer the namespace and pod selectors as k=v lists, '' = all, '?' = expressions)
      const selector = (x: unknown): string | undefined => {
        if (x === undefined || x === null) return undefined;
        const r = rec(x);
        if (arr(r['matchExpressions']).length) return '?';
        return Object.entries(strMap(r['matchLabels']))
          .map(([k, val]) => `${k}=${val}`)
          .join(',');
      };
      v.fields['ingressRules'] = JSON.stringify(
        arr(spec['ingress'])
          .map(rec)
          // the JavaScript client's models name `from` `_from` (a reserved word)
          .map((r): Record<string, unknown> => ({ ...r, from: r['from'] ?? r['_from'] }))
          .map((r) => ({
            ports: arr(r['ports']).length
              ? arr(r['ports'])
                  .map(rec)
                  .map((x) => `${String(x['port'] ?? '*')}/${String(x['protocol'] ?? 'TCP')}`)
              : ['*'],
            from: arr(r['from']).length
              ? arr(r['from'])
                  .map(rec)
                  .map((peer) => ({
                    ns: selector(peer['namespaceSelector']),
                    pods: selector(peer['podSelector']),
                    ip: peer['ipBlock'] ? String(rec(peer['ipBlock'])['cidr'] ?? '') : undefined,
                  }))
              : '*',
          })),
      );
    }
    if (kind === 'ingressclass' && str(spec['controller']))
      v.fields['controller'] = String(spec['controller']);
    if (kind === 'ingress') {
      // the class it asks for (the field, or the annotation that came before it) and the
      // address a controller that took it wrote back ('' = none yet)
      const cls = str(spec['ingressClassName']) ?? str(ann['kubernetes.io/ingress.class']);
      if (cls) v.fields['ingressClass'] = cls;
      v.fields['address'] = arr(rec(status['loadBalancer'])['ingress'])
        .map((i) => str(rec(i)['hostname']) ?? str(rec(i)['ip']) ?? '')
        .filter(Boolean)
        .join(',');
      const rewrite = ann['nginx.ingress.kubernetes.io/rewrite-target'];
      if (rewrite !== undefined) v.fields['rewriteTarget'] = rewrite;
      const tls = arr(spec['tls'])
        .map((t) => str(rec(t)['secretName']))
        .filter(Boolean);
      if (tls.length) v.fields['tlsSecrets'] = tls.join(',');
      // which hosts each TLS entry terminates, with which Secret ('' = none named: the default
      // certificate); [] = no TLS at all
      v.fields['tls'] = JSON.stringify(
        arr(spec['tls'])
          .map(rec)
          .map((t) => ({ secret: str(t['secretName']) ?? '', hosts: arr(t['hosts']).map(String) })),
      );
      const backends = arr(spec['rules']).flatMap((r): IngressBackend[] => {
        const host = str(rec(r)['host']) ?? '*';
        return arr(rec(rec(r)['http'])['paths']).map((x) => {
          const svc = rec(rec(rec(x)['backend'])['service']);
          const port = rec(svc['port']);
          return {
            host,
            path: str(rec(x)['path']) ?? '/',
            service: str(svc['name']) ?? '',
            port: String(port['number'] ?? port['name'] ?? ''),
          };
        });
      });
      if (backends.length) {
        v.fields['backends'] = JSON.stringify(backends.filter((b) => b.service));
        v.fields['hosts'] = [...new Set(backends.map((b) => b.host))].join(',');
      }
    }
    if (kind === 'endpoints') {
      const subsets = arr(o['subsets']).map(rec);
      v.fields['ready'] = String(subsets.reduce((a, s) => a + arr(s['addresses']).length, 0));
      v.fields['notReady'] = String(
        subsets.reduce((a, s) => a + arr(s['notReadyAddresses']).length, 0),
      );
    }
    if (kind === 'configmap' || kind === 'secret')
      v.fields['keys'] = Object.keys({
        ...rec(o['data']),
        ...rec(o['stringData']),
        ...rec(o['binaryData']),
      }).join(',');
    // a ConfigMap's values (never a Secret's), those a tool server did not hide
    if (kind === 'configmap') {
      const data = Object.entries(strMap(o['data'])).filter(([, x]) => !HIDDEN_VALUE.test(x));
      // EKS's aws-auth whole: which IAM roles may join nodes is in its long mapRoles
      const cap = v.name === 'aws-auth' ? 4000 : 200;
      if (data.length)
        v.fields['data'] = JSON.stringify(
          Object.fromEntries(
            data.map(([k, x]) => [k, cap > 200 ? x.slice(0, cap) : keptConfigValue(x)]),
          ),
        );
      // (r30a) a Loki configuration's retention, which a value kept short loses
      const loki = data.map(([, x]) => lokiRetention(x)).find(Boolean);
      if (loki) v.fields['lokiRetention'] = loki;
    }
    // who a binding grants what: its role and its subjects
    if (kind === 'rolebinding' || kind === 'clusterrolebinding') {
      const ref = rec(o['roleRef']);
      if (ref['name']) v.fields['roleRef'] = `${str(ref['kind']) ?? 'Role'}/${str(ref['name'])}`;
      v.fields['subjects'] = JSON.stringify(
        arr(o['subjects'])
          .map(rec)
          .map((x) => ({
            kind: str(x['kind']) ?? '',
            name: str(x['name']) ?? '',
            ...(str(x['namespace']) ? { namespace: str(x['namespace']) } : {}),
          })),
      );
    }
    // what a role allows: "get,watch secrets [payouts-signing-key]"
    if (kind === 'role' || kind === 'clusterrole')
      v.fields['rules'] = arr(o['rules'])
        .map(rec)
        .map((r) => {
          const names = arr(r['resourceNames']).map(String);
          const what = [...arr(r['resources']), ...arr(r['nonResourceURLs'])].map(String);
          return `${arr(r['verbs']).map(String).join(',')} ${what.join(',')}${names.length ? ` [${names.join(' ')}]` : ''}`;
        })
        .join('; ')
        .slice(0, 600);
    if (kind === 'job') {
      v.fields['startTime'] = str(status['startTime']) ?? '';
      if (str(status['completionTime']))
        v.fields['completionTime'] = String(status['completionTime']);
    }
    if (kind === 'cronjob' && str(status['lastSuccessfulTime']))
      v.fields['lastSuccessfulTime'] = String(status['lastSuccessfulTime']);
  }
  out.objects.push(v);
}

export function stateOf(s: Record<string, unknown>): StateView | undefined {
  if (!Object.keys(s).length) return undefined;
  return {
    reason: str(s['reason']),
    message: str(s['message']),
    exitCode: num(s['exitCode']),
    at: parseTime(s['finishedAt']) ?? parseTime(s['startedAt']),
  };
}

function probeText(p: Record<string, unknown>): string | undefined {
  if (!Object.keys(p).length) return undefined;
  const http = rec(p['httpGet']);
  const tcp = rec(p['tcpSocket']);
  const exec = rec(p['exec']);
  const target = Object.keys(http).length
    ? `http-get ${str(http['scheme'])?.toLowerCase() ?? 'http'}://:${str(http['port']) ?? ''}${str(http['path']) ?? '/'}`
    : Object.keys(tcp).length
      ? `tcp-socket :${str(tcp['port']) ?? ''}`
      : Object.keys(exec).length
        ? `exec ${JSON.stringify(exec['command'])}`
        : 'probe';
  return `${target} delay=${num(p['initialDelaySeconds']) ?? 0}s timeout=${num(p['timeoutSeconds']) ?? 1}s period=${num(p['periodSeconds']) ?? 10}s #failure=${num(p['failureThreshold']) ?? 3}`;
}

function containerFromSpec(c: Record<string, unknown>): ContainerView {
  const cv = emptyContainer(str(c['name']) ?? '');
  cv.image = str(c['image']);
  const res = rec(c['resources']);
  cv.limits = strMap(res['limits']);
  cv.requests = strMap(res['requests']);
  for (const [k, label] of [
    ['livenessProbe', 'Liveness'],
    ['readinessProbe', 'Readiness'],
    ['startupProbe', 'Startup'],
  ] as const) {
    const t = probeText(rec(c[k]));
    if (t) cv.probes.push(`${label}: ${t}`);
  }
  for (const e of arr(c['env']).map(rec)) {
    const name = str(e['name']) ?? '';
    const from = rec(e['valueFrom']);
    const cm = rec(from['configMapKeyRef']);
    const sk = rec(from['secretKeyRef']);
    if (cm['name'])
      cv.envRefs.push(`${name} <- configmap ${str(cm['name'])} key ${str(cm['key'])}`);
    else if (sk['name'])
      cv.envRefs.push(`${name} <- secret ${str(sk['name'])} key ${str(sk['key'])}`);
    else if (str(e['value']) !== undefined) cv.env[name] = String(e['value']);
  }
  for (const e of arr(c['envFrom']).map(rec)) {
    const cm = str(rec(e['configMapRef'])['name']);
    const s = str(rec(e['secretRef'])['name']);
    if (cm) cv.envRefs.push(`envFrom configmap ${cm}`);
    if (s) cv.envRefs.push(`envFrom secret ${s}`);
  }
  cv.ports = arr(c['ports'])
    .map((x) => str(rec(x)['containerPort']) ?? '')
    .filter(Boolean);
  cv.portNames = arr(c['ports'])
    .map((x) => str(rec(x)['name']) ?? '')
    .filter(Boolean);
  const args = [...arr(c['command']), ...arr(c['args'])].map(String);
  if (args.length) cv.env['__args'] = args.join(' ');
  return cv;
}

/** The STATUS kubectl prints for a pod. */
export function podStatusText(v: ObjectView): string | undefined {
  if (v.fields['terminating']) return 'Terminating';
  if (v.reason && v.status === 'Failed') return v.reason;
  let completedBesideRunning = false;
  for (const c of v.containers) {
    if (c.waiting?.reason && c.waiting.reason !== 'ContainerCreating') return c.waiting.reason;
    if (c.terminated?.reason && v.status !== 'Succeeded') {
      // as kubectl: a container that completed while another still runs (a sidecar) leaves the
      // pod NotReady (Running when the pod is still Ready), not Completed
      if (
        c.terminated.reason === 'Completed' &&
        v.containers.some((o) => o !== c && !o.init && !o.terminated && !o.waiting)
      ) {
        completedBesideRunning = true;
        continue;
      }
      return c.terminated.reason;
    }
  }
  if (completedBesideRunning)
    return v.conditions.some((c) => c.type === 'Ready' && c.status === 'True')
      ? 'Running'
      : 'NotReady';
  return v.status;
}

export function fromKubeEvent(o: Record<string, unknown>, ctx: CallContext, out: Observed) {
  const meta = rec(o['metadata']);
  const inv = rec(o['involvedObject'] ?? o['regarding'] ?? o['InvolvedObject']);
  const message = str(o['message'] ?? o['note'] ?? o['Message']) ?? '';
  out.events.push({
    type: str(o['type'] ?? o['Type']),
    reason: str(o['reason'] ?? o['Reason']),
    message,
    object:
      inv['name'] || inv['Name']
        ? {
            kind: kindOf(str(inv['kind'] ?? inv['Kind'])) ?? str(inv['kind'] ?? inv['Kind']),
            name: String(inv['name'] ?? inv['Name']),
          }
        : undefined,
    namespace: str(inv['namespace'] ?? inv['Namespace']) ?? str(meta['namespace']) ?? ctx.namespace,
    count: num(o['count'] ?? o['Count'] ?? rec(o['series'])['count']),
    first: parseTime(o['firstTimestamp'] ?? o['FirstTimestamp'] ?? o['eventTime']),
    last: parseTime(
      o['lastTimestamp'] ??
        o['LastTimestamp'] ??
        rec(o['series'])['lastObservedTime'] ??
        o['eventTime'] ??
        o['Timestamp'],
    ),
    source: ctx.tool,
  });
}

/** Each container's privilege as its spec says: `{name, init?, privileged?, runAsUser?, runAsNonRoot?}`. */
function containerSecurity(podSpec: Record<string, unknown>): Record<string, unknown>[] {
  const pod = rec(podSpec['securityContext']);
  const of = (c: Record<string, unknown>, init: boolean) => {
    const sc = rec(c['securityContext']);
    const user = num(sc['runAsUser']) ?? num(pod['runAsUser']);
    const nonRoot =
      typeof sc['runAsNonRoot'] === 'boolean'
        ? sc['runAsNonRoot']
        : typeof pod['runAsNonRoot'] === 'boolean'
          ? pod['runAsNonRoot']
          : undefined;
    // r31b: the capabilities it drops and adds, readOnlyRootFilesystem, allowPrivilegeEscalation
    const caps = rec(sc['capabilities']);
    const drop = arr(caps['drop']).map(String);
    const add = arr(caps['add']).map(String);
    return {
      name: str(c['name']) ?? '',
      ...(init ? { init: true } : {}),
      ...(sc['privileged'] === true ? { privileged: true } : {}),
      ...(user !== undefined ? { runAsUser: user } : {}),
      ...(nonRoot !== undefined ? { runAsNonRoot: nonRoot } : {}),
      ...(drop.length ? { capDrop: drop } : {}),
      ...(add.length ? { capAdd: add } : {}),
      ...(typeof sc['readOnlyRootFilesystem'] === 'boolean'
        ? { readOnlyRootFilesystem: sc['readOnlyRootFilesystem'] }
        : {}),
      ...(typeof sc['allowPrivilegeEscalation'] === 'boolean'
        ? { allowPrivilegeEscalation: sc['allowPrivilegeEscalation'] }
        : {}),
    };
  };
  return [
    ...arr(podSpec['initContainers']).map((c) => of(rec(c), true)),
    ...arr(podSpec['containers']).map((c) => of(rec(c), false)),
  ];
}
