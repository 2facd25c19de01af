import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONSOLE_ASSETS_DIR } from '@inquest/console';
import { consoleCsp } from '../src/console/console-static';
import { createTestGateway, type TestGateway } from './support/test-gateway';

const INDEX = `<!doctype html><html><head><script type="module" src="/console/assets/index-Ab12Cd.js"></script></head><body><div id="root"></div></body></html>`;
const ASSET = 'console.log("console app");\n';

/** The CSP directive `name` of a header value, as a list of sources. */
function directive(csp: string, name: string): string[] | undefined {
  const d = csp
    .split(';')
    .map((s) => s.trim().split(/\s+/))
    .find((parts) => parts[0] === name);
  return d?.slice(1);
}

describe('the web console at /console (real HTTP)', () => {
  let gw: TestGateway;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'inquest-console-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), INDEX);
    writeFileSync(join(dir, 'assets', 'index-Ab12Cd.js'), ASSET);
    gw = await createTestGateway({
      console: {
        assetsDir: dir,
        config: {
          oidc: {
            issuer: 'https://login.example.com/realms/ops',
            client_id: 'inquest-console',
            scopes: 'openid email',
          },
        },
      },
    });
  });
  afterAll(async () => {
    await gw.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves a hashed asset with a year of immutable caching', async () => {
    const res = await fetch(`${gw.url}/console/assets/index-Ab12Cd.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(await res.text()).toBe(ASSET);
  });

  it('answers a missing asset 404, not index.html', async () => {
    const res = await fetch(`${gw.url}/console/assets/index-Gone99.js`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('<div id="root">');
  });

  it('serves index.html with no-cache and a CSP without inline or eval scripts', async () => {
    const res = await fetch(`${gw.url}/console/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toBe(INDEX);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(directive(csp, 'script-src')).toEqual(["'self'"]);
    expect(directive(csp, 'style-src')).toEqual(["'self'"]);
    expect(directive(csp, 'default-src')).toEqual(["'none'"]);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    // the browser exchanges the OIDC code at the issuer: its origin (only) may be fetched
    expect(directive(csp, 'connect-src')).toEqual(["'self'", 'https://login.example.com']);
  });

  it('answers a deep link with index.html (client-side routes)', async () => {
    for (const path of ['/console/investigations/x', '/console/configuration/audit?x=1']) {
      const res = await fetch(`${gw.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toBe(INDEX);
    }
  });

  it('redirects / and /console to /console/', async () => {
    const root = await fetch(`${gw.url}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/console/');
    const bare = await fetch(`${gw.url}/console`, { redirect: 'manual' });
    expect(bare.headers.get('location')).toBe('/console/');
  });

  it('tells the sign-in page about OIDC at /console/config.json without a token', async () => {
    const res = await fetch(`${gw.url}/console/config.json`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      oidc: {
        issuer: 'https://login.example.com/realms/ops',
        client_id: 'inquest-console',
        scopes: 'openid email',
      },
    });
  });

  it('leaves the API untouched: unknown API paths stay JSON 404', async () => {
    const res = await gw.request('GET', '/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: { code: 'not_found' } });
  });
});

describe('the web console without a build', () => {
  it('answers 503 with how to build it, and the CSP', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'inquest-console-none-'));
    const gw = await createTestGateway({ console: { assetsDir: empty } });
    try {
      const res = await fetch(`${gw.url}/console/investigations`);
      expect(res.status).toBe(503);
      expect(await res.text()).toContain('npm run build');
      expect(res.headers.get('content-security-policy')).toBe(consoleCsp());
      const cfg = await fetch(`${gw.url}/console/config.json`);
      expect(await cfg.json()).toEqual({ oidc: null });
    } finally {
      await gw.stop();
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('names the Vite output directory of @inquest/console', () => {
    expect(CONSOLE_ASSETS_DIR.replace(/\\/g, '/')).toMatch(/libs\/console\/src\/\.\.\/dist\/app$/);
  });
});
