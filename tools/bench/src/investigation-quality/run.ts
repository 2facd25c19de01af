import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  SCENARIOS as DEMO_SCENARIOS,
  startDemoToolServer,
  TOOL_DEFINITIONS,
} from '@inquest/tool-demo-toolserver';
import { conclusionOf, grade } from './grade';
import type { GatewayCall, Harness, InvestigationOutcome } from './harness';
import type { Expected, Scenario, ScenarioRequest } from './scenario';
import type { RecordedCall } from './vocabularies/mcp-vocabulary-server';

/** data/investigations, from src/ (jest) or dist/ (the built bench). */
export const DATA_DIR = join(__dirname, '..', '..', 'data', 'investigations');

/** A vocabulary's tool server(s) serving one scenario world. */
export interface RunningVocabulary {
  servers: { name: string; url: string; transport: 'mcp' | 'http' }[];
  /** calls the servers received; undefined when the server does not record them */
  calls(): RecordedCall[] | undefined;
  stop(): Promise<void>;
}

export interface Vocabulary {
  name: string;
  /** why it cannot run (not built yet...), or undefined */
  unavailable(): string | undefined;
  /** for a server that does not record calls: the names of its tools that can change anything */
  writeTools?(): Set<string>;
  start(scenario: Scenario): Promise<RunningVocabulary>;
}

/** The calls the proxy passed on, standing for a server's own record. */
function passedOn(calls: GatewayCall[], writeTools: Set<string>): RecordedCall[] {
  return calls
    .filter((x) => x.ok)
    .map((x) => {
      const name = x.tool.split(':').pop() ?? x.tool;
      return { tool: name, arguments: x.parameters, destructive: writeTools.has(name) };
    });
}

/** One graded investigation. */
export interface RunResult {
  kind: 'scenario' | 'demo';
  id: string;
  class: string;
  vocabulary: string;
  healthyExpected: boolean;
  right: boolean;
  reasons: string[];
  conclusion?: string;
  confidence?: number;
  error?: string;
  toolsUsed: string[];
  /** what the engine asked the proxy for */
  calls: GatewayCall[];
  /** what the vocabulary server received */
  serverCalls: RecordedCall[];
  /** calls a write tool received (the server's own count) */
  destructiveCalls: number;
  durationMs: number;
}

function toResult(
  base: Pick<RunResult, 'kind' | 'id' | 'class' | 'vocabulary'>,
  expected: Expected,
  outcome: InvestigationOutcome,
  serverCalls: RecordedCall[],
  destructiveCalls: number,
): RunResult {
  const g = grade(expected, outcome.result, outcome.error);
  return {
    ...base,
    healthyExpected: expected.healthy,
    right: g.right,
    reasons: g.reasons,
    ...(outcome.result
      ? {
          conclusion: conclusionOf(outcome.result),
          confidence: outcome.result.root_cause.confidence,
        }
      : {}),
    ...(outcome.error ? { error: outcome.error } : {}),
    toolsUsed: outcome.toolsUsed,
    calls: outcome.calls,
    serverCalls,
    destructiveCalls,
    durationMs: outcome.durationMs,
  };
}

let teamSeq = 0;
const teamFor = (vocabulary: string, id: string) => `team-iq-${vocabulary}-${id}-${++teamSeq}`;

/** Runs one scenario in one vocabulary: its server(s) up, one investigation, server down. */
export async function runScenario(
  harness: Harness,
  vocabulary: Vocabulary,
  scenario: Scenario,
): Promise<RunResult> {
  const base = {
    kind: 'scenario' as const,
    id: scenario.id,
    class: scenario.class,
    vocabulary: vocabulary.name,
  };
  let running: RunningVocabulary;
  try {
    running = await vocabulary.start(scenario);
  } catch (err) {
    // a world the server cannot serve is a miss of this scenario, not the end of the benchmark
    const error = `the ${vocabulary.name} server did not start: ${(err as Error).message}`;
    return toResult(
      base,
      scenario.expected,
      { error, toolsUsed: [], calls: [], durationMs: 0 },
      [],
      0,
    );
  }
  try {
    const teamId = teamFor(vocabulary.name, scenario.id);
    harness.register(teamId, running.servers);
    const outcome = await harness.investigate({
      teamId,
      message: scenario.request.message,
      context: scenario.request.context,
      now: Date.parse(scenario.now),
    });
    const serverCalls =
      running.calls() ?? passedOn(outcome.calls, vocabulary.writeTools?.() ?? new Set());
    return toResult(
      base,
      scenario.expected,
      outcome,
      serverCalls,
      serverCalls.filter((c) => c.destructive).length,
    );
  } finally {
    await running.stop();
  }
}

export interface DemoCase {
  id: string;
  request: ScenarioRequest;
  expected: Expected;
}

export function loadDemoCases(file = join(DATA_DIR, 'demo-expectations.json')): DemoCase[] {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { scenarios: DemoCase[] };
  return doc.scenarios;
}

/**
 * The demo tool server's six scenarios (registered as server `demo` over its plain HTTP
 * contract, `/scenarios/<name>`), graded with demo-expectations.json. The demo answers from
 * the real clock, so the engine gets no scenario clock. A call of a tool the demo annotates
 * destructive that the proxy passed on counts as a destructive call.
 */
export async function runDemo(harness: Harness, cases: DemoCase[]): Promise<RunResult[]> {
  const demo = await startDemoToolServer({ port: 0 });
  const writeTools = new Set(
    TOOL_DEFINITIONS.filter((t) => t.annotations?.destructiveHint === true).map((t) => t.name),
  );
  const out: RunResult[] = [];
  try {
    for (const c of cases) {
      if (!(DEMO_SCENARIOS as readonly string[]).includes(c.id)) {
        throw new Error(`demo-expectations.json: the demo has no scenario "${c.id}"`);
      }
      const teamId = teamFor('demo', c.id);
      harness.register(teamId, [
        { name: 'demo', url: `${demo.url}/scenarios/${c.id}`, transport: 'http' },
      ]);
      const outcome = await harness.investigate({
        teamId,
        message: c.request.message,
        context: c.request.context,
      });
      const serverCalls = passedOn(outcome.calls, writeTools);
      out.push(
        toResult(
          { kind: 'demo', id: c.id, class: 'demo', vocabulary: 'demo' },
          c.expected,
          outcome,
          serverCalls,
          serverCalls.filter((x) => x.destructive).length,
        ),
      );
    }
  } finally {
    await demo.stop();
  }
  return out;
}
