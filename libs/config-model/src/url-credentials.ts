import type { ErrorDetail } from '@inquest/errors';
import { isPlainObject } from './json-value';

// scheme://userinfo@host...: the authority (up to the first / ? #) holds an @
const URL_WITH_USERINFO = /^([a-z][a-z0-9+.-]*):\/\/[^/?#\s]*@/i;

/**
 * URLs that carry credentials (`https://user:pass@host/`), wherever they are in an update: they
 * would be stored, audited and shown in plain text. Credentials belong in the secret store,
 * referenced with `vault://` (e.g. `mcp_servers[].auth`). `vault://` references are not URLs.
 */
export function urlCredentialProblems(patch: unknown): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const visit = (v: unknown, path: string[]): void => {
    if (typeof v === 'string') {
      const m = URL_WITH_USERINFO.exec(v.trim());
      if (m && m[1]!.toLowerCase() !== 'vault')
        out.push({
          field: path.join('.') || '(root)',
          error:
            'URL must not carry credentials (user:pass@): keep them in the secret store and reference them with vault:// (see docs/configuration.md#secret-references)',
        });
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => visit(item, [...path, String(i)]));
    } else if (isPlainObject(v)) {
      for (const [k, item] of Object.entries(v)) visit(item, [...path, k]);
    }
  };
  visit(patch, []);
  return out;
}
