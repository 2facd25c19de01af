import { mergePatch } from '@inquest/config-model/merge';
import {
  assignProblems,
  diffRows,
  jsonLines,
  lineOf,
  mergePatchBetween,
  problemsOf,
  withValueAt,
} from './config-draft';

describe('mergePatchBetween', () => {
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['nothing changed', { a: 1, b: { c: [1] } }, { a: 1, b: { c: [1] } }],
    ['scalar changed', { chat_channel: '#a' }, { chat_channel: '#b' }],
    ['key removed', { chat_channel: '#a', x: 1 }, { x: 1 }],
    [
      'nested key removed',
      { agents: { planner: { timeout: 5, enabled: true } } },
      { agents: { planner: { enabled: true } } },
    ],
    ['array replaced', { alerts: { disabled: ['a', 'b'] } }, { alerts: { disabled: ['b'] } }],
    ['object replaced by scalar', { 'x-d': { a: 1 } }, { 'x-d': 3 }],
    ['scalar replaced by object', { 'x-d': 3 }, { 'x-d': { a: 1 } }],
    ['added subtree', {}, { knowledge_base: { retrieval: { top_k: 3 } } }],
    ['everything removed', { a: 1, b: { c: 2 } }, {}],
  ];
  it.each(cases)(
    '%s: applying the patch (server mergePatch) gives the draft',
    (_n, before, after) => {
      const patch = mergePatchBetween(before, after);
      expect(mergePatch(before, patch)).toEqual(after);
    },
  );

  it('sends only what changed, null for removals', () => {
    expect(
      mergePatchBetween(
        { chat_channel: '#a', agents: { planner: { timeout: 5, enabled: true } } },
        { agents: { planner: { timeout: 6, enabled: true } } },
      ),
    ).toEqual({ chat_channel: null, agents: { planner: { timeout: 6 } } });
    expect(mergePatchBetween({ a: [1, 2] }, { a: [1, 2] })).toEqual({});
  });
});

describe('withValueAt', () => {
  it('sets nested values without touching the input', () => {
    const before = { agents: { planner: { enabled: true } } };
    const after = withValueAt(before, 'agents.planner.timeout', 30);
    expect(after).toEqual({ agents: { planner: { enabled: true, timeout: 30 } } });
    expect(before).toEqual({ agents: { planner: { enabled: true } } });
  });

  it('removes a key and the objects it leaves empty', () => {
    const doc = { agents: { planner: { timeout: 30 } }, chat_channel: '#a' };
    expect(withValueAt(doc, 'agents.planner.timeout', undefined)).toEqual({ chat_channel: '#a' });
    expect(withValueAt({}, 'a.b', undefined)).toEqual({});
  });
});

describe('diffRows', () => {
  it('classifies API changes (null = absent) and sorts by path', () => {
    expect(
      diffRows({
        'webhooks.investigation_complete': { old: null, new: 'https://h.test/x' },
        chat_channel: { old: '#a', new: '#b' },
        'agents.planner.timeout': { old: 300, new: null },
        'alerts.disabled': { old: ['a'], new: ['a', 'b'] },
      }),
    ).toEqual([
      { path: 'agents.planner.timeout', kind: 'removed', old: '300' },
      { path: 'alerts.disabled', kind: 'changed', old: '["a"]', new: '["a","b"]' },
      { path: 'chat_channel', kind: 'changed', old: '"#a"', new: '"#b"' },
      { path: 'webhooks.investigation_complete', kind: 'added', new: '"https://h.test/x"' },
    ]);
  });

  it('keeps "5" and 5 apart, and reads config-model diffs (undefined = absent)', () => {
    expect(diffRows({ x: { old: '5', new: 5 }, y: { old: undefined, new: false } })).toEqual([
      { path: 'x', kind: 'changed', old: '"5"', new: '5' },
      { path: 'y', kind: 'added', new: 'false' },
    ]);
  });
});

describe('problemsOf', () => {
  it('prefers errors[], then details, then field', () => {
    const a = { field: 'a', error: 'bad a' };
    const b = { field: 'b', error: 'bad b' };
    expect(problemsOf({ message: 'm', details: a, errors: [a, b] })).toEqual([a, b]);
    expect(problemsOf({ message: 'm', details: a })).toEqual([a]);
    expect(problemsOf({ message: 'team_name is immutable', field: 'team_name' })).toEqual([
      { field: 'team_name', error: 'team_name is immutable' },
    ]);
    expect(problemsOf({ message: 'm' })).toEqual([]);
  });
});

describe('assignProblems', () => {
  const inputs = [
    'agents.planner.timeout',
    'agents.planner.enable_extra_tools',
    'chat_channel',
    'mcp_servers.0.url',
  ];
  it('puts a problem on its input, or the nearest input above it; the rest stay unplaced', () => {
    const { byInput, unplaced } = assignProblems(
      [
        { field: 'agents.planner.timeout', error: 'must be a positive integer' },
        { field: 'agents.planner.enable_extra_tools.1', error: 'unknown tool "x:y"' },
        { field: 'mcp_servers.0.url', error: 'must be an absolute http(s) URL' },
        { field: 'agents.planer', error: 'unknown key "planer", did you mean "planner"?' },
        { field: 'chat_channel_x', error: 'unknown key' },
      ],
      inputs,
    );
    expect(Object.fromEntries(byInput)).toEqual({
      'agents.planner.timeout': ['must be a positive integer'],
      'agents.planner.enable_extra_tools': ['unknown tool "x:y"'],
      'mcp_servers.0.url': ['must be an absolute http(s) URL'],
    });
    expect(unplaced.map((p) => p.field)).toEqual(['agents.planer', 'chat_channel_x']);
  });
});

describe('jsonLines / lineOf', () => {
  const text = JSON.stringify(
    {
      chat_channel: '#a',
      agents: { planner: { timeout: -5, enable_extra_tools: ['demo:x', 'demo:y'] } },
      mcp_servers: [{ name: 'demo', url: 'ftp://x' }, 'grafana'],
      'x-note': 'a "quoted" \\ value',
    },
    null,
    2,
  );
  const lines = jsonLines(text);
  const lineText = (n: number | undefined) => text.split('\n')[(n ?? 0) - 1];

  it('finds the line of members and array elements by dot path', () => {
    expect(lineText(lines.get('agents.planner.timeout'))).toContain('"timeout": -5');
    expect(lineText(lines.get('agents.planner.enable_extra_tools.1'))).toContain('"demo:y"');
    expect(lineText(lines.get('mcp_servers.0.url'))).toContain('"url": "ftp://x"');
    expect(lineText(lines.get('mcp_servers.1'))).toContain('"grafana"');
    expect(lineText(lines.get('x-note'))).toContain('x-note');
  });

  it('falls back to the nearest ancestor present in the text', () => {
    // the element's own line (its opening brace), the line after is its first member
    expect(lineOf(lines, 'mcp_servers.0.auth.token')).toBe(lines.get('mcp_servers.0'));
    expect(lineText(lineOf(lines, 'mcp_servers.0.auth.token')! + 1)).toContain('"name": "demo"');
    expect(lineOf(lines, 'agents.planner.timeout')).toBe(lines.get('agents.planner.timeout'));
    expect(lineOf(lines, 'nowhere.at.all')).toBeUndefined();
  });

  it('handles text a person typed: one line, and a syntax error part way', () => {
    expect(jsonLines('{"a": {"b": 1}, "c": [1, {"d": 2}]}').get('c.1.d')).toBe(1);
    const broken = jsonLines('{\n  "a": 1,\n  "b": {\n    "c": oops\n  }\n}');
    expect(broken.get('a')).toBe(2);
    expect(broken.get('b.c')).toBe(4);
    expect(broken.has('d')).toBe(false);
  });
});
