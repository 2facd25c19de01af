import { kindOf } from '../tool-profile';
import { newObject, num, type CallContext, type Observed } from './views';

// ---------------------------------------------------------------- kubectl get tables

/** `NAME  READY  STATUS`, `NAMESPACE  APIVERSION  KIND  NAME ...`, `LAST SEEN  TYPE  REASON ...` */
export function isTableHeader(line: string): boolean {
  const cols = line.trim().split(/\s{2,}/);
  return (
    cols.length >= 2 &&
    cols.every((c) => /^[A-Z][A-Z0-9 %/_.-]*(\([A-Za-z%]+\))?[A-Z0-9 %/_.-]*$/.test(c)) &&
    cols.some((c) => c === 'NAME' || c === 'LAST SEEN' || c === 'POD')
  );
}

export function columns(header: string): { name: string; start: number }[] {
  const cols: { name: string; start: number }[] = [];
  const re = /\S+(?: \S+)*/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(header))) cols.push({ name: m[0], start: m.index });
  return cols;
}

export function parseTables(
  t: string,
  ctx: CallContext,
  out: Observed,
  parseText: (t: string, ctx: CallContext, out: Observed) => void,
) {
  const blocks = t.split(/\n\s*\n/);
  for (const block of blocks) {
    const lines = block.split('\n').filter((l) => l.trim());
    const header = lines[0];
    if (!header || !isTableHeader(header)) {
      if (block.trim())
        parseText(block, { ...ctx, verb: ctx.verb === 'logs' ? 'logs' : 'text' }, out);
      continue;
    }
    const cols = columns(header);
    const names = cols.map((c) => c.name);
    const rows = lines.slice(1, 3000).map((line) => {
      const r: Record<string, string> = {};
      cols.forEach((c, i) => {
        const next = cols[i + 1];
        // cells are aligned on the header; the last one takes the rest of the line
        r[c.name] = (next ? line.slice(c.start, next.start) : line.slice(c.start)).trim();
      });
      // misaligned rows (proportional output): fall back to splitting on 2+ spaces
      if (cols.length > 1 && line.slice(0, cols[1]!.start).trim().includes('  ')) {
        const parts = line.trim().split(/\s{2,}/);
        cols.forEach(
          (c, i) =>
            (r[c.name] = i === cols.length - 1 ? parts.slice(i).join('  ') : (parts[i] ?? '')),
        );
      }
      return r;
    });
    const has = (n: string) => names.includes(n);
    if (has('REASON') && (has('OBJECT') || has('MESSAGE'))) {
      for (const r of rows) {
        const obj = r['OBJECT'] ?? r['INVOLVED OBJECT'] ?? '';
        const [k, n] = obj.includes('/') ? obj.split('/', 2) : [undefined, obj];
        out.events.push({
          type: r['TYPE'],
          reason: r['REASON'],
          message: r['MESSAGE'] ?? '',
          object: n ? { kind: kindOf(k) ?? k, name: n } : undefined,
          namespace: r['NAMESPACE'] ?? ctx.namespace,
          count: num(r['COUNT']),
          last: ageToTime(r['LAST SEEN'], ctx.now ?? Date.now()),
          first: ageToTime(r['FIRST SEEN'], ctx.now ?? Date.now()),
          source: ctx.tool,
        });
      }
      continue;
    }
    if (names.some((n) => /^CPU/.test(n)) && names.some((n) => /^MEMORY/.test(n))) {
      const cpuCol =
        names.find((n) => /^CPU(\(cores\))?$/.test(n)) ?? names.find((n) => /^CPU/.test(n))!;
      const memCol =
        names.find((n) => /^MEMORY(\(bytes\))?$/.test(n)) ?? names.find((n) => /^MEMORY/.test(n))!;
      for (const r of rows)
        out.metrics.push({
          kind: ctx.kind === 'node' || has('CPU%') ? 'node' : 'pod',
          name: r['POD'] ?? r['NAME'] ?? '',
          namespace: r['NAMESPACE'] ?? ctx.namespace,
          cpu: r[cpuCol],
          memory: r[memCol],
          source: ctx.tool,
        });
      continue;
    }
    const kind = has('RESTARTS')
      ? 'pod'
      : has('ROLES') || (has('VERSION') && has('STATUS'))
        ? 'node'
        : has('STORAGECLASS') && has('VOLUME')
          ? 'persistentvolumeclaim'
          : has('RECLAIM POLICY')
            ? 'persistentvolume'
            : has('COMPLETIONS')
              ? 'job'
              : has('MINPODS')
                ? 'horizontalpodautoscaler'
                : has('DESIRED') && has('NODE SELECTOR')
                  ? 'daemonset'
                  : has('ALLOWED DISRUPTIONS')
                    ? 'poddisruptionbudget'
                    : has('UP-TO-DATE')
                      ? 'deployment'
                      : has('PROVISIONER')
                        ? 'storageclass'
                        : has('CONTROLLER') && has('PARAMETERS')
                          ? 'ingressclass'
                          : has('SCHEDULE')
                            ? 'cronjob'
                            : has('DATA')
                              ? 'configmap'
                              : has('REQUEST') && has('LIMIT')
                                ? 'resourcequota'
                                : has('ROLE') && !has('STATUS')
                                  ? ctx.kind === 'clusterrolebinding'
                                    ? ctx.kind
                                    : 'rolebinding'
                                  : has('CLUSTER-IP')
                                    ? 'service'
                                    : (ctx.kind ?? 'resource');
    for (const r of rows) {
      const raw = r['NAME'] ?? '';
      const [k, n] = raw.includes('/') ? raw.split('/', 2) : [undefined, raw];
      if (!n) continue;
      const v = newObject(kindOf(k) ?? kindOf(r['KIND']) ?? kind, n, ctx.tool);
      v.namespace = r['NAMESPACE'] ?? ctx.namespace;
      v.created = ageToTime(r['AGE'], ctx.now ?? Date.now());
      v.status = r['STATUS'];
      v.node = r['NODE'] && r['NODE'] !== '<none>' ? r['NODE'] : undefined;
      // `kubectl get pods -o wide`: the pod's IP
      if (v.kind === 'pod' && r['IP'] && /^[\d.:a-f]+$/i.test(r['IP'])) v.fields['podIP'] = r['IP'];
      const restarts = /^(\d+)/.exec(r['RESTARTS'] ?? '');
      if (restarts?.[1]) v.restarts = Number(restarts[1]);
      // "2 (45m ago)": when the last restart was
      const lastRestart = /\(([\dhmsd]+) ago\)/.exec(r['RESTARTS'] ?? '')?.[1];
      if (lastRestart) {
        const at = ageToTime(lastRestart, ctx.now ?? Date.now());
        if (at !== undefined) v.fields['lastRestart'] = new Date(at).toISOString();
      }
      if (r['READY']) v.fields['ready'] = r['READY'];
      if (r['STORAGECLASS']) v.fields['storageClassName'] = r['STORAGECLASS'];
      // `kubectl get storageclass`: whether a claim of the class may be grown
      if (v.kind === 'storageclass' && r['ALLOWVOLUMEEXPANSION'] !== undefined)
        v.fields['allowVolumeExpansion'] = /^true$/i.test(r['ALLOWVOLUMEEXPANSION'])
          ? 'true'
          : 'false';
      if (v.kind === 'storageclass' && r['PROVISIONER']) v.fields['provisioner'] = r['PROVISIONER'];
      if (v.kind === 'persistentvolumeclaim' && r['CAPACITY']) v.fields['capacity'] = r['CAPACITY'];
      // `kubectl get pv`: size, the claim it is (or was) bound to, what happens when released
      if (v.kind === 'persistentvolume') {
        if (r['CAPACITY']) v.fields['capacity'] = r['CAPACITY'];
        if (r['CLAIM'] && r['CLAIM'].includes('/')) v.fields['claim'] = r['CLAIM'];
        if (r['RECLAIM POLICY']) v.fields['reclaimPolicy'] = r['RECLAIM POLICY'];
      }
      // `kubectl get nodes`: the kubelet's version
      if (v.kind === 'node' && /^v?\d+\.\d+/.test(r['VERSION'] ?? ''))
        v.fields['kubeletVersion'] = r['VERSION']!;
      if (r['VOLUME']) v.fields['volumeName'] = r['VOLUME'];
      if (r['COMPLETIONS']) v.fields['completions'] = r['COMPLETIONS'];
      if (r['MINPODS']) v.fields['minReplicas'] = r['MINPODS'];
      if (r['MAXPODS']) v.fields['maxReplicas'] = r['MAXPODS'];
      if (r['REPLICAS']) v.fields['status.currentReplicas'] = r['REPLICAS'];
      if (r['TARGETS']) v.fields['targets'] = r['TARGETS'];
      if (r['REFERENCE']) v.fields['scaleTarget'] = r['REFERENCE'];
      if (r['IMAGES']) v.images.push(...r['IMAGES'].split(','));
      if (r['AVAILABLE']) v.fields['status.availableReplicas'] = r['AVAILABLE'];
      if (r['CLUSTER-IP']) v.fields['clusterIP'] = r['CLUSTER-IP'];
      // `kubectl get ds`: how many nodes it should run on, and where
      if (v.kind === 'daemonset') {
        if (r['DESIRED']) v.fields['status.desiredNumberScheduled'] = r['DESIRED'];
        if (r['NODE SELECTOR'] && r['NODE SELECTOR'] !== '<none>')
          v.fields['nodeSelector'] = r['NODE SELECTOR'];
      }
      // `kubectl get pdb`: MIN AVAILABLE / MAX UNAVAILABLE are N/A when unset
      if (v.kind === 'poddisruptionbudget') {
        if (r['ALLOWED DISRUPTIONS']) v.fields['disruptionsAllowed'] = r['ALLOWED DISRUPTIONS'];
        if (r['MIN AVAILABLE'] && r['MIN AVAILABLE'] !== 'N/A')
          v.fields['minAvailable'] = r['MIN AVAILABLE'];
        if (r['MAX UNAVAILABLE'] && r['MAX UNAVAILABLE'] !== 'N/A')
          v.fields['maxUnavailable'] = r['MAX UNAVAILABLE'];
      }
      // `kubectl get endpoints`: "10.0.1.4:8080,10.0.2.9:8080 + 1 more..." or <none>
      if (v.kind === 'endpoints' && r['ENDPOINTS'] !== undefined) {
        const e = r['ENDPOINTS'];
        const more = Number(/\+ (\d+) more/.exec(e)?.[1] ?? 0);
        v.fields['ready'] = String(
          e === '<none>' || !e
            ? 0
            : e
                .replace(/\+ \d+ more.*$/, '')
                .split(',')
                .filter(Boolean).length + more,
        );
      }
      // `kubectl get svc`: an ExternalName Service shows its target name under EXTERNAL-IP
      if (v.kind === 'service' && r['TYPE'] === 'ExternalName' && r['EXTERNAL-IP'])
        v.fields['externalName'] = r['EXTERNAL-IP'];
      // a LoadBalancer's address ("<pending>" while the cloud has given none)
      if (v.kind === 'service' && r['TYPE']) {
        v.fields['type'] = r['TYPE'];
        if (r['TYPE'] === 'LoadBalancer' && r['EXTERNAL-IP'] && !/^<.*>$/.test(r['EXTERNAL-IP']))
          v.fields['externalAddress'] = r['EXTERNAL-IP'];
      }
      // `kubectl get svc`: "8080:30081/TCP" opens node port 30081 on every node
      if (v.kind === 'service' && r['PORT(S)'] !== undefined)
        v.fields['nodePorts'] = [...r['PORT(S)'].matchAll(/(\d+):(\d+)\/([A-Z]+)/g)]
          .map((m) => m[0])
          .join(',');
      if (v.kind === 'ingress' && r['HOSTS']) v.fields['hosts'] = r['HOSTS'];
      // `kubectl get ingress`: the class it asks for and the address a controller gave it
      if (v.kind === 'ingress' && r['CLASS'] && r['CLASS'] !== '<none>')
        v.fields['ingressClass'] = r['CLASS'];
      if (v.kind === 'ingress' && r['ADDRESS'] !== undefined) v.fields['address'] = r['ADDRESS'];
      // `kubectl get cronjob`: SCHEDULE and TIMEZONE (<none>: the controller's own zone)
      if (v.kind === 'cronjob' && r['SCHEDULE']) v.fields['schedule'] = r['SCHEDULE'];
      if (v.kind === 'cronjob' && r['TIMEZONE'] !== undefined)
        v.fields['timeZone'] = r['TIMEZONE'] === '<none>' ? '' : r['TIMEZONE'];
      // `kubectl get cronjob`: SUSPEND True/False (kept apart from spec.suspend read whole), LAST
      // SCHEDULE an age ("28d") or <none>
      if (v.kind === 'cronjob' && /^(?:true|false)$/i.test(r['SUSPEND'] ?? ''))
        v.fields['suspendListed'] = r['SUSPEND']!.toLowerCase();
      if (v.kind === 'cronjob' && r['LAST SCHEDULE']) {
        const at = ageToTime(r['LAST SCHEDULE'], ctx.now ?? Date.now());
        v.fields['lastSchedule'] =
          at !== undefined
            ? `${r['LAST SCHEDULE']} ago`
            : r['LAST SCHEDULE'] === '<none>'
              ? 'never'
              : '';
        if (at !== undefined) v.fields['lastScheduleAt'] = new Date(at).toISOString();
      }
      if (v.kind === 'ingressclass' && r['CONTROLLER']) v.fields['controller'] = r['CONTROLLER'];
      // `kubectl get svc -o wide`: app=web,tier=frontend
      if (v.kind === 'service' && r['SELECTOR'] && r['SELECTOR'] !== '<none>')
        v.fields['selector'] = r['SELECTOR'];
      // `kubectl get quota`: "requests.cpu: 14500m/16, pods: 11/40" under REQUEST and LIMIT
      if (v.kind === 'resourcequota' && (r['REQUEST'] || r['LIMIT'])) {
        const used: Record<string, string> = {};
        const hard: Record<string, string> = {};
        for (const m of `${r['REQUEST'] ?? ''}, ${r['LIMIT'] ?? ''}`.matchAll(
          /([\w./-]+): ([^,/\s]+)\/([^,\s]+)/g,
        )) {
          used[m[1]!] = m[2]!;
          hard[m[1]!] = m[3]!;
        }
        if (Object.keys(hard).length) {
          v.fields['hard'] = JSON.stringify(hard);
          v.fields['used'] = JSON.stringify(used);
        }
      }
      // `kubectl get rolebinding -o wide`: ROLE "Role/x", SERVICEACCOUNTS "ns/name, ns/other"
      if ((v.kind === 'rolebinding' || v.kind === 'clusterrolebinding') && r['ROLE']) {
        v.fields['roleRef'] = r['ROLE'];
        if (r['SERVICEACCOUNTS'] !== undefined)
          v.fields['subjects'] = JSON.stringify([
            ...r['SERVICEACCOUNTS']
              .split(/,\s*/)
              .filter((x) => x.includes('/'))
              .map((x) => ({
                kind: 'ServiceAccount',
                namespace: x.split('/')[0],
                name: x.split('/')[1],
              })),
            ...(r['USERS'] ?? '')
              .split(/,\s*/)
              .filter(Boolean)
              .map((x) => ({ kind: 'User', name: x })),
            ...(r['GROUPS'] ?? '')
              .split(/,\s*/)
              .filter(Boolean)
              .map((x) => ({ kind: 'Group', name: x })),
          ]);
      }
      if (r['LABELS'])
        for (const kv of r['LABELS'].split(',')) {
          const [a, b] = kv.split('=');
          if (a && b) v.labels[a] = b;
        }
      out.objects.push(v);
    }
  }
}

/** "5m", "3h12m", "2d", "45s", "<unknown>" -> epoch ms relative to `now` (set later). */
export function ageToTime(age: string | undefined, now: number): number | undefined {
  if (!age) return undefined;
  const m = /^((\d+)d)?((\d+)h)?((\d+)m)?((\d+)s)?$/.exec(age.trim().split(/\s/)[0] ?? '');
  if (!m || !m[0]) return undefined;
  const ms =
    (Number(m[2] ?? 0) * 86400 +
      Number(m[4] ?? 0) * 3600 +
      Number(m[6] ?? 0) * 60 +
      Number(m[8] ?? 0)) *
    1000;
  return now - ms;
}
