import type { ErrorDetail } from '@inquest/errors';
import { isSecretPrefix, refInScope, secretScopeOf, type SecretScope } from '@inquest/secrets';
import { McpServerEntrySchema } from './config.schema';
import { isPlainObject, type JsonObject } from './json-value';

const VAULT_SCHEME = 'vault://';

/** A `vault://` reference found in a config document, at its dot path. */
export interface FoundSecretRef {
  field: string;
  ref: string;
}

/**
 * Every `vault://` string in a document, wherever it is (tool and MCP server auth, webhook
 * signing, Slack tokens, `tokens_vault_path`, custom keys, fields added later): a reference is
 * scoped whatever field holds it.
 */
export function vaultRefsIn(doc: unknown): FoundSecretRef[] {
  const out: FoundSecretRef[] = [];
  const visit = (v: unknown, path: string[]): void => {
    if (typeof v === 'string') {
      if (v.startsWith(VAULT_SCHEME)) out.push({ field: path.join('.'), ref: v });
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => visit(item, [...path, String(i)]));
    } else if (isPlainObject(v)) {
      for (const [k, item] of Object.entries(v)) visit(item, [...path, k]);
    }
  };
  visit(doc, []);
  return out;
}

/** The prefixes an org grants its nodes: `secrets.allowed_prefixes` of the org root's own config. */
export function orgSecretGrants(orgConfig: JsonObject | undefined): unknown {
  const secrets = orgConfig?.['secrets'];
  return isPlainObject(secrets) ? secrets['allowed_prefixes'] : undefined;
}

/**
 * Save-time rules of secret references for a node's update: every reference the patch sets lies
 * under the node's prefixes (`inquest/<node_id>/` and its org's grants), and only an org sets
 * `secrets` (granting prefixes is an org decision: a team granting itself would defeat the rule).
 */
export function secretScopeProblems(
  patch: JsonObject,
  node: { node_id: string; kind: string },
  orgGrants: unknown,
): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const secrets = patch['secrets'];
  if (secrets !== undefined && secrets !== null) {
    if (node.kind !== 'org') {
      problems.push({
        field: 'secrets',
        error: 'only an org may grant secret prefixes (secrets.allowed_prefixes)',
      });
    } else if (isPlainObject(secrets)) {
      const grants = secrets['allowed_prefixes'];
      if (grants !== undefined && grants !== null) {
        if (!Array.isArray(grants)) {
          problems.push({
            field: 'secrets.allowed_prefixes',
            error: 'must be an array of path prefixes ending with /',
          });
        } else {
          grants.forEach((g, i) => {
            if (!isSecretPrefix(g))
              problems.push({
                field: `secrets.allowed_prefixes.${i}`,
                error:
                  'must be a path prefix ending with / (segments [A-Za-z0-9_.@-] or {node_id}, no . or ..)',
              });
          });
        }
      }
    }
  }
  // An org's own references may already use the grants it sets in the same update.
  const grants =
    node.kind === 'org' && isPlainObject(secrets) && secrets['allowed_prefixes'] !== undefined
      ? secrets['allowed_prefixes']
      : orgGrants;
  const scope = secretScopeOf(node.node_id, grants);
  for (const { field, ref } of vaultRefsIn(patch)) {
    if (!refInScope(ref, scope)) problems.push({ field, error: scopeMessage(scope) });
  }
  return problems;
}

function scopeMessage(scope: SecretScope): string {
  const [own, ...granted] = scope.prefixes;
  return (
    `vault reference must be under ${own}` +
    (granted.length ? ` or a prefix the org grants (${granted.join(', ')})` : '') +
    ' (see docs/configuration.md#secret-references)'
  );
}

const getPath = (doc: unknown, path: string[]): unknown => {
  let v = doc;
  for (const p of path) {
    if (Array.isArray(v)) v = v[Number(p)];
    else if (isPlainObject(v)) v = v[p];
    else return undefined;
  }
  return v;
};

/** Index of the level each element of the effective `mcp_servers` comes from (as resolved). */
function mcpServerLevels(levels: JsonObject[]): number[] {
  let winner = -1;
  for (let i = levels.length - 1; i >= 0; i--) {
    if (levels[i]?.['mcp_servers'] !== undefined) {
      winner = i;
      break;
    }
  }
  const list = winner >= 0 ? levels[winner]!['mcp_servers'] : undefined;
  if (!Array.isArray(list)) return [];
  const out: number[] = [];
  for (const item of list) {
    if (typeof item === 'string') {
      // the nearest level defining a valid entry of that name (as resolveMcpServers does)
      for (let i = levels.length - 1; i >= 0; i--) {
        const own = levels[i]?.['mcp_servers'];
        if (
          Array.isArray(own) &&
          own.some(
            (e) =>
              isPlainObject(e) && e['name'] === item && McpServerEntrySchema.safeParse(e).success,
          )
        ) {
          out.push(i);
          break;
        }
      }
    } else if (McpServerEntrySchema.safeParse(item).success) {
      out.push(winner);
    }
  }
  return out;
}

/**
 * Keys that say where a secret beside them is sent: a knowledge source's `url`/`urls`, the
 * reranker's URL (`knowledge_base.retrieval.reranker` beside `reranker_api_key`).
 */
const DESTINATION_KEYS = ['url', 'urls', 'reranker'];

/**
 * For each `vault://` reference of an effective config (dot path), the scope it resolves in: the
 * node whose own config set it (an inherited reference resolves under the node that set it) with
 * that node's prefixes, or the deeper node that set where it goes (`url`, `urls`, `reranker` in
 * the same object). `levels` are the lineage's own configs, root (the org) first.
 */
export function effectiveSecretScopes(
  levels: JsonObject[],
  lineage: string[],
  effective: JsonObject,
): Record<string, SecretScope> {
  const grants = orgSecretGrants(levels[0]);
  const self = lineage.length - 1;
  const mcpLevels = mcpServerLevels(levels);
  const out: Record<string, SecretScope> = {};
  for (const { field, ref } of vaultRefsIn(effective)) {
    const path = field.split('.');
    let level = -1;
    if (path[0] === 'mcp_servers' && path.length > 1) {
      level = mcpLevels[Number(path[1])] ?? -1;
    } else {
      for (let i = levels.length - 1; i >= 0; i--) {
        if (getPath(levels[i], path) === ref) {
          level = i;
          break;
        }
      }
    }
    // A destination set below the reference (a team re-pointing the url of a source whose token
    // its org set) takes the reference with it: it resolves under the deeper node, which cannot
    // read the ancestor's secret, so the secret never goes where its owner did not send it.
    if (level >= 0 && path[0] !== 'mcp_servers') {
      const parent = path.slice(0, -1);
      for (let i = levels.length - 1; i > level; i--) {
        const own = getPath(levels[i], parent);
        if (isPlainObject(own) && DESTINATION_KEYS.some((k) => own[k] !== undefined)) {
          level = i;
          break;
        }
      }
    }
    // Not traceable to a level: the narrowest scope, the node's own.
    const owner = lineage[level >= 0 ? level : self];
    if (owner !== undefined) out[field] = secretScopeOf(owner, grants);
  }
  return out;
}
