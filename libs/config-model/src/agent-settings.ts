import { AGENT_ALIASES } from './config.schema';
import { isPlainObject, type JsonObject } from './json-value';

/**
 * The settings of one agent in an effective config's `agents`: its entry under each other name of
 * it (`code_fix_agent` for `coding_agent`), then its own entry, key by key: where both set a key,
 * the agent's own name wins. Aliases are stored under the name an update used, so the spec's
 * `agents.code_fix_agent` reads back as written and still configures the agent it names.
 */
export function agentSettings(agents: unknown, agent: string): JsonObject {
  if (!isPlainObject(agents)) return {};
  let out: JsonObject = {};
  for (const [alias, name] of Object.entries(AGENT_ALIASES)) {
    const entry = agents[alias];
    if (name === agent && isPlainObject(entry)) out = { ...out, ...entry };
  }
  const own = agents[agent];
  return isPlainObject(own) ? { ...out, ...own } : out;
}
