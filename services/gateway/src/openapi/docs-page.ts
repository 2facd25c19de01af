import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type express from 'express';

/** Where the vendored Redoc bundle is served (an asset, not an API endpoint). */
export const REDOC_ASSET_PATH = '/api/v1/docs/redoc.standalone.js';

/** Redoc renders the spec in the browser: inline styles and a blob: worker, everything else from us. */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self' blob:",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The API reference page: Redoc from node_modules (no CDN) reading /api/v1/openapi.json. */
export function docsHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Inquest API reference</title>
<style>body { margin: 0; padding: 0; }</style>
</head>
<body>
<redoc spec-url="/api/v1/openapi.json" hide-download-button="false"></redoc>
<script src="${REDOC_ASSET_PATH}"></script>
</body>
</html>
`;
}

/** Mounts the Redoc bundle, read once from the installed `redoc` package and cached by ETag. */
export function mountRedocAsset(app: express.Express): void {
  let bundle: { body: Buffer; etag: string } | undefined;
  app.get(REDOC_ASSET_PATH, (req, res, next) => {
    try {
      bundle ??= load();
    } catch (err) {
      next(err);
      return;
    }
    res.setHeader('Content-Type', 'application/javascript; charset=utf-8');
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.setHeader('ETag', bundle.etag);
    if (req.headers['if-none-match'] === bundle.etag) {
      res.status(304).end();
      return;
    }
    res.send(bundle.body);
  });
}

function load(): { body: Buffer; etag: string } {
  const body = readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'));
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}
