// The Node side of @inquest/console: where the built browser app lives, for the gateway to serve.
// The browser app itself (every other file under src/) is built by Vite, never by swc.
// No Node imports here: this file is type-checked with the browser code too.

declare const __dirname: string;

/** Absolute path of the Vite build output (index.html + assets/); the same from src/ and dist/. */
export const CONSOLE_ASSETS_DIR = `${__dirname}/../dist/app`;
