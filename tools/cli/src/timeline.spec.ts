import { condenseTimeline, repeatNote } from './timeline';

const at = (min: number, sec = 0) =>
  `2026-01-01T00:${String(min).padStart(2, '0')}:${String(sec).padStart(2, '0')}.000Z`;

describe('condenseTimeline', () => {
  it('collapses repeats of one reason and object, keeping the deploy that came first', () => {
    const events = [
      { timestamp: at(0), event: 'rollout: ReplicaSet checkout-7d9f created (shop/checkout:1.4)' },
      ...Array.from({ length: 14 }, (_, i) => ({
        timestamp: at(2 + i),
        event: `OOMKilled Pod/checkout-7d9f-x2k4p: container app OOMKilled (exit 137), restart ${i + 1}`,
      })),
      {
        timestamp: at(3),
        event: 'BackOff Pod/checkout-7d9f-x2k4p: Back-off restarting failed container',
      },
      {
        timestamp: at(9),
        event: 'BackOff Pod/checkout-7d9f-x2k4p: Back-off restarting failed container',
      },
    ];
    const { lines, hidden } = condenseTimeline(events);
    expect(hidden).toBe(0);
    expect(lines.map((l) => [l.timestamp, l.count, l.until, l.decisive])).toEqual([
      [at(0), 1, undefined, true],
      [at(2), 14, at(15), true], // the first error
      [at(3), 2, at(9), false],
    ]);
    expect(lines[1]!.event).toMatch(/^OOMKilled Pod\/checkout-7d9f-x2k4p: .* restart 1$/);
    expect(repeatNote(lines[1]!)).toBe('×14, 00:02:00–00:15:00');
    expect(repeatNote(lines[0]!)).toBe('');
  });

  it('adds up the counts of the engine’s own "(xN, until T)" summaries', () => {
    const { lines } = condenseTimeline([
      {
        timestamp: at(1),
        event: `Unhealthy Pod/api-1: Readiness probe failed (x5, until ${at(4)})`,
      },
      {
        timestamp: at(6),
        event: `Unhealthy Pod/api-1: Readiness probe failed (x3, until ${at(8)})`,
      },
    ]);
    expect(lines).toEqual([
      {
        timestamp: at(1),
        event: 'Unhealthy Pod/api-1: Readiness probe failed',
        count: 8,
        until: at(8),
        decisive: true,
      },
    ]);
  });

  it('gives no time range to repeats whose first and last time are the same second', () => {
    // an event with a count and only its last time: the engine writes `(x15, until <that time>)`
    const { lines } = condenseTimeline([
      {
        timestamp: at(34, 23),
        event: `OOMKilling pod/checkout-api-1: Memory cgroup out of memory (x15, until ${at(34, 23).replace('.000Z', '.404Z')})`,
      },
    ]);
    expect(lines.map((l) => [l.count, l.until])).toEqual([[15, '2026-01-01T00:34:23.404Z']]);
    expect(repeatNote(lines[0]!)).toBe('×15');
  });

  it('never merges two rollouts, and merges free text that differs only in numbers', () => {
    const pulls = condenseTimeline(
      Array.from({ length: 3 }, (_, i) => ({
        timestamp: at(i),
        event: 'Failed Pod/web-1: Failed to pull image "web:2.1": not found',
      })),
    );
    expect(pulls.lines.map((l) => l.count)).toEqual([3]);
    const scaled = condenseTimeline([
      {
        timestamp: at(1),
        event: 'ScalingReplicaSet Deployment/web: Scaled up replica set web-7 to 3',
      },
      {
        timestamp: at(2),
        event: 'ScalingReplicaSet Deployment/web: Scaled down replica set web-6 to 0',
      },
    ]);
    expect(scaled.lines.map((l) => l.decisive)).toEqual([true, true]);
    const { lines } = condenseTimeline([
      { timestamp: at(1), event: 'deploy checkout 1.4' },
      { timestamp: at(2), event: 'p99 latency 2300 ms on checkout' },
      { timestamp: at(3), event: 'p99 latency 2450 ms on checkout' },
      { timestamp: at(4), event: 'deploy checkout 1.5' },
    ]);
    expect(lines.map((l) => `${l.event} ${l.count}`)).toEqual([
      'deploy checkout 1.4 1',
      'p99 latency 2300 ms on checkout 2',
      'deploy checkout 1.5 1',
    ]);
  });

  it('beyond the limit leaves out the earliest ordinary lines, never a rollout or the first error', () => {
    const events = [
      { timestamp: at(0), event: 'Failed Pod/a: image pull error' },
      { timestamp: at(1), event: 'rollout: web revision 7 (web:2.0)' },
      ...Array.from({ length: 20 }, (_, i) => ({
        timestamp: at(2 + i),
        event: `Warning Pod/p${String.fromCharCode(97 + i)}: something happened`,
      })),
    ];
    const { lines, hidden } = condenseTimeline(events, 6);
    expect(hidden).toBe(16);
    expect(lines.map((l) => l.event)).toEqual([
      'Failed Pod/a: image pull error',
      'rollout: web revision 7 (web:2.0)',
      'Warning Pod/pq: something happened',
      'Warning Pod/pr: something happened',
      'Warning Pod/ps: something happened',
      'Warning Pod/pt: something happened',
    ]);
  });

  it('puts events in time order and spells out a range across days', () => {
    const { lines } = condenseTimeline([
      { timestamp: '2026-01-02T01:00:00.000Z', event: 'Evicted Pod/x: low memory' },
      { timestamp: '2026-01-01T23:00:00.000Z', event: 'Evicted Pod/x: low memory' },
    ]);
    expect(repeatNote(lines[0]!)).toBe('×2, 23:00:00–2026-01-02T01:00:00');
  });
});
