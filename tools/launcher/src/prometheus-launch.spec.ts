import {
  freePort,
  startPrometheus,
  tempDir,
  type RunningHttpServerProcess,
} from '@inquest/testing';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startAllInOne } from './main';
import { TOOLSERVER_TOKENS_FILE } from './toolserver-tokens';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('npm start with INQUEST_PROMETHEUS_URL', () => {
  const tokens: string[] = [];
  let prometheus: RunningHttpServerProcess;
  beforeAll(async () => {
    prometheus = await startPrometheus();
  });
  afterAll(async () => {
    await prometheus?.stop();
  });

  it('starts the Prometheus tool server in-process, requiring a token only demo-team can resolve, and registers it for demo-team, re-pointed at each start with the same token', async () => {
    const dataDir = tempDir();
    const lines: string[] = [];
    const env = async () => ({
      PORT: String(await freePort()),
      INQUEST_DATA_DIR: dataDir,
      INQUEST_LOG_LEVEL: 'silent',
      INQUEST_DEMO_TOOLSERVER_PORT: String(await freePort()),
      INQUEST_PROMETHEUS_URL: prometheus.url,
    });
    const urls: string[] = [];
    const kept: string[] = [];
    const query = (url: string, token?: string) =>
      fetch(`${url}/tools/prometheus_query`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({ parameters: { query: 'vector(3)' } }),
      });
    for (let run = 0; run < 2; run++) {
      const app = await startAllInOne(await env(), (l) => lines.push(l));
      try {
        const banner = lines.find((l) => l.startsWith('Prometheus tool server: '))!;
        expect(banner).toContain(`(Prometheus ${prometheus.url}), registered for demo-team`);
        const url = /^Prometheus tool server: (\S+)/.exec(banner)![1]!;
        urls.push(url);
        const token = JSON.parse(readFileSync(join(dataDir, TOOLSERVER_TOKENS_FILE), 'utf8'))
          .prometheus as string;
        kept.push(token);
        const secrets = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8'));
        expect(secrets['inquest/demo-team/prometheus-toolserver']).toBe(token);
        expect((await query(url)).status).toBe(401);
        const res = await query(url, token);
        expect(((await res.json()) as Obj).result[0].value).toBe(3);
        const eff = await fetch(`${app.url}/api/v1/config/me/effective`, {
          headers: { authorization: `Bearer ${app.demoTeamToken ?? tokens[0]}` },
        });
        const servers = ((await eff.json()) as Obj).mcp_servers as Obj[];
        expect(servers.map((s) => s.name)).toEqual(['demo', 'prometheus']);
        expect(servers[1]).toMatchObject({
          url,
          enabled: true,
          auth: { type: 'bearer', token: 'vault://inquest/demo-team/prometheus-toolserver' },
        });
        const tools = await fetch(`${app.url}/api/v1/tools`, {
          headers: { authorization: `Bearer ${app.demoTeamToken ?? tokens[0]}` },
        });
        expect(
          ((await tools.json()) as Obj).servers.find((s: Obj) => s.name === 'prometheus'),
        ).toMatchObject({ healthy: true });
        if (app.demoTeamToken) tokens.push(app.demoTeamToken);
      } finally {
        await app.stop();
        lines.length = 0;
      }
    }
    expect(urls[0]).not.toBe(urls[1]);
    expect(kept[0]).toBe(kept[1]);
  }, 60_000);
});
