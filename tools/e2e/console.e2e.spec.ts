/**
 * The web console (issue 22) in a real browser: Debian's chromium driven by playwright-core,
 * against the all-in-one service started the way a user starts it, with the demo data (org
 * `demo`, team `demo-team`, the demo tool server). One browser and one service for the file;
 * the tests run in order and share the signed-in page. On every page: no console errors, no
 * serious or critical axe-core violation, a screenshot in test-artifacts/console/.
 */
import type { Browser } from 'playwright-core';
import { gatewayRequest } from '@inquest/testing';
import { startInquest, type RunningInquest } from './support/start-inquest';
import { openPage, startBrowser, type WatchedPage } from './support/console-browser';

jest.setTimeout(30_000);

let inquest: RunningInquest;
let browser: Browser;
let watched: WatchedPage;
const page = () => watched.page;

const api = (token: string, method: string, path: string, body?: unknown) =>
  gatewayRequest(inquest.url, method, `/api/v1${path}`, {
    token,
    ...(body === undefined ? {} : { body }),
  });

beforeAll(async () => {
  [inquest, browser] = await Promise.all([
    startInquest({
      // POST /agents/run is the "trigger" class: 3 a minute per token leaves room for the flows
      // (each uses its own token) and lets the 429 test reach the limit quickly
      INQUEST_RATE_LIMITS: 'read=100000,write=100000,trigger=3',
    }),
    startBrowser(),
  ]);
  watched = await openPage(browser);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await inquest?.stop();
});

/** A read-write token of demo-team for one test, so each flow has its own rate-limit budget. */
async function teamToken(owner: string, permissions = ['read', 'write']): Promise<string> {
  const res = await api(inquest.adminToken, 'POST', '/admin/nodes/demo-team/tokens', {
    permissions,
    owner,
  });
  if (res.status !== 201) throw new Error(`token for ${owner}: ${res.status}`);
  return res.body.token as string;
}

/** Opens the console and signs in with `token` through the form. */
async function signIn(w: WatchedPage, token: string): Promise<void> {
  await w.page.goto(`${inquest.url}/console/`);
  await w.page.getByLabel('Access token').fill(token);
  await w.page.getByRole('button', { name: 'Sign in' }).click();
}

describe('the page checks', () => {
  it('catch a console error, an uncaught error and a serious accessibility violation', async () => {
    const w = await openPage(browser);
    try {
      await w.page.setContent(
        '<html lang="en"><head><title>check</title></head><body><main><h1>Check</h1>' +
          '<input type="text"></main><script>console.error("boom");' +
          'setTimeout(() => { throw new Error("late failure"); });</script></body></html>',
      );
      await w.page.waitForTimeout(50);
      const err = await w.check('harness-self-check').catch((e: Error) => e);
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toMatch(/console: boom/);
      expect((err as Error).message).toMatch(/pageerror: late failure/);
      expect((err as Error).message).toMatch(/axe: critical label:/);
    } finally {
      await w.close();
    }
  });
});

describe('sign-in', () => {
  it('shows the sign-in form at / (redirected to /console/)', async () => {
    await page().goto(`${inquest.url}/`);
    expect(new URL(page().url()).pathname).toBe('/console/');
    await expect(
      page().getByRole('heading', { level: 1, name: 'Sign in to Inquest' }).isVisible(),
    ).resolves.toBe(true);
    await watched.check('sign-in');
  });

  it('signs in with the demo team token and lands on the investigations list', async () => {
    await signIn(watched, inquest.demoTeamToken!);
    await page().getByRole('heading', { level: 1, name: 'Investigations' }).waitFor();
    expect(new URL(page().url()).pathname).toBe('/console/investigations');
    // the token is kept in sessionStorage, never in the URL
    expect(page().url()).not.toContain(inquest.demoTeamToken!.split('.')[1]);
    await watched.check('investigations-empty');
  });
});

describe('bad input', () => {
  it('a wrong token: a clear message on the sign-in form', async () => {
    const w = await openPage(browser);
    try {
      await signIn(w, 'tok_aaaaaaaaaaaaaaaaaaaa.not-the-secret');
      await w.page.getByText('That token was not accepted.').waitFor();
      await expect(w.page.getByLabel('Access token').getAttribute('aria-invalid')).resolves.toBe(
        'true',
      );
      await w.check('sign-in-wrong-token', { allowHttpStatus: [401] });
    } finally {
      await w.close();
    }
  });

  it('a session whose token is revoked: a clear message and a way back to sign-in', async () => {
    const token = await teamToken('revoked@example.com');
    const w = await openPage(browser);
    try {
      await signIn(w, token);
      await w.page.getByRole('heading', { level: 1, name: 'Investigations' }).waitFor();
      const revoke = await api(
        inquest.adminToken,
        'DELETE',
        `/admin/tokens/${token.split('.')[0]}`,
      );
      expect(revoke.status).toBe(204);
      // the next look at the data (a reload of the page, as after a coffee break)
      await w.page.reload();
      await w.page.getByText('Your session has expired or the token is wrong.').waitFor();
      await w.check('session-expired', { allowHttpStatus: [401] });
      await w.page.getByRole('link', { name: 'Sign in again' }).click();
      await w.page.getByRole('heading', { level: 1, name: 'Sign in to Inquest' }).waitFor();
      await w.check('session-expired-sign-in', { allowHttpStatus: [401] });
    } finally {
      await w.close();
    }
  });
});
