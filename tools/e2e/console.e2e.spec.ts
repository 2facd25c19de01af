/**
 * The web console (issue 22) in a real browser: Debian's chromium driven by playwright-core,
 * against the all-in-one service started the way a user starts it, with the demo data (org
 * `demo`, team `demo-team`, the demo tool server). One browser and one service for the file;
 * the tests run in order and share the signed-in page. On every page: no console errors, no
 * serious or critical axe-core violation, a screenshot in test-artifacts/console/.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { gatewayRequest } from '@inquest/testing';
import { startInquest, type RunningInquest } from './support/start-inquest';
import { openPage, startBrowser, type WatchedPage } from './support/console-browser';

jest.setTimeout(30_000);

let inquest: RunningInquest;
let browser: Browser;
let watched: WatchedPage;
/** A loopback webhook receiver answering `receiver.status`; counts what it answered. */
const receiver = {
  status: 500,
  answered: [] as number[],
  url: '',
  server: undefined as Server | undefined,
};
const page = () => watched.page;

const api = (token: string, method: string, path: string, body?: unknown) =>
  gatewayRequest(inquest.url, method, `/api/v1${path}`, {
    token,
    ...(body === undefined ? {} : { body }),
  });

beforeAll(async () => {
  receiver.server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      receiver.answered.push(receiver.status);
      res.writeHead(receiver.status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => receiver.server!.listen(0, '127.0.0.1', r));
  receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hook`;
  [inquest, browser] = await Promise.all([
    startInquest({
      // one attempt per webhook delivery: a 500 makes it `failed` at once (then redeliver)
      INQUEST_WEBHOOK_MAX_ATTEMPTS: '1',
      INQUEST_NOTIFIER_POLL_MS: '100',
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
  await new Promise((r) => receiver.server?.close(r));
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

/** A link of the left navigation. */
const nav = (w: WatchedPage, name: string) =>
  w.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
const subnav = (w: WatchedPage, name: string) =>
  w.page
    .getByRole('navigation', { name: 'Configuration sections' })
    .getByRole('link', { name, exact: true });

describe('investigations', () => {
  it('starts an investigation from the form and watches it complete on its page', async () => {
    await page().getByRole('link', { name: 'New investigation' }).click();
    await page().getByRole('heading', { level: 1, name: 'New investigation' }).waitFor();
    await page().getByLabel('What is wrong?').fill('checkout is returning 500s');
    await page().getByLabel('Value 1').fill('checkout');
    await page().getByRole('button', { name: 'Add context field' }).click();
    await page().getByLabel('Field 2').selectOption('namespace');
    await page().getByLabel('Value 2').fill('shop');
    await watched.check('investigation-new');
    await page().getByRole('button', { name: 'Start investigation' }).click();

    await page().waitForURL(/\/console\/investigations\/inv_/);
    const id = decodeURIComponent(new URL(page().url()).pathname.split('/').pop()!);
    const rootCause = page().getByRole('region', { name: 'Root cause' });
    await rootCause.waitFor({ timeout: 30_000 });
    const status = await api(inquest.demoTeamToken!, 'GET', `/agents/status/${id}`);
    expect(status.body.status).toBe('completed');
    const description = status.body.result.root_cause.description as string;
    expect(description.length).toBeGreaterThan(0);
    await expect(rootCause.textContent()).resolves.toContain(description);
    await page().getByRole('region', { name: 'Tools used' }).waitFor();
    await watched.check('investigation-detail');

    await page().getByRole('link', { name: 'All investigations' }).click();
    await page().getByRole('link', { name: 'checkout is returning 500s' }).first().waitFor();
    await watched.check('investigations-list');
  });
});

describe('configuration', () => {
  it('shows the effective configuration with the level each value comes from', async () => {
    await nav(watched, 'Configuration').click();
    await page().getByRole('heading', { level: 1, name: 'Configuration' }).waitFor();
    // the demo org sets the demo tool server, the team its chat channel
    await page().getByText('#demo-incidents').first().waitFor();
    await watched.check('configuration-effective');
  });

  it('shows the API validation error on the field it names, then saves a valid change and lists it in the history', async () => {
    await subnav(watched, 'Edit').click();
    await page().getByRole('heading', { level: 1, name: 'Edit configuration' }).waitFor();
    const hook = page().getByLabel('Investigation complete webhook URL');
    await hook.fill('ftp://example.com/hook');
    await page().getByRole('button', { name: 'Review changes' }).click();
    await page().getByRole('heading', { name: 'Review changes' }).waitFor();
    await watched.check('configuration-review');
    await page().getByRole('button', { name: 'Save changes' }).click();
    // the summary names the field, and the field itself carries the error
    await page()
      .getByRole('heading', { name: /The service refused the change/ })
      .waitFor();
    await expect(hook.getAttribute('aria-invalid')).resolves.toBe('true');
    const errorId = (await hook.getAttribute('aria-describedby'))!.split(' ').pop()!;
    await expect(page().locator(`[id="${errorId}"]`).textContent()).resolves.toMatch(/\S/);
    await watched.check('configuration-validation-error', { allowHttpStatus: [400] });

    await hook.fill('');
    await page().getByLabel('Chat channel').fill('#console-e2e');
    await page().getByRole('button', { name: 'Review changes' }).click();
    await page()
      .getByRole('cell', { name: /#console-e2e/ })
      .first()
      .waitFor();
    await page().getByRole('button', { name: 'Save changes' }).click();
    const saved = page()
      .getByRole('status')
      .filter({ hasText: /Saved as version \d+/ });
    await saved.waitFor();
    const version = /Saved as version (\d+)/.exec((await saved.textContent()) ?? '')![1];
    await watched.check('configuration-saved');

    await subnav(watched, 'History').click();
    const entry = page().getByRole('article', { name: `Version ${version} of team demo-team` });
    await entry.waitFor();
    await expect(entry.textContent()).resolves.toContain('#console-e2e');
    await expect(entry.textContent()).resolves.toContain('demo@inquest.local');
    await watched.check('configuration-history');
    const effective = await api(inquest.demoTeamToken!, 'GET', '/config/me/effective');
    expect(effective.body.chat_channel).toBe('#console-e2e');
  });

  it('lets a listed approver approve a pending change request', async () => {
    const lead = await teamToken('lead@example.com');
    const put = await api(inquest.adminToken, 'PUT', '/admin/nodes/demo-team/config', {
      feature_flags: { require_approval: true },
      approval: { approvers: ['lead@example.com'] },
    });
    expect(put.status).toBe(200);
    const request = await api(inquest.demoTeamToken!, 'PUT', '/config/me', {
      chat_group_to_ping: '@db-oncall',
    });
    expect(request.status).toBe(202);
    const id = request.body.change_request_id as string;

    const w = await openPage(browser);
    try {
      await signIn(w, lead);
      await nav(w, 'Configuration').click();
      await w.page
        .getByRole('navigation', { name: 'Configuration sections' })
        .getByRole('link', { name: 'Pending changes' })
        .click();
      const cr = w.page.getByRole('article', { name: `Change request ${id}` });
      await cr.getByText('@db-oncall').first().waitFor();
      await w.check('configuration-pending');
      await cr.getByRole('button', { name: `Approve ${id}` }).click();
      await w.page
        .getByRole('status')
        .filter({ hasText: new RegExp(`${id}.*approved`) })
        .waitFor();
      await w.page.getByText('No pending changes').waitFor();
      await w.check('configuration-approved');
      const effective = await api(lead, 'GET', '/config/me/effective');
      expect(effective.body.chat_group_to_ping).toBe('@db-oncall');
    } finally {
      await w.close();
    }
  });
});

describe('knowledge', () => {
  it('teaches a document and finds it with search', async () => {
    await nav(watched, 'Knowledge').click();
    await page().getByRole('heading', { level: 1, name: 'Knowledge search' }).waitFor();
    await page()
      .getByRole('navigation', { name: 'Knowledge sections' })
      .getByRole('link', { name: 'Teach & upload' })
      .click();
    await page().getByRole('heading', { level: 1, name: 'Teach the knowledge base' }).waitFor();
    const teach = page().getByRole('form', { name: 'Teach' });
    await teach.getByLabel('Title').fill('Flushing the payments ledger queue');
    await teach
      .getByLabel('Content')
      .fill(
        'When the payments ledger queue backs up, drain it with `ledgerctl drain --queue payments` ' +
          'and restart the ledger-writer deployment; the zebracorn alert clears within minutes.',
      );
    await teach.getByLabel('Service').fill('payments');
    await teach.getByRole('button', { name: 'Teach' }).click();
    await page()
      .getByRole('status')
      .filter({ hasText: /indexed|pending/ })
      .first()
      .waitFor();
    await watched.check('knowledge-teach');

    await page()
      .getByRole('navigation', { name: 'Knowledge sections' })
      .getByRole('link', { name: 'Search' })
      .click();
    await page().getByLabel('Query').fill('zebracorn alert payments ledger queue');
    await page().getByRole('button', { name: 'Search', exact: true }).click();
    await page()
      .getByRole('heading', { level: 3, name: /Flushing the payments ledger queue/ })
      .waitFor();
    await watched.check('knowledge-search');
  });
});

describe('deliveries', () => {
  it('redelivers a webhook that failed against a receiver answering 500', async () => {
    const put = await api(inquest.adminToken, 'PUT', '/admin/nodes/demo-team/config', {
      webhooks: { investigation_complete: receiver.url },
    });
    expect(put.status).toBe(200);
    const runner = await teamToken('deliveries@example.com');
    const run = await api(runner, 'POST', '/agents/run', {
      agent_name: 'planner',
      message: 'orders API latency is high',
      context: { service: 'orders', namespace: 'shop' },
    });
    expect(run.status).toBe(200);
    let failed: { delivery_id: string } | undefined;
    for (const until = Date.now() + 15_000; !failed && Date.now() < until;) {
      const list = await api(runner, 'GET', '/webhooks/deliveries?channel=webhook');
      failed = (
        list.body.deliveries as { delivery_id: string; status: string; target: string }[]
      ).find((d) => d.target === receiver.url && d.status === 'failed');
      if (!failed) await new Promise((r) => setTimeout(r, 200));
    }
    expect(failed).toBeDefined();
    expect(receiver.answered).toEqual([500]);
    receiver.status = 200;

    await nav(watched, 'Deliveries').click();
    await page().getByRole('heading', { level: 1, name: 'Deliveries' }).waitFor();
    const redeliver = page().getByRole('button', { name: `Redeliver ${failed!.delivery_id}` });
    await redeliver.waitFor();
    await watched.check('deliveries');
    await redeliver.click();
    const dialog = page().getByRole('dialog');
    await dialog.getByRole('button', { name: 'Redeliver now' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Queued as' }).waitFor();
    await watched.check('deliveries-redeliver-dialog');
    await dialog.getByRole('button', { name: 'Close' }).click();
    for (const until = Date.now() + 15_000; Date.now() < until && !receiver.answered.includes(200);)
      await new Promise((r) => setTimeout(r, 100));
    expect(receiver.answered).toEqual([500, 200]);
    // the new delivery (marked "redelivery") shows delivered; the first send stays failed
    const delivered = page()
      .getByRole('row')
      .filter({ hasText: receiver.url })
      .filter({ hasText: 'redelivery' })
      .filter({ has: page().getByText('delivered', { exact: true }) });
    for (const until = Date.now() + 15_000; Date.now() < until;) {
      if ((await delivered.count()) > 0) break;
      await page().getByRole('button', { name: 'Refresh' }).click();
      await page().waitForTimeout(300);
    }
    await expect(delivered.count()).resolves.toBe(1);
    const first = page()
      .getByRole('row')
      .filter({ hasText: receiver.url })
      .filter({ hasNotText: 'redelivery' });
    await expect(first.getByText('failed', { exact: true }).count()).resolves.toBe(1);
    await watched.check('deliveries-redelivered');
  });
});

describe('admin', () => {
  it('creates a team, issues a token shown once, and revokes it', async () => {
    const w = await openPage(browser);
    try {
      await signIn(w, inquest.adminToken);
      await nav(w, 'Admin').click();
      await w.page.getByRole('heading', { level: 1, name: 'Admin' }).waitFor();
      await w.page.getByRole('button', { name: /\(demo-team\)/ }).waitFor();
      await w.check('admin');

      await w.page.getByLabel('Parent').selectOption('demo-group');
      await w.page.getByLabel('Kind').selectOption('team');
      await w.page.getByLabel('Name', { exact: true }).fill('Console E2E');
      await expect(w.page.getByLabel('Node id').inputValue()).resolves.toBe('console-e2e');
      await w.page.getByRole('button', { name: 'Create team' }).click();
      await w.page.getByRole('status').filter({ hasText: 'Created team Console E2E' }).waitFor();
      const node = await api(inquest.adminToken, 'GET', '/admin/nodes/console-e2e');
      expect(node.status).toBe(200);
      expect(node.body.parent_id).toBe('demo-group');

      await w.page.getByRole('button', { name: /\(console-e2e\)/ }).click();
      const issue = w.page.getByRole('form', { name: 'Issue a token for console-e2e' });
      await issue.getByLabel('Owner e-mail').fill('ops@example.com');
      await issue.getByRole('button', { name: 'Issue token' }).click();
      const secret = w.page.getByRole('textbox', { name: /^Token tok_/ });
      await secret.waitFor();
      const token = await secret.inputValue();
      expect(token).toMatch(/^tok_[a-z2-7]{20}\./);
      await w.check('admin-token-issued');
      expect((await api(token, 'GET', '/config/me/effective')).status).toBe(200);
      await w.page.getByRole('button', { name: 'I have stored it' }).click();
      await expect(w.page.getByRole('textbox', { name: /^Token tok_/ }).count()).resolves.toBe(0);
      expect(await w.page.content()).not.toContain(token.split('.')[1]);

      const tokenId = token.split('.')[0]!;
      await w.page.getByRole('button', { name: `Revoke ${tokenId}` }).click();
      await w.page.getByRole('button', { name: `Confirm revoking ${tokenId}` }).click();
      await w.page
        .getByRole('row', { name: new RegExp(tokenId) })
        .getByText('revoked')
        .waitFor();
      await w.check('admin-token-revoked');
      expect((await api(token, 'GET', '/config/me/effective')).status).toBe(401);
    } finally {
      await w.close();
    }
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
  it('a 429: says how long to wait', async () => {
    const token = await teamToken('busy@example.com');
    for (let i = 0; i < 3; i++) {
      const r = await api(token, 'POST', '/agents/run', {
        agent_name: 'planner',
        message: `warm-up ${i}`,
        async: true,
      });
      expect(r.status).toBe(202);
    }
    const w = await openPage(browser);
    try {
      await signIn(w, token);
      await w.page.getByRole('link', { name: 'New investigation' }).click();
      await w.page.getByLabel('What is wrong?').fill('payments are slow');
      await w.page.getByLabel('Value 1').fill('payments');
      await w.page.getByRole('button', { name: 'Start investigation' }).click();
      await w.page
        .getByRole('alert')
        .filter({ hasText: /Too many requests, retry in \d+ s/ })
        .waitFor();
      await w.check('rate-limited', { allowHttpStatus: [429] });
    } finally {
      await w.close();
    }
  });
});

describe('layouts', () => {
  it('is readable at 390 px width', async () => {
    const w = await openPage(browser, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    try {
      await signIn(w, inquest.demoTeamToken!);
      await w.page.getByRole('heading', { level: 1, name: 'Investigations' }).waitFor();
      await w.page.getByRole('link', { name: 'checkout is returning 500s' }).first().waitFor();
      // nothing wider than the screen: no sideways scrolling of the page
      const width = await w.page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
      await w.check('investigations-390px');
    } finally {
      await w.close();
    }
  });

  it('has a dark theme (following prefers-color-scheme)', async () => {
    const w = await openPage(browser, { colorScheme: 'dark' });
    try {
      await signIn(w, inquest.demoTeamToken!);
      await w.page.getByRole('link', { name: 'checkout is returning 500s' }).first().click();
      await w.page.getByRole('region', { name: 'Root cause' }).waitFor();
      await expect(
        w.page.evaluate(() => document.documentElement.getAttribute('data-theme')),
      ).resolves.toBe('dark');
      await w.check('investigation-detail-dark');
    } finally {
      await w.close();
    }
  });
});

describe('server down', () => {
  it('says it cannot reach Inquest, never a blank screen', async () => {
    await nav(watched, 'Investigations').click();
    await page().getByRole('heading', { level: 1, name: 'Investigations' }).waitFor();
    await inquest.stop();
    // a new look at the data: another filter
    await page().getByLabel('Status').selectOption('failed');
    await page()
      .getByRole('alert')
      .filter({ hasText: `Cannot reach Inquest at ${inquest.url}` })
      .waitFor();
    await page().getByRole('button', { name: 'Retry' }).waitFor();
    await watched.check('server-down', { allowNetworkErrors: true });
    // a page whose code was never loaded: the error boundary, not a blank screen
    await nav(watched, 'Knowledge').click();
    await page()
      .getByRole('navigation', { name: 'Knowledge sections' })
      .getByRole('link', { name: 'Learned patterns' })
      .click();
    await page().getByRole('alert').first().waitFor();
    expect((await page().locator('main').innerText()).trim().length).toBeGreaterThan(20);
    await watched.check('server-down-new-page', {
      allowNetworkErrors: true,
      // the browser's and the error boundary's report of the page's code that could not load
      allowConsole: [/Failed to fetch dynamically imported module/],
    });
  });
});
