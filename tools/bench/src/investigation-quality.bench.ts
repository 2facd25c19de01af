/**
 * Investigation quality (issue 13). Every scenario of data/investigations/scenarios (a small
 * Kubernetes world, an incident or a question, and the expected conclusion, written blind) is
 * served in five tool vocabularies (a sixth, aks-mcp, on request): Inquest's own Kubernetes tool
 * server over a loopback Kubernetes API server, kubectl-style tools as HolmesGPT names them,
 * kubernetes-mcp-server's tools, Flux159/mcp-server-kubernetes's tools, strowk/mcp-k8s-go's tools
 * and Azure/aks-mcp's kubectl tools. Each runs on loopback as a real MCP server, registered for a fresh team by a
 * config-hierarchy double; the runner's DeterministicEngine investigates in-process through the
 * real toolserver-proxy, told that the scenario's `now` is the current time. The conclusion
 * (summary + root cause) is graded against the scenario's expectations; the six scenarios of
 * tools/demo-toolserver are graded with data/investigations/demo-expectations.json.
 *
 * Targets: >= 90% right in every vocabulary, 6/6 demo, 0 destructive calls (a write tool of a
 * vocabulary server called), 0 false alarms on healthy scenarios. Exit code 0 whatever the score.
 *
 * Args: --vocab=inquest,holmes,k8s-mcp,mcpk8s,mcp-k8s-go,kubectl-mcp,aks-mcp,scoutflo (default:
 *       the first five, each that can run; kubectl-mcp, scoutflo and aks-mcp, whose tools all
 *       declare destructiveHint: true and are never called, on request)
 *       --scenario=<id substring>[,...]
 *       --class=<class>[,...] --skip-demo --demo-only --json=<file> (every result)
 *       --write-actions=off (the proxy refuses write tools itself; default on, so only the
 *       engine keeps an investigation read-only) --quiet (no per-miss detail)
 *       --holmes-logs=kubectl (the holmes vocabulary offers the older kubectl_logs family of log
 *       tools instead of fetch_pod_logs) --aks-mcp-tools=unified (the aks-mcp vocabulary offers
 *       today's default call_kubectl instead of its specialised kubectl tools) --runbooks (the engine's knowledge source is knowledge-raptor
 *       with data/kb's runbooks taught; default: no knowledge at all)
 *       --set=holdout (data/investigations/holdout: written blind after the engine was tuned)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness } from './investigation-quality/harness';
import { loadKbCorpus } from './kb-bench-support';
import { missLines, summaryLines, verdictOf } from './investigation-quality/report';
import {
  DATA_DIR,
  loadDemoCases,
  runDemo,
  runScenario,
  type RunResult,
  type Vocabulary,
} from './investigation-quality/run';
import { loadScenarios, selectScenarios } from './investigation-quality/scenario';
import {
  vocabularies as allVocabularies,
  optionalVocabularies,
} from './investigation-quality/vocabularies';

const argValue = (args: string[], name: string): string | undefined =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const list = (v: string | undefined) =>
  v
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const out = (s = '') => process.stdout.write(`${s}\n`);

export async function run(args: string[]): Promise<void> {
  const options = {
    holmesLogs:
      argValue(args, 'holmes-logs') === 'kubectl' ? ('kubectl' as const) : ('fetch' as const),
    aksMcpTools:
      argValue(args, 'aks-mcp-tools') === 'unified' ? ('unified' as const) : ('legacy' as const),
  };
  const defaults = allVocabularies(options);
  const VOCABULARIES = [...defaults, ...optionalVocabularies(options)];
  const wanted = list(argValue(args, 'vocab')) ?? defaults.map((v) => v.name);
  const unknown = wanted.filter((w) => !VOCABULARIES.some((v) => v.name === w));
  if (unknown.length) {
    out(
      `unknown vocabulary ${unknown.join(', ')}; known: ${VOCABULARIES.map((v) => v.name).join(', ')}`,
    );
    return;
  }
  const vocabularies: Vocabulary[] = [];
  for (const v of VOCABULARIES.filter((x) => wanted.includes(x.name))) {
    const why = v.unavailable();
    if (why) out(`${v.name} vocabulary: ${why}`);
    else vocabularies.push(v);
  }
  // --set=holdout: the scenarios written blind after the engine was tuned (never tuned against)
  const set = argValue(args, 'set') ?? 'scenarios';
  const { scenarios: all, problems } = loadScenarios(join(DATA_DIR, set));
  for (const p of problems) out(`skipped scenario file ${p.file}: ${p.error}`);
  const scenarios = args.includes('--demo-only')
    ? []
    : selectScenarios(all, {
        ids: list(argValue(args, 'scenario')),
        classes: list(argValue(args, 'class')),
      });
  const writeActions = argValue(args, 'write-actions') !== 'off';
  out(
    `${scenarios.length} of ${all.length} scenarios x vocabularies ${vocabularies.map((v) => v.name).join(', ') || '(none)'}; ` +
      `team flag enable_write_actions: ${writeActions ? 'on' : 'off'} (the proxy refuses writes for investigations either way; the engine's own attempts are counted)`,
  );

  const runbooks = args.includes('--runbooks') ? loadKbCorpus().runbooks : undefined;
  if (runbooks) out(`knowledge: ${runbooks.length} runbooks of data/kb taught to knowledge-raptor`);
  const harness = await startHarness({ writeActions, ...(runbooks ? { runbooks } : {}) });
  const results: RunResult[] = [];
  const t0 = performance.now();
  try {
    for (const vocab of vocabularies) {
      for (const s of scenarios) {
        const r = await runScenario(harness, vocab, s);
        results.push(r);
        process.stderr.write(r.right ? '.' : 'x');
      }
    }
    if (!args.includes('--skip-demo')) results.push(...(await runDemo(harness, loadDemoCases())));
    process.stderr.write('\n');
  } finally {
    await harness.close();
  }
  const names = vocabularies.map((v) => v.name);
  const leftOut = {
    ...(args.includes('--demo-only') ? { scenarios: '--demo-only' } : {}),
    ...(args.includes('--skip-demo') ? { demo: '--skip-demo' } : {}),
  };
  out(`${results.length} investigations in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  out();
  for (const line of summaryLines(results, names, leftOut)) out(line);
  const writes = results.flatMap((r) =>
    r.serverCalls
      .filter((c) => c.destructive)
      .map((c) => `${r.id}[${r.vocabulary}] ${c.tool} ${JSON.stringify(c.arguments)}`),
  );
  if (writes.length) {
    out();
    out('destructive calls:');
    for (const w of writes) out(`  ${w}`);
  }
  if (!args.includes('--quiet')) {
    const misses = missLines(results);
    if (misses.length) {
      out();
      out('misses:');
      for (const line of misses) out(line);
    }
  }
  const json = argValue(args, 'json');
  if (json) {
    writeFileSync(
      json,
      JSON.stringify({ verdict: verdictOf(results, names, leftOut), results }, null, 2),
    );
    out(`results written to ${json}`);
  }
}
