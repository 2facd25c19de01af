import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { loadChart, mergeValues, renderChart } from './helm-template';

/**
 * deploy/helm/inquest rendered with its values files by the stand-in for `helm template`
 * (./helm-template.ts; no helm binary can be installed here): every manifest parses, every
 * Secret, ConfigMap, Service, ServiceAccount and Deployment it refers to is in the render (or is
 * a Secret the values name as the user's own), every long-running container has probes and
 * resources, every Job container resources, every selector selects something.
 */
const CHART = resolve(__dirname, '../../deploy/helm/inquest');
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const readValues = (file: string): Obj =>
  (parseAllDocuments(readFileSync(file, 'utf8'))[0]?.toJS() as Obj | null) ?? {};

const base = readValues(join(CHART, 'values.yaml'));
const overlays = readdirSync(join(CHART, 'ci'))
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => [f, readValues(join(CHART, 'ci', f))] as const);
const cases: [string, Obj][] = [
  ['values.yaml', base],
  ...overlays.map(([f, v]) => [`values.yaml + ci/${f}`, mergeValues(base, v)] as [string, Obj]),
];

function render(values: Obj): { manifests: Obj[]; notes: string } {
  const out = renderChart(loadChart(CHART), values, { releaseName: 'inq', namespace: 'ops' });
  const manifests: Obj[] = [];
  for (const [file, text] of out) {
    if (!file.endsWith('.yaml')) continue;
    for (const doc of parseAllDocuments(text)) {
      if (doc.errors.length) throw new Error(`${file}: ${doc.errors.map(String).join('; ')}`);
      const m = doc.toJS() as Obj | null;
      if (m === null) continue;
      manifests.push({ ...m, __file: file });
    }
  }
  return { manifests, notes: out.get('inquest/templates/NOTES.txt') ?? '' };
}

/** Names of the Secrets the user brings: every `existingSecret`, `*Secret.name`, `secretName` of the values. */
function userSecrets(values: Obj): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown, key = ''): void => {
    if (Array.isArray(v)) return v.forEach((x) => walk(x));
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v as Obj)) {
      if (typeof x === 'string' && x && (k === 'existingSecret' || k === 'secretName')) out.add(x);
      if (typeof x === 'string' && x && k === 'name' && /Secret$/.test(key)) out.add(x);
      walk(x, k);
    }
  };
  walk(values);
  return out;
}

const podSpecOf = (m: Obj): Obj | undefined =>
  m.kind === 'CronJob' ? m.spec?.jobTemplate?.spec?.template?.spec : m.spec?.template?.spec;
const LONG_RUNNING = ['Deployment', 'StatefulSet', 'DaemonSet'];

const matches = (selector: Obj | undefined, labels: Obj | undefined): boolean => {
  if (!selector) return false;
  const ml = (selector.matchLabels ?? {}) as Obj;
  if (!Object.entries(ml).every(([k, v]) => labels?.[k] === v)) return false;
  return ((selector.matchExpressions ?? []) as Obj[]).every((e) =>
    e.operator === 'In'
      ? (e.values as string[]).includes(labels?.[e.key])
      : e.operator === 'NotIn'
        ? !(e.values as string[]).includes(labels?.[e.key])
        : e.operator === 'Exists'
          ? labels?.[e.key] !== undefined
          : labels?.[e.key] === undefined,
  );
};

describe.each(cases)('the Helm chart rendered with %s', (_name, values) => {
  const { manifests, notes } = render(values);
  const named = (kind: string) =>
    new Set(manifests.filter((m) => m.kind === kind).map((m) => m.metadata?.name as string));
  const secrets = named('Secret');
  const configMaps = named('ConfigMap');
  const services = new Map(
    manifests.filter((m) => m.kind === 'Service').map((m) => [m.metadata.name as string, m]),
  );
  const external = userSecrets(values);
  const workloads = manifests.filter((m) => podSpecOf(m));
  const podLabels = workloads.map((w) => w.spec?.template?.metadata?.labels as Obj);

  it('renders manifests that parse, each with apiVersion, kind and a unique name', () => {
    expect(manifests.length).toBeGreaterThan(10);
    const seen = new Set<string>();
    for (const m of manifests) {
      expect([m.__file, typeof m.apiVersion, typeof m.kind, typeof m.metadata?.name]).toEqual([
        m.__file,
        'string',
        'string',
        'string',
      ]);
      const key = `${m.kind}/${m.metadata.name}`;
      expect([m.__file, seen.has(key) ? `duplicate ${key}` : 'ok']).toEqual([m.__file, 'ok']);
      seen.add(key);
    }
    expect(notes).toMatch(/port-forward svc\/inq-inquest-gateway|https?:\/\/\S+\/api\/v1\/docs/);
  });

  it('refers only to Secrets, ConfigMaps and ServiceAccounts in the render (or the user’s own Secrets)', () => {
    const missing: string[] = [];
    const serviceAccounts = named('ServiceAccount');
    for (const w of workloads) {
      const spec = podSpecOf(w)!;
      const where = `${w.kind}/${w.metadata.name}`;
      const sa = spec.serviceAccountName as string | undefined;
      if (sa && sa !== 'default' && !serviceAccounts.has(sa))
        missing.push(`${where}: ServiceAccount ${sa}`);
      const containers = [...(spec.containers ?? []), ...(spec.initContainers ?? [])] as Obj[];
      for (const c of containers) {
        for (const e of (c.env ?? []) as Obj[]) {
          const s = e.valueFrom?.secretKeyRef?.name as string | undefined;
          if (s && !secrets.has(s) && !external.has(s)) missing.push(`${where}: Secret ${s}`);
          const cm = e.valueFrom?.configMapKeyRef?.name as string | undefined;
          if (cm && !configMaps.has(cm)) missing.push(`${where}: ConfigMap ${cm}`);
        }
        for (const f of (c.envFrom ?? []) as Obj[]) {
          if (f.configMapRef && !configMaps.has(f.configMapRef.name))
            missing.push(`${where}: ConfigMap ${f.configMapRef.name}`);
          if (f.secretRef && !secrets.has(f.secretRef.name) && !external.has(f.secretRef.name))
            missing.push(`${where}: Secret ${f.secretRef.name}`);
        }
      }
      for (const v of (spec.volumes ?? []) as Obj[]) {
        const s = v.secret?.secretName as string | undefined;
        if (s && !secrets.has(s) && !external.has(s)) missing.push(`${where}: Secret ${s}`);
        if (v.configMap && !configMaps.has(v.configMap.name))
          missing.push(`${where}: ConfigMap ${v.configMap.name}`);
      }
    }
    for (const rb of manifests.filter((m) => /RoleBinding$/.test(m.kind))) {
      for (const s of (rb.subjects ?? []) as Obj[])
        if (s.kind === 'ServiceAccount' && !serviceAccounts.has(s.name))
          missing.push(`${rb.kind}/${rb.metadata.name}: ServiceAccount ${s.name}`);
      if (!named(rb.roleRef.kind).has(rb.roleRef.name))
        missing.push(`${rb.kind}/${rb.metadata.name}: ${rb.roleRef.kind} ${rb.roleRef.name}`);
    }
    expect(missing).toEqual([]);
  });

  it('points every address, URL and backend at a Service (and port) in the render', () => {
    const missing: string[] = [];
    const hasPort = (svc: string, port: number) =>
      ((services.get(svc)?.spec?.ports ?? []) as Obj[]).some((p) => Number(p.port) === port);
    const cm = manifests.find((m) => m.kind === 'ConfigMap' && /-env$/.test(m.metadata.name));
    for (const [k, v] of Object.entries((cm?.data ?? {}) as Obj)) {
      if (!/_ADDR$/.test(k) || String(v).includes('://')) continue;
      const [host, port] = String(v).split(':');
      if (!hasPort(host!, Number(port))) missing.push(`${k}=${v}`);
    }
    const urls = [
      ...manifests
        .filter((m) => m.kind === 'Secret')
        .flatMap((m) => Object.values((m.stringData ?? {}) as Obj)),
      ...workloads.flatMap((w) =>
        ((podSpecOf(w)!.containers ?? []) as Obj[]).flatMap((c) =>
          ((c.env ?? []) as Obj[]).map((e) => e.value as unknown),
        ),
      ),
    ];
    const release = new RegExp(`^[a-z]+://(inq-[a-z0-9-]+):(\\d+)`);
    for (const u of urls) {
      const m = typeof u === 'string' ? release.exec(u) : null;
      if (m && !hasPort(m[1]!, Number(m[2]))) missing.push(`${u}`);
    }
    for (const ing of manifests.filter((m) => m.kind === 'Ingress'))
      for (const r of ing.spec.rules as Obj[])
        for (const p of r.http.paths as Obj[])
          if (!hasPort(p.backend.service.name, p.backend.service.port.number))
            missing.push(`Ingress -> ${p.backend.service.name}:${p.backend.service.port.number}`);
    for (const hpa of manifests.filter((m) => m.kind === 'HorizontalPodAutoscaler')) {
      const t = hpa.spec.scaleTargetRef;
      const target = workloads.find((w) => w.kind === t.kind && w.metadata.name === t.name);
      if (!target) missing.push(`HPA ${hpa.metadata.name} -> ${t.kind}/${t.name}`);
      else expect(target.spec.replicas).toBeUndefined(); // the HPA owns replicas
    }
    for (const s of services.values())
      if (!podLabels.some((l) => matches({ matchLabels: s.spec.selector }, l)))
        missing.push(`Service ${s.metadata.name} selects no pod`);
    for (const pdb of manifests.filter((m) => m.kind === 'PodDisruptionBudget'))
      if (!podLabels.some((l) => matches(pdb.spec.selector, l)))
        missing.push(`PDB ${pdb.metadata.name} selects no pod`);
    for (const np of manifests.filter((m) => m.kind === 'NetworkPolicy'))
      if (!podLabels.some((l) => matches(np.spec.podSelector, l)))
        missing.push(`NetworkPolicy ${np.metadata.name} selects no pod`);
    for (const sm of manifests.filter((m) => m.kind === 'ServiceMonitor')) {
      const port = (sm.spec.endpoints as Obj[])[0]!.port as string;
      const hit = [...services.values()].filter(
        (s) =>
          matches(sm.spec.selector, s.metadata.labels) &&
          (s.spec.ports as Obj[]).some((p) => p.name === port),
      );
      if (!hit.length) missing.push(`ServiceMonitor ${sm.metadata.name} selects no Service`);
    }
    expect(missing).toEqual([]);
  });

  it('gives every long-running container probes and resources, every other container resources', () => {
    const problems: string[] = [];
    for (const w of workloads) {
      for (const c of podSpecOf(w)!.containers as Obj[]) {
        const where = `${w.kind}/${w.metadata.name}/${c.name}`;
        if (!c.resources?.requests || !c.resources?.limits?.memory)
          problems.push(`${where}: resources`);
        if (LONG_RUNNING.includes(w.kind))
          for (const p of ['startupProbe', 'readinessProbe', 'livenessProbe'])
            if (!c[p]) problems.push(`${where}: ${p}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('keeps credentials out of ConfigMaps and plain env values', () => {
    const leaks: string[] = [];
    const credential = /:\/\/[^/\s:@]+:[^/\s@]+@|^(admin\.|tok_|sk-|xox)/;
    for (const m of manifests.filter((x) => x.kind === 'ConfigMap'))
      for (const [k, v] of Object.entries((m.data ?? {}) as Obj))
        if (credential.test(String(v))) leaks.push(`${m.metadata.name}.${k}`);
    expect(leaks).toEqual([]);
  });
});

describe('the Helm chart with every option on', () => {
  const values = mergeValues(base, readValues(join(CHART, 'ci/full-values.yaml')));
  const { manifests, notes } = render(values);
  const kinds = new Set(manifests.map((m) => m.kind));

  it('has the parts a platform team expects', () => {
    for (const k of [
      'Ingress',
      'ServiceAccount',
      'PodDisruptionBudget',
      'HorizontalPodAutoscaler',
      'NetworkPolicy',
      'ServiceMonitor',
      'StatefulSet',
      'Job',
    ])
      expect([k, kinds.has(k)]).toEqual([k, true]);
    const hpas = manifests.filter((m) => m.kind === 'HorizontalPodAutoscaler');
    expect(hpas.map((h) => h.spec.scaleTargetRef.name).sort()).toEqual([
      'inq-inquest-gateway',
      'inq-inquest-investigation-runner',
    ]);
    expect(notes).toContain('inq-inquest-first-team-token');
  });

  it('reads every backend URL and credential from the user’s Secrets or the bundled NATS', () => {
    const runner = manifests.find(
      (m) => m.kind === 'Deployment' && m.metadata.name === 'inq-inquest-investigation-runner',
    )!;
    const env = Object.fromEntries(
      ((runner.spec.template.spec.containers[0].env ?? []) as Obj[]).map((e) => [e.name, e]),
    );
    expect(env.INQUEST_MONGODB_URL.valueFrom.secretKeyRef).toEqual({
      name: 'inquest-backends',
      key: 'mongodb-url',
    });
    expect(env.INQUEST_QDRANT_URL.valueFrom.secretKeyRef.name).toBe('inquest-backends');
    expect(env.INQUEST_NATS_URL.valueFrom.secretKeyRef).toEqual({
      name: 'inq-inquest-connections',
      key: 'nats-url',
    });
    expect(env.INQUEST_LLM_API_KEY.valueFrom.secretKeyRef).toEqual({
      name: 'inquest-llm',
      key: 'api-key',
    });
    const connections = manifests.find((m) => m.metadata.name === 'inq-inquest-connections')!;
    expect(connections.stringData).toEqual({ 'nats-url': 'nats://inq-inquest-nats:4222' });
    const cm = manifests.find((m) => m.metadata.name === 'inq-inquest-env')!;
    expect(cm.data).toMatchObject({
      INQUEST_LLM_BASE_URL: 'http://ollama.ai.svc:11434/v1',
      INQUEST_LLM_MODEL: 'qwen2.5:14b',
      INQUEST_CONSOLE_URL: 'https://inquest.example.com/console',
    });
    expect(cm.data.INQUEST_MONGODB_URL).toBeUndefined();
  });

  it('annotates the gateway pods for scraping on its HTTP port', () => {
    const gw = manifests.find(
      (m) => m.kind === 'Deployment' && m.metadata.name === 'inq-inquest-gateway',
    )!;
    expect(gw.spec.template.metadata.annotations).toMatchObject({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': '8080',
      'prometheus.io/path': '/metrics',
    });
  });

  it('limits the toolserver-proxy’s egress to the tool servers listed, besides DNS and the release', () => {
    const np = manifests.find(
      (m) =>
        m.kind === 'NetworkPolicy' &&
        m.metadata.name === 'inq-inquest-toolserver-proxy-tool-servers',
    )!;
    expect(np.spec.egress).toEqual([
      {
        to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'tools' } } }],
        ports: [{ port: 7071 }],
      },
    ]);
  });

  it('lets the Kubernetes tool server read custom resources, read-only, namespaced and cluster-scoped', () => {
    const role = (name: string) =>
      manifests.find((m) => m.kind === 'ClusterRole' && m.metadata.name === name)!;
    const read = role('inq-inquest-toolserver-kubernetes-read').rules as Obj[];
    const cluster = role('inq-inquest-toolserver-kubernetes-cluster-read').rules as Obj[];
    expect(read).toContainEqual({
      apiGroups: ['argoproj.io'],
      resources: ['applications', 'applicationsets', 'appprojects'],
      verbs: ['get', 'list', 'watch'],
    });
    expect(read.some((r) => r.apiGroups.includes('kustomize.toolkit.fluxcd.io'))).toBe(true);
    expect(cluster).toContainEqual({
      apiGroups: ['cert-manager.io'],
      resources: ['clusterissuers'],
      verbs: ['get', 'list', 'watch'],
    });
    for (const r of [...read, ...cluster])
      expect(r.verbs.every((v: string) => ['get', 'list', 'watch'].includes(v))).toBe(true);
  });
});
