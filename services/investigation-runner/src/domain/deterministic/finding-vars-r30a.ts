/**
 * The template variables of the round30 (r30a) rules (cause-catalog.data.ts, its "round30 (r30a)"
 * block): what a broker or store was configured with when it refused (JetStream's max_file_store,
 * a Loki compactor's retention).
 */
import type { FindingContext } from './finding-vars';

type Vars = Record<string, string>;

/** "max_file_store: 10Gi" in a NATS server configuration */
const MAX_FILE_STORE = /^\s*max_file_store\s*[:=]\s*["']?([\w.]+)/m;
/** the JetStream banner of a NATS server's log: "Max Storage:     10.00 GB" */
const MAX_STORAGE_LOGGED = /\bMax Storage:\s+([\d.]+ ?[KMGT]?i?B)\b/;

/** what each NATS server may store for JetStream (its configuration, else its start banner) */
function jetstreamStore(x: FindingContext): Vars {
  const conf = x.model
    .list('configmap')
    .map((c) => ({ c, m: MAX_FILE_STORE.exec(c.fields['data'] ?? '') }))
    .find((v) => v.m);
  const logged = x.model.logs
    .flatMap((l) => l.lines.map((line) => ({ l, m: MAX_STORAGE_LOGGED.exec(line.text) })))
    .find((v) => v.m);
  const parts: string[] = [];
  if (conf?.m)
    parts.push(
      `max_file_store: ${conf.m[1]} in ConfigMap ${conf.c.name}${conf.c.namespace ? ` (namespace ${conf.c.namespace})` : ''}`,
    );
  if (logged?.m)
    parts.push(`"Max Storage: ${logged.m[1]}" in the log of ${logged.l.pod ?? 'a server'}`);
  return { js_store: parts.length ? ` (${parts.join('; ')})` : '', js_reserved: '' };
}

export const R30A_VARS: Record<string, (x: FindingContext) => Vars> = {
  jetstream_insufficient_storage: jetstreamStore,
};
