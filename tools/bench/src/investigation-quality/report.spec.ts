import type { RunResult } from './run';
import { summaryLines, verdictOf } from './report';

const result = (over: Partial<RunResult>): RunResult => ({
  kind: 'demo',
  id: 'oom-after-deploy',
  class: 'demo',
  vocabulary: 'demo',
  healthyExpected: false,
  right: true,
  reasons: [],
  toolsUsed: [],
  calls: [],
  serverCalls: [],
  destructiveCalls: 0,
  durationMs: 10,
  ...over,
});

const demoRuns = [
  result({ id: 'oom-after-deploy' }),
  result({ id: 'healthy', healthyExpected: true }),
];
const vocabs = ['inquest', 'holmes'];

describe('investigation-quality verdict', () => {
  it('--demo-only: the vocabulary target is not judged, so right demo runs pass', () => {
    const v = verdictOf(demoRuns, vocabs, { scenarios: '--demo-only' });
    expect(v.targets[0]).toMatchObject({ value: 'not run (--demo-only)', skipped: true });
    expect(v.pass).toBe(true);
    const lines = summaryLines(demoRuns, vocabs, { scenarios: '--demo-only' });
    expect(lines.find((l) => l.includes('in every vocabulary'))).toMatch(/SKIP$/);
    expect(lines.at(-1)).toBe('verdict: PASS (1 not judged: left out by this run)');
  });

  it('--skip-demo: the demo target is not judged', () => {
    const scen = vocabs.map((vocabulary) =>
      result({ kind: 'scenario', id: 's1', class: 'oom', vocabulary }),
    );
    const v = verdictOf(scen, vocabs, { demo: '--skip-demo' });
    expect(v.targets[1]).toMatchObject({ value: 'not run (--skip-demo)', skipped: true });
    expect(v.pass).toBe(true);
  });

  it('a run that left nothing out and ran no scenario still fails the vocabulary target', () => {
    const v = verdictOf(demoRuns, vocabs);
    expect(v.targets[0]).toMatchObject({ pass: false });
    expect(v.targets[0]!.skipped).toBeUndefined();
    expect(v.pass).toBe(false);
    expect(summaryLines(demoRuns, vocabs).at(-1)).toBe('verdict: FAIL (1 of 4 targets missed)');
    // and a wrong demo run fails even with the scenarios left out
    const missed = [result({ id: 'disk-full', right: false }), ...demoRuns];
    expect(verdictOf(missed, vocabs, { scenarios: '--demo-only' }).pass).toBe(false);
  });
});
