import { secretScopeOf, type SecretScope } from '@inquest/secrets';
import type { Delivery } from '@inquest/store';

/**
 * The scope a delivery's secret reference resolves in: the one recorded with it, or (a delivery
 * recorded before scopes were) the team's own prefix only.
 */
export function deliveryScope(d: Pick<Delivery, 'team_id' | 'secret_scope'>): SecretScope {
  return d.secret_scope ?? secretScopeOf(d.team_id);
}

/** A reference outside its scope stays outside: retrying cannot help. */
export function isScopeRefusal(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'forbidden';
}
