import { writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createLogger } from '@inquest/observability';
import { freePort, tempDir } from '@inquest/testing';
import { start, type RunningPrometheusToolServer } from '../src/main';
import { startPrometheusStack, type PrometheusStack } from './prometheus-fixture';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const logger = createLogger({ name: 'toolserver-prometheus-test', level: 'silent' });

async function post(url: string, tool: string, parameters: Obj = {}, headers: Obj = {}) {
  const res = await fetch(`${url}/tools/${tool}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ parameters }),
  });
  return { status: res.status, body: (await res.json()) as Obj };
}

describe('toolserver-prometheus against real Prometheus, node exporter and Alertmanager', () => {
  let stack: PrometheusStack;
  let server: RunningPrometheusToolServer;
  const call = async (tool: string, parameters: Obj = {}) => {
    const r = await post(server.url, tool, parameters);
    if (r.status !== 200)
      throw new Error(`${tool} answered ${r.status}: ${JSON.stringify(r.body)}`);
    return r.body;
  };

  beforeAll(async () => {
    stack = await startPrometheusStack();
    server = await start(
      {
        INQUEST_TOOLSERVER_PROMETHEUS_PORT: '0',
        INQUEST_PROMETHEUS_URL: stack.prometheus.url,
        INQUEST_ALERTMANAGER_URL: stack.alertmanager.url,
        INQUEST_DATA_DIR: tempDir(),
      },
      { logger },
    );
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await stack?.stop();
  });

  it('lists ten read-only tools with schemas and MCP annotations', async () => {
    const tools = (await (await fetch(`${server.url}/tools`)).json()) as Obj[];
    expect(tools.map((t) => t.name)).toEqual([
      'prometheus_query',
      'prometheus_query_range',
      'prometheus_alerts',
      'prometheus_rules',
      'prometheus_targets',
      'prometheus_series',
      'prometheus_label_names',
      'prometheus_label_values',
      'alertmanager_alerts',
      'alertmanager_silences',
    ]);
    for (const t of tools) {
      expect(t.read_only).toBe(true);
      expect(t.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(t.parameters).toMatchObject({ type: 'object', additionalProperties: false });
      expect(t.description.length).toBeGreaterThan(60);
    }
    const range = tools.find((t) => t.name === 'prometheus_query_range')!;
    expect(Object.keys(range.parameters.properties)).toEqual(
      expect.arrayContaining(['query', 'start', 'end', 'step']),
    );
    expect(range.parameters.required).toEqual(['query']);
    const health = await (await fetch(`${server.url}/health`)).json();
    expect(health).toEqual({ status: 'ok', prometheus: 'up', alertmanager: 'up' });
  });

  it('prometheus_query: instant vector, scalar and a summarized range selector', async () => {
    const up = await call('prometheus_query', { query: 'up' });
    expect(up.result_type).toBe('vector');
    const byJob = Object.fromEntries(up.result.map((r: Obj) => [r.labels.job, r.value]));
    expect(byJob).toEqual({ node: 1, prometheus: 1, missing: 0 });
    expect(up.result.map((r: Obj) => r.series)).toContain(
      `up{instance="${stack.nodeExporter.url.replace('http://', '')}",job="node"}`,
    );
    const scalar = await call('prometheus_query', { query: 'scalar(vector(42))', time: 'now-5m' });
    expect(scalar).toMatchObject({ result_type: 'scalar', value: 42 });
    expect(Date.parse(scalar.time)).toBeLessThan(Date.now() - 299_000);
    const limited = await call('prometheus_query', { query: 'up', limit: 1 });
    expect(limited).toMatchObject({ result_total: 3, truncated: true });
    expect(limited.result).toHaveLength(1);
    const matrix = await call('prometheus_query', { query: 'up{job="node"}[1m]' });
    expect(matrix.result_type).toBe('matrix');
    expect(matrix.series[0]).toMatchObject({ min: 1, max: 1, trend: 'flat' });
  });

  it('prometheus_query_range summarizes each series: min/max/avg/first/last, trend and slope, few points', async () => {
    const clock = await call('prometheus_query_range', {
      query: 'vector(time())',
      start: 'now-10m',
      end: 'now',
      step: '5s',
      points: 5,
    });
    expect(clock).toMatchObject({ series_total: 1, truncated: false, step: '5s' });
    const s = clock.series[0];
    expect(s.trend).toBe('rising');
    expect(s.slope_per_minute).toBeCloseTo(60, 3);
    expect(s.samples).toBe(121);
    expect(s.points).toHaveLength(5);
    expect(s.max - s.min).toBeCloseTo(600, 0);
    expect(s.last).toBe(s.max);
    expect(clock.trends).toEqual({ rising: 1, falling: 0, flat: 0 });

    const falling = await call('prometheus_query_range', {
      query: '-vector(time())',
      start: '10m',
      step: 30,
    });
    expect(falling.series[0]).toMatchObject({ trend: 'falling', samples: 21 });

    const up = await call('prometheus_query_range', {
      query: 'up',
      start: 'now-2m',
      sort_by: 'series',
    });
    const names = up.series.map((x: Obj) => x.series);
    expect(names).toHaveLength(3);
    expect(names).toEqual([...names].sort());
    const node = up.series.find((x: Obj) => x.labels.job === 'node');
    expect(node).toMatchObject({ min: 1, max: 1, avg: 1, trend: 'flat', slope_per_minute: 0 });
    expect(node.points.length).toBeLessThanOrEqual(10);
    expect(up.step).toBe('1s');

    const top = await call('prometheus_query_range', {
      query: 'up',
      start: 'now-2m',
      max_series: 2,
    });
    expect(top).toMatchObject({ series_total: 3, truncated: true });
    expect(top.series).toHaveLength(2);
    expect(top.notes[0]).toContain('showing 2 of 3 series');
  });

  it('caps a range that would need too many points and says so', async () => {
    const r = await call('prometheus_query_range', {
      query: 'vector(1)',
      start: 'now-7d',
      end: 'now',
      step: '1s',
      points: 3,
    });
    expect(r.notes[0]).toMatch(
      /^step raised from 1s to 9m11s: 7d at 1s would be 604801 points per series, the limit is 1100$/,
    );
    expect(r.series[0].samples).toBeLessThanOrEqual(1100);
    expect(r.series[0].points).toHaveLength(3);
  });

  it('prometheus_targets: health and lastError per target, down first, counts per job', async () => {
    const t = await call('prometheus_targets');
    expect(t.targets[0]).toMatchObject({ job: 'missing', health: 'down' });
    expect(t.targets[0].last_error).toMatch(/connection refused/);
    expect(t.jobs).toEqual(
      expect.arrayContaining([
        { job: 'node', up: 1, down: 0, unknown: 0 },
        { job: 'missing', up: 0, down: 1, unknown: 0 },
      ]),
    );
    const node = await call('prometheus_targets', { job: 'node' });
    expect(node.targets).toHaveLength(1);
    expect(node.targets[0]).toMatchObject({
      health: 'up',
      scrape_url: `${stack.nodeExporter.url}/metrics`,
    });
    expect(node.targets[0].last_error).toBeUndefined();
    expect((await call('prometheus_targets', { health: 'down' })).total).toBe(1);
  });

  it('prometheus_rules: alerting rules with state, recording rules, a failing rule with its error', async () => {
    const all = await call('prometheus_rules');
    const byName = Object.fromEntries(all.rules.map((r: Obj) => [r.name, r]));
    expect(byName['AlwaysFiring']).toMatchObject({
      type: 'alert',
      state: 'firing',
      health: 'ok',
      query: 'vector(1) > 0',
      for: '0s',
      group: 'inquest-test',
      labels: { severity: 'warning', service: 'checkout' },
      annotations: { summary: 'always firing' },
    });
    expect(byName['AlwaysPending']).toMatchObject({ state: 'pending', for: '1h' });
    expect(byName['job:up:sum']).toMatchObject({ type: 'record', health: 'ok' });
    expect(byName['test:broken'].health).toBe('err');
    expect(byName['test:broken'].last_error).toMatch(/many|duplicate|match/i);
    const failing = await call('prometheus_rules', { health: 'err' });
    expect(failing.rules.map((r: Obj) => r.name)).toEqual(['test:broken']);
    const records = await call('prometheus_rules', { type: 'record' });
    expect(records.rules.every((r: Obj) => r.type === 'record')).toBe(true);
    expect((await call('prometheus_rules', { state: 'pending' })).rules).toHaveLength(1);
  });

  it('prometheus_alerts: firing and pending alerts, filtered', async () => {
    const a = await call('prometheus_alerts');
    expect(a.firing).toBe(3);
    expect(a.pending).toBe(1);
    expect(a.alerts[0].state).toBe('firing');
    const checkout = await call('prometheus_alerts', { labels: { service: 'checkout' } });
    expect(checkout.alerts).toHaveLength(1);
    expect(checkout.alerts[0]).toMatchObject({
      alertname: 'AlwaysFiring',
      value: 1,
      annotations: { summary: 'always firing' },
    });
    expect(typeof checkout.alerts[0].active_at).toBe('string');
    const pending = await call('prometheus_alerts', { state: 'pending' });
    expect(pending.alerts.map((x: Obj) => x.alertname)).toEqual(['AlwaysPending']);
    expect((await call('prometheus_alerts', { severity: 'critical' })).alerts[0].alertname).toBe(
      'InhibitedAlert',
    );
  });

  it('alertmanager_alerts: active, silenced (by the silence) and inhibited, filtered by matchers', async () => {
    const all = await call('alertmanager_alerts');
    const byName = Object.fromEntries(all.alerts.map((a: Obj) => [a.alertname, a]));
    expect(byName['AlwaysFiring']).toMatchObject({ state: 'active', receivers: ['blackhole'] });
    expect(byName['SilencedAlert']).toMatchObject({
      state: 'silenced',
      silenced_by: [stack.silenceId],
    });
    expect(byName['InhibitedAlert'].state).toBe('inhibited');
    expect(byName['InhibitedAlert'].inhibited_by).toHaveLength(1);
    expect(all).toMatchObject({ active: 1, silenced: 1, inhibited: 1 });
    const one = await call('alertmanager_alerts', { filter: 'alertname="AlwaysFiring"' });
    expect(one.alerts.map((a: Obj) => a.alertname)).toEqual(['AlwaysFiring']);
    const regex = await call('alertmanager_alerts', {
      filter: ['alertname=~"Always.*|Silenced.*"', 'severity!="info"'],
    });
    expect(regex.alerts.map((a: Obj) => a.alertname).sort()).toEqual([
      'AlwaysFiring',
      'SilencedAlert',
    ]);
    const braces = await call('alertmanager_alerts', { filter: '{team="payments"}' });
    expect(braces.alerts.map((a: Obj) => a.alertname)).toEqual(['SilencedAlert']);
    const activeOnly = await call('alertmanager_alerts', { silenced: false, inhibited: false });
    expect(activeOnly.alerts.map((a: Obj) => a.alertname)).toEqual(['AlwaysFiring']);
  });

  it('alertmanager_silences lists the silence created through Alertmanager', async () => {
    const s = await call('alertmanager_silences');
    expect(s.total).toBe(1);
    expect(s.silences[0]).toMatchObject({
      id: stack.silenceId,
      state: 'active',
      matchers: ['alertname="SilencedAlert"'],
      created_by: 'ana@example.com',
      comment: 'planned maintenance of payments',
    });
    expect((await call('alertmanager_silences', { state: 'expired' })).total).toBe(0);
    expect((await call('alertmanager_silences', { filter: 'alertname="Other"' })).total).toBe(0);
  });

  it('series and label lookup', async () => {
    const series = await call('prometheus_series', { match: 'up{job=~"node|missing"}' });
    expect(series.total).toBe(2);
    expect(series.series).toContain(`up{instance="127.0.0.1:${stack.missingPort}",job="missing"}`);
    const multi = await call('prometheus_series', {
      match: ['node_load1', 'node_load5'],
      limit: 1,
    });
    expect(multi).toMatchObject({ total: 2, truncated: true });
    const names = await call('prometheus_label_names', { match: 'up' });
    expect(names.labels).toEqual(['__name__', 'instance', 'job']);
    const jobs = await call('prometheus_label_values', { label: 'job' });
    expect(jobs.values).toEqual(['missing', 'node', 'prometheus']);
    const metrics = await call('prometheus_label_values', {
      label: '__name__',
      match: '{job="node"}',
      limit: 5,
    });
    expect(metrics.values).toHaveLength(5);
    expect(metrics.total).toBeGreaterThan(20);
  });

  it('bad input answers a clear 4xx and nothing else happens', async () => {
    const cases: Array<[string, Obj, number, RegExp]> = [
      [
        'prometheus_query',
        { query: 'sum(rate(up[5m]' },
        400,
        /Prometheus rejected the request: .*parse error/,
      ],
      ['prometheus_query', {}, 400, /invalid parameters: \/ must have required property 'query'/],
      ['prometheus_query', { query: 'up', nope: 1 }, 400, /must NOT have additional properties/],
      [
        'prometheus_query_range',
        { query: 'up', start: 'yesterday-ish' },
        400,
        /start: cannot read "yesterday-ish" as a time/,
      ],
      [
        'prometheus_query_range',
        { query: 'up', start: 'now', end: 'now-1h' },
        400,
        /start .* must be before end/,
      ],
      [
        'prometheus_query_range',
        { query: 'up', start: 'now-90d' },
        400,
        /the range 90d is longer than the limit 31d/,
      ],
      [
        'prometheus_query_range',
        { query: 'up', step: 'fast' },
        400,
        /step: cannot read "fast" as a duration/,
      ],
      ['prometheus_query_range', { query: 'rate(up[5m]) +' }, 400, /parse error/],
      ['prometheus_series', { match: '{}' }, 400, /Prometheus rejected the request/],
      ['prometheus_label_values', { label: 'bad-name' }, 400, /must match pattern/],
      [
        'alertmanager_alerts',
        { filter: 'alertname=~"("' },
        400,
        /Alertmanager rejected the request/,
      ],
      ['no_such_tool', {}, 404, /unknown tool no_such_tool/],
    ];
    for (const [tool, params, status, message] of cases) {
      const r = await post(server.url, tool, params);
      expect({ tool, status: r.status }).toEqual({ tool, status });
      expect(r.body.error).toMatch(message);
    }
    const notJson = await fetch(`${server.url}/tools/prometheus_query`, {
      method: 'POST',
      body: '{',
    });
    expect(notJson.status).toBe(400);
    // still serving
    expect((await call('prometheus_query', { query: 'vector(1)' })).result[0].value).toBe(1);
  });

  it('serves the same tools over MCP Streamable HTTP', async () => {
    const client = new Client({ name: 'test', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(10);
      expect(tools[0]!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      const res = (await client.callTool({
        name: 'prometheus_query',
        arguments: { query: 'up{job="node"}' },
      })) as Obj;
      expect(res.structuredContent.result[0].value).toBe(1);
      const bad = (await client.callTool({
        name: 'prometheus_query',
        arguments: { query: 'up{' },
      })) as Obj;
      expect(bad.isError).toBe(true);
      expect(bad.content[0].text).toMatch(/parse error/);
    } finally {
      await client.close();
    }
  });
});

describe('toolserver-prometheus: unreachable upstreams, credentials, configuration', () => {
  it('answers 502 with a clear message when Prometheus is unreachable, and health says degraded', async () => {
    const port = await freePort();
    const server = await start(
      {
        INQUEST_TOOLSERVER_PROMETHEUS_PORT: '0',
        INQUEST_PROMETHEUS_URL: `http://127.0.0.1:${port}`,
        INQUEST_DATA_DIR: tempDir(),
      },
      { logger },
    );
    try {
      const r = await post(server.url, 'prometheus_query', { query: 'up' });
      expect(r.status).toBe(502);
      expect(r.body.error).toBe(
        `Prometheus at http://127.0.0.1:${port} is unreachable (ECONNREFUSED)`,
      );
      const tools = (await (await fetch(`${server.url}/tools`)).json()) as Obj[];
      expect(tools.map((t) => t.name)).not.toContain('alertmanager_alerts');
      const health = (await (await fetch(`${server.url}/health`)).json()) as Obj;
      expect(health.status).toBe('degraded');
      expect(health.prometheus).toMatch(/^down: .*unreachable/);
    } finally {
      await server.stop();
    }
  });

  it('sends bearer / basic credentials resolved from vault references, requires its own token, never echoes secrets', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const fake = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ status: 'success', data: { resultType: 'scalar', result: [1, '7'] } }),
      );
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    const fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    const dir = tempDir();
    writeFileSync(
      join(dir, 'secrets.json'),
      JSON.stringify({
        'ops/prometheus': 'prom-token-123',
        'ops/alertmanager': { password: 'am-pass-456' },
        'ops/inbound': 'inbound-789',
      }),
    );
    const server = await start(
      {
        INQUEST_TOOLSERVER_PROMETHEUS_PORT: '0',
        INQUEST_TOOLSERVER_PROMETHEUS_TOKEN: 'vault://ops/inbound',
        INQUEST_PROMETHEUS_URL: fakeUrl,
        INQUEST_PROMETHEUS_BEARER_TOKEN: 'vault://ops/prometheus',
        INQUEST_ALERTMANAGER_URL: fakeUrl,
        INQUEST_ALERTMANAGER_BASIC_USERNAME: 'inquest',
        INQUEST_ALERTMANAGER_BASIC_PASSWORD: 'vault://ops/alertmanager#password',
        INQUEST_DATA_DIR: dir,
      },
      { logger },
    );
    try {
      expect((await post(server.url, 'prometheus_query', { query: 'x' })).status).toBe(401);
      const auth = { authorization: 'Bearer inbound-789' };
      const r = await post(server.url, 'prometheus_query', { query: 'x' }, auth);
      expect(r.body).toMatchObject({ result_type: 'scalar', value: 7 });
      expect(seen.at(-1)?.authorization).toBe('Bearer prom-token-123');
      await post(server.url, 'alertmanager_silences', {}, auth);
      expect(seen.at(-1)?.authorization).toBe(
        `Basic ${Buffer.from('inquest:am-pass-456').toString('base64')}`,
      );
    } finally {
      await server.stop();
      await new Promise((r) => fake.close(r));
    }
    await expect(
      start({ INQUEST_PROMETHEUS_URL: fakeUrl, INQUEST_PROMETHEUS_BEARER_TOKEN: 'plain-secret' }),
    ).rejects.toThrow(
      /^INQUEST_PROMETHEUS_BEARER_TOKEN: expected a vault:\/\/ reference .*value not shown\)$/,
    );
    await expect(start({ INQUEST_PROMETHEUS_URL: 'ftp://x' })).rejects.toThrow(
      /INQUEST_PROMETHEUS_URL: expected an http\(s\) URL/,
    );
    await expect(start({})).rejects.toThrow(/INQUEST_PROMETHEUS_URL/);
  });
});
