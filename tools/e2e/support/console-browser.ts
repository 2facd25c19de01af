import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AxeResults } from 'axe-core';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { launchChromium } from '@inquest/testing';

const ROOT = resolve(__dirname, '../../..');

/** Where the console specs save their screenshots (git-ignored; CI keeps it as an artifact). */
export const CONSOLE_ARTIFACTS = join(ROOT, 'test-artifacts', 'console');

let axeScript: string | undefined;
const axeSource = () =>
  (axeScript ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));

/** Chromium's own log line for an HTTP error answer, e.g. "... status of 401 (Unauthorized)". */
const HTTP_ERROR_LINE = /Failed to load resource: the server responded with a status of (\d{3})/;
const NETWORK_ERROR_LINE = /Failed to load resource: net::ERR_/;

export interface CheckOptions {
  /** HTTP statuses the page is expected to meet (Chromium logs each as a console error) */
  allowHttpStatus?: number[];
  /** the server is down on purpose: Chromium's net::ERR_ lines are expected */
  allowNetworkErrors?: boolean;
  /** other console lines expected on this page */
  allowConsole?: RegExp[];
}

/**
 * One page of the console under test, watched from the start: console errors and uncaught page
 * errors are collected; `check(name)` asserts none arrived since the previous check, that axe-core
 * finds no serious or critical violation, and saves `<name>.png` under test-artifacts/console.
 */
export class WatchedPage {
  private errors: string[] = [];

  constructor(
    readonly context: BrowserContext,
    readonly page: Page,
  ) {
    page.on('console', (msg) => {
      if (msg.type() !== 'error') return;
      const where = msg.location().url;
      this.errors.push(`console: ${msg.text()}${where ? ` (${where})` : ''}`);
    });
    page.on('pageerror', (err) => this.errors.push(`pageerror: ${err.message}`));
  }

  /** Errors since the last check, minus the expected ones; cleared. */
  takeErrors(options: CheckOptions = {}): string[] {
    const allowed = new Set(options.allowHttpStatus ?? []);
    const errors = this.errors.filter((e) => {
      const http = HTTP_ERROR_LINE.exec(e);
      if (http && allowed.has(Number(http[1]))) return false;
      if (options.allowNetworkErrors && NETWORK_ERROR_LINE.test(e)) return false;
      if (options.allowConsole?.some((re) => re.test(e))) return false;
      return true;
    });
    this.errors = [];
    return errors;
  }

  /** serious and critical axe-core violations on the page as it is now, one line each */
  async accessibilityViolations(): Promise<string[]> {
    // Evaluated over the DevTools protocol, so the console's CSP (script-src 'self') does not
    // block it and stays in force for the console's own code.
    const injected = await this.page.evaluate(() => 'axe' in window);
    if (!injected) await this.page.evaluate(axeSource());
    const result = await this.page.evaluate(
      () =>
        (
          window as unknown as { axe: { run(): Promise<AxeResults> } }
        ).axe.run() as Promise<AxeResults>,
    );
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.impact} ${v.id}: ${v.help} (${v.nodes
            .slice(0, 3)
            .map((n) => n.target.join(' '))
            .join('; ')})`,
      );
  }

  async screenshot(name: string): Promise<string> {
    mkdirSync(CONSOLE_ARTIFACTS, { recursive: true });
    const file = join(CONSOLE_ARTIFACTS, `${name}.png`);
    await this.page.screenshot({ path: file, fullPage: true });
    return file;
  }

  /** no console errors, no serious accessibility violation, a screenshot `<name>.png` */
  async check(name: string, options: CheckOptions = {}): Promise<void> {
    await this.screenshot(name);
    const problems = [
      ...this.takeErrors(options),
      ...(await this.accessibilityViolations()).map((v) => `axe: ${v}`),
    ];
    if (problems.length) throw new Error(`page "${name}":\n  ${problems.join('\n  ')}`);
  }

  async close(): Promise<void> {
    await this.context.close();
  }
}

/** One headless chromium for a spec file (Debian's, see @inquest/testing launchChromium). */
export async function startBrowser(): Promise<Browser> {
  return launchChromium();
}

/** A fresh context (own sessionStorage) and page, 1280x800 unless told otherwise. */
export async function openPage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return new WatchedPage(context, page);
}
