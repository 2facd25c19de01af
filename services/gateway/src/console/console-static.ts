import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';

/** Where the console is served (Vite's `base` is the same plus '/'). */
export const CONSOLE_PATH = '/console';

export interface ConsoleOptions {
  /** the Vite build output: index.html + assets/ (`CONSOLE_ASSETS_DIR` of @inquest/console) */
  assetsDir: string;
  /** what the sign-in page needs to know, served unauthenticated at /console/config.json */
  config?: ConsolePublicConfig;
}

/** GET /console/config.json: public facts the browser needs before it has a token. */
export interface ConsolePublicConfig {
  /** OIDC sign-in (authorization code + PKCE), when the deployment configures an issuer */
  oidc: {
    issuer: string;
    client_id: string;
    scopes: string;
    /** sent as `audience` (some providers need it to issue a JWT for the API) */
    audience?: string;
  } | null;
}

/**
 * The console's CSP: scripts and styles only from this origin (no inline code, no eval),
 * API calls to this origin, plus the OIDC issuer's origin for discovery and the code exchange.
 */
export function consoleCsp(config?: ConsolePublicConfig): string {
  const connect = ["'self'"];
  if (config?.oidc) connect.push(new URL(config.oidc.issuer).origin);
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect.join(' ')}`,
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built console under /console: hashed files in /console/assets/ cached for a year,
 * index.html (no-cache) for /console and every other /console/* path (client-side routes),
 * /console/config.json. Without a build, /console answers 503 with how to build it.
 */
export function mountConsole(app: express.Express, options: ConsoleOptions): void {
  const dir = resolve(options.assetsDir);
  const csp = consoleCsp(options.config);
  const publicConfig: ConsolePublicConfig = options.config ?? { oidc: null };
  let index: { body: Buffer; mtimeMs: number } | undefined;

  const readIndex = (): Buffer | undefined => {
    const file = join(dir, 'index.html');
    if (!existsSync(file)) return undefined;
    const mtimeMs = statSync(file).mtimeMs;
    if (!index || index.mtimeMs !== mtimeMs) index = { body: readFileSync(file), mtimeMs };
    return index.body;
  };

  const sendIndex = (_req: Request, res: Response) => {
    const body = readIndex();
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('Cache-Control', 'no-cache');
    if (!body) {
      res
        .status(503)
        .type('text/plain')
        .send('The console is not built: run `npm run build` (it builds libs/console).\n');
      return;
    }
    res.type('html').send(body);
  };

  app.get(`${CONSOLE_PATH}/config.json`, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.json(publicConfig);
  });
  // hashed, immutable files; a missing one is a 404 (never index.html: a stale page must fail loudly)
  app.use(
    `${CONSOLE_PATH}/assets`,
    express.static(join(dir, 'assets'), {
      index: false,
      redirect: false,
      fallthrough: true,
      setHeaders: (res) => {
        res.setHeader('Cache-Control', IMMUTABLE);
        res.setHeader('Content-Security-Policy', csp);
      },
    }),
    (_req: Request, res: Response) => {
      res.setHeader('Cache-Control', 'no-store');
      res.status(404).type('text/plain').send('not found\n');
    },
  );
  // /console (express also routes /console/ here: that one falls through to the page)
  app.get(CONSOLE_PATH, (req: Request, res: Response, next: NextFunction) => {
    if (req.path.endsWith('/')) next();
    else res.redirect(301, `${CONSOLE_PATH}/`);
  });
  // every client-side route: /console/, /console/investigations/abc, ...
  app.get(/^\/console\/.*/, (req: Request, res: Response, next: NextFunction) => {
    // a path with a file extension that is not a page (e.g. /console/favicon.ico)
    const file = join(dir, req.path.slice(CONSOLE_PATH.length));
    if (/\.[a-z0-9]+$/i.test(req.path) && file.startsWith(dir + sep) && existsSync(file)) {
      res.setHeader('Cache-Control', 'no-cache');
      res.setHeader('Content-Security-Policy', csp);
      res.sendFile(file, (err) => err && next(err));
      return;
    }
    sendIndex(req, res);
  });
}
