import { isDomainError } from '@inquest/errors';
import type { SecretScope } from '@inquest/secrets';
import type { ServerEntry } from './server-entry';
import { unavailableFor } from './server-errors';

/** Resolves `vault://` (or file) references to secret values. */
export interface SecretLookup {
  resolve(ref: string, scope: SecretScope): Promise<string>;
}

const HEADER_NAME = /^[A-Za-z0-9-]{1,64}$/;
// headers the transport sets itself: an auth header may not replace them
const FORBIDDEN_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'content-type',
  'upgrade',
  'te',
  'trailer',
]);

/**
 * The headers that authenticate the proxy to a tool server: a bearer token or an API key header,
 * each resolved from a secret reference in the scope of the node that configured the server.
 */
export class ServerAuth {
  constructor(private readonly secrets: SecretLookup) {}

  /**
   * Throws `data_source_unavailable` when a reference cannot be resolved or the header name is
   * not allowed; the message never carries a resolved value.
   */
  async headers(entry: ServerEntry): Promise<Record<string, string>> {
    if (!entry.auth) return {};
    try {
      // No scope known: nothing to resolve under (resolveServerEntries always sets one).
      const scope = entry.authScope ?? { owner: '(unknown)', prefixes: [] };
      if (entry.auth.type === 'bearer')
        return { authorization: `Bearer ${await this.secrets.resolve(entry.auth.token, scope)}` };
      const header = entry.auth.header;
      if (!HEADER_NAME.test(header) || FORBIDDEN_HEADERS.has(header.toLowerCase())) {
        throw unavailableFor(
          entry.name,
          `auth header name ${JSON.stringify(header.slice(0, 64))} is not allowed`,
        );
      }
      return { [header]: await this.secrets.resolve(entry.auth.key, scope) };
    } catch (err) {
      if (isDomainError(err) && err.code === 'data_source_unavailable') throw err;
      // The message names the reference problem only; a resolved value never reaches it.
      throw unavailableFor(
        entry.name,
        `credentials could not be resolved (${isDomainError(err) ? err.code : 'error'})`,
      );
    }
  }
}
