/**
 * (r30a) What a ConfigMap value kept short would lose: a Loki configuration's retention settings
 * (compactor.retention_enabled sits at the end of a long config.yaml). Read from the whole value.
 */

/** a Loki configuration: its top-level blocks */
const LOKI_CONFIG = /^(?:schema_config|ingester|compactor|limits_config):\s*$/m;

/** the top-level YAML block `name:` of a configuration (its indented lines, comments dropped) */
function block(text: string, name: string): string | undefined {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => new RegExp(`^${name}:\\s*$`).test(l));
  if (at < 0) return undefined;
  const out: string[] = [];
  for (const l of lines.slice(at + 1)) {
    if (/^\S/.test(l)) break;
    if (l.trim() && !/^\s*#/.test(l)) out.push(l);
  }
  return out.join('\n');
}

/**
 * A Loki configuration's retention: {"retention_enabled":"false"|"true"|"unset",
 * "retention_period":"336h"} as JSON; undefined for any other value.
 */
export function lokiRetention(text: string): string | undefined {
  if (!LOKI_CONFIG.test(text) || !/^schema_config:/m.test(text)) return undefined;
  const compactor = block(text, 'compactor');
  const enabled = [
    ...(compactor ?? '').matchAll(/^\s+retention_enabled:\s*["']?(\w+)/gm),
  ].pop()?.[1];
  const period = /^\s+retention_period:\s*["']?([\w.]+)/m.exec(
    block(text, 'limits_config') ?? '',
  )?.[1];
  return JSON.stringify({
    retention_enabled: enabled?.toLowerCase() ?? 'unset',
    ...(period ? { retention_period: period } : {}),
  });
}
