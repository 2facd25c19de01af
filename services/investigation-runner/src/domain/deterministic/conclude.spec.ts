/**
 * How the conclusion lists what else it saw: a failure seen in several log lines of one workload
 * is one "Also seen" recommendation, not one per line.
 */
import {
  NOW,
  ago,
  apiTools,
  deploymentObj,
  investigateAt,
  namespaceObj,
  podObj,
  stamped,
  warningEvent,
  type Box,
} from './spec-world';

const crashBox = (): Box => ({
  name: 'checkout',
  image: 'registry.example.com/shop/checkout:3.1.0',
  restarts: 7,
  state: {
    waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container' },
  },
  lastState: {
    terminated: { exitCode: 1, reason: 'Error', startedAt: ago(10), finishedAt: ago(6) },
  },
});

const pullBox = (): Box => ({
  name: 'orders',
  image: 'registry.example.com/shop/orders:9.9.9',
  state: {
    waiting: { reason: 'CreateContainerConfigError', message: 'secret "orders-db" not found' },
  },
  ready: false,
});

const pod = (app: string, hash: string, suffix: string, boxes: Box[]) =>
  podObj({
    name: `${app}-${hash}-${suffix}`,
    ns: 'shop',
    labels: { app, 'pod-template-hash': hash },
    owner: { kind: 'ReplicaSet', name: `${app}-${hash}` },
    boxes,
    created: 90,
  });

describe('conclusion: also seen', () => {
  it('lists a second failure once per workload, however many of its log lines show it', async () => {
    const tools = apiTools({
      objects: [
        namespaceObj('shop'),
        deploymentObj('checkout', 'shop', ['registry.example.com/shop/checkout:3.1.0'], 2, 0),
        deploymentObj('orders', 'shop', ['registry.example.com/shop/orders:9.9.9'], 3, 0),
        pod('checkout', '6d8f9c7b5', 'k2x9q', [crashBox()]),
        pod('checkout', '6d8f9c7b5', 'p7m4w', [crashBox()]),
        pod('orders', '5b7c9d8f4', 'a1b2c', [pullBox()]),
        pod('orders', '5b7c9d8f4', 'd3e4f', [pullBox()]),
        pod('orders', '5b7c9d8f4', 'g5h6j', [pullBox()]),
      ],
      previous: {
        'checkout-6d8f9c7b5-k2x9q': stamped([
          [30, 'INFO listening on :8080'],
          [
            9,
            'ERROR payments call failed: x509: certificate has expired or is not yet valid: current time 2026-03-10T11:51:00Z is after 2026-03-09T23:59:59Z',
          ],
          [
            7,
            'ERROR ledger call failed: x509: certificate has expired or is not yet valid: current time 2026-03-10T11:53:00Z is after 2026-03-10T06:00:00Z',
          ],
          [6, 'FATAL cannot reach payments, exiting'],
        ]),
      },
    });
    const { result } = await investigateAt(tools, 'what is wrong in namespace shop?', NOW, 'shop');
    const also = result.recommendations
      .map((r) => r.action)
      .filter((a) => a.startsWith('Also seen:'));
    const keys = also.map((a) => a.replace(/ \(".*$/, ''));
    expect(keys.length).toBeGreaterThan(0);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("says when an event line's count is of several pods", async () => {
    const names = ['k2x9q', 'p7m4w', 'z8n3v'].map((x) => `checkout-6d8f9c7b5-${x}`);
    const tools = apiTools({
      objects: [
        namespaceObj('shop'),
        deploymentObj('checkout', 'shop', ['registry.example.com/shop/checkout:3.1.0'], 3, 0),
        ...names.map((n) => pod('checkout', '6d8f9c7b5', n.slice(-5), [crashBox()])),
      ],
      events: names.map((n, i) =>
        warningEvent(
          'shop',
          { kind: 'Pod', name: n },
          'BackOff',
          `Back-off restarting failed container checkout in pod ${n}_shop`,
          40,
          2,
          5 + i,
        ),
      ),
      previous: Object.fromEntries(
        names.map((n) => [n, stamped([[7, 'FATAL config: missing required key PAYMENTS_URL']])]),
      ),
    });
    const { result } = await investigateAt(tools, 'checkout keeps restarting', NOW, 'shop');
    const line = result.timeline.map((t) => t.event).find((e) => e.startsWith('BackOff'));
    expect(line).toContain('(x18, on 3 pods of checkout,');
  });
});
