import {
  freePort,
  startAlertmanager,
  startNodeExporter,
  startPrometheus,
  waitFor,
  type RunningHttpServerProcess,
} from '@inquest/testing';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface PrometheusStack {
  prometheus: RunningHttpServerProcess;
  alertmanager: RunningHttpServerProcess;
  nodeExporter: RunningHttpServerProcess;
  /** id of the silence created through Alertmanager's API */
  silenceId: string;
  /** the port of the scrape target nobody listens on (job `missing`) */
  missingPort: number;
  stop(): Promise<void>;
}

export const getJson = async (url: string): Promise<Obj> => {
  const res = await fetch(url);
  return (await res.json()) as Obj;
};

/**
 * Real Alertmanager, node exporter and Prometheus: Prometheus scrapes node exporter, itself and
 * a port nobody listens on; its rules fire one alert, keep one pending, record one series and
 * fail one evaluation; Alertmanager inhibits one alert and a silence (created through its API)
 * silences another. Resolves once every state is visible.
 */
export async function startPrometheusStack(): Promise<PrometheusStack> {
  const alertmanager = await startAlertmanager({
    config: {
      route: {
        receiver: 'blackhole',
        group_by: ['alertname'],
        group_wait: '0s',
        group_interval: '1s',
        repeat_interval: '1h',
      },
      receivers: [{ name: 'blackhole' }],
      inhibit_rules: [
        {
          source_matchers: ['alertname="AlwaysFiring"'],
          target_matchers: ['alertname="InhibitedAlert"'],
        },
      ],
    },
  });
  const nodeExporter = await startNodeExporter({
    collectors: ['loadavg', 'meminfo', 'cpu', 'time'],
  });
  const missingPort = await freePort();
  const prometheus = await startPrometheus({
    scrapeTargets: [
      { job: 'node', targets: [nodeExporter.url] },
      { job: 'missing', targets: [`127.0.0.1:${missingPort}`] },
    ],
    alertmanagerUrl: alertmanager.url,
    rules: [
      {
        name: 'inquest-test',
        rules: [
          {
            alert: 'AlwaysFiring',
            expr: 'vector(1) > 0',
            for: '0s',
            labels: { severity: 'warning', service: 'checkout' },
            annotations: { summary: 'always firing' },
          },
          {
            alert: 'AlwaysPending',
            expr: 'vector(1) > 0',
            for: '1h',
            labels: { severity: 'info' },
          },
          { alert: 'SilencedAlert', expr: 'vector(1)', labels: { team: 'payments' } },
          { alert: 'InhibitedAlert', expr: 'vector(1)', labels: { severity: 'critical' } },
          { record: 'job:up:sum', expr: 'sum by (job) (up)' },
          // two `up` series on each side and an empty on(): evaluation fails every time
          { record: 'test:broken', expr: 'up + on() up' },
        ],
      },
    ],
  });
  const silence = await fetch(`${alertmanager.url}/api/v2/silences`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      matchers: [{ name: 'alertname', value: 'SilencedAlert', isRegex: false, isEqual: true }],
      startsAt: new Date().toISOString(),
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      createdBy: 'ana@example.com',
      comment: 'planned maintenance of payments',
    }),
  });
  const { silenceID } = (await silence.json()) as { silenceID: string };
  const stop = async () => {
    await Promise.all([prometheus.stop(), nodeExporter.stop(), alertmanager.stop()]);
  };
  try {
    await waitFor(async () => {
      const up = await getJson(`${prometheus.url}/api/v1/query?query=up`);
      const rules = await getJson(`${prometheus.url}/api/v1/rules?type=record`);
      const broken = (rules.data.groups[0]?.rules as Obj[] | undefined)?.find(
        (r) => r.name === 'test:broken',
      );
      const alerts = (await getJson(`${alertmanager.url}/api/v2/alerts`)) as unknown as Obj[];
      const byName = new Map(alerts.map((a) => [a.labels.alertname as string, a.status as Obj]));
      // the inhibitor and the silencer mark alerts a moment after they arrive
      return (
        up.data.result.length === 3 &&
        broken?.health === 'err' &&
        byName.get('AlwaysFiring')?.state === 'active' &&
        byName.get('SilencedAlert')?.silencedBy.length === 1 &&
        byName.get('InhibitedAlert')?.inhibitedBy.length === 1
      );
    }, 20_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { prometheus, alertmanager, nodeExporter, silenceId: silenceID, missingPort, stop };
}
