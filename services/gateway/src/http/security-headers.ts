import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers helmet sets with `options`, computed once: its middleware stack is run against a
 * recorder at start-up, so every answer gets exactly helmet's headers, in helmet's order, from one
 * loop instead of a chain of a dozen middleware calls per request. Only static options are
 * accepted: a CSP directive computed from the request or response (a nonce) is refused.
 */
export function securityHeaders(options: Readonly<HelmetOptions>): ReadonlyArray<[string, string]> {
  const headers: Array<[string, string]> = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      if (typeof value !== 'string')
        throw new Error(`helmet set ${name} to a non-string value; it cannot be precomputed`);
      headers.push([name, value]);
      return recorder;
    },
    // X-Powered-By: express never sets it here (the app disables it), so nothing to remove
    removeHeader(): void {
      return undefined;
    },
  };
  let done = false;
  const refuse = (what: string) => () => {
    throw new Error(`helmet read the ${what}: its headers depend on it and cannot be precomputed`);
  };
  const req = new Proxy({} as IncomingMessage, { get: refuse('request') });
  const res = new Proxy(recorder, {
    get: (target, key) =>
      key === 'setHeader' || key === 'removeHeader' ? target[key] : refuse('response')(),
  });
  helmet(options)(req, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
    done = true;
  });
  if (!done) throw new Error('helmet did not finish synchronously');
  return headers;
}
