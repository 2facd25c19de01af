/**
 * The engine rule of f560bcf, with its near misses, on real-shaped API objects: work piling up
 * that nobody consumes (a RabbitMQ queue with ready messages and no consumers) has the cluster's
 * KEDA ScaledObjects listed (the one whose trigger queue the request names first), its namespace's
 * events and its TriggerAuthentication read; a KEDAScalerFailed event on that ScaledObject is the
 * cause: the ScaledObject is named, its error quoted, its target said to stay at zero replicas
 * when minReplicaCount is 0, and the TriggerAuthentication and the Secret it reads are named.
 */
import {
  NOW,
  answerOf,
  apiTools,
  deploymentObj,
  investigateAt,
  kubeEvent,
  namespaceObj,
  podObj,
  warningEvent,
  type ApiWorld,
} from './spec-world';

type Obj = Record<string, unknown>;
type Calls = { tool: string; params: Obj }[];

/** minutes in a day */
const DAY = 60 * 24;

/** an event KEDA's operator reports about a ScaledObject (its involvedObject in keda.sh) */
const kedaEvent = (ev: Obj): Obj => ({
  ...ev,
  involvedObject: {
    ...(ev['involvedObject'] as Obj),
    apiVersion: 'keda.sh/v1alpha1',
  },
});

describe('rule of f560bcf: a queue nobody consumes, its KEDA ScaledObject whose scaler fails', () => {
  const ns = 'parcel-labels';
  const consumer = 'label-printer';
  const image = 'registry.example.net/parcel/label-printer:4.7.2';
  const queue = 'courier-manifests';
  const so = 'label-printer-rmq';
  const auth = 'label-printer-amqp-auth';
  const secret = 'label-printer-amqp-creds';
  const refusal =
    'error establishing rabbitmq connection: Exception (403) Reason: "username or password not allowed"';

  // another namespace's ScaledObject, on a Kafka topic the requests do not name, failing too
  const otherNs = 'returns-audit';
  const otherSo = 'returns-ledger-kafka';
  const otherRefusal =
    'error creating kafka client: kafka: client has run out of available brokers to talk to';

  // a workload the near-miss request is about, in its own namespace, with nothing wrong with it
  const shopNs = 'storefront';
  const shop = 'checkout-api';

  const scaledObject = (
    name: string,
    namespace: string,
    target: string,
    min: number,
    trigger: Obj,
  ): Obj => ({
    apiVersion: 'keda.sh/v1alpha1',
    kind: 'ScaledObject',
    metadata: {
      name,
      namespace,
      creationTimestamp: new Date(NOW - 120 * DAY * 60_000).toISOString(),
      labels: { 'scaledobject.keda.sh/name': name },
    },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target },
      pollingInterval: 15,
      cooldownPeriod: 300,
      minReplicaCount: min,
      maxReplicaCount: 12,
      triggers: [trigger],
    },
    status: {
      scaleTargetKind: 'apps/v1.Deployment',
      scaleTargetGVKR: {
        group: 'apps',
        version: 'v1',
        kind: 'Deployment',
        resource: 'deployments',
      },
      originalReplicaCount: 2,
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'ScaledObjectReady',
          message: 'ScaledObject is defined correctly and is ready for scaling',
        },
        {
          type: 'Active',
          status: 'False',
          reason: 'ScalerNotActive',
          message: 'Scaling is not performed because triggers are not active',
        },
        { type: 'Fallback', status: 'False', reason: 'NoFallbackFound', message: '' },
      ],
    },
  });

  const triggerAuthentication: Obj = {
    apiVersion: 'keda.sh/v1alpha1',
    kind: 'TriggerAuthentication',
    metadata: {
      name: auth,
      namespace: ns,
      creationTimestamp: new Date(NOW - 120 * DAY * 60_000).toISOString(),
    },
    spec: {
      secretTargetRef: [
        { parameter: 'host', name: secret, key: 'amqp-uri' },
        { parameter: 'password', name: secret, key: 'rabbitmq-password' },
      ],
    },
  };

  /** the world; `min` the consumer's ScaledObject minReplicaCount, `failing` its scaler's events */
  const world = (o: { min: number; failing: boolean }): ApiWorld => ({
    objects: [
      namespaceObj(ns),
      namespaceObj(otherNs),
      namespaceObj(shopNs),
      deploymentObj(consumer, ns, [image], o.min, o.min, [], { created: 120 * DAY }),
      ...Array.from({ length: o.min }, (_, i) =>
        podObj({
          name: `${consumer}-6c9f7d4b85-${['q2wxz', 'h7lmn'][i]}`,
          ns,
          labels: { app: consumer, 'pod-template-hash': '6c9f7d4b85' },
          owner: { kind: 'ReplicaSet', name: `${consumer}-6c9f7d4b85` },
          created: 3 * DAY,
          boxes: [{ name: consumer, image }],
        }),
      ),
      scaledObject(so, ns, consumer, o.min, {
        type: 'rabbitmq',
        metadata: { protocol: 'amqp', queueName: queue, mode: 'QueueLength', value: '40' },
        authenticationRef: { name: auth },
      }),
      triggerAuthentication,
      scaledObject(otherSo, otherNs, 'returns-ledger', 0, {
        type: 'kafka',
        metadata: {
          bootstrapServers: 'kafka-brokers.streaming.svc:9092',
          consumerGroup: 'returns-ledger',
          topic: 'returns-ledger-events',
          lagThreshold: '100',
        },
      }),
      deploymentObj('returns-ledger', otherNs, ['registry.example.net/returns/ledger:2.0.9'], 0, 0),
      deploymentObj(shop, shopNs, ['registry.example.net/storefront/checkout-api:12.3.0'], 2, 2),
      ...['b5kfp', 'x8trd'].map((s) =>
        podObj({
          name: `${shop}-7d5c8f9b44-${s}`,
          ns: shopNs,
          labels: { app: shop, 'pod-template-hash': '7d5c8f9b44' },
          owner: { kind: 'ReplicaSet', name: `${shop}-7d5c8f9b44` },
          created: 5 * DAY,
          boxes: [{ name: shop, image: 'registry.example.net/storefront/checkout-api:12.3.0' }],
        }),
      ),
    ],
    events: [
      kedaEvent(
        kubeEvent(
          ns,
          { kind: 'ScaledObject', name: so },
          'Normal',
          'KEDAScalersStarted',
          `Scaler rabbitmq is built.`,
          9 * DAY,
          9 * DAY,
          1,
          'keda-operator',
        ),
      ),
      ...(o.failing
        ? [
            kedaEvent(
              warningEvent(
                ns,
                { kind: 'ScaledObject', name: so },
                'KEDAScalerFailed',
                refusal,
                310,
                1,
                1187,
                'keda-operator',
              ),
            ),
          ]
        : []),
      kedaEvent(
        warningEvent(
          otherNs,
          { kind: 'ScaledObject', name: otherSo },
          'KEDAScalerFailed',
          otherRefusal,
          95,
          2,
          361,
          'keda-operator',
        ),
      ),
    ],
  });

  const ask = `queue ${queue} has 50k ready messages and no consumers, couriers are waiting at the dock`;
  const listedScaledObjects = (calls: Calls) =>
    calls.some(
      (c) =>
        c.tool === 'k8s:resources_list' &&
        String(c.params['kind']).toLowerCase() === 'scaledobject',
    );
  const readNamespaceEvents = (calls: Calls) =>
    calls.some((c) => c.tool === 'k8s:events_list' && c.params['namespace'] === ns);
  const readTriggerAuthentication = (calls: Calls) =>
    calls.some(
      (c) =>
        (c.tool === 'k8s:resources_list' || c.tool === 'k8s:resources_get') &&
        String(c.params['kind']).toLowerCase() === 'triggerauthentication' &&
        c.params['namespace'] === ns,
    );

  it(`"${queue} has 50k ready messages and no consumers", its ScaledObject at minReplicaCount 0 with KEDAScalerFailed (403 username or password not allowed): the ScaledObjects, the namespace's events and the TriggerAuthentication are read; the ScaledObject is the cause, ${consumer} stays at zero, the TriggerAuthentication and its Secret are named`, async () => {
    const r = await investigateAt(apiTools(world({ min: 0, failing: true })), ask, NOW);
    expect(listedScaledObjects(r.gateway.calls)).toBe(true);
    expect(readNamespaceEvents(r.gateway.calls)).toBe(true);
    expect(readTriggerAuthentication(r.gateway.calls)).toBe(true);
    const a = answerOf(r.result);
    expect(a).toContain(`KEDA cannot read the trigger of ScaledObject ${so}`);
    expect(a).toContain(refusal);
    expect(a).toContain(
      `so it cannot scale ${consumer}: with minReplicaCount 0, ${consumer} stays at zero replicas`,
    );
    expect(a).toContain(`nothing consumes rabbitmq ${queue}`);
    expect(a).toContain(`TriggerAuthentication ${auth}, which reads Secret ${secret}`);
    // the other namespace's failing scaler is not the one the request names
    expect(r.text).not.toContain(otherSo);
    expect(r.text).not.toContain('run out of available brokers');
  });

  it(`"backlog growing on ${queue}" asked in the namespace of its consumer: the same cause`, async () => {
    const r = await investigateAt(
      apiTools(world({ min: 0, failing: true })),
      `backlog growing on ${queue}, nothing drains it`,
      NOW,
      ns,
    );
    const a = answerOf(r.result);
    expect(a).toContain(`ScaledObject ${so}`);
    expect(a).toContain('username or password not allowed');
    expect(a).toContain(`${consumer} stays at zero replicas`);
    expect(a).toContain(`TriggerAuthentication ${auth}`);
  });

  it('minReplicaCount 1 (a consumer still runs): the ScaledObject and its refusal are the cause, nothing "stays at zero"', async () => {
    const r = await investigateAt(apiTools(world({ min: 1, failing: true })), ask, NOW);
    const a = answerOf(r.result);
    expect(a).toContain(`KEDA cannot read the trigger of ScaledObject ${so}`);
    expect(a).toContain('username or password not allowed');
    expect(a).toContain(`TriggerAuthentication ${auth}, which reads Secret ${secret}`);
    expect(r.text).not.toMatch(/stays at zero|minReplicaCount 0/);
  });

  it('near miss: the ScaledObject has no KEDAScalerFailed event (its scaler works): it is listed and its namespace events read, no KEDA cause', async () => {
    const r = await investigateAt(apiTools(world({ min: 0, failing: false })), ask, NOW);
    expect(listedScaledObjects(r.gateway.calls)).toBe(true);
    expect(readNamespaceEvents(r.gateway.calls)).toBe(true);
    expect(r.text).not.toMatch(
      /KEDA cannot read|stays at zero replicas|username or password not allowed/,
    );
    expect(r.text).not.toContain(auth);
    expect(r.text).not.toContain(otherSo);
  });

  it(`near miss: "${shop} returns 500s" (not a backlog) in the same world, where the backlog request blames the scaler: no ScaledObject listed, KEDA not blamed`, async () => {
    const tools = apiTools(world({ min: 0, failing: true }));
    // the same world, asked about the backlog: the scaler is the cause
    const backlog = await investigateAt(tools, ask, NOW);
    expect(answerOf(backlog.result)).toContain(`ScaledObject ${so}`);
    for (const scope of [undefined, shopNs]) {
      const r = await investigateAt(
        tools,
        `${shop} returns 500s on checkout since this morning`,
        NOW,
        scope,
      );
      expect(listedScaledObjects(r.gateway.calls)).toBe(false);
      expect(answerOf(r.result)).toContain(shop);
      expect(r.text).not.toMatch(
        /KEDA|stays at zero replicas|username or password not allowed|ScaledObject/,
      );
      expect(r.text).not.toContain(auth);
    }
  });
});
