import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { WorldIndex } from '@inquest/kube';
import {
  aScenarioWorld,
  startFakeKubeApiServer,
  writeKubeconfig,
  type FakeKubeApiServer,
} from '@inquest/kube/testing';
import { freePort, tempDir } from '@inquest/testing';
import { startAllInOne } from './main';
import { TOOLSERVER_TOKENS_FILE } from './toolserver-tokens';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const DEMO_ALONGSIDE =
  'demo-team also reads the demo tool server (a synthetic shop), so its answers may mix it with ' +
  'your systems: remove "demo" from its mcp_servers (`inquest config edit`, or Configuration > ' +
  'Edit in the console) to investigate only yours';

describe('npm start with a kubeconfig', () => {
  let api: FakeKubeApiServer;
  beforeAll(async () => {
    api = await startFakeKubeApiServer(new WorldIndex(aScenarioWorld()));
  });
  afterAll(() => api.close());

  const listPods = (url: string, token?: string) =>
    fetch(`${url}/tools/list_resources`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ parameters: { kind: 'pods', namespace: 'shop' } }),
    });
  const as =
    (base: string, token: string) =>
    async (method: string, path: string, body?: unknown): Promise<Obj> => {
      const res = await fetch(`${base}/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await res.json()) as Obj;
    };
  const investigation = {
    agent_name: 'planner',
    message: 'checkout is returning 500s',
    context: { service: 'checkout', namespace: 'shop' },
  };

  const baseEnv = async (dataDir: string) => ({
    PORT: String(await freePort()),
    INQUEST_DATA_DIR: dataDir,
    INQUEST_LOG_LEVEL: 'silent',
    INQUEST_DEMO_TOOLSERVER_PORT: String(await freePort()),
  });

  it('starts the Kubernetes tool server in-process, requiring a token only demo-team can resolve, kept across restarts', async () => {
    const lines: string[] = [];
    const kubeconfig = writeKubeconfig(api.url);
    const dataDir = tempDir();
    const app = await startAllInOne(
      { ...(await baseEnv(dataDir)), INQUEST_KUBECONFIG: kubeconfig },
      (l) => lines.push(l),
    );
    let url: string;
    let token: string;
    try {
      const banner = lines.find((l) => l.startsWith('Kubernetes tool server: '))!;
      expect(banner).toContain(
        `(kubeconfig ${kubeconfig}; read-only), registered for demo-team as "kubernetes"`,
      );
      url = /^Kubernetes tool server: (\S+)/.exec(banner)![1]!;
      // demo-team still reads the synthetic shop too: the banner says so and how to stop it
      expect(lines).toContain(DEMO_ALONGSIDE);
      // the token is kept in the data dir and in the embedded vault, both owner-only
      const tokens = JSON.parse(readFileSync(join(dataDir, TOOLSERVER_TOKENS_FILE), 'utf8'));
      token = tokens.kubernetes as string;
      expect(token.length).toBeGreaterThanOrEqual(32);
      const secrets = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8'));
      expect(secrets['inquest/demo-team/k8s-toolserver']).toBe(token);
      expect(statSync(join(dataDir, TOOLSERVER_TOKENS_FILE)).mode & 0o777).toBe(0o600);
      expect(statSync(join(dataDir, 'secrets.json')).mode & 0o777).toBe(0o600);

      // the tool server itself: 401 without the token, the cluster with it
      expect((await listPods(url)).status).toBe(401);
      expect((await listPods(url, 'wrong-token-wrong-token')).status).toBe(401);
      expect(await (await listPods(url, token)).json()).toMatchObject({
        text: expect.stringContaining('CrashLoopBackOff'),
      });

      // demo-team: registered with the vault reference, its investigation reads the cluster
      const demo = as(app.url, app.demoTeamToken!);
      const servers = (await demo('GET', '/config/me/effective')).mcp_servers as Obj[];
      expect(servers.map((s) => s.name)).toEqual(['demo', 'kubernetes']);
      expect(servers[1]).toMatchObject({
        url,
        enabled: true,
        auth: { type: 'bearer', token: 'vault://inquest/demo-team/k8s-toolserver' },
      });
      const run = await demo('POST', '/agents/run', investigation);
      expect(run.status).toBe('completed');
      expect((run.tools_used as string[]).filter((t) => t.startsWith('kubernetes:'))).not.toEqual(
        [],
      );

      // another team naming the same URL: it may not name demo-team's secret, and without it the
      // tool server answers 401: its investigation gets nothing from the cluster
      const admin = as(app.url, app.adminToken!);
      await admin('POST', '/admin/nodes', {
        node_id: 'other',
        parent_id: null,
        kind: 'org',
        name: 'o',
      });
      await admin('POST', '/admin/nodes', {
        node_id: 'other-team',
        parent_id: 'other',
        kind: 'team',
        name: 't',
      });
      const other = as(
        app.url,
        (
          await admin('POST', '/admin/nodes/other-team/tokens', {
            permissions: ['read', 'write'],
            owner: 'other@example.com',
          })
        ).token,
      );
      const stolen = await other('PUT', '/config/me', {
        mcp_servers: [
          { name: 'kubernetes', url, timeout: 10, enabled: true, auth: servers[1]!.auth },
        ],
      });
      expect(stolen.error).toMatchObject({ code: 'validation_error' });
      await other('PUT', '/config/me', {
        mcp_servers: [{ name: 'kubernetes', url, timeout: 10, enabled: true }],
        agents: { investigation_agent: { enabled: true, timeout: 120 } },
      });
      const listed = ((await other('GET', '/tools')).servers as Obj[]).find(
        (s) => s.name === 'kubernetes',
      )!;
      expect(listed).toMatchObject({
        healthy: false,
        last_error: expect.stringContaining('401: missing or wrong bearer token'),
      });
      const otherRun = await other('POST', '/agents/run', investigation);
      expect(otherRun).toMatchObject({
        status: 'failed',
        error: { code: 'data_source_unavailable' },
      });
      expect((otherRun.tools_used as string[]).filter((t) => t.startsWith('kubernetes:'))).toEqual(
        [],
      );

      // demo-team does as the banner says: its investigations read only the cluster
      const dropped = await demo('PUT', '/config/me', {
        mcp_servers: [servers[1]],
      });
      expect(dropped.changed_fields).toEqual(['mcp_servers']);
      const alone = await demo('POST', '/agents/run', investigation);
      expect((alone.tools_used as string[]).filter((t) => t.startsWith('demo:'))).toEqual([]);
    } finally {
      await app.stop();
    }

    // a restart keeps the token (and the registration, re-pointed at the new port), and no
    // longer prints the note: demo-team reads the cluster alone
    const againLines: string[] = [];
    const again = await startAllInOne(
      { ...(await baseEnv(dataDir)), INQUEST_KUBECONFIG: kubeconfig },
      (l) => againLines.push(l),
    );
    try {
      expect(againLines.some((l) => l.startsWith('Kubernetes tool server: '))).toBe(true);
      expect(againLines).not.toContain(DEMO_ALONGSIDE);
      const tokens = JSON.parse(readFileSync(join(dataDir, TOOLSERVER_TOKENS_FILE), 'utf8'));
      expect(tokens.kubernetes).toBe(token);
      const eff = await fetch(`${again.url}/api/v1/admin/nodes/demo-team`, {
        headers: { authorization: `Bearer ${app.adminToken}` },
      });
      expect(eff.status).toBe(200);
      const servers = ((await eff.json()) as Obj).config.mcp_servers as Obj[];
      const entry = servers.find((s) => s.name === 'kubernetes')!;
      expect(entry.auth).toEqual({
        type: 'bearer',
        token: 'vault://inquest/demo-team/k8s-toolserver',
      });
      expect((await listPods(entry.url, token)).status).toBe(200);
      expect((await listPods(entry.url)).status).toBe(401);
    } finally {
      await again.stop();
    }

    // a start without the kubeconfig turns the entry off (its port is gone) and says so; the next
    // start with it turns it back on
    const entryOf = async (base: string): Promise<Obj> => {
      const res = await fetch(`${base}/api/v1/admin/nodes/demo-team`, {
        headers: { authorization: `Bearer ${app.adminToken}` },
      });
      return (((await res.json()) as Obj).config.mcp_servers as Obj[]).find(
        (s) => s.name === 'kubernetes',
      )!;
    };
    const offLines: string[] = [];
    const off = await startAllInOne(await baseEnv(dataDir), (l) => offLines.push(l));
    try {
      expect(offLines).toContain(
        `demo-team's "kubernetes" tool server is turned off: this start does not run it (start with INQUEST_KUBECONFIG again to turn it back on)`,
      );
      expect(await entryOf(off.url)).toMatchObject({ enabled: false });
    } finally {
      await off.stop();
    }
    const on = await startAllInOne(
      { ...(await baseEnv(dataDir)), INQUEST_KUBECONFIG: kubeconfig },
      () => undefined,
    );
    try {
      expect(await entryOf(on.url)).toMatchObject({ enabled: true });
    } finally {
      await on.stop();
    }
  }, 120_000);

  it('with Vault as the secret store, writes no secrets file and says where the token goes', async () => {
    const lines: string[] = [];
    const dataDir = tempDir();
    const app = await startAllInOne(
      {
        ...(await baseEnv(dataDir)),
        INQUEST_KUBECONFIG: writeKubeconfig(api.url),
        INQUEST_VAULT_ADDR: `http://127.0.0.1:${await freePort()}`,
        INQUEST_VAULT_TOKEN: 'vault-token',
      },
      (l) => lines.push(l),
    );
    try {
      expect(existsSync(join(dataDir, 'secrets.json'))).toBe(false);
      expect(lines).toContain(
        `Tool server tokens: with INQUEST_VAULT_ADDR set, store each token of ` +
          `${join(dataDir, TOOLSERVER_TOKENS_FILE)} in Vault at ` +
          `inquest/demo-team/k8s-toolserver (kubernetes) (until then demo-team's calls to them fail)`,
      );
      const url = /^Kubernetes tool server: (\S+)/.exec(
        lines.find((l) => l.startsWith('Kubernetes tool server: '))!,
      )![1]!;
      const token = JSON.parse(readFileSync(join(dataDir, TOOLSERVER_TOKENS_FILE), 'utf8'))
        .kubernetes as string;
      expect((await listPods(url)).status).toBe(401);
      expect((await listPods(url, token)).status).toBe(200);
    } finally {
      await app.stop();
    }
  }, 60_000);

  it('goes on without it when only a broken KUBECONFIG is in the environment, and fails when asked for one', async () => {
    const lines: string[] = [];
    const app = await startAllInOne(
      { ...(await baseEnv(tempDir())), KUBECONFIG: '/nonexistent/kubeconfig' },
      (l) => lines.push(l),
    );
    try {
      expect(lines).toContain(
        'Kubernetes tool server not started (KUBECONFIG /nonexistent/kubeconfig): kubeconfig /nonexistent/kubeconfig does not exist',
      );
      const eff = await fetch(`${app.url}/api/v1/config/me/effective`, {
        headers: { authorization: `Bearer ${app.demoTeamToken}` },
      });
      expect((((await eff.json()) as Obj).mcp_servers as Obj[]).map((s) => s.name)).toEqual([
        'demo',
      ]);
    } finally {
      await app.stop();
    }
    await expect(
      startAllInOne(
        { ...(await baseEnv(tempDir())), INQUEST_KUBECONFIG: '/nonexistent/kubeconfig' },
        () => undefined,
      ),
    ).rejects.toThrow('kubeconfig /nonexistent/kubeconfig does not exist');
  }, 60_000);
});
