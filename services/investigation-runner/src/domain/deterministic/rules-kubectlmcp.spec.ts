/**
 * A tool server of many tools that answers dicts of its own shape (rohitg00/kubectl-mcp-server):
 * `get_jobs` lists a Job as `{name, succeeded, failed, startTime, completionTime}`, and
 * `get_pod_conditions` answers a pod's `containerStatuses` as `[{name, state: "terminated"}]`.
 * What those rows say is read as such, each with a near miss:
 * - a Job's listing row gives when it completed: the failed first pod of a Job that then
 *   completed was retried, it is history (a Job still running is not);
 * - a pod's container statuses are its containers, not pods named after them (a pods listing is);
 * - a get of one aspect of a pod (`get_pod_conditions`) is not the pod whole: the pod is described
 *   (its labels, against a Service's selector), a get of the whole object is still read first;
 * - `kubectl describe service` gives the Service's selector ("<none>": it selects nothing).
 */
import { ClusterModel } from './model';
import { observe } from './observe';
import { NOW, ago, answerOf, describePod, investigateAt, type FakeTool, str } from './spec-world';

interface KmPod {
  name: string;
  ns: string;
  phase: 'Running' | 'Succeeded' | 'Failed';
  /** minutes ago */
  created: number;
  reason?: string;
  message?: string;
  owner: string;
  image: string;
  /** terminated (its container ended) */
  ended?: boolean;
  labels?: string[];
}
interface KmService {
  name: string;
  ns: string;
  selector: string;
}
interface KmJob {
  name: string;
  ns: string;
  succeeded: number;
  failed: number;
  /** minutes ago */
  started: number;
  completed?: number;
}
interface KmWorld {
  pods: KmPod[];
  jobs?: KmJob[];
  events?: {
    name: string;
    ns: string;
    type: string;
    reason: string;
    message: string;
    at: number;
  }[];
  logs?: Record<string, string>;
  services?: KmService[];
  /** a get of the whole object (`kubectl get -o yaml`) too */
  yaml?: boolean;
}

const ok = (o: Record<string, unknown>) => ({ success: true, context: 'current', ...o });
const notFound = (what: string) => ({
  success: false,
  error: `Error from server (NotFound): ${what} not found`,
});

/** a fake of the few kubectl-mcp tools a vague question about a namespace calls */
function kmTools(w: KmWorld): FakeTool[] {
  const pod = (p: Record<string, unknown>) =>
    w.pods.find((x) => x.name === p['pod_name'] && x.ns === p['namespace']);
  return [
    {
      name: 'get_namespaces',
      description: 'Get all Kubernetes namespaces.',
      properties: { context: str },
      handler: () => ok({ namespaces: [...new Set(w.pods.map((p) => p.ns)), 'kube-system'] }),
    },
    {
      name: 'get_pods',
      description: 'Get all pods in the specified namespace.',
      properties: { namespace: str, context: str },
      handler: (p) =>
        ok({
          pods: w.pods
            .filter((x) => !p['namespace'] || x.ns === p['namespace'])
            .map((x) => ({ name: x.name, namespace: x.ns, status: x.phase, ip: '10.0.1.7' })),
        }),
    },
    {
      name: 'get_jobs',
      description: 'Get Jobs and optionally CronJobs.',
      properties: { namespace: str, include_cronjobs: { type: 'boolean' }, context: str },
      handler: (p) =>
        ok({
          jobs: (w.jobs ?? [])
            .filter((j) => !p['namespace'] || j.ns === p['namespace'])
            .map((j) => ({
              name: j.name,
              namespace: j.ns,
              completions: 1,
              succeeded: j.succeeded,
              failed: j.failed,
              active: j.completed === undefined ? 1 : 0,
              startTime: ago(j.started).replace('.000Z', '+00:00'),
              completionTime:
                j.completed === undefined ? null : ago(j.completed).replace('.000Z', '+00:00'),
            })),
          cronJobs: [],
        }),
    },
    {
      name: 'get_events',
      description: 'Get Kubernetes events.',
      properties: { namespace: str, context: str },
      handler: (p) =>
        ok({
          events: (w.events ?? [])
            .filter((e) => !p['namespace'] || e.ns === p['namespace'])
            .map((e) => ({
              name: e.name,
              namespace: e.ns,
              type: e.type,
              reason: e.reason,
              message: e.message,
              timestamp: ago(e.at).replace('.000Z', '+00:00'),
            })),
        }),
    },
    {
      name: 'get_services',
      description: 'Get all services in the specified namespace.',
      properties: { namespace: str, context: str },
      handler: (p) =>
        ok({
          services: (w.services ?? [])
            .filter((x) => !p['namespace'] || x.ns === p['namespace'])
            .map((x) => ({
              name: x.name,
              namespace: x.ns,
              type: 'ClusterIP',
              cluster_ip: '10.100.1.9',
            })),
        }),
    },
    ...(w.yaml
      ? [
          {
            name: 'get_resource_yaml',
            description: 'Get a Kubernetes resource as YAML (kubectl get -o yaml).',
            properties: { kind: str, name: str, namespace: str },
            required: ['kind', 'name'],
            handler: (p: Record<string, unknown>) => {
              const svc = (w.services ?? []).find(
                (x) => p['kind'] === 'service' && x.name === p['name'] && x.ns === p['namespace'],
              );
              if (svc)
                return [
                  'apiVersion: v1',
                  'kind: Service',
                  'metadata:',
                  `  name: ${svc.name}`,
                  `  namespace: ${svc.ns}`,
                  'spec:',
                  '  selector:',
                  ...svc.selector.split(',').map((l) => `    ${l.replace('=', ': ')}`),
                  '  ports:',
                  '  - port: 80',
                  '    targetPort: 8080',
                ].join('\n');
              const x = p['kind'] === 'pod' ? pod({ ...p, pod_name: p['name'] }) : undefined;
              if (!x) return notFound(`${String(p['kind'])} "${String(p['name'])}"`);
              return [
                'apiVersion: v1',
                'kind: Pod',
                'metadata:',
                `  name: ${x.name}`,
                `  namespace: ${x.ns}`,
                '  labels:',
                ...(x.labels ?? []).map((l) => `    ${l.replace('=', ': ')}`),
                'status:',
                `  phase: ${x.phase}`,
              ].join('\n');
            },
          } satisfies FakeTool,
        ]
      : []),
    {
      name: 'kubectl_describe',
      description: 'Describe a Kubernetes resource in detail.',
      properties: { resource_type: str, name: str, namespace: str, context: str },
      required: ['resource_type', 'name'],
      handler: (p) => {
        const svc = (w.services ?? []).find(
          (x) =>
            p['resource_type'] === 'service' && x.name === p['name'] && x.ns === p['namespace'],
        );
        if (svc)
          return ok({
            description: [
              `Name:              ${svc.name}`,
              `Namespace:         ${svc.ns}`,
              'Labels:            <none>',
              'Annotations:       <none>',
              `Selector:          ${svc.selector}`,
              'Type:              ClusterIP',
              'IP:                10.100.1.9',
              'Port:              http  80/TCP',
              'TargetPort:        8080/TCP',
              'Endpoints:',
              'Events:            <none>',
            ].join('\n'),
          });
        const x = p['resource_type'] === 'pod' ? pod({ ...p, pod_name: p['name'] }) : undefined;
        if (!x) return notFound(`${String(p['resource_type'])} "${String(p['name'])}"`);
        return ok({
          description: describePod({
            name: x.name,
            namespace: x.ns,
            controlledBy: x.owner,
            ...(x.labels ? { labels: x.labels } : {}),
            status: x.phase,
            ...(x.reason ? { reason: x.reason } : {}),
            ...(x.message ? { message: x.message } : {}),
            container: {
              name: 'app',
              image: x.image,
              ready: x.phase === 'Running',
              state: x.ended ? ['Terminated', 'Reason: Error', 'Exit Code: 1'] : ['Running'],
            },
          }).replace(
            /^(Namespace:.*)$/m,
            `$1\nStart Time:       ${new Date(NOW - x.created * 60_000).toUTCString().replace('GMT', '+0000')}`,
          ),
        });
      },
    },
    {
      name: 'get_pod_conditions',
      description: 'Get detailed pod conditions breakdown.',
      properties: { pod_name: str, namespace: str, context: str },
      required: ['pod_name'],
      handler: (p) => {
        const x = pod(p);
        if (!x) return notFound(`pods "${String(p['pod_name'])}"`);
        return ok({
          pod: x.name,
          namespace: x.ns,
          phaseAnalysis: { phase: x.phase, reason: x.reason ?? null, message: x.message ?? null },
          conditions: [{ type: 'Ready', status: x.phase === 'Running' ? 'True' : 'False' }],
          containerStatuses: [
            {
              name: 'app',
              ready: x.phase === 'Running',
              restartCount: 0,
              image: x.image,
              state: x.ended ? 'terminated' : 'running',
              ...(x.ended ? { terminatedReason: 'ContainerStatusUnknown', exitCode: 137 } : {}),
            },
          ],
        });
      },
    },
    {
      name: 'get_logs',
      description: 'Get logs from a pod.',
      properties: { pod_name: str, namespace: str, container: str, tail: { type: 'integer' } },
      required: ['pod_name'],
      handler: (p) =>
        pod(p) ? ok({ logs: w.logs?.[String(p['pod_name'])] ?? '' }) : notFound('pod'),
    },
  ];
}

const ask = async (w: KmWorld, message: string) =>
  answerOf((await investigateAt(kmTools(w), message, NOW)).result);

describe('kubectl-mcp: a Job listing row says when the Job completed', () => {
  const world = (completed?: number): KmWorld => ({
    pods: [
      {
        name: 'sync-29932230-jhcfx',
        ns: 'crm',
        phase: 'Failed',
        created: 150,
        owner: 'Job/sync-29932230',
        image: 'registry.example/sync:2.1',
        ended: true,
      },
      {
        name: 'sync-29932230-f49qt',
        ns: 'crm',
        phase: completed === undefined ? 'Running' : 'Succeeded',
        created: 149,
        owner: 'Job/sync-29932230',
        image: 'registry.example/sync:2.1',
        ended: completed !== undefined,
      },
      {
        name: 'crm-api-7d9c8b-qtpmj',
        ns: 'crm',
        phase: 'Running',
        created: 6000,
        owner: 'ReplicaSet/crm-api-7d9c8b',
        image: 'registry.example/crm-api:4.2',
      },
    ],
    jobs: [
      {
        name: 'sync-29932230',
        ns: 'crm',
        succeeded: completed === undefined ? 0 : 1,
        failed: 1,
        started: 150,
        ...(completed === undefined ? {} : { completed }),
      },
    ],
    logs: {
      'sync-29932230-jhcfx': [
        `${ago(149)} Traceback (most recent call last):`,
        `${ago(149)}   File "/app/sync.py", line 88, in main`,
        `${ago(149)} requests.exceptions.ConnectionError: ('Connection aborted.', ConnectionResetError(104, 'Connection reset by peer'))`,
      ].join('\n'),
    },
  });

  it('reads completionTime from the row: the Job completed, its failed first pod is history', () => {
    const out = observe(
      {
        success: true,
        jobs: [
          {
            name: 'sync-1',
            namespace: 'crm',
            succeeded: 1,
            failed: 1,
            startTime: ago(150),
            completionTime: ago(139),
          },
        ],
      },
      { tool: 'k8s:get_jobs', verb: 'list', kind: 'job', now: NOW },
    );
    const m = new ClusterModel();
    m.add(out, 'k8s:get_jobs');
    expect(m.get('job', 'sync-1', 'crm')?.fields['completionTime']).toBe(ago(139));
    expect(m.get('job', 'sync-1', 'crm')?.fields['startTime']).toBe(ago(150));
  });

  it('near miss: a Job still running (completionTime null) has no completion', () => {
    const out = observe(
      {
        success: true,
        jobs: [
          {
            name: 'sync-1',
            namespace: 'crm',
            succeeded: 0,
            failed: 1,
            startTime: ago(150),
            completionTime: null,
          },
        ],
      },
      { tool: 'k8s:get_jobs', verb: 'list', kind: 'job', now: NOW },
    );
    const m = new ClusterModel();
    m.add(out, 'k8s:get_jobs');
    expect(m.get('job', 'sync-1', 'crm')?.fields['completionTime']).toBeUndefined();
  });

  it('a vague question about the namespace: no problem found', async () => {
    const text = await ask(world(139), 'anything broken in crm? saw a red job this morning');
    expect(text).toMatch(/No problem found/);
  });

  it('no Job listing: a pod of the same Job run that completed (its creation not listed) retried it', async () => {
    const tools = kmTools(world(139)).filter((t) => t.name !== 'get_jobs');
    const { result } = await investigateAt(
      tools,
      'anything broken in crm? saw a red job this morning',
      NOW,
    );
    expect(answerOf(result)).toMatch(/No problem found/);
  });

  it('near miss: the Job has not completed, its failed pod is reported', async () => {
    const text = await ask(world(), 'anything broken in crm? saw a red job this morning');
    expect(text).toMatch(/sync-29932230 crashes/);
  });
});

describe("kubectl-mcp: a pod's container statuses are not pods", () => {
  it('get_pod_conditions: the container is not a pod of its own', () => {
    const out = observe(
      {
        success: true,
        pod: 'api-79c8d6f5b4-kwtst',
        namespace: 'search',
        phaseAnalysis: { phase: 'Failed', reason: 'Evicted' },
        containerStatuses: [{ name: 'api', ready: false, restartCount: 0, state: 'terminated' }],
      },
      { tool: 'k8s:get_pod_conditions', verb: 'get', kind: 'pod', now: NOW },
    );
    expect(out.objects.map((o) => o.name)).not.toContain('api');
  });

  it('near miss: a listing of pods still gives pods', () => {
    const out = observe(
      { success: true, pods: [{ name: 'api', namespace: 'search', status: 'Running' }] },
      { tool: 'k8s:get_pods', verb: 'list', kind: 'pod', now: NOW },
    );
    expect(out.objects.map((o) => o.name)).toContain('api');
  });
});

describe('kubectl-mcp: a get of one aspect of a pod is not the pod whole', () => {
  const world = (yaml = false): KmWorld => ({
    yaml,
    services: [{ name: 'shopfront', ns: 'web', selector: 'app=shopfront,tier=frontend' }],
    pods: ['md2c4', 'x7k9p'].map((id) => ({
      name: `shopfront-df2wmpmp68-${id}`,
      ns: 'web',
      phase: 'Running' as const,
      created: 600,
      owner: 'ReplicaSet/shopfront-df2wmpmp68',
      image: 'registry.example/shopfront:5.14.0',
      labels: ['app.kubernetes.io/name=shopfront', 'pod-template-hash=df2wmpmp68'],
    })),
  });
  const message = 'site returns 503 for everyone since ~half an hour. pods are all green';

  it("the pod is described (its labels): the Service's selector matches none of its pods", async () => {
    const { result, gateway } = await investigateAt(kmTools(world()), message, NOW);
    expect(answerOf(result)).toMatch(
      /The Service shopfront selects app=shopfront,tier=frontend, but no pod carries these labels/,
    );
    expect(
      gateway.calls.map((c) => `${c.tool} ${String(c.params['resource_type'] ?? '')}`),
    ).toContain('k8s:kubectl_describe pod');
  });

  it('near miss: a server with a get of the whole pod: that is read', async () => {
    const { result, gateway } = await investigateAt(kmTools(world(true)), message, NOW);
    expect(answerOf(result)).toMatch(/but no pod carries these labels/);
    expect(gateway.calls.map((c) => c.tool)).toContain('k8s:get_resource_yaml');
  });
});

describe('kubectl describe service: its selector', () => {
  const svc = (selector: string) =>
    observe(
      {
        success: true,
        description: [
          'Name:              shopfront',
          'Namespace:         web',
          'Labels:            <none>',
          'Annotations:       <none>',
          `Selector:          ${selector}`,
          'Type:              ClusterIP',
          'IP:                10.100.1.9',
        ].join('\n'),
      },
      {
        tool: 'k8s:kubectl_describe',
        verb: 'describe',
        kind: 'service',
        namespace: 'web',
        now: NOW,
      },
    ).objects.find((o) => o.kind === 'service');

  it('reads "Selector: app=x,tier=y" as the selector', () => {
    expect(svc('app=shopfront,tier=frontend')?.fields['selector']).toBe(
      'app=shopfront,tier=frontend',
    );
  });

  it('near miss: "<none>" selects nothing', () => {
    expect(svc('<none>')?.fields['selector']).toBe('');
  });
});

describe('kubectl-mcp: a report about pods, called for another kind', () => {
  const kinds = (rows: Record<string, unknown>[]) =>
    observe(
      { success: true, totalAnalyzed: rows.length, recommendations: rows },
      { tool: 'k8s:get_resource_recommendations', verb: 'list', kind: 'cronjob', now: NOW },
    ).objects.map((o) => `${o.kind}/${o.name}`);

  it('a row that names only a pod ({pod, issues}) is about that pod, not a CronJob', () => {
    expect(
      kinds([{ pod: 'payout-worker-n2fp8ht6l7-dzkrf', namespace: 'payments', issues: ['x'] }]),
    ).toEqual(['pod/payout-worker-n2fp8ht6l7-dzkrf']);
  });

  it('near miss: a row with a name is of the kind asked for', () => {
    expect(
      kinds([{ name: 'nightly-report', namespace: 'payments', schedule: '0 2 * * *' }]),
    ).toEqual(['cronjob/nightly-report']);
  });
});
