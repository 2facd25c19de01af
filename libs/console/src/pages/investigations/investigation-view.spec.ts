import {
  byPriority,
  classifyTimelineEvent,
  formatDuration,
  groupEvidence,
  listRefreshMs,
  timelinePicture,
} from './investigation-view';

describe('timeline picture', () => {
  // entries as the deterministic engine writes them (conclude.ts timeline())
  const entries = [
    {
      timestamp: '2026-11-25T10:05:00.000Z',
      event: 'log checkout: ERROR connection refused to db:5432 (x12)',
    },
    {
      timestamp: '2026-11-25T10:00:00.000Z',
      event: 'rollout: ReplicaSet checkout-7d9f created (shop/checkout:2.4.1)',
    },
    {
      timestamp: '2026-11-25T09:30:00.000Z',
      event: 'rollout: checkout revision 41 (shop/checkout:2.4.0)',
    },
    {
      timestamp: '2026-11-25T10:06:00.000Z',
      event:
        'BackOff Pod/checkout-7d9f-abc: Back-off restarting failed container (x5, until 2026-11-25T10:09:00.000Z)',
    },
    {
      timestamp: '2026-11-25T10:20:00.000Z',
      event: 'rollout: ReplicaSet checkout-8e1a created (shop/checkout:2.4.2)',
    },
    { timestamp: 'not a time', event: 'dropped' },
  ];

  it("classifies the engine's lines", () => {
    expect(classifyTimelineEvent(entries[1]!.event)).toBe('change');
    expect(
      classifyTimelineEvent(
        'ScalingReplicaSet Deployment/checkout: Scaled up replica set checkout-7d9f to 3',
      ),
    ).toBe('change');
    expect(classifyTimelineEvent(entries[0]!.event)).toBe('error');
    expect(classifyTimelineEvent('OOMKilling Node/n1: Memory cgroup out of memory')).toBe('error');
    expect(
      classifyTimelineEvent(
        'Unhealthy Pod/api-1: Readiness probe failed: HTTP probe failed with statuscode: 503',
      ),
    ).toBe('error');
    expect(classifyTimelineEvent('NodeReady Node/n1: node is ready')).toBe('other');
  });

  it('sorts by time, spreads over 0..1 and marks the first error and the change just before it', () => {
    const p = timelinePicture(entries);
    expect(p.points.map((x) => x.timestamp)).toEqual([
      '2026-11-25T09:30:00.000Z',
      '2026-11-25T10:00:00.000Z',
      '2026-11-25T10:05:00.000Z',
      '2026-11-25T10:06:00.000Z',
      '2026-11-25T10:20:00.000Z',
    ]);
    expect(p.points[0]!.x).toBe(0);
    expect(p.points[4]!.x).toBe(1);
    expect(p.points[1]!.x).toBeCloseTo(30 / 50);
    expect(p.firstError).toBe(2);
    // the later rollout (10:20) is not "the change before"; the 10:00 one is, not the 09:30 one
    expect(p.changeBefore).toBe(1);
  });

  it('has no change mark when nothing changed before the first error, and copes with one point', () => {
    const p = timelinePicture([
      { timestamp: '2026-11-25T10:05:00Z', event: 'log api: panic: nil map' },
      { timestamp: '2026-11-25T10:06:00Z', event: 'rollout: api revision 3 (api:1.1)' },
    ]);
    expect(p.firstError).toBe(0);
    expect(p.changeBefore).toBeUndefined();
    const one = timelinePicture([{ timestamp: '2026-11-25T10:05:00Z', event: 'NodeReady n1' }]);
    expect(one.points[0]!.x).toBe(0.5);
    expect(one.firstError).toBeUndefined();
    expect(timelinePicture([]).points).toEqual([]);
  });
});

describe('evidence by tool', () => {
  it('groups "<tool>: fact" lines in order of first appearance', () => {
    const groups = groupEvidence([
      'k8s:get_pod_logs: ERROR connection refused | checkout-7d9f-abc',
      'k8s:get_events: BackOff restarting failed container',
      'k8s:get_pod_logs: second line: with a colon',
      'learned_patterns: matches a pattern seen 3x (db password rotated)',
      '14 tool call(s): 3/3 pods of checkout are running and ready',
      'something without a source',
    ]);
    expect(groups).toEqual([
      {
        tool: 'k8s:get_pod_logs',
        items: ['ERROR connection refused | checkout-7d9f-abc', 'second line: with a colon'],
      },
      { tool: 'k8s:get_events', items: ['BackOff restarting failed container'] },
      { tool: 'learned_patterns', items: ['matches a pattern seen 3x (db password rotated)'] },
      { tool: 'summary', items: ['14 tool call(s): 3/3 pods of checkout are running and ready'] },
      { tool: 'other', items: ['something without a source'] },
    ]);
  });
});

describe('small helpers', () => {
  it('orders recommendations high, medium, low and drops empty groups', () => {
    const recs = [
      { priority: 'low' as const, action: 'c' },
      { priority: 'high' as const, action: 'a' },
      { priority: 'high' as const, action: 'b' },
    ];
    expect(byPriority(recs).map(([p, l]) => [p, l.map((r) => r.action)])).toEqual([
      ['high', ['a', 'b']],
      ['low', ['c']],
    ]);
  });

  it('refreshes the list only while something runs, slower with many pages', () => {
    expect(listRefreshMs(['completed', 'failed'], 1)).toBe(false);
    expect(listRefreshMs(['completed', 'running'], 1)).toBe(5000);
    expect(listRefreshMs(['pending'], 10)).toBe(15000);
  });

  it('formats durations', () => {
    expect(formatDuration(12.4)).toBe('12 s');
    expect(formatDuration(184)).toBe('3 min 4 s');
    expect(formatDuration(3720)).toBe('1 h 2 min');
    expect(formatDuration(undefined)).toBe('—');
  });
});
