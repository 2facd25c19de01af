import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';
import { spawnHttpServer, type RunningHttpServerProcess } from './http-server-process';
import {
  ALERTMANAGER,
  NODE_EXPORTER,
  PROMETHEUS,
  PROMTOOL,
  requireServerBinary,
} from './server-binary';

/** One scrape job of the test Prometheus. */
export interface ScrapeJob {
  job: string;
  /** `host:port` or a URL (`http://127.0.0.1:9100/metrics`: its path becomes the metrics path) */
  targets: string[];
  /** default `/metrics` */
  metricsPath?: string;
  /** default: the global scrape interval */
  interval?: string;
}

/** A Prometheus rule (alerting or recording), as in a rule file. */
export interface PrometheusRule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface StartPrometheusOptions {
  /** scrape jobs; a bare `host:port`/URL string joins one job named `targets` */
  scrapeTargets?: Array<string | ScrapeJob>;
  /** scrape Prometheus itself as job `prometheus` (default true) */
  scrapeSelf?: boolean;
  /** paths of rule files to load */
  ruleFiles?: string[];
  /** rule groups written to a rule file of their own */
  rules?: Array<{ name: string; interval?: string; rules: PrometheusRule[] }>;
  /** Alertmanager base URL (http://127.0.0.1:9093) that receives the alerts */
  alertmanagerUrl?: string;
  /** default `1s` */
  evaluationInterval?: string;
  /** default `1s` */
  scrapeInterval?: string;
  /**
   * OpenMetrics text (ending in `# EOF`) written into the TSDB with
   * `promtool tsdb create-blocks-from openmetrics` before Prometheus starts: history that
   * range queries see at once.
   */
  backfillOpenMetrics?: string;
  extraArgs?: string[];
}

/** Prometheus's config file is YAML; JSON is YAML, so the configs are written as JSON. */
function writeJson(path: string, value: unknown): void {
  writeFileSync(path, JSON.stringify(value, null, 2));
}

function hostPortAndPath(target: string): { hostPort: string; path?: string } {
  if (!/^https?:\/\//.test(target)) return { hostPort: target };
  const u = new URL(target);
  return { hostPort: u.host, ...(u.pathname !== '/' ? { path: u.pathname } : {}) };
}

function scrapeConfigs(jobs: ScrapeJob[]): unknown[] {
  return jobs.map((j) => {
    const parsed = j.targets.map(hostPortAndPath);
    const path = j.metricsPath ?? parsed.find((p) => p.path)?.path;
    return {
      job_name: j.job,
      ...(path ? { metrics_path: path } : {}),
      ...(j.interval ? { scrape_interval: j.interval, scrape_timeout: j.interval } : {}),
      static_configs: [{ targets: parsed.map((p) => p.hostPort) }],
    };
  });
}

/**
 * Starts the real `prometheus` (Debian 2.42) on a free loopback port with its own TSDB
 * directory, and resolves once `/-/ready` answers. Binary: `INQUEST_PROMETHEUS_BIN`, else PATH,
 * else /usr/bin. Scrape and evaluation run every second by default so tests see data quickly.
 */
export async function startPrometheus(
  options: StartPrometheusOptions = {},
): Promise<RunningHttpServerProcess> {
  const bin = requireServerBinary(PROMETHEUS);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'inquest-prometheus-'));
  const dataDir = join(dir, 'data');
  mkdirSync(dataDir);

  const jobs: ScrapeJob[] = [];
  if (options.scrapeSelf !== false)
    jobs.push({ job: 'prometheus', targets: [`127.0.0.1:${port}`] });
  const bare = (options.scrapeTargets ?? []).filter((t): t is string => typeof t === 'string');
  if (bare.length) jobs.push({ job: 'targets', targets: bare });
  jobs.push(...(options.scrapeTargets ?? []).filter((t): t is ScrapeJob => typeof t !== 'string'));

  const ruleFiles = [...(options.ruleFiles ?? [])];
  if (options.rules?.length) {
    const file = join(dir, 'rules.yml');
    writeJson(file, { groups: options.rules });
    ruleFiles.push(file);
  }
  const config = {
    global: {
      scrape_interval: options.scrapeInterval ?? '1s',
      scrape_timeout: options.scrapeInterval ?? '1s',
      evaluation_interval: options.evaluationInterval ?? '1s',
    },
    ...(ruleFiles.length ? { rule_files: ruleFiles } : {}),
    ...(options.alertmanagerUrl
      ? {
          alerting: {
            alertmanagers: [
              {
                static_configs: [{ targets: [hostPortAndPath(options.alertmanagerUrl).hostPort] }],
              },
            ],
          },
        }
      : {}),
    scrape_configs: scrapeConfigs(jobs),
  };
  const configFile = join(dir, 'prometheus.yml');
  writeJson(configFile, config);

  if (options.backfillOpenMetrics !== undefined) {
    const input = join(dir, 'backfill.om');
    writeFileSync(input, options.backfillOpenMetrics);
    const promtool = requireServerBinary(PROMTOOL);
    const r = spawnSync(promtool, ['tsdb', 'create-blocks-from', 'openmetrics', input, dataDir], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (r.status !== 0)
      throw new Error(`promtool backfill failed: ${(r.stderr || r.stdout || '').slice(-1500)}`);
  }

  return spawnHttpServer({
    label: 'prometheus',
    bin,
    port,
    dir,
    readyPath: '/-/ready',
    args: [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${dataDir}`,
      `--web.listen-address=127.0.0.1:${port}`,
      // alerts reach the Alertmanager within a second, not the default minute
      '--rules.alert.resend-delay=1s',
      ...(options.extraArgs ?? []),
    ],
  });
}

export interface StartAlertmanagerOptions {
  /**
   * alertmanager.yml as YAML text or an object (written as JSON); default: one receiver that
   * sends nothing, group_wait 0s
   */
  config?: string | Record<string, unknown>;
  extraArgs?: string[];
}

/** The default Alertmanager config: alerts are kept and listed, never sent anywhere. */
export const SILENT_ALERTMANAGER_CONFIG = {
  route: { receiver: 'blackhole', group_wait: '0s', group_interval: '1s', repeat_interval: '1h' },
  receivers: [{ name: 'blackhole' }],
};

/**
 * Starts the real `prometheus-alertmanager` (Debian 0.25) on a free loopback port, clustering
 * off, with its own storage directory; resolves once `/-/ready` answers. Binary:
 * `INQUEST_ALERTMANAGER_BIN`, else PATH, else /usr/bin.
 */
export async function startAlertmanager(
  options: StartAlertmanagerOptions = {},
): Promise<RunningHttpServerProcess> {
  const bin = requireServerBinary(ALERTMANAGER);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'inquest-alertmanager-'));
  const configFile = join(dir, 'alertmanager.yml');
  const config = options.config ?? SILENT_ALERTMANAGER_CONFIG;
  if (typeof config === 'string') writeFileSync(configFile, config);
  else writeJson(configFile, config);
  return spawnHttpServer({
    label: 'alertmanager',
    bin,
    port,
    dir,
    readyPath: '/-/ready',
    args: [
      `--config.file=${configFile}`,
      `--storage.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--cluster.listen-address=',
      ...(options.extraArgs ?? []),
    ],
  });
}

export interface StartNodeExporterOptions {
  /** only these collectors (for example `['cpu', 'meminfo', 'loadavg']`); default: its defaults */
  collectors?: string[];
  extraArgs?: string[];
}

/**
 * Starts the real `prometheus-node-exporter` (Debian 1.5) on a free loopback port; resolves
 * once `/metrics` answers. Binary: `INQUEST_NODE_EXPORTER_BIN`, else PATH, else /usr/bin.
 */
export async function startNodeExporter(
  options: StartNodeExporterOptions = {},
): Promise<RunningHttpServerProcess> {
  const bin = requireServerBinary(NODE_EXPORTER);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'inquest-node-exporter-'));
  const collectors = options.collectors
    ? ['--collector.disable-defaults', ...options.collectors.map((c) => `--collector.${c}`)]
    : [];
  return spawnHttpServer({
    label: 'prometheus-node-exporter',
    bin,
    port,
    dir,
    readyPath: '/metrics',
    args: [`--web.listen-address=127.0.0.1:${port}`, ...collectors, ...(options.extraArgs ?? [])],
  });
}
