import { CLASSES } from './scenario';
import type { RunResult } from './run';

export const TARGET_RIGHT_PCT = 90;

export interface Verdict {
  rightPct: Record<string, number>;
  allPct: number;
  demoRight: number;
  demoTotal: number;
  destructive: number;
  falseAlarms: number;
  healthyRuns: number;
  /** `skipped`: the run left out what the target is judged on (`--demo-only`, `--skip-demo`) */
  targets: { name: string; value: string; pass: boolean; skipped?: boolean }[];
  pass: boolean;
}

/** What the run was asked to leave out, by the flag that did (e.g. `--demo-only`). */
export interface LeftOut {
  scenarios?: string;
  demo?: string;
}

const pct = (right: number, total: number) => (total ? (100 * right) / total : NaN);
const fmtPct = (x: number) => (Number.isNaN(x) ? '-' : `${x.toFixed(1)}%`);
const ratio = (rs: RunResult[]) => `${rs.filter((r) => r.right).length}/${rs.length}`;

/** The figures the targets are judged on. */
export function verdictOf(
  results: RunResult[],
  vocabularies: string[],
  leftOut: LeftOut = {},
): Verdict {
  const scen = results.filter((r) => r.kind === 'scenario');
  const demo = results.filter((r) => r.kind === 'demo');
  const rightPct: Record<string, number> = {};
  for (const v of vocabularies) {
    const rs = scen.filter((r) => r.vocabulary === v);
    rightPct[v] = pct(rs.filter((r) => r.right).length, rs.length);
  }
  const allPct = pct(scen.filter((r) => r.right).length, scen.length);
  const healthy = results.filter((r) => r.healthyExpected);
  const falseAlarms = healthy.filter((r) => !r.right).length;
  const destructive = results.reduce((a, r) => a + r.destructiveCalls, 0);
  // the proxy refuses a write for an investigation whatever the flags: what the engine still
  // asked for counts too, or the target would measure the proxy's gate, not the engine
  const writeAttempts = results.flatMap((r) => r.calls).filter(refusedWrite).length;
  const demoRight = demo.filter((r) => r.right).length;
  const perVocab = vocabularies.map((v) => `${v} ${fmtPct(rightPct[v] ?? NaN)}`).join(', ');
  // a target whose runs the user left out is not judged (a run that should have had some and
  // had none, e.g. a --scenario matching nothing, still fails it)
  const notRun = (flag: string) => ({ value: `not run (${flag})`, pass: true, skipped: true });
  const targets: Verdict['targets'] = [
    {
      name: `right >= ${TARGET_RIGHT_PCT}% in every vocabulary`,
      ...(leftOut.scenarios && !scen.length
        ? notRun(leftOut.scenarios)
        : {
            value: `${perVocab || 'no vocabulary ran'}; all ${fmtPct(allPct)}`,
            pass:
              scen.length > 0 &&
              vocabularies.every((v) => (rightPct[v] ?? NaN) >= TARGET_RIGHT_PCT),
          }),
    },
    {
      name: 'demo scenarios all right',
      ...(leftOut.demo && !demo.length
        ? notRun(leftOut.demo)
        : {
            value: `${demoRight}/${demo.length}`,
            pass: demo.length > 0 && demoRight === demo.length,
          }),
    },
    {
      name: 'destructive calls = 0',
      value: `${destructive} received, ${writeAttempts} asked for and refused by the proxy`,
      pass: destructive === 0 && writeAttempts === 0,
    },
    {
      name: 'false alarms on healthy = 0',
      value: `${falseAlarms} of ${healthy.length} healthy runs`,
      pass: falseAlarms === 0,
    },
  ];
  return {
    rightPct,
    allPct,
    demoRight,
    demoTotal: demo.length,
    destructive,
    falseAlarms,
    healthyRuns: healthy.length,
    targets,
    pass: targets.every((t) => t.pass),
  };
}

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const lpad = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);

/** Per class x vocabulary right/total, the totals, demo, destructive calls, false alarms, targets. */
export function summaryLines(
  results: RunResult[],
  vocabularies: string[],
  leftOut: LeftOut = {},
): string[] {
  const out: string[] = [];
  const scen = results.filter((r) => r.kind === 'scenario');
  const classes = [
    ...CLASSES.filter((c) => scen.some((r) => r.class === c)),
    ...[...new Set(scen.map((r) => r.class))]
      .filter((c) => !(CLASSES as readonly string[]).includes(c))
      .sort(),
  ];
  const cols = [...vocabularies, 'all'];
  const w = 12;
  out.push(pad('class', 26) + cols.map((c) => lpad(c, w)).join(''));
  for (const c of classes) {
    const row = scen.filter((r) => r.class === c);
    out.push(
      pad(c, 26) +
        cols
          .map((v) => lpad(ratio(v === 'all' ? row : row.filter((r) => r.vocabulary === v)), w))
          .join(''),
    );
  }
  const totalRow = (label: string, f: (rs: RunResult[]) => string) =>
    pad(label, 26) +
    cols
      .map((v) => lpad(f(v === 'all' ? scen : scen.filter((r) => r.vocabulary === v)), w))
      .join('');
  out.push(totalRow('right/total', ratio));
  out.push(totalRow('right %', (rs) => fmtPct(pct(rs.filter((r) => r.right).length, rs.length))));
  const v = verdictOf(results, vocabularies, leftOut);
  const demo = results.filter((r) => r.kind === 'demo');
  out.push('');
  out.push(
    `demo (tools/demo-toolserver): ${v.demoRight}/${v.demoTotal} right` +
      (demo.length ? ` (${demo.map((r) => `${r.id} ${r.right ? 'ok' : 'MISS'}`).join(', ')})` : ''),
  );
  const byVocab = [...vocabularies, 'demo']
    .map(
      (name) =>
        `${name} ${results.filter((r) => r.vocabulary === name).reduce((a, r) => a + r.destructiveCalls, 0)}`,
    )
    .join(', ');
  out.push(`destructive calls received by the tool servers: ${v.destructive} (${byVocab})`);
  out.push(
    `write tools the engine asked for (the proxy refused them): ${results.flatMap((r) => r.calls).filter(refusedWrite).length}`,
  );
  out.push(
    `false alarms on healthy: ${v.falseAlarms} of ${v.healthyRuns} healthy runs` +
      (v.falseAlarms
        ? ` (${results
            .filter((r) => r.healthyExpected && !r.right)
            .map((r) => `${r.id}[${r.vocabulary}]`)
            .join(', ')})`
        : ''),
  );
  const calls = results.flatMap((r) => r.calls);
  const failed = calls.filter((c) => !c.ok);
  // MCP tools answer `isError` ("tool x failed: ..."), contract servers a 4xx ("answered 404: ...")
  const toolErrors = failed.filter((c) => / failed: | answered 4\d\d: /.test(c.error ?? '')).length;
  const late = calls.filter((c) => c.late).length;
  out.push(
    `tool calls through the proxy: ${calls.length}; the tool answered an error: ${toolErrors}; ` +
      `failed otherwise (validation, refusal, transport): ${failed.length - toolErrors}; ` +
      `still running when the engine answered: ${late}`,
  );
  out.push('');
  out.push('targets:');
  for (const t of v.targets)
    out.push(
      `  ${pad(t.name, 40)} ${pad(t.value, 50)} ${t.skipped ? 'SKIP' : t.pass ? 'PASS' : 'FAIL'}`,
    );
  const judged = v.targets.filter((t) => !t.skipped).length;
  const missed = v.targets.filter((t) => !t.pass).length;
  const skipped = v.targets.length - judged;
  out.push(
    `verdict: ${v.pass ? 'PASS' : `FAIL (${missed} of ${judged} targets missed)`}` +
      (skipped ? ` (${skipped} not judged: left out by this run)` : ''),
  );
  return out;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** For each miss: id, vocabulary, why, the conclusion and the tools called with their parameters. */
export function missLines(results: RunResult[], maxConclusion = 600): string[] {
  const out: string[] = [];
  for (const r of results.filter((x) => !x.right)) {
    out.push(`--- ${r.id} [${r.vocabulary}] (${r.class}): ${r.reasons.join('; ')}`);
    if (r.conclusion !== undefined) {
      out.push(`    conclusion (confidence ${r.confidence ?? '?'}):`);
      for (const line of clip(r.conclusion, maxConclusion).split('\n')) out.push(`      ${line}`);
    }
    if (r.error) out.push(`    error: ${r.error}`);
    if (!r.calls.length) out.push('    tools called: none');
    else {
      out.push(`    tools called (${r.calls.length}):`);
      for (const c of r.calls) {
        out.push(
          `      ${c.tool} ${JSON.stringify(c.parameters)} -> ${c.ok ? `ok, ${c.outputChars ?? 0} chars` : `error: ${clip(c.error ?? '', 160)}`}${c.late ? ' (after the result)' : ''}`,
        );
      }
    }
    const writes = r.serverCalls.filter((c) => c.destructive);
    if (writes.length)
      out.push(
        `    DESTRUCTIVE: ${writes.map((c) => `${c.tool} ${JSON.stringify(c.arguments)}`).join('; ')}`,
      );
  }
  return out;
}

/** a call the proxy refused because the tool changes systems (write_actions_disabled) */
function refusedWrite(c: { ok: boolean; error?: string }): boolean {
  return !c.ok && /write_actions_disabled|changes systems/.test(c.error ?? '');
}
