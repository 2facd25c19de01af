import { forbidden } from '@inquest/errors';
import { parseVaultRef } from './secret-ref';

/**
 * Which `vault://` paths a reference may name: the paths under `prefixes`, on behalf of the node
 * (`owner`) whose own config set the reference. Every secret a node's config names is resolved
 * within the scope of the node that set it, so a team cannot borrow another team's secret.
 */
export interface SecretScope {
  /** node id that set the reference (or `(operator)` for references in the service env) */
  owner: string;
  /** path prefixes, each ending with `/` */
  prefixes: readonly string[];
}

/** Placeholder in an org's granted prefixes, replaced by the id of the node using the grant. */
export const NODE_ID_PLACEHOLDER = '{node_id}';

const GRANT_SEGMENT = /^(?:[A-Za-z0-9_.@-]+|\{node_id\})$/;

/**
 * True for a prefix an org may grant: path segments as in references (`{node_id}` allowed, no
 * `.` or `..`), ending with `/`, e.g. `shared/observability/` or `teams/{node_id}/`.
 */
export function isSecretPrefix(p: unknown): p is string {
  if (typeof p !== 'string' || !p.endsWith('/')) return false;
  const segments = p.slice(0, -1).split('/');
  return segments.every((s) => GRANT_SEGMENT.test(s) && s !== '.' && s !== '..');
}

/**
 * References from the operator's own settings (service env such as `INQUEST_LLM_API_KEY`): the
 * operator owns the whole secret store, so any path.
 */
export const OPERATOR_SECRET_SCOPE: SecretScope = { owner: '(operator)', prefixes: [''] };

/** The prefix every node may reference: `inquest/<node_id>/`. */
export function defaultSecretPrefix(nodeId: string): string {
  return `inquest/${nodeId}/`;
}

/**
 * The scope of a node: its default prefix plus the prefixes its org grants (the org root's
 * `secrets.allowed_prefixes`, `{node_id}` replaced by the node's id). Grants that are not valid
 * prefixes are ignored here (they are refused when saved).
 */
export function secretScopeOf(nodeId: string, orgGrants?: unknown): SecretScope {
  const prefixes = [defaultSecretPrefix(nodeId)];
  if (Array.isArray(orgGrants)) {
    for (const g of orgGrants) {
      if (!isSecretPrefix(g)) continue;
      const p = g.split(NODE_ID_PLACEHOLDER).join(nodeId);
      if (!prefixes.includes(p)) prefixes.push(p);
    }
  }
  return { owner: nodeId, prefixes };
}

/** True when the reference's path lies under one of the scope's prefixes. Malformed: false. */
export function refInScope(ref: string, scope: SecretScope): boolean {
  let path: string;
  try {
    path = parseVaultRef(ref).path;
  } catch {
    return false;
  }
  return scope.prefixes.some((p) => p === '' || path.startsWith(p));
}

/** Throws `forbidden` when the reference lies outside the scope (never echoes a value). */
export function assertRefInScope(ref: string, scope: SecretScope): void {
  if (refInScope(ref, scope)) return;
  throw forbidden(
    `secret reference ${ref.split('#')[0]} is outside the paths node ${scope.owner} may use (${scope.prefixes.join(', ')})`,
  );
}
