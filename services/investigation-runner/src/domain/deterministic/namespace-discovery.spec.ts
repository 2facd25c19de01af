import { observe } from './observe';
import { conclusion, investigate, NOW, str, type FakeTool } from './spec-world';

// A tool server like the demo's: namespaces answered as a list of names, pods listed only per
// namespace, and a log search.
const pod = (name: string, status: string, restarts: number, reason?: string) => ({
  name,
  app: 'checkout-api',
  status,
  ready: status === 'Running' ? '1/1' : '0/1',
  restarts,
  ...(reason ? { last_termination_reason: reason } : {}),
  node: 'ip-10-0-1-23.ec2.internal',
});

function tools(): FakeTool[] {
  return [
    {
      name: 'list_namespaces',
      description: 'List Kubernetes namespaces of the cluster.',
      properties: {},
      required: [],
      handler: () => ({ cluster: 'prod', namespaces: ['payments', 'search', 'shop'] }),
    },
    {
      name: 'list_pods',
      description:
        'List pods of a namespace with status, readiness, restarts and last termination reason.',
      properties: { namespace: str },
      required: ['namespace'],
      handler: (p) => ({
        namespace: p['namespace'],
        pods:
          p['namespace'] === 'shop'
            ? [
                pod('checkout-api-7d9c-x1', 'CrashLoopBackOff', 7, 'OOMKilled'),
                pod('checkout-api-7d9c-x2', 'CrashLoopBackOff', 6, 'OOMKilled'),
              ]
            : [],
      }),
    },
    {
      name: 'search_logs',
      description:
        'Full-text search over the logs of every service (case-insensitive), newest first.',
      properties: { query: str, service: str },
      required: ['query'],
      handler: () => ({
        total: 1,
        hits: [
          {
            timestamp: new Date(NOW - 60_000).toISOString(),
            service: 'checkout-api',
            pod: 'checkout-api-7d9c-x1',
            level: 'INFO',
            message: 'cart cache warmed',
          },
        ],
      }),
    },
  ];
}

describe('namespaces a tool answers as a list of names', () => {
  it('are namespace objects', () => {
    const out = observe(
      { cluster: 'prod', namespaces: ['shop', 'payments'] },
      { tool: 'demo:list_namespaces', verb: 'list', kind: 'namespace', now: NOW },
    );
    expect(out.objects.map((o) => `${o.kind}/${o.name}`)).toEqual([
      'namespace/shop',
      'namespace/payments',
    ]);
  });

  it('lead to the pods of each namespace when the request names none', async () => {
    const { result, toolsUsed } = await investigate(tools(), 'checkout is returning 500s', {
      service: 'checkout',
    });
    expect(toolsUsed).toContain('k8s:list_pods');
    const text = conclusion(result);
    expect(text).not.toMatch(/No problem found/);
    expect(text).toMatch(/CrashLoopBackOff/);
    expect(text).toMatch(/checkout-api/);
  });
});
