const { REQUIREMENTS, plan } = require('./test-setup.js') as {
  REQUIREMENTS: Requirement[];
  plan: (reqs: Requirement[], host: Host) => Plan;
};

interface Requirement {
  bins: string[];
  pkg: string;
  env?: string;
  unlessEnv?: string;
}
interface Host {
  env: Record<string, string | undefined>;
  uid: number;
  hasAptGet: boolean;
  find: (name: string) => string | undefined;
  exists: (file: string) => boolean;
}
interface Plan {
  action: 'ok' | 'install' | 'fail';
  packages: string[];
  message?: string;
}

const host = (over: Partial<Host> & { have?: string[] } = {}): Host => ({
  env: {},
  uid: 1000,
  hasAptGet: true,
  find: (name) => ((over.have ?? []).includes(name) ? `/usr/bin/${name}` : undefined),
  exists: () => false,
  ...over,
});
const ALL = [
  'nats-server',
  'prometheus',
  'promtool',
  'prometheus-alertmanager',
  'prometheus-node-exporter',
  'python3',
  'chromium',
];

describe('test-setup (the first step of npm test)', () => {
  it('does nothing when every test server is there', () => {
    expect(plan(REQUIREMENTS, host({ have: ALL })).action).toBe('ok');
  });

  it('installs the missing Debian packages with apt-get when root, each package once', () => {
    const p = plan(REQUIREMENTS, host({ uid: 0, have: ['python3', 'nats-server'] }));
    expect(p.action).toBe('install');
    expect(p.packages).toEqual([
      'prometheus',
      'prometheus-alertmanager',
      'prometheus-node-exporter',
      'chromium',
    ]);
  });

  it('stops with one line naming exactly what to install when not root', () => {
    const p = plan(REQUIREMENTS, host({ have: ALL.filter((b) => b !== 'nats-server') }));
    expect(p.action).toBe('fail');
    expect(p.message).toBe(
      'npm test needs nats-server (test servers and browser, not found on PATH or in /usr/sbin, /usr/bin): run ' +
        '`sudo apt-get install -y --no-install-recommends nats-server` or point INQUEST_NATS_SERVER_BIN at the binaries',
    );
    expect(p.message).not.toContain('\n');
  });

  it('without apt-get names the packages, even as root', () => {
    const p = plan(REQUIREMENTS, host({ uid: 0, hasAptGet: false, have: ['python3'] }));
    expect(p.action).toBe('fail');
    expect(p.message).toContain(
      'install the packages nats-server prometheus prometheus-alertmanager prometheus-node-exporter chromium',
    );
  });

  it('honours the binary variables and a reused NATS server', () => {
    const have = ALL.filter((b) => b !== 'nats-server' && b !== 'prometheus');
    const p = plan(
      REQUIREMENTS,
      host({
        have,
        env: { INQUEST_TEST_NATS_URL: 'nats://10.0.0.1:4222', INQUEST_PROMETHEUS_BIN: '/opt/prom' },
        exists: (f) => f === '/opt/prom',
      }),
    );
    expect(p.action).toBe('ok');
    const wrong = plan(
      REQUIREMENTS,
      host({ have: ALL, env: { INQUEST_PROMETHEUS_BIN: '/nowhere/prometheus' } }),
    );
    expect(wrong.action).toBe('fail');
    expect(wrong.message).toContain('needs prometheus ');
  });

  it('needs chromium for the console browser tests: Debian package, either binary name, or INQUEST_CHROMIUM_BIN', () => {
    const others = ALL.filter((b) => b !== 'chromium');
    const asRoot = plan(REQUIREMENTS, host({ uid: 0, have: others }));
    expect(asRoot.action).toBe('install');
    expect(asRoot.packages).toEqual(['chromium']);
    const notRoot = plan(REQUIREMENTS, host({ have: others }));
    expect(notRoot.message).toBe(
      'npm test needs chromium (test servers and browser, not found on PATH or in /usr/sbin, /usr/bin): run ' +
        '`sudo apt-get install -y --no-install-recommends chromium` or point INQUEST_CHROMIUM_BIN at the binaries',
    );
    expect(plan(REQUIREMENTS, host({ have: [...others, 'chromium-browser'] })).action).toBe('ok');
    const byEnv = host({
      have: others,
      env: { INQUEST_CHROMIUM_BIN: '/opt/chrome/chrome' },
      exists: (f) => f === '/opt/chrome/chrome',
    });
    expect(plan(REQUIREMENTS, byEnv).action).toBe('ok');
    const wrongEnv = host({ have: ALL, env: { INQUEST_CHROMIUM_BIN: '/nowhere/chrome' } });
    expect(plan(REQUIREMENTS, wrongEnv).message).toContain('needs chromium ');
  });
});
