import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeObject, ScenarioLog, ScenarioMetrics } from '@inquest/kube';

/** What a scenario expects of the conclusion (see data/investigations/README.md). */
export interface Expected {
  healthy: boolean;
  /** any-of: the conclusion names the affected subject */
  subject?: string[];
  /** every group must match; a group matches when any of its strings appears */
  facts?: string[][];
  /** none of these may appear */
  forbidden?: string[];
  notes?: string;
}

export interface ScenarioRequest {
  message: string;
  context: Record<string, string>;
}

/** One file of data/investigations/scenarios. */
export interface Scenario {
  id: string;
  class: string;
  title: string;
  based_on?: string[];
  /** RFC 3339: every tool answers as if it were now */
  now: string;
  request: ScenarioRequest;
  objects: KubeObject[];
  logs: ScenarioLog[];
  metrics?: ScenarioMetrics;
  expected: Expected;
}

/** The classes of the README, in the order the report prints them. */
export const CLASSES = [
  'oom_killed',
  'crashloop_config',
  'crashloop_panic',
  'crashloop_connection',
  'image_pull',
  'create_container_config',
  'pending_scheduling',
  'pending_pvc',
  'pvc_pending',
  'job_failed',
  'probe_failure',
  'eviction',
  'rbac_denied',
  'dns_failure',
  'dependency_failure',
  'tls_certificate',
  'quota_limitrange',
  'hpa_throttling',
  'node_not_ready',
  'recent_change',
  'healthy',
  'question',
] as const;

export interface ScenarioProblem {
  file: string;
  error: string;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'string');

/** Checks the shape the harness relies on; returns what is wrong, or undefined. */
export function scenarioProblem(raw: unknown, fileId: string): string | undefined {
  if (!isObj(raw)) return 'not a JSON object';
  if (raw['id'] !== fileId) return `id "${String(raw['id'])}" is not the file name`;
  if (typeof raw['class'] !== 'string') return 'class missing';
  if (typeof raw['now'] !== 'string' || Number.isNaN(Date.parse(raw['now'])))
    return 'now is not an RFC 3339 time';
  const req = raw['request'];
  if (!isObj(req) || typeof req['message'] !== 'string') return 'request.message missing';
  if (req['context'] !== undefined && !isObj(req['context']))
    return 'request.context not an object';
  if (!Array.isArray(raw['objects'])) return 'objects is not an array';
  if (raw['logs'] !== undefined && !Array.isArray(raw['logs'])) return 'logs is not an array';
  const exp = raw['expected'];
  if (!isObj(exp) || typeof exp['healthy'] !== 'boolean') return 'expected.healthy missing';
  if (exp['subject'] !== undefined && !isStrings(exp['subject']))
    return 'expected.subject is not a list of strings';
  if (exp['facts'] !== undefined && !(Array.isArray(exp['facts']) && exp['facts'].every(isStrings)))
    return 'expected.facts is not a list of string lists';
  if (exp['forbidden'] !== undefined && !isStrings(exp['forbidden']))
    return 'expected.forbidden is not a list of strings';
  return undefined;
}

/** Every scenario of a directory, sorted by id; malformed files are reported, not thrown. */
export function loadScenarios(dir: string): { scenarios: Scenario[]; problems: ScenarioProblem[] } {
  const scenarios: Scenario[] = [];
  const problems: ScenarioProblem[] = [];
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  } catch {
    return { scenarios, problems };
  }
  for (const file of files.sort()) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    } catch (err) {
      problems.push({ file, error: `not valid JSON: ${(err as Error).message}` });
      continue;
    }
    const error = scenarioProblem(raw, file.replace(/\.json$/, ''));
    if (error) {
      problems.push({ file, error });
      continue;
    }
    const s = raw as Scenario;
    scenarios.push({
      ...s,
      request: { message: s.request.message, context: { ...(s.request.context ?? {}) } },
      logs: s.logs ?? [],
    });
  }
  return { scenarios, problems };
}

/** `--scenario=<id substring>` and `--class=<class>` (comma-separated lists). */
export function selectScenarios(
  all: Scenario[],
  filter: { ids?: string[]; classes?: string[] },
): Scenario[] {
  return all.filter(
    (s) =>
      (!filter.ids?.length || filter.ids.some((f) => s.id.includes(f))) &&
      (!filter.classes?.length || filter.classes.includes(s.class)),
  );
}
