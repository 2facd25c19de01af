import {
  closestName,
  isPlainObject,
  resolveMcpServers,
  type ConfigDiff,
  type JsonObject,
} from '@inquest/config-model';
import type { ErrorDetail } from '@inquest/errors';

/** Something an accepted update should know about; never a reason to refuse it. */
export interface ConfigWarning {
  field: string;
  message: string;
}

/** What a team's tool servers offer, as toolserver-proxy lists them for its saved config. */
export interface ToolListing {
  servers: { name: string; url: string; answered: boolean; error?: string }[];
  tools: { server: string; name: string }[];
}

/** Port to the tool listings (toolserver-proxy). Rejects when the listing cannot be had. */
export interface ToolCatalog {
  list(teamId: string): Promise<ToolListing>;
}

const TOOL_LISTS = ['enable_extra_tools', 'disable_default_tools'] as const;

/** True when the diff touches `path` (the path itself, a field below it, or one above it). */
const touched = (diff: ConfigDiff, path: string) =>
  Object.keys(diff).some((k) => k === path || k.startsWith(`${path}.`) || path.startsWith(`${k}.`));

/**
 * Checks the `<server>:<tool>` names an update sets in `agents.*.enable_extra_tools` and
 * `disable_default_tools` against the server's tool list. A name the server does not offer is a
 * problem; a server that cannot be asked now (toolserver-proxy or the server unreachable, or a
 * server entry this very update adds or moves) gives a warning instead: the runner offers an agent
 * only the tools the listing has when the investigation runs. Names of servers that are not
 * configured or not enabled are `referenceProblems`, not checked here.
 */
export async function toolListingCheck(input: {
  catalog: ToolCatalog | undefined;
  /** the team whose saved servers the catalog lists; undefined for an org or group */
  teamId: string | undefined;
  levels: JsonObject[];
  merged: JsonObject;
  diff: ConfigDiff;
}): Promise<{ problems: ErrorDetail[]; warnings: ConfigWarning[] }> {
  const problems: ErrorDetail[] = [];
  const warnings: ConfigWarning[] = [];
  const servers = new Map(
    resolveMcpServers(input.levels, input.merged['mcp_servers'])
      .servers.filter((s) => s.enabled !== false)
      .map((s) => [s.name, s.url]),
  );
  const refs: { field: string; server: string; tool: string }[] = [];
  const agents = input.merged['agents'];
  for (const [agent, cfg] of Object.entries(isPlainObject(agents) ? agents : {})) {
    if (!isPlainObject(cfg)) continue;
    for (const key of TOOL_LISTS) {
      const list = cfg[key];
      if (!Array.isArray(list) || !touched(input.diff, `agents.${agent}.${key}`)) continue;
      list.forEach((name, i) => {
        if (typeof name !== 'string') return;
        const sep = name.indexOf(':');
        if (sep <= 0 || !servers.has(name.slice(0, sep))) return;
        refs.push({
          field: `agents.${agent}.${key}.${i}`,
          server: name.slice(0, sep),
          tool: name.slice(sep + 1),
        });
      });
    }
  }
  if (!refs.length) return { problems, warnings };

  const notChecked = (r: (typeof refs)[number], why: string) =>
    warnings.push({
      field: r.field,
      message: `tool "${r.server}:${r.tool}" was not checked against the tool list of MCP server "${r.server}" (${why}); it is checked again when an investigation runs`,
    });
  const warnAll = (why: string) => {
    for (const r of refs) notChecked(r, why);
    return { problems, warnings };
  };
  if (!input.catalog) return warnAll('no tool service is configured');
  if (!input.teamId) return warnAll('tool lists are per team; this is an org or group config');
  let listing: ToolListing;
  try {
    listing = await input.catalog.list(input.teamId);
  } catch (err) {
    return warnAll(
      `the tool service did not answer: ${err instanceof Error ? err.message : 'error'}`,
    );
  }
  for (const r of refs) {
    const status = listing.servers.find((s) => s.name === r.server);
    const why = !status
      ? 'the server is not saved yet'
      : status.url !== servers.get(r.server)
        ? 'this update changes its URL'
        : !status.answered
          ? `the server did not answer${status.error ? `: ${status.error}` : ''}`
          : undefined;
    if (why) {
      notChecked(r, why);
      continue;
    }
    const offered = listing.tools.filter((t) => t.server === r.server).map((t) => t.name);
    if (offered.includes(r.tool)) continue;
    const near = closestName(r.tool, offered);
    problems.push({
      field: r.field,
      error: `MCP server "${r.server}" offers no tool "${r.tool}"${near ? ` (did you mean "${r.server}:${near}"?)` : ''}`,
    });
  }
  return { problems, warnings };
}
