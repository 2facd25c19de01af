/**
 * An object's events come with its `kubectl describe` text (its Events section). Once the
 * describe tool has shown that it prints them, no events tool is called for the objects it
 * describes: the call budget goes to logs and to the next hop. Near miss: a describe tool whose
 * text has no Events section still has each object's events read with the events tool.
 */
import {
  conclusion,
  describePod,
  investigate,
  kubeTime,
  podsTable,
  str,
  textTools,
  type FakeTool,
  type TextWorld,
} from './spec-world';

const PODS = ['api-7c9d8b6f5-abcde', 'api-7c9d8b6f5-fghij'];

function world(withEvents: boolean): TextWorld {
  const describe = (name: string) => {
    const text = describePod({
      name,
      namespace: 'shop',
      node: 'worker-1',
      labels: ['app=api'],
      controlledBy: 'ReplicaSet/api-7c9d8b6f5',
      status: 'Running',
      container: {
        name: 'api',
        image: 'registry.example.com/api:2.4.0',
        state: ['Waiting', 'Reason:       CrashLoopBackOff'],
        last: [
          'Terminated',
          'Reason:       Error',
          'Exit Code:    1',
          `Started:      ${kubeTime(6)}`,
          `Finished:     ${kubeTime(5)}`,
        ],
        ready: false,
        restarts: 9,
      },
      conditions: [
        ['Ready', 'False'],
        ['ContainersReady', 'False'],
      ],
      events: [
        [
          'Warning',
          'BackOff',
          '2m (x40 over 30m)',
          'kubelet',
          'Back-off restarting failed container api in pod ' + name,
        ],
      ],
    });
    // a describe tool of another server: the same text without the Events section
    return withEvents ? text : text.slice(0, text.indexOf('Events:'));
  };
  return {
    tables: {
      pod: podsTable(PODS.map((n) => [n, '0/1', 'CrashLoopBackOff', '9', '40m', 'worker-1'])),
    },
    describe: Object.fromEntries(PODS.map((n) => [`pod/${n}`, describe(n)])),
    logs: Object.fromEntries(PODS.map((n) => [n, ''])),
    previous: Object.fromEntries(
      PODS.map((n) => [n, 'Error: environment variable DATABASE_URL is not set']),
    ),
  };
}

/** An events tool for one object (kind and name), beside the text world's namespace events. */
const objectEvents = (calls: string[]): FakeTool => ({
  name: 'object_events',
  description: 'Kubernetes events of one object (kubectl events --for kind/name).',
  properties: { kind: str, name: str, namespace: str },
  required: ['kind', 'name', 'namespace'],
  handler: (p) => {
    calls.push(String(p['name']));
    return 'No events found.';
  },
});

describe('an object described with its events', () => {
  it('reads no events tool for objects a describe tool printing Events has described', async () => {
    const calls: string[] = [];
    const { result } = await investigate(
      [...textTools(world(true)), objectEvents(calls)],
      'api in namespace shop keeps restarting',
      { namespace: 'shop' },
    );
    expect(calls).toEqual([]);
    // the events still count: they came with the description
    expect(conclusion(result)).toMatch(/DATABASE_URL/);
  });

  it('near miss: a describe text without an Events section: each object has its events read', async () => {
    const calls: string[] = [];
    await investigate(
      [...textTools(world(false)), objectEvents(calls)],
      'api in namespace shop keeps restarting',
      { namespace: 'shop' },
    );
    expect(calls).toEqual(expect.arrayContaining([PODS[0]]));
  });
});
