import { WorldIndex } from '@inquest/kube';
import {
  aScenarioWorld,
  startFakeKubeApiServer,
  writeKubeconfig,
  type FakeKubeApiServer,
} from '@inquest/kube/testing';
import { freePort, tempDir } from '@inquest/testing';
import { startAllInOne } from './main';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('npm start with a kubeconfig', () => {
  let api: FakeKubeApiServer;
  beforeAll(async () => {
    api = await startFakeKubeApiServer(new WorldIndex(aScenarioWorld()));
  });
  afterAll(() => api.close());

  const baseEnv = async (dataDir: string) => ({
    PORT: String(await freePort()),
    INQUEST_DATA_DIR: dataDir,
    INQUEST_LOG_LEVEL: 'silent',
    INQUEST_DEMO_TOOLSERVER_PORT: String(await freePort()),
  });

  it('starts the Kubernetes tool server in-process and registers it for demo-team', async () => {
    const lines: string[] = [];
    const kubeconfig = writeKubeconfig(api.url);
    const app = await startAllInOne(
      { ...(await baseEnv(tempDir())), INQUEST_KUBECONFIG: kubeconfig },
      (l) => lines.push(l),
    );
    try {
      const banner = lines.find((l) => l.startsWith('Kubernetes tool server: '))!;
      expect(banner).toContain(
        `(kubeconfig ${kubeconfig}; read-only), registered for demo-team as "kubernetes"`,
      );
      const url = /^Kubernetes tool server: (\S+)/.exec(banner)![1]!;
      const res = await fetch(`${url}/tools/list_resources`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ parameters: { kind: 'pods', namespace: 'shop' } }),
      });
      expect(((await res.json()) as Obj).text).toContain('CrashLoopBackOff');
      const eff = await fetch(`${app.url}/api/v1/config/me/effective`, {
        headers: { authorization: `Bearer ${app.demoTeamToken}` },
      });
      const servers = ((await eff.json()) as Obj).mcp_servers as Obj[];
      expect(servers.map((s) => s.name)).toEqual(['demo', 'kubernetes']);
      expect(servers[1]).toMatchObject({ url, enabled: true });
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
