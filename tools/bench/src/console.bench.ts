/**
 * Web console benchmark (issue 22, "Speed"). Inquest is started the way a user starts it
 * (`node tools/launcher/dist/main.js`, demo data, fresh data dir, rate limits out of the way);
 * Debian's chromium, headless through playwright-core, loads the built console over loopback.
 *
 * 1. First-page size: every JS and CSS response of a cold load of /console/ until the sign-in form
 *    is usable, gzipped here (level 9) whatever the gateway sent; then what signing in adds for
 *    the investigations list. Target: the first page <= 300 KB (1 KB = 1024 bytes) gzipped.
 * 2. Time to interactive of the first page: navigation start -> the sign-in form usable (the token
 *    input and an enabled submit button rendered by React; recorded in the page by a
 *    MutationObserver, so no polling delay), over --loads (5) cold loads, each a fresh browser
 *    context (empty cache). Target: median <= 1 s.
 * 3. The investigations list with --rows (1,000) investigations, seeded through the API
 *    (POST /agents/run, async, against the demo tool server): the list is scrolled by
 *    --scroll-step px (100) a frame, first while its pages of 100 load as it scrolls, then once
 *    more from top to bottom over all rows loaded. Frame times come from requestAnimationFrame,
 *    long tasks from a PerformanceObserver ('longtask'). Target ("no jank") for the scroll over
 *    the loaded rows: p95 frame time <= 25 ms (at most one 60 Hz frame late) and no long task
 *    over 50 ms (medians of --passes passes); the rows in the DOM stay below a fifth of the rows
 *    (virtualised). The machine is shared: each pass is followed by the same scroll over a static
 *    HTML table of the same rows (no JS) as a control, and the load average is printed.
 *
 * Args: --loads=<n> (5) --rows=<n> (1000) --scroll-step=<px> (100) --seed-concurrency=<n> (16)
 *       --passes=<n> (3: scrolls over the loaded rows, each followed by the control)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { freePort, gatewayRequest, launchChromium } from '@inquest/testing';

const arg = (name: string, def: number) => {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  return a ? Number(a.split('=')[1]) : def;
};
const out = (s: string) => process.stdout.write(`${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN) : NaN;
};
const median = (xs: number[]) => pct(xs, 50);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

const ROOT = resolve(__dirname, '../../..');
const TARGET_BYTES = 300 * 1024;
const TARGET_TTI_MS = 1000;
const TARGET_P95_FRAME_MS = 25;

interface Running {
  url: string;
  adminToken: string;
  demoToken: string;
  stop(): Promise<void>;
}

/** `node tools/launcher/dist/main.js` on a free port with a fresh data dir; waits for /readyz. */
async function startInquest(): Promise<Running> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'inquest-bench-console-'));
  const adminToken = `admin.${Math.random().toString(36).slice(2)}bench-console-admin`;
  let log = '';
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'tools/launcher/dist/main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      INQUEST_DATA_DIR: dataDir,
      INQUEST_ADMIN_TOKEN: adminToken,
      INQUEST_DEMO_TOOLSERVER_PORT: '0',
      INQUEST_LOG_LEVEL: 'warn',
      INQUEST_RATE_LIMITS: 'read=1000000,write=1000000,trigger=1000000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  let exited = false;
  child.once('exit', () => (exited = true));
  const url = `http://127.0.0.1:${port}`;
  for (const until = Date.now() + 60_000; ;) {
    if (exited) throw new Error(`inquest exited during start:\n${log}`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready && /Press Ctrl-C/.test(log)) break;
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`inquest not ready within 60 s:\n${log}`);
    }
    await sleep(100);
  }
  const demoToken = /read-write token \(shown once\): (\S+)/.exec(log)?.[1];
  if (!demoToken) throw new Error(`no demo team token in the banner:\n${log}`);
  return {
    url,
    adminToken,
    demoToken,
    stop: async () => {
      if (!exited) {
        const done = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await done;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Records in the page when the sign-in form becomes usable (ms since navigation start). */
const USABLE_SCRIPT = `(() => {
  const usable = () => {
    const input = document.querySelector('form input[type=password]');
    const button = document.querySelector('form button[type=submit]');
    return Boolean(input && button && !button.disabled && !input.disabled);
  };
  const obs = new MutationObserver(() => {
    if (usable()) { window.__inquestUsableAt = performance.now(); obs.disconnect(); }
  });
  obs.observe(document, { childList: true, subtree: true, attributes: true });
})();`;

interface Asset {
  url: string;
  type: 'script' | 'stylesheet';
  raw: number;
  gzip: number;
}

/** A cold load of /console/ in a fresh context: TTI and the JS/CSS it fetched. */
async function coldLoad(
  browser: Browser,
  url: string,
): Promise<{ tti: number; fcp: number; assets: Asset[]; page: Page; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const pending: Promise<Asset | undefined>[] = [];
  page.on('response', (res) => {
    const type = res.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    pending.push(
      res.body().then(
        (body) => ({
          url: res.url(),
          type,
          raw: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
        }),
        () => undefined,
      ),
    );
  });
  await page.addInitScript({ content: USABLE_SCRIPT });
  await page.goto(`${url}/console/`);
  await page.waitForFunction(() => '__inquestUsableAt' in window, undefined, { timeout: 15_000 });
  const { tti, fcp } = await page.evaluate(() => ({
    tti: (window as unknown as { __inquestUsableAt: number }).__inquestUsableAt,
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
  }));
  const assets = (await Promise.all(pending)).filter((a): a is Asset => a !== undefined);
  pending.length = 0;
  return { tti, fcp, assets, page, close: () => context.close() };
}

const sum = (assets: Asset[], key: 'raw' | 'gzip') => assets.reduce((n, a) => n + a[key], 0);
const shortName = (u: string) => new URL(u).pathname.replace(/^\/console\/assets\//, '');

/** POST /agents/run (async) `rows` times, `concurrency` at once; then waits until none is active. */
async function seed(url: string, token: string, rows: number, concurrency: number): Promise<void> {
  const services = ['checkout', 'payments', 'orders', 'search', 'auth'];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < rows; i = next++) {
      const res = await gatewayRequest(url, 'POST', '/api/v1/agents/run', {
        token,
        body: {
          agent_name: 'planner',
          message: `bench ${i}: ${services[i % services.length]} is returning 500s`,
          context: { service: services[i % services.length], namespace: 'shop' },
          async: true,
        },
      });
      if (res.status !== 202) throw new Error(`seeding: ${res.status} ${JSON.stringify(res.body)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  for (const until = Date.now() + 300_000; ;) {
    const active = await Promise.all(
      ['pending', 'running'].map(async (status) => {
        const r = await gatewayRequest(
          url,
          'GET',
          `/api/v1/agents/investigations?limit=1&status=${status}`,
          {
            token,
          },
        );
        if (r.status !== 200) throw new Error(`listing: ${r.status} ${JSON.stringify(r.body)}`);
        return (r.body as { pagination: { total: number } }).pagination.total;
      }),
    );
    if (active[0] === 0 && active[1] === 0) return;
    if (Date.now() > until) throw new Error(`investigations still active: ${active.join(', ')}`);
    await sleep(500);
  }
}

interface ScrollStats {
  /** the scripts that ran longest in animation frames over 50 ms */
  culprits: string[];
  frames: number[];
  longTasks: number[];
  maxRowsInDom: number;
  scrolled: number;
  ms: number;
}

/**
 * Scrolls the list by `step` px each animation frame until its bottom (and, with `untilText`,
 * until "Showing N of N" says every row is loaded), recording frame times and long tasks.
 */
async function scrollList(page: Page, step: number, rows: number): Promise<ScrollStats> {
  return page.evaluate(
    async ({ step, rows }) => {
      const el = document.querySelector<HTMLElement>('[aria-label="Investigations list"]');
      if (!el) throw new Error('no investigations list');
      const longTasks: number[] = [];
      const observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) longTasks.push(e.duration);
      });
      observer.observe({ type: 'longtask' });
      // what ran in the long animation frames (Chromium's Long Animation Frames API)
      const culprits: Record<string, number> = {};
      const loaf = new PerformanceObserver((list) => {
        for (const e of list.getEntries() as (PerformanceEntry & {
          scripts?: { invoker: string; sourceURL: string; duration: number }[];
        })[]) {
          if (e.duration <= 50) continue;
          for (const sc of e.scripts ?? []) {
            const where = `${sc.invoker} ${sc.sourceURL.split('/').pop() ?? ''}`.trim();
            culprits[where] = (culprits[where] ?? 0) + sc.duration;
          }
        }
      });
      loaf.observe({ type: 'long-animation-frame' });
      const frames: number[] = [];
      let maxRowsInDom = 0;
      const allLoaded = () => {
        const m = /Showing (\d+) of (\d+)/.exec(document.body.innerText);
        return m !== null && Number(m[1]) >= rows;
      };
      const t0 = performance.now();
      await new Promise<void>((done) => {
        let last = performance.now();
        let still = 0;
        const tick = (now: number) => {
          frames.push(now - last);
          last = now;
          maxRowsInDom = Math.max(maxRowsInDom, el.querySelectorAll('tr.inv-row').length);
          const atBottom = el.scrollTop + el.clientHeight >= el.scrollHeight - 1;
          // (innerText forces a layout: read only at the bottom, not on every frame)
          if (atBottom && allLoaded()) return done();
          // at the bottom before the next page arrived: keep measuring frames while it loads
          if (atBottom) still++;
          if (still > 60 * 30 || performance.now() - t0 > 120_000) return done();
          el.scrollTop += step;
          requestAnimationFrame(tick);
        };
        requestAnimationFrame((now) => {
          last = now;
          requestAnimationFrame(tick);
        });
      });
      // long tasks are reported after the fact: give the observer a moment
      await new Promise((r) => setTimeout(r, 100));
      observer.disconnect();
      loaf.disconnect();
      return {
        culprits: Object.entries(culprits)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 3)
          .map(([k, v]) => `${k} ${v.toFixed(0)} ms`),
        frames: frames.slice(1),
        longTasks,
        maxRowsInDom,
        scrolled: el.scrollTop,
        ms: performance.now() - t0,
      };
    },
    { step, rows },
  );
}

function printScroll(label: string, s: ScrollStats): { p95: number; long50: number } {
  const p95 = pct(s.frames, 95);
  const long50 = s.longTasks.filter((d) => d > 50).length;
  out(
    `${label}: ${s.frames.length} frames in ${(s.ms / 1000).toFixed(1)} s, frame p50 ` +
      `${median(s.frames).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, p99 ${pct(s.frames, 99).toFixed(1)} ms, ` +
      `max ${Math.max(...s.frames).toFixed(1)} ms; long tasks > 50 ms: ${long50} ` +
      `(longest ${s.longTasks.length ? Math.max(...s.longTasks).toFixed(0) : 0} ms); ` +
      `rows in the DOM at most ${s.maxRowsInDom}` +
      (s.culprits.length ? `; scripts in frames > 50 ms: ${s.culprits.join(', ')}` : ''),
  );
  return { p95, long50 };
}

export async function run(): Promise<void> {
  const loads = arg('loads', 5);
  const rows = arg('rows', 1000);
  const step = arg('scroll-step', 100);
  const seedConcurrency = arg('seed-concurrency', 16);
  const passes = arg('passes', 3);
  const inquest = await startInquest();
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    out(`chromium ${browser.version()} (headless), Inquest at ${inquest.url}`);

    // 1 + 2: cold loads of the first page
    const ttis: number[] = [];
    const fcps: number[] = [];
    let firstAssets: Asset[] = [];
    for (let i = 0; i < loads; i++) {
      const load = await coldLoad(browser, inquest.url);
      ttis.push(load.tti);
      fcps.push(load.fcp);
      if (i === 0) firstAssets = load.assets;
      await load.close();
    }
    out('\n-- first page (sign-in): JS + CSS, gzip -9');
    for (const a of firstAssets)
      out(
        `  ${shortName(a.url).padEnd(40)} ${kb(a.raw).padStart(10)} raw ${kb(a.gzip).padStart(10)} gzip`,
      );
    const firstGzip = sum(firstAssets, 'gzip');
    out(
      `first page total: ${kb(sum(firstAssets, 'raw'))} raw, ${kb(firstGzip)} gzipped ` +
        `(target <= 300 KB) ${verdict(firstGzip <= TARGET_BYTES)}`,
    );

    out(`\n-- time to interactive of the first page, ${loads} cold loads`);
    out(
      `  navigation start -> sign-in form usable: ${ttis.map((t) => `${t.toFixed(0)} ms`).join(', ')}`,
    );
    out(`  first contentful paint: ${fcps.map((t) => `${t.toFixed(0)} ms`).join(', ')}`);
    const tti = median(ttis);
    out(`TTI median ${tti.toFixed(0)} ms (target <= 1000 ms) ${verdict(tti <= TARGET_TTI_MS)}`);

    // 3: the list with `rows` investigations
    out(`\n-- investigations list with ${rows} rows`);
    const t0 = Date.now();
    await seed(inquest.url, inquest.demoToken, rows, seedConcurrency);
    out(
      `seeded ${rows} investigations through POST /agents/run in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );

    const load = await coldLoad(browser, inquest.url);
    const page = load.page;
    const before = new Set(load.assets.map((a) => a.url));
    const added: Asset[] = [];
    page.on('response', (res) => {
      const type = res.request().resourceType();
      if ((type === 'script' || type === 'stylesheet') && !before.has(res.url()))
        void res.body().then((body) =>
          added.push({
            url: res.url(),
            type,
            raw: body.length,
            gzip: gzipSync(body, { level: 9 }).length,
          }),
        );
    });
    await page.getByLabel('Access token').fill(inquest.demoToken);
    const signInAt = Date.now();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(new RegExp(`Showing \\d+ of ${rows}`)).waitFor({ timeout: 15_000 });
    const firstRowsMs = Date.now() - signInAt;
    await sleep(200);
    out(
      `sign-in -> first rows of the list: ${firstRowsMs} ms; the list's own JS + CSS: ` +
        `${kb(sum(added, 'gzip'))} gzipped (${added.map((a) => shortName(a.url)).join(', ')})`,
    );
    const loading = await scrollList(page, step, rows);
    printScroll(`scroll while pages of 100 load`, loading);
    await expectAll(page, rows);
    // the machine's own noise (shared CPU): the same scroll over a static table of the same rows,
    // interleaved with the list's passes
    const control = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const plain = await control.newPage();
    await plain.setContent(staticTable(rows));
    const listP95: number[] = [];
    const listLong: number[] = [];
    let maxRowsInDom = 0;
    for (let pass = 1; pass <= passes; pass++) {
      await page.evaluate(() => {
        document.querySelector<HTMLElement>('[aria-label="Investigations list"]')!.scrollTop = 0;
      });
      await sleep(300);
      const loaded = await scrollList(page, step, rows);
      const r = printScroll(`pass ${pass}: scroll over all ${rows} rows loaded`, loaded);
      listP95.push(r.p95);
      listLong.push(r.long50);
      maxRowsInDom = Math.max(maxRowsInDom, loaded.maxRowsInDom);
      await plain.evaluate(() => {
        document.querySelector<HTMLElement>('[aria-label="Investigations list"]')!.scrollTop = 0;
      });
      await sleep(300);
      printScroll(
        `pass ${pass}: control, static HTML table of ${rows} rows, no JS`,
        await scrollList(plain, step, rows),
      );
    }
    out(
      `load average while measuring: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(', ')} (${availableParallelism()} CPUs)`,
    );
    const p95 = median(listP95);
    const long50 = median(listLong);
    const virtualised = maxRowsInDom < rows / 5;
    out(
      `list over ${rows} loaded rows, median of ${passes} passes: p95 frame ${p95.toFixed(1)} ms, ` +
        `${long50} long tasks > 50 ms, at most ${maxRowsInDom} rows in the DOM`,
    );
    out(
      `no jank (p95 frame <= ${TARGET_P95_FRAME_MS} ms, no long task > 50 ms, virtualised): ` +
        verdict(p95 <= TARGET_P95_FRAME_MS && long50 === 0 && virtualised),
    );
    await control.close();
    await load.close();
  } finally {
    await browser?.close();
    await inquest.stop();
  }
}

/** A plain table shaped like the console's list (56 px rows), every row in the DOM. */
function staticTable(rows: number): string {
  const tr = Array.from(
    { length: rows },
    (_, i) =>
      `<tr class="inv-row" style="height:56px"><td>completed</td><td>planner</td><td>checkout</td>` +
      `<td>bench ${i}: checkout is returning 500s</td><td>87%</td><td>1 min ago</td></tr>`,
  ).join('');
  return (
    `<html lang="en"><head><title>control</title></head><body><p>Showing ${rows} of ${rows}</p>` +
    `<div aria-label="Investigations list" style="height:600px;overflow:auto">` +
    `<table style="width:100%">${tr}</table></div></body></html>`
  );
}

async function expectAll(page: Page, rows: number): Promise<void> {
  const text = await page.getByText(/Showing \d+ of \d+/).textContent();
  if (!text?.includes(`Showing ${rows} of ${rows}`))
    throw new Error(`the list did not load every row: "${text}"`);
}
