import { lokiRetention } from './config-r30a';
import { kindOf } from '../tool-profile';
import { podStatusText } from './kube-objects';
import { ageToTime, columns } from './tables';
import {
  emptyContainer,
  newObject,
  num,
  parseTime,
  keptConfigValue,
  type CallContext,
  type ContainerView,
  type HostPathView,
  type IngressBackend,
  type Observed,
  type StateView,
} from './views';

// ---------------------------------------------------------------- kubectl describe

interface Line {
  indent: number;
  key?: string;
  value: string;
  raw: string;
}

export function parseDescribeAll(t: string, ctx: CallContext, out: Observed) {
  const parts = t.split(/\n(?=Name:\s)/);
  for (const p of parts) parseDescribe(p, ctx, out);
}

function splitLine(raw: string): Line {
  const indent = raw.length - raw.trimStart().length;
  const m = /^\s*([A-Za-z][A-Za-z0-9 ./()_-]{0,40}?):(?:\s+(.*))?$/.exec(raw);
  if (m && !/^\s*(http|https|tcp)$/i.test(m[1] ?? ''))
    return { indent, key: m[1], value: (m[2] ?? '').trim(), raw };
  return { indent, value: raw.trim(), raw };
}

function parseDescribe(t: string, ctx: CallContext, out: Observed) {
  const lines = t.split('\n').map(splitLine);
  const top = (k: string) => lines.find((l) => l.indent === 0 && l.key === k)?.value;
  const name = top('Name');
  if (!name) return;
  const kind = describeKind(lines, ctx);
  const v = newObject(kind, name, ctx.tool);
  v.namespace = top('Namespace') || ctx.namespace;
  v.status = top('Status');
  v.reason = top('Reason');
  v.message = top('Message');
  const node = top('Node');
  if (node && node !== '<none>') v.node = node.split('/')[0];
  // "Node: worker-1/10.0.1.7": the node's address (a pod on the host network has it as its IP)
  if (kind === 'pod' && node && /^[\d.:a-f]+$/i.test(node.split('/')[1] ?? ''))
    v.fields['hostIP'] = node.split('/')[1]!;
  const controlled = top('Controlled By');
  if (controlled?.includes('/')) {
    const [k, n] = controlled.split('/', 2);
    v.owner = { kind: kindOf(k) ?? (k ?? '').toLowerCase(), name: n ?? '' };
  }
  // a described pod without "Controlled By" has no controller: nothing recreates it
  if (kind === 'pod') v.fields['ownedBy'] = controlled?.includes('/') ? controlled : 'none';
  const providerID = top('ProviderID');
  if (kind === 'node' && providerID) v.fields['providerID'] = providerID;
  const ts = top('CreationTimestamp') ?? top('Start Time');
  if (ts) v.created = parseTime(ts) ?? Date.parse(ts);
  // labels (multi-line: "Labels: app=x\n        pod-template-hash=y")
  collectMulti(lines, 'Labels').forEach((kv) => {
    const [a, b] = kv.split('=');
    if (a && b !== undefined) v.labels[a] = b;
  });
  // a node's "Allocatable:" section (cpu, memory, pods...), as the API's status.allocatable
  const alloc = lines.findIndex((l) => l.indent === 0 && l.key === 'Allocatable');
  if (alloc >= 0) {
    const a: Record<string, string> = {};
    for (const l of lines.slice(alloc + 1)) {
      if (l.indent === 0) break;
      if (l.key && l.value) a[l.key] = l.value;
    }
    if (Object.keys(a).length) v.fields['allocatable'] = JSON.stringify(a);
  }
  const taints = collectMulti(lines, 'Taints').filter((x) => x !== '<none>');
  if (taints.length) v.fields['taints'] = taints.join(',');
  const ns = collectMulti(lines, 'Node-Selectors').filter((x) => x !== '<none>');
  if (ns.length) v.fields['nodeSelector'] = ns.join(',');
  // a pod's or a pod template's tolerations, as the API's key=value:effect (":" tolerates all)
  const tolerations = tolerationsOf(lines);
  if (tolerations.length) v.fields['tolerations'] = tolerations.join(',');
  const desired = top('Desired Number of Nodes Scheduled');
  if (desired) v.fields['status.desiredNumberScheduled'] = desired;
  for (const k of [
    'StorageClass',
    'Volume',
    'Selector',
    'Replicas',
    'Pods Statuses',
    'Backoff Limit',
    'Min replicas',
    'Max replicas',
    'Reference',
    'Unschedulable',
    'Type',
    'IP',
    'Port',
    'TargetPort',
    'Endpoints',
    'Image',
    'Provisioner',
    'Capacity',
    'Access Modes',
    'Service Account',
    'Used By',
    'Claim',
    'Schedule',
    'Active Deadline Seconds',
    'Completions',
    'Start Time',
    'Completed At',
    'Duration',
    'Last Schedule Time',
    'Last Successful Time',
    'Suspend',
    'Secret Name',
    'Issuer Ref',
  ]) {
    const x = top(k);
    if (x) v.fields[k] = x;
  }
  // nested values: a node's kubelet (System Info), a Certificate's validity (Status)
  // (kubectl splits a custom resource's camelCase keys into words, "Not After"; some print them as is)
  const nested = (k: string) =>
    lines.find((l) => (l.key === k || l.key === k.replace(/ /g, '')) && l.value)?.value;
  if (kind === 'node' && nested('Kubelet Version'))
    v.fields['kubeletVersion'] = nested('Kubelet Version')!;
  if (kind === 'certificate')
    for (const [k, f] of [
      ['Not Before', 'notBefore'],
      ['Not After', 'notAfter'],
      ['Renewal Time', 'renewalTime'],
    ] as const)
      if (nested(k)) v.fields[f] = nested(k)!;
  if (kind === 'persistentvolume') {
    if (v.fields['Claim'] && v.fields['Claim'].includes('/')) v.fields['claim'] = v.fields['Claim'];
    if (top('Reclaim Policy')) v.fields['reclaimPolicy'] = top('Reclaim Policy')!;
    if (v.fields['Capacity']) v.fields['capacity'] = v.fields['Capacity'];
  }
  if (v.fields['StorageClass'] !== undefined)
    v.fields['storageClassName'] = v.fields['StorageClass'];
  // `kubectl describe storageclass`: "AllowVolumeExpansion:  <unset>" ('' = unset)
  if (kind === 'storageclass') {
    const grow = top('AllowVolumeExpansion');
    v.fields['allowVolumeExpansion'] =
      grow && /^(?:true|false)$/i.test(grow) ? grow.toLowerCase() : '';
    if (v.fields['Provisioner']) v.fields['provisioner'] = v.fields['Provisioner'];
  }
  if (v.fields['Volume']) v.fields['volumeName'] = v.fields['Volume'];
  if (v.fields['Min replicas']) v.fields['minReplicas'] = v.fields['Min replicas'];
  if (v.fields['Max replicas']) v.fields['maxReplicas'] = v.fields['Max replicas'];
  if (v.fields['Reference']) v.fields['scaleTarget'] = v.fields['Reference'];
  if (v.fields['Backoff Limit']) v.fields['backoffLimit'] = v.fields['Backoff Limit'];
  // `kubectl describe sts`: "Update Strategy: RollingUpdate" then "  Partition: 2"
  const partition = lines.find((l) => l.key === 'Partition')?.value;
  if (kind === 'statefulset' && partition && /^\d+$/.test(partition))
    v.fields['partition'] = partition;
  // `kubectl describe pdb`: "Min available: 2", "Selector: app=x", "Status: Allowed disruptions: 0"
  if (kind === 'poddisruptionbudget') {
    for (const [k, f] of [
      ['Min available', 'minAvailable'],
      ['Max unavailable', 'maxUnavailable'],
      ['Allowed disruptions', 'disruptionsAllowed'],
      ['Current', 'currentHealthy'],
      ['Desired', 'desiredHealthy'],
      ['Total', 'expectedPods'],
    ] as const) {
      const x = lines.find((l) => l.key === k)?.value;
      if (x && x !== 'N/A') v.fields[f] = x;
    }
    if (v.fields['Selector'] && v.fields['Selector'] !== '<none>')
      v.fields['selector'] = v.fields['Selector'];
  }
  // `kubectl describe service`: "Selector: app=x,tier=y" (as its spec's selector reads;
  // "<none>": it selects nothing)
  if (
    kind === 'service' &&
    v.fields['Selector'] !== undefined &&
    v.fields['selector'] === undefined
  )
    v.fields['selector'] = v.fields['Selector'] === '<none>' ? '' : v.fields['Selector'];
  // a Job's run ("Start Time: Fri, 28 Nov 2026 01:00:00 +0000", "Completed At: ...")
  for (const [k, f] of [
    ['Start Time', 'startTime'],
    ['Completed At', 'completionTime'],
    ['Last Successful Time', 'lastSuccessfulTime'],
  ] as const) {
    const t = Date.parse(v.fields[k] ?? '');
    if (kind !== 'pod' && Number.isFinite(t)) v.fields[f] = new Date(t).toISOString();
  }
  const deadline = /^(\d+)/.exec(v.fields['Active Deadline Seconds'] ?? '');
  if (deadline) v.fields['activeDeadlineSeconds'] = deadline[1]!;
  const hpaPods = lines.find(
    (l) => /^Deployment pods:|^\w+ pods:/.test(l.raw.trim()) && l.indent === 0,
  );
  if (hpaPods) {
    const m = /(\d+) current \/ (\d+) desired/.exec(hpaPods.raw);
    if (m) {
      v.fields['status.currentReplicas'] = m[1]!;
      v.fields['status.desiredReplicas'] = m[2]!;
    }
  }
  // `kubectl describe hpa`: "Metrics: ( current / target )" then one metric a line, as the
  // TARGETS column of `kubectl get hpa` prints them ("cpu: 86%/70%")
  const metricsAt = lines.findIndex((l) => l.indent === 0 && l.key === 'Metrics');
  if (kind === 'horizontalpodautoscaler' && metricsAt >= 0) {
    const targets: string[] = [];
    for (const l of lines.slice(metricsAt + 1)) {
      if (l.indent === 0) break;
      const m =
        /^\s*(?:resource (\S+)(?: of container "[^"]*")? on pods|"([^"]+)"[^:]*)(?:\s+\(as a percentage of request\))?:\s+(\S+)(?: \([^)]*\))? \/ (\S+)\s*$/.exec(
          l.raw,
        );
      if (m) targets.push(`${m[1] ?? m[2]}: ${m[3]}/${m[4]}`);
    }
    if (targets.length) v.fields['targets'] = targets.join(', ');
  }
  const rep =
    /(\d+) desired \| (\d+) updated \| (\d+) total \| (\d+) available \| (\d+) unavailable/.exec(
      v.fields['Replicas'] ?? '',
    );
  if (rep) {
    v.fields['replicas'] = rep[1]!;
    v.fields['status.availableReplicas'] = rep[4]!;
    v.fields['status.unavailableReplicas'] = rep[5]!;
  }
  const ps = /(\d+) Active.*?(\d+) Succeeded.*?(\d+) Failed/.exec(v.fields['Pods Statuses'] ?? '');
  if (ps) {
    v.fields['status.active'] = ps[1]!;
    v.fields['status.succeeded'] = ps[2]!;
    v.fields['status.failed'] = ps[3]!;
  }
  if (v.fields['Image']) v.images.push(v.fields['Image']);
  const newRs = top('NewReplicaSet');
  if (newRs && newRs !== '<none>') v.fields['newReplicaSet'] = newRs.split(/\s/)[0]!;
  if (kind === 'cronjob' && v.fields['Suspend'])
    v.fields['suspend'] = v.fields['Suspend'].toLowerCase();
  if (kind === 'cronjob' && v.fields['Schedule']) {
    v.fields['schedule'] = v.fields['Schedule'];
    // kubectl prints "Time Zone:" only when spec.timeZone is set
    v.fields['timeZone'] = top('Time Zone') ?? '';
  }
  if (kind === 'cronjob' && (v.fields['Concurrency Policy'] ?? top('Concurrency Policy')))
    v.fields['concurrencyPolicy'] = v.fields['Concurrency Policy'] ?? top('Concurrency Policy')!;
  // (r30c) "Starting Deadline Seconds:  5s" ("<unset>": none)
  const startingDeadline = kind === 'cronjob' ? top('Starting Deadline Seconds') : undefined;
  if (startingDeadline && /^\d+s?$/.test(startingDeadline))
    v.fields['startingDeadlineSeconds'] = startingDeadline.replace(/s$/, '');
  if (kind === 'cronjob' && v.fields['Last Schedule Time'])
    v.fields['lastScheduleTime'] = v.fields['Last Schedule Time'];
  // "Last Schedule Time: <unset>": it never ran
  if (kind === 'cronjob' && v.fields['Last Schedule Time'] === '<unset>')
    v.fields['lastSchedule'] = 'never';
  // `kubectl describe pvc`: "Used By: pod-a" then one pod a line ("<none>": no pod names it)
  if (kind === 'persistentvolumeclaim' && v.fields['Used By'] !== undefined)
    v.fields['usedBy'] = collectMulti(lines, 'Used By')
      .filter((x) => x !== '<none>')
      .join(',');
  if (kind === 'service' && v.fields['IP']) v.fields['clusterIP'] = v.fields['IP'];
  if (kind === 'service' && v.fields['Type']) v.fields['type'] = v.fields['Type'];
  // (r29a) "Internal Traffic Policy: Local", "External Traffic Policy: Local", "HealthCheck NodePort: 31842"
  if (kind === 'service') {
    const itp = top('Internal Traffic Policy');
    if (itp) v.fields['internalTrafficPolicy'] = itp;
    const etp = top('External Traffic Policy');
    if (etp) v.fields['externalTrafficPolicy'] = etp;
    const hc = /^\d+/.exec(top('HealthCheck NodePort') ?? '')?.[0];
    if (hc) v.fields['healthCheckNodePort'] = hc;
  }
  const affinity = v.fields['Session Affinity'];
  if (kind === 'service' && affinity && affinity !== 'None') v.fields['sessionAffinity'] = affinity;
  const lbIngress = lines.find((l) => l.indent === 0 && l.key === 'LoadBalancer Ingress')?.value;
  if (kind === 'service' && lbIngress) v.fields['externalAddress'] = lbIngress;
  if (kind === 'pod' && v.fields['IP']) v.fields['podIP'] = v.fields['IP'];
  // `kubectl describe svc` of an ExternalName Service: "External Name: erp.corp.example.com"
  const externalName = top('External Name');
  if (kind === 'service' && externalName) v.fields['externalName'] = externalName;
  // a Service's ports ("Port: http 80/TCP"), as the object's spec.ports
  if (kind === 'service') {
    const ports = lines
      .filter((l) => l.indent === 0 && l.key === 'Port')
      .map((l) => /^(?:(\S+)\s+)?(\d+)\//.exec(l.value))
      .filter((m): m is RegExpExecArray => !!m)
      .map((m) => ({ ...(m[1] && m[1] !== '<unset>' ? { name: m[1] } : {}), port: Number(m[2]) }));
    // "TargetPort: http/TCP" (a name) or "8080/TCP", in the order of the ports
    lines
      .filter((l) => l.indent === 0 && l.key === 'TargetPort')
      .forEach((l, i) => {
        const t = /^([^/\s]+)\//.exec(l.value)?.[1];
        const p = ports[i] as { targetPort?: string | number } | undefined;
        if (t && p) p.targetPort = /^\d+$/.test(t) ? Number(t) : t;
      });
    if (ports.length) v.fields['ports'] = JSON.stringify(ports);
    // "NodePort: http 30080/TCP", in the order of the ports
    const nodePorts = lines
      .filter((l) => l.indent === 0 && l.key === 'NodePort')
      .map((l) => /(\d+)\/([A-Z]+)/.exec(l.value));
    v.fields['nodePorts'] = nodePorts
      .map((m, i) =>
        m ? `${(ports[i] as { port?: number } | undefined)?.port ?? ''}:${m[1]}/${m[2]}` : '',
      )
      .filter(Boolean)
      .join(',');
  }
  // the ServiceAccount a pod (or a workload's Pod Template) runs as
  const sa = lines.find((l) => l.key === 'Service Account' && l.indent <= 2)?.value;
  if (sa && (kind === 'pod' || lines.some((l) => /^Pod Template:?$/.test(l.raw.trim()))))
    v.fields['serviceAccount'] = sa;
  readQuotaAndRbac(lines, kind, v.fields);
  // an Ingress's rules: host, then "path  service:port (endpoints)"
  // "Annotations:  kubernetes.io/limit-ranger: LimitRanger plugin set: memory limit for container x"
  const limitRanger = lines
    .map((l) => /kubernetes\.io\/limit-ranger:\s*(.+)$/.exec(l.raw)?.[1]?.trim())
    .find(Boolean);
  if (limitRanger) v.fields['limitRanger'] = limitRanger;
  // (r24a) "vpaUpdates: Pod resources updated by <vpa>: container 0: memory request, memory limit"
  const vpaUpdates = lines
    .map((l) => /\bvpaUpdates:\s*(.+)$/.exec(l.raw)?.[1]?.trim())
    .find(Boolean);
  if (vpaUpdates) v.fields['vpaUpdates'] = vpaUpdates;
  if (kind === 'ingressclass' && top('Controller')) v.fields['controller'] = top('Controller')!;
  if (kind === 'ingress') {
    // "Ingress Class:  public-nginx" ("<none>": the default class, if any) and "Address:"
    const cls = top('Ingress Class');
    if (cls && cls !== '<none>') v.fields['ingressClass'] = cls;
    const address = lines.find((l) => l.indent === 0 && l.key === 'Address');
    if (address) v.fields['address'] = address.value.trim();
    // "Annotations:  nginx.ingress.kubernetes.io/rewrite-target: /"
    const rewrite = lines
      .map((l) => /nginx\.ingress\.kubernetes\.io\/rewrite-target:\s*(\S+)/.exec(l.raw)?.[1])
      .find((x) => x !== undefined);
    if (rewrite !== undefined) v.fields['rewriteTarget'] = rewrite;
    // "TLS:\n  web-tls terminates shop.example.com"
    const tls = lines
      .map((l) => /^\s+(\S+) terminates\b/.exec(l.raw)?.[1])
      .filter((x): x is string => !!x && x !== 'SNI');
    if (tls.length) v.fields['tlsSecrets'] = tls.join(',');
    // "web-tls terminates a.example.com,b.example.com" ("SNI": no Secret named)
    v.fields['tls'] = JSON.stringify(
      lines
        .map((l) => /^\s+(\S+) terminates\b[ \t]*(\S*)/.exec(l.raw))
        .filter((m): m is RegExpExecArray => !!m)
        .map((m) => ({
          secret: m[1] === 'SNI' ? '' : m[1]!,
          hosts: (m[2] ?? '').split(',').filter(Boolean),
        })),
    );
    const at = lines.findIndex((l) => l.indent === 0 && /^Rules:?$/.test(l.raw.trim()));
    const backends: IngressBackend[] = [];
    let host = '*';
    for (let i = at + 1; at >= 0 && i < lines.length; i++) {
      const raw = lines[i]!.raw;
      if (/^\S/.test(raw)) break;
      const b = /^\s+(\/\S*)\s+([a-z0-9][\w.-]*):([\w-]+)/.exec(raw);
      if (b) backends.push({ host, path: b[1]!, service: b[2]!, port: b[3]! });
      else if (/^\s{2}(\S+)\s*$/.test(raw) && !/^-+$/.test(raw.trim()) && raw.trim() !== 'Host')
        host = raw.trim();
    }
    if (backends.length) {
      v.fields['backends'] = JSON.stringify(backends);
      v.fields['hosts'] = [...new Set(backends.map((b) => b.host))].join(',');
    }
  }
  if (kind === 'deployment') {
    const rep = /(\d+) desired/.exec(v.fields['Replicas'] ?? '');
    if (rep) v.fields['replicas'] = rep[1]!;
  }
  // a ServiceAccount's annotations (IRSA's role and token audience), an Ingress's and a
  // Service's (a cloud load balancer's settings: where TLS ends)
  if (
    (kind === 'serviceaccount' || kind === 'ingress' || kind === 'service') &&
    !v.fields['annotations']
  ) {
    const notes = collectMulti(lines, 'Annotations')
      .map((n) => /^([\w./-]+)[:=]\s*(.*)$/.exec(n))
      .filter((m): m is RegExpExecArray => !!m);
    if (notes.length)
      v.fields['annotations'] = JSON.stringify(
        Object.fromEntries(notes.map((m) => [m[1], m[2]!.trim()])),
      );
  }
  // "Annotations: deployment.kubernetes.io/revision: 12": a Deployment's or ReplicaSet's revision
  for (const note of collectMulti(lines, 'Annotations')) {
    const m =
      /^(deployment\.kubernetes\.io\/revision(?:-history)?|kubernetes\.io\/change-cause)[:=]\s*(.+)$/.exec(
        note,
      );
    if (!m) continue;
    const field =
      m[1] === 'kubernetes.io/change-cause'
        ? 'changeCause'
        : m[1]!.endsWith('history')
          ? 'revisionHistory'
          : 'revision';
    v.fields[field] = m[2]!.trim();
  }
  // the pod template's annotations (a ReplicaSet's, a Deployment's): checksum/config and the like
  const tpl = lines.findIndex((l) => l.indent === 0 && /^Pod Template:?$/.test(l.raw.trim()));
  if (tpl >= 0) {
    const notes: Record<string, string> = {};
    for (let i = tpl + 1; i < lines.length; i++) {
      const l = lines[i]!;
      if (l.indent === 0 && l.raw.trim()) break;
      if (l.indent !== 2 || l.key !== 'Annotations') continue;
      const items = [l.value];
      for (
        let j = i + 1;
        j < lines.length && lines[j]!.indent > 2 && !/:$/.test(lines[j]!.raw.trim());
        j++
      )
        items.push(lines[j]!.raw.trim());
      for (const it of items) {
        const m = /^([\w./-]+)[:=]\s*(.*)$/.exec(it.trim());
        if (m && m[1] !== '<none>') notes[m[1]!] = m[2]!;
      }
      break;
    }
    if (Object.keys(notes).length) v.fields['templateAnnotations'] = JSON.stringify(notes);
  }
  // containers: the "Init Containers" section (when there is one), then "Containers"
  const starts = lines
    .map((l, i) =>
      /^(Init )?Containers$/.test(l.key ?? '') && (l.indent === 0 || l.indent === 2) ? i : -1,
    )
    .filter((i) => i >= 0);
  for (const cStart of starts) {
    const init = lines[cStart]!.key === 'Init Containers';
    const base = lines[cStart]!.indent;
    // a container's name 2 deeper than "Containers:" and its fields 4 deeper; kubectl prints a
    // pod template's 1 and 2 deeper ("  Containers:", "   app:", "    Image:")
    const nameIndent = lines[cStart + 1]?.indent === base + 1 ? base + 1 : base + 2;
    const fieldIndent = nameIndent === base + 1 ? base + 2 : base + 4;
    let cur: ContainerView | undefined;
    let section: 'state' | 'last' | 'limits' | 'requests' | 'env' | 'envFrom' | 'other' = 'other';
    for (let i = cStart + 1; i < lines.length; i++) {
      const l = lines[i]!;
      if (l.indent <= base && l.raw.trim()) break;
      if (l.indent === nameIndent && l.key && !l.value) {
        cur = emptyContainer(l.key);
        if (init) cur.init = true;
        v.containers.push(cur);
        section = 'other';
        continue;
      }
      // "Environment Variables from:" then "  fx-rates-env  ConfigMap  Optional: false"
      if (cur && section === 'envFrom' && l.indent > fieldIndent) {
        const from = /^\s*(\S+)\s+(ConfigMap|Secret)\b(?: with prefix '([^']*)')?/.exec(l.raw);
        if (from)
          cur.envRefs.push(
            `envFrom ${from[2]!.toLowerCase()} ${from[1]}${from[3] ? ` prefix ${from[3]}` : ''}`,
          );
        continue;
      }
      if (!cur || !l.key) continue;
      if (l.indent === fieldIndent) {
        switch (l.key) {
          case 'Image':
            cur.image = l.value;
            v.images.push(l.value);
            section = 'other';
            break;
          case 'Image ID':
            if (l.value) cur.imageID = l.value;
            section = 'other';
            break;
          case 'State':
            section = 'state';
            setState(cur, 'state', l.value);
            break;
          case 'Last State':
            section = 'last';
            setState(cur, 'last', l.value);
            break;
          case 'Ready':
            cur.ready = l.value === 'True';
            section = 'other';
            break;
          case 'Restart Count':
            cur.restarts = num(l.value);
            section = 'other';
            break;
          case 'Limits':
            section = 'limits';
            break;
          case 'Requests':
            section = 'requests';
            break;
          case 'Environment':
            section = 'env';
            break;
          case 'Environment Variables from':
            section = 'envFrom';
            break;
          case 'Port':
          case 'Ports':
            for (const m of l.value.matchAll(/(\d+)\/(?:TCP|UDP|SCTP)/g)) cur.ports.push(m[1]!);
            // "8080/TCP (http-api)": kubectl names the port after it
            cur.portNames = [
              ...(cur.portNames ?? []),
              ...[...l.value.matchAll(/\/(?:TCP|UDP|SCTP) \(([^)\s]+)\)/g)].map((m) => m[1]!),
            ];
            section = 'other';
            break;
          case 'Liveness':
          case 'Readiness':
          case 'Startup':
            cur.probes.push(`${l.key}: ${l.value}`);
            section = 'other';
            break;
          case 'Args':
          case 'Command':
            section = 'other';
            cur.env['__args'] = [
              cur.env['__args'] ?? '',
              l.value,
              ...collectUntilKey(lines, i + 1, fieldIndent),
            ]
              .join(' ')
              .trim();
            break;
          default:
            section = 'other';
        }
        continue;
      }
      if (l.indent > fieldIndent) {
        const st =
          section === 'state'
            ? stateRef(cur, 'state')
            : section === 'last'
              ? (cur.last ??= {})
              : undefined;
        if (st) {
          if (l.key === 'Reason') st.reason = l.value;
          else if (l.key === 'Message') st.message = l.value;
          else if (l.key === 'Exit Code') st.exitCode = num(l.value);
          else if (l.key === 'Finished' || l.key === 'Started')
            st.at = Date.parse(l.value) || st.at;
        } else if (section === 'limits') cur.limits[l.key] = l.value;
        else if (section === 'requests') cur.requests[l.key] = l.value;
        else if (section === 'env') {
          const ref = /<set to the key '([^']+)' (?:of config map|in secret) '([^']+)'>/.exec(
            l.value,
          );
          if (ref)
            cur.envRefs.push(
              `${l.key} <- ${/secret/.test(l.value) ? 'secret' : 'configmap'} ${ref[2]} key ${ref[1]}`,
            );
          else cur.env[l.key] = l.value;
        }
      }
    }
  }
  // volumes: ClaimName
  const claims = lines.filter((l) => l.key === 'ClaimName').map((l) => l.value);
  if (claims.length) v.fields['claims'] = claims.join(',');
  // volumes: "Type: ConfigMap (a volume populated by a ConfigMap)" then "Name: x"; "SecretName: y"
  const cms: string[] = [];
  const secrets = lines.filter((l) => l.key === 'SecretName').map((l) => l.value);
  const cmVolumes: Record<string, string> = {};
  lines.forEach((l, i) => {
    if (l.key !== 'Type' || !/^ConfigMap\b/.test(l.value)) return;
    const name = lines.slice(i + 1, i + 4).find((x) => x.key === 'Name')?.value;
    if (name) cms.push(name);
    // the volume's own line ("config:") comes just before its Type
    const volume = lines[i - 1]?.key;
    if (name && volume && !lines[i - 1]?.value) cmVolumes[volume] = name;
  });
  if (cms.length && !v.fields['configMaps']) v.fields['configMaps'] = cms.join(',');
  if (Object.keys(cmVolumes).length && !v.fields['configMapVolumes'])
    v.fields['configMapVolumes'] = JSON.stringify(cmVolumes);
  // "scratch:" / "Type: EmptyDir (...)" / "Medium: Memory", mounted "/scratch from scratch (rw)"
  const tmpfs: string[] = [];
  lines.forEach((l, i) => {
    if (l.key !== 'Type' || !/^EmptyDir\b/.test(l.value)) return;
    const medium = lines.slice(i + 1, i + 3).find((x) => x.key === 'Medium')?.value;
    const name = lines[i - 1]?.key;
    if (medium !== 'Memory' || !name) return;
    const at = lines
      .map((x) => new RegExp(`^\\s+(\\/\\S*) from ${name} \\(`).exec(x.raw)?.[1])
      .find(Boolean);
    tmpfs.push(`${name}${at ? ` at ${at}` : ''}`);
  });
  if (tmpfs.length && !v.fields['memoryVolumes']) v.fields['memoryVolumes'] = tmpfs.join(', ');
  // what each volume is: "data:" / "Type: PersistentVolumeClaim (...)" / "ClaimName: x", or EmptyDir
  const volumeSources: Record<string, string> = {};
  lines.forEach((l, i) => {
    const name = lines[i - 1]?.key;
    if (l.key !== 'Type' || !name || lines[i - 1]?.value) return;
    if (/^PersistentVolumeClaim\b/.test(l.value)) {
      const claim = lines.slice(i + 1, i + 3).find((x) => x.key === 'ClaimName')?.value;
      if (claim) volumeSources[name] = `persistentVolumeClaim ${claim}`;
    } else if (/^EmptyDir\b/.test(l.value)) {
      const medium = lines.slice(i + 1, i + 3).find((x) => x.key === 'Medium')?.value;
      volumeSources[name] = medium === 'Memory' ? 'emptyDir (Memory)' : 'emptyDir';
    }
  });
  if (Object.keys(volumeSources).length && !v.fields['volumeSources'])
    v.fields['volumeSources'] = JSON.stringify(volumeSources);
  // "/etc/tls/tls.crt from certs (ro,path="tls.crt")": a file mounted by subPath
  const subPaths = lines
    .map((x) => /^\s+(\/\S*) from (\S+) \([^)]*path="[^"]+"/.exec(x.raw))
    .filter((m): m is RegExpExecArray => !!m)
    .map((m) => `${m[1]} from ${m[2]}`);
  if (subPaths.length && !v.fields['subPathMounts'])
    v.fields['subPathMounts'] = subPaths.join(', ');
  // "/usr/local/bin from health (rw)": every whole-volume mount
  const mountPaths = lines
    .map((x) => /^\s+(\/\S*) from (\S+) \((?![^)]*path=")[^)]*\)/.exec(x.raw))
    .filter((m): m is RegExpExecArray => !!m)
    .map((m) => `${m[1]} from ${m[2]}`);
  if (mountPaths.length && !v.fields['mountPaths'])
    v.fields['mountPaths'] = [...new Set(mountPaths)].join(', ');
  if (secrets.length && !v.fields['secrets']) v.fields['secrets'] = secrets.join(',');
  // "varlog:" / "Type: HostPath (bare host directory volume)" / "Path: /var/log", mounted
  // "/var/log from varlog (ro)"; a pod spec's "Volumes:" shown says which it has (a
  // PersistentVolume's hostPath source is no pod's)
  if (
    ['pod', 'deployment', 'daemonset', 'statefulset', 'replicaset', 'job', 'cronjob'].includes(
      kind,
    ) &&
    lines.some((l) => l.key === 'Volumes')
  ) {
    const hostPaths: HostPathView[] = [];
    lines.forEach((l, i) => {
      if (l.key !== 'Type' || !/^HostPath\b/.test(l.value)) return;
      const volume = lines[i - 1]?.key ?? '';
      const next = lines.slice(i + 1, i + 4);
      const path = next.find((x) => x.key === 'Path')?.value;
      if (!path) return;
      const type = next.find((x) => x.key === 'HostPathType')?.value;
      const at = new RegExp(
        `^\\s+(\\/\\S*) from ${volume.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(([^)]*)\\)`,
      );
      const mounts = lines
        .map((x) => at.exec(x.raw))
        .filter((m): m is RegExpExecArray => !!m)
        .map((m) => `${m[1]}${/(?:^|,)ro(?:,|$)/.test(m[2]!) ? ' (ro)' : ''}`);
      hostPaths.push({
        volume,
        path,
        ...(type ? { type } : {}),
        ...(mounts.length ? { mounts: [...new Set(mounts)] } : {}),
      });
    });
    v.fields['hostPaths'] = JSON.stringify(hostPaths);
  }
  // conditions table
  const condIdx = lines.findIndex((l) => l.indent === 0 && l.key === 'Conditions');
  if (condIdx >= 0) {
    const header = lines[condIdx + 1]?.raw ?? '';
    const cols = columns(header);
    for (let i = condIdx + 2; i < lines.length; i++) {
      const raw = lines[i]!.raw;
      if (!raw.startsWith(' ') || !raw.trim()) break;
      if (/^\s*-+(\s+-+)*\s*$/.test(raw)) continue;
      const parts = raw.trim().split(/\s{2,}/);
      const get = (n: string) => {
        const idx = cols.findIndex((c) => c.name === n);
        return idx >= 0
          ? idx === cols.length - 1
            ? parts.slice(idx).join('  ')
            : parts[idx]
          : undefined;
      };
      const type = get('Type') ?? parts[0] ?? '';
      if (!type) continue;
      v.conditions.push({
        type,
        status: get('Status') ?? parts[1] ?? '',
        reason: get('Reason'),
        message: get('Message'),
      });
    }
  }
  if (kind === 'node') {
    const ready = v.conditions.find((c) => c.type === 'Ready');
    if (ready) v.status = ready.status === 'True' ? 'Ready' : 'NotReady';
    // "Non-terminated Pods: (2 in total)" then a Namespace / Name table: what runs there
    const at = lines.findIndex((l) => l.indent === 0 && l.key === 'Non-terminated Pods');
    if (at >= 0) {
      const pods: string[] = [];
      for (const l of lines.slice(at + 1)) {
        if (l.indent === 0) break;
        const [ns, name] = l.raw.trim().split(/\s+/);
        if (!ns || !name || /^(Namespace|-+)$/.test(ns)) continue;
        pods.push(`${ns}/${name}`);
      }
      if (pods.length) v.fields['pods'] = pods.join(',');
    }
    // as `kubectl get nodes` shows a cordoned node
    if (/^true$/i.test(v.fields['Unschedulable'] ?? ''))
      v.status = `${v.status ?? 'Unknown'},SchedulingDisabled`;
  }
  if (kind === 'pod') {
    v.restarts = v.containers.reduce((a, c) => a + (c.restarts ?? 0), 0);
    v.status = podStatusText({ ...v, status: v.status }) ?? v.status;
  }
  out.objects.push(v);
  // events table
  const evIdx = lines.findIndex((l) => l.indent === 0 && l.key === 'Events');
  if (evIdx >= 0) out.describedEvents = true;
  if (evIdx >= 0 && !/^<none>/.test(lines[evIdx]!.value)) {
    const header = lines[evIdx + 1]?.raw ?? '';
    const cols = columns(header);
    for (let i = evIdx + 2; i < lines.length; i++) {
      const raw = lines[i]!.raw;
      if (!raw.trim()) break;
      if (/^\s*-+(\s+-+)*\s*$/.test(raw)) continue;
      const parts = raw.trim().split(/\s{2,}/);
      const idx = (n: string) => cols.findIndex((c) => c.name === n);
      const at = (n: string) => (idx(n) >= 0 ? parts[idx(n)] : undefined);
      const msgIdx = idx('Message');
      const message =
        msgIdx >= 0 ? parts.slice(msgIdx).join('  ') : (parts[parts.length - 1] ?? '');
      const age = at('Age') ?? '';
      const count = /\(x(\d+) over ([^)]+)\)/.exec(age);
      out.events.push({
        type: at('Type'),
        reason: at('Reason'),
        message,
        object: { kind, name },
        namespace: v.namespace,
        count: count ? Number(count[1]) : undefined,
        last: ageToTime(age.split(' ')[0], ctx.now ?? Date.now()),
        first: count ? ageToTime(count[2], ctx.now ?? Date.now()) : undefined,
        source: ctx.tool,
      });
    }
  }
}

function describeKind(lines: Line[], ctx: CallContext): string {
  const has = (k: string) => lines.some((l) => l.indent === 0 && l.key === k);
  if (lines.some((l) => l.indent === 0 && /^Resource\s+Used\s+Hard$/.test(l.raw.trim())))
    return 'resourcequota';
  if (has('Role') && has('Subjects'))
    return ctx.kind === 'clusterrolebinding' ? ctx.kind : 'rolebinding';
  if (has('PolicyRule')) return ctx.kind === 'clusterrole' ? ctx.kind : 'role';
  if (has('Containers') && (has('Node') || has('IP') || has('QoS Class'))) return 'pod';
  if (has('Taints') && (has('Roles') || has('Unschedulable'))) return 'node';
  if (has('StrategyType') || has('NewReplicaSet')) return 'deployment';
  if (has('Backoff Limit') || (has('Completions') && has('Pods Statuses'))) return 'job';
  if (has('Schedule') && has('Concurrency Policy')) return 'cronjob';
  if (has('Min replicas') || (has('Reference') && has('Max replicas')))
    return 'horizontalpodautoscaler';
  if (has('StorageClass') && has('Access Modes') && has('Used By')) return 'persistentvolumeclaim';
  if (has('Reclaim Policy') && has('Claim')) return 'persistentvolume';
  if (has('Provisioner')) return 'storageclass';
  if (has('Selector') && has('Pods Status') && has('Update Strategy')) return 'statefulset';
  if (has('Node-Selector') && has('Desired Number of Nodes Scheduled')) return 'daemonset';
  if (has('Controlled By') && has('Replicas') && has('Pod Template')) return 'replicaset';
  if (has('TargetPort') || (has('Endpoints') && has('Type'))) return 'service';
  if (has('Min available') || has('Max unavailable')) return 'poddisruptionbudget';
  if (ctx.kind) return ctx.kind;
  return 'resource';
}

/**
 * "Tolerations: node-role.kubernetes.io/control-plane:NoSchedule op=Exists" and its continuation
 * lines, at any depth (a pod, or a workload's Pod Template), in the API's `key=value:effect`
 * form; "op=Exists" alone (tolerates every taint) becomes ":".
 */
function tolerationsOf(lines: Line[]): string[] {
  const i = lines.findIndex((l) => l.key === 'Tolerations');
  if (i < 0) return [];
  const first = lines[i]!;
  const items = [first.value];
  for (const l of lines.slice(i + 1)) {
    if (l.indent <= first.indent || l.key) break;
    items.push(l.raw.trim());
  }
  return items
    .filter((t) => t && t !== '<none>')
    .map((t) => t.replace(/ for \d+s$/, '').replace(/ ?op=Exists$/, '') || ':');
}

function collectMulti(lines: Line[], key: string): string[] {
  const i = lines.findIndex((l) => l.indent === 0 && l.key === key);
  if (i < 0) return [];
  const out = [lines[i]!.value];
  for (let j = i + 1; j < lines.length; j++) {
    const l = lines[j]!;
    if (l.indent === 0 || !l.raw.trim()) break;
    if (l.key && l.indent === 0) break;
    out.push(l.raw.trim());
  }
  return out.filter(Boolean);
}

function collectUntilKey(lines: Line[], from: number, indent: number): string[] {
  const out: string[] = [];
  for (let j = from; j < lines.length; j++) {
    const l = lines[j]!;
    if (l.indent <= indent) break;
    out.push(l.raw.trim());
  }
  return out;
}

function stateRef(c: ContainerView, _which: 'state'): StateView | undefined {
  return c.waiting ?? c.terminated;
}

function setState(c: ContainerView, which: 'state' | 'last', value: string) {
  const word = value.split(/\s/)[0] ?? '';
  if (which === 'last') {
    if (/^Terminated/i.test(word)) c.last = {};
    return;
  }
  if (/^Waiting/i.test(word)) c.waiting = {};
  else if (/^Terminated/i.test(word)) c.terminated = {};
}

/**
 * `kubectl describe quota` ("Resource  Used  Hard" rows), a ConfigMap's "Data" section (its
 * values), a binding's "Role:" and "Subjects:" and a role's "PolicyRule:" table, as the API's
 * fields (observe/kube-objects.ts).
 */
function readQuotaAndRbac(lines: Line[], kind: string, fields: Record<string, string>) {
  const after = (i: number) => {
    const rows: string[] = [];
    for (const l of lines.slice(i + 1)) {
      if (!l.raw.trim() || (l.indent === 0 && l.key)) break;
      if (!/^\s*-+(\s+-+)*\s*$/.test(l.raw)) rows.push(l.raw);
    }
    return rows;
  };
  if (kind === 'resourcequota') {
    const at = lines.findIndex((l) => /^Resource\s+Used\s+Hard$/.test(l.raw.trim()));
    const used: Record<string, string> = {};
    const hard: Record<string, string> = {};
    for (const row of at >= 0 ? after(at) : []) {
      const [r, u, h] = row.trim().split(/\s+/);
      if (r && u && h) {
        used[r] = u;
        hard[r] = h;
      }
    }
    if (Object.keys(hard).length) {
      fields['hard'] = JSON.stringify(hard);
      fields['used'] = JSON.stringify(used);
    }
  }
  if (kind === 'configmap') {
    // "Data", "====", then "key:", "----", the value's lines, a blank line
    const at = lines.findIndex(
      (l, i) => l.raw.trim() === 'Data' && /^=+$/.test(lines[i + 1]?.raw.trim() ?? ''),
    );
    const data: Record<string, string> = {};
    for (let i = at + 2; at >= 0 && i < lines.length; i++) {
      if (/^(BinaryData|Events:)/.test(lines[i]!.raw.trim())) break;
      const key = /^([\w.-]+):$/.exec(lines[i]!.raw)?.[1];
      if (!key || !/^-+$/.test(lines[i + 1]?.raw.trim() ?? '')) continue;
      const value: string[] = [];
      let j = i + 2;
      for (; j < lines.length && lines[j]!.raw.trim(); j++) value.push(lines[j]!.raw);
      const text = value.join('\n').trim();
      if (!/^\*+$|^<\d+ bytes, value (?:hidden|never shown)/.test(text))
        // aws-auth's mapRoles whole (which IAM roles may join nodes); other values kept short
        data[key] = /^map(?:Roles|Users|Accounts)$/.test(key)
          ? text.slice(0, 4000)
          : keptConfigValue(text);
      // (r30a) a Loki configuration's retention, which a value kept short loses
      const loki = lokiRetention(text);
      if (loki) fields['lokiRetention'] = loki;
      i = j;
    }
    if (Object.keys(data).length) fields['data'] = JSON.stringify(data);
  }
  if (kind === 'rolebinding' || kind === 'clusterrolebinding') {
    const role = lines.findIndex((l) => l.indent === 0 && l.key === 'Role');
    const sub = (k: string) =>
      lines.slice(role + 1, role + 4).find((l) => l.indent > 0 && l.key === k)?.value;
    if (role >= 0 && sub('Name')) fields['roleRef'] = `${sub('Kind') ?? 'Role'}/${sub('Name')}`;
    const at = lines.findIndex((l) => l.indent === 0 && l.key === 'Subjects');
    fields['subjects'] = JSON.stringify(
      (at >= 0 ? after(at) : [])
        .map((row) => row.trim().split(/\s+/))
        .filter(([k, n]) => k && n && k !== 'Kind')
        .map(([k, n, ns]) => ({ kind: k!, name: n!, ...(ns ? { namespace: ns } : {}) })),
    );
  }
  if (kind === 'role' || kind === 'clusterrole') {
    const at = lines.findIndex((l) => l.indent === 0 && l.key === 'PolicyRule');
    // "secrets  []  [payouts-signing-key]  [get watch]": resources, URLs, names, verbs
    fields['rules'] = (at >= 0 ? after(at) : [])
      .map((row) => row.trim().split(/\s{2,}/))
      .filter((c) => c[0] !== 'Resources')
      .map((c) => {
        const verbs = (c[c.length - 1] ?? '')
          .replace(/^\[|\]$/g, '')
          .split(' ')
          .join(',');
        const names = c.length >= 4 ? (c[2] ?? '').replace(/^\[|\]$/g, '') : '';
        return `${verbs} ${c[0]}${names ? ` [${names}]` : ''}`;
      })
      .join('; ')
      .slice(0, 600);
  }
}
