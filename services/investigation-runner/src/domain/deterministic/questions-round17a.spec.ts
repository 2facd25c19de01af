/**
 * Two kinds of question of round 17, each asked in words other than the bench's and answered from
 * outputs shaped like real ones (`kubectl get` tables and `kubectl describe` text as libs/kube
 * prints them, Kubernetes API objects as JSON): which HorizontalPodAutoscalers are at their
 * maximum replicas right now, which Services are of type ExternalName and where each points.
 */
import { describe as kubeDescribe, getTable } from '@inquest/kube';
import { scopeIncident } from './scope';
import {
  NOW,
  apiTools,
  hpaObj,
  investigateAt,
  serviceObj,
  table,
  textTools,
  type ApiWorld,
  type TextWorld,
} from './spec-world';

type Obj = Record<string, unknown>;
const now = new Date(NOW);
const nameOf = (o: Obj) => String((o['metadata'] as Obj)['name']);
const describedAll = (objs: Obj[]) =>
  Object.fromEntries(
    objs.map((o) => [
      `${String(o['kind']).toLowerCase()}/${nameOf(o)}`,
      kubeDescribe(o, { events: [], now, related: [] }),
    ]),
  );

describe('questions of round 17a: phrasings', () => {
  it.each([
    ['which autoscalers are maxed out?', 'hpas_at_max'],
    ['is any HPA at its ceiling in shop?', 'hpas_at_max'],
    ["which HPAs can't scale further?", 'hpas_at_max'],
    ['quick one: which HPAs in shop are maxed out right now (at max replicas)?', 'hpas_at_max'],
    ['list the horizontal pod autoscalers that reached their maximum', 'hpas_at_max'],
    ['any deployments sitting at max replicas?', 'hpas_at_max'],
    ['what external names do our services point at?', 'external_names'],
    ['list the ExternalName services in integrations', 'external_names'],
    ['which services alias an outside host?', 'external_names'],
    [
      'which services in the integrations namespace are ExternalName, and what does each one point to?',
      'external_names',
    ],
    ['any services pointing to an external host?', 'external_names'],
  ])('"%s" is a %s question', (message, type) => {
    expect(scopeIncident(message, {}, NOW).question?.type).toBe(type);
  });

  it('reads the namespace the question names', () => {
    expect(scopeIncident('is any HPA at its ceiling in shop?', {}, NOW).question).toEqual(
      expect.objectContaining({ type: 'hpas_at_max', near: ['shop'] }),
    );
    expect(
      scopeIncident('list the ExternalName services in integrations', {}, NOW).question,
    ).toEqual(expect.objectContaining({ type: 'external_names', near: ['integrations'] }));
  });

  it.each([
    'checkout-api is at max replicas and still slow, why?',
    'why is the cart-api HPA maxed out?',
    'the HPA of search-api is at its max and requests time out',
    'the cluster autoscaler hit its max, which node groups are full?',
    'which pods are at their memory limit?',
    "the erp ExternalName service can't resolve its host",
    'what is the max replicas of the checkout HPA?',
  ])('"%s" asks no such question', (message) => {
    expect(
      ['hpas_at_max', 'external_names'].includes(
        scopeIncident(message, {}, NOW).question?.type ?? '',
      ),
    ).toBe(false);
  });
});

// ---------------------------------------------------------------- HPAs at their maximum

/** an HPA whose pods' CPU stands at `used` percent of request */
const hpa = (name: string, h: { min: number; max: number; current: number; used: number }) => {
  const o = hpaObj(name, 'shop', name, { ...h, cpu: 70, created: 60 * 24 * 90 });
  const status = o['status'] as Obj;
  status['currentMetrics'] = [
    { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: h.used } } },
  ];
  if (h.current === h.max)
    status['conditions'] = [
      {
        type: 'ScalingLimited',
        status: 'True',
        reason: 'TooManyReplicas',
        message: 'the desired replica count is more than the maximum replica count',
      },
    ];
  return o;
};

describe('questions of round 17a: which HPAs are at their maximum replicas', () => {
  const hpas = [
    hpa('cart-api', { min: 2, max: 6, current: 6, used: 86 }),
    hpa('search-api', { min: 3, max: 5, current: 5, used: 93 }),
    hpa('recommendations', { min: 2, max: 6, current: 5, used: 68 }),
    // at 8/8 yesterday, scaled back since
    hpa('web-frontend', { min: 2, max: 8, current: 3, used: 45 }),
  ];

  it('"which autoscalers are maxed out?": `kubectl get hpa` (REPLICAS against MAXPODS); one below max and one that was at max earlier left out', async () => {
    const world: TextWorld = {
      tables: { horizontalpodautoscaler: getTable('HorizontalPodAutoscaler', hpas, { now }) },
      describe: {},
    };
    const { text } = await investigateAt(
      textTools(world),
      'which autoscalers are maxed out?',
      NOW,
      'shop',
    );
    expect(text).toContain(
      '2 of the 4 HorizontalPodAutoscalers in namespace shop are at their maximum replicas right now',
    );
    expect(text).toContain(
      'cart-api at 6/6 replicas (scales Deployment/cart-api; metrics cpu: 86%/70%)',
    );
    expect(text).toContain('search-api at 5/5 replicas');
    expect(text).toContain('The other 2 are below their maximum.');
    expect(text).not.toMatch(/recommendations at|web-frontend at/);
  });

  it('"which HPAs can\'t scale further?": a listing without the counts, each HPA described ("Deployment pods: 6 current / 6 desired", its metrics)', async () => {
    const world: TextWorld = {
      tables: {
        horizontalpodautoscaler: table(
          ['NAME', 'AGE'],
          hpas.map((h) => [nameOf(h), '90d']),
        ),
      },
      describe: describedAll(hpas),
    };
    const { text } = await investigateAt(
      textTools(world),
      "which HPAs in shop can't scale further?",
      NOW,
      'shop',
    );
    expect(text).toContain(
      'cart-api at 6/6 replicas (scales Deployment/cart-api; metrics cpu: 86%/70%; ScalingLimited: it wants more replicas than its maximum)',
    );
    expect(text).toContain('search-api at 5/5 replicas');
    expect(text).not.toMatch(/recommendations at|web-frontend at/);
  });

  it('"which HPAs in shop are pegged at max replicas?": API objects, the metrics read from spec and status', async () => {
    const { text } = await investigateAt(
      apiTools({ objects: hpas }),
      'which HPAs in shop are pegged at max replicas?',
      NOW,
    );
    expect(text).toContain(
      '2 of the 4 HorizontalPodAutoscalers in namespace shop are at their maximum replicas right now (current = maxReplicas): cart-api at 6/6 replicas (scales Deployment/cart-api; metrics cpu: 86%/70%; ScalingLimited: it wants more replicas than its maximum); search-api at 5/5 replicas (scales Deployment/search-api; metrics cpu: 93%/70%;',
    );
    expect(text).not.toMatch(/recommendations at|web-frontend at/);
  });

  it('"is any HPA at its ceiling in shop?": API objects, none at max is an answer too', async () => {
    const world: ApiWorld = { objects: hpas.slice(2) };
    const { text } = await investigateAt(
      apiTools(world),
      'is any HPA at its ceiling in shop?',
      NOW,
    );
    expect(text).toContain(
      'None of the 2 HorizontalPodAutoscalers in namespace shop is at its maximum replicas right now',
    );
    expect(text).not.toMatch(/recommendations at|web-frontend at/);
  });
});

// ---------------------------------------------------------------- ExternalName Services

const alias = (name: string, ns: string, host: string): Obj => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace: ns, creationTimestamp: '2025-08-06T14:20:00Z' },
  spec: { type: 'ExternalName', externalName: host, sessionAffinity: 'None' },
});

describe('questions of round 17a: which Services are ExternalName and where each points', () => {
  const services = [
    serviceObj('webhook-relay', 'integrations', { app: 'webhook-relay' }, 8080, { port: 80 }),
    alias('erp', 'integrations', 'erp.corp.northwind.local'),
    alias('smtp', 'integrations', 'email-smtp.eu-west-1.amazonaws.com'),
    alias('old-orders-db', 'legacy', 'db1.corp.northwind.local'),
    serviceObj('cms', 'legacy', { app: 'cms' }, 8080, { port: 80 }),
  ];

  it('"list the ExternalName services in integrations": `kubectl get svc -A` (the name under EXTERNAL-IP); another namespace\'s alias left out', async () => {
    const world: TextWorld = {
      tables: { service: getTable('Service', services, { now, allNamespaces: true }) },
      describe: {},
    };
    const { text } = await investigateAt(
      textTools(world),
      'list the ExternalName services in integrations',
      NOW,
    );
    expect(text).toContain(
      '2 Services are of type ExternalName in namespace integrations (of 3 Services seen): erp points to erp.corp.northwind.local; smtp points to email-smtp.eu-west-1.amazonaws.com.',
    );
    expect(text).not.toContain('old-orders-db');
  });

  it('"which services alias an outside host?": API objects in every namespace, each with its namespace', async () => {
    const world: ApiWorld = { objects: services };
    const { text } = await investigateAt(
      apiTools(world),
      'which services alias an outside host?',
      NOW,
    );
    expect(text).toContain('3 Services are of type ExternalName (of 5 Services seen)');
    expect(text).toContain('old-orders-db (namespace legacy) points to db1.corp.northwind.local');
    expect(text).toContain('erp (namespace integrations) points to erp.corp.northwind.local');
    expect(text).not.toMatch(/webhook-relay \(|cms \(/);
  });

  it('"what external names do our services point at?": a listing without TYPE, each Service described ("External Name:")', async () => {
    const inNs = services.filter((s) => (s['metadata'] as Obj)['namespace'] === 'integrations');
    const world: TextWorld = {
      tables: {
        service: table(
          ['NAME', 'AGE'],
          inNs.map((s) => [nameOf(s), '40d']),
        ),
      },
      describe: describedAll(inNs),
    };
    const { text } = await investigateAt(
      textTools(world),
      'what external names do our services point at?',
      NOW,
      'integrations',
    );
    expect(text).toContain(
      '2 Services are of type ExternalName in namespace integrations (of 3 Services seen): erp points to erp.corp.northwind.local; smtp points to email-smtp.eu-west-1.amazonaws.com.',
    );
  });
});
