import type { JsonObject } from '@inquest/config-model';
import type { SecretScope } from '@inquest/secrets';

export interface CachedEffective {
  lineage: string[];
  config: JsonObject;
  version: number;
  secret_scopes: Record<string, SecretScope>;
}

/**
 * Effective configs by node id. An entry is dropped when any node of its lineage changes; a
 * generation counter keeps a computation that raced with an invalidation from being cached.
 */
export class EffectiveCache {
  private readonly entries = new Map<string, CachedEffective>();
  private generation = 0;

  constructor(private readonly maxEntries = 10_000) {}

  get(nodeId: string): CachedEffective | undefined {
    return this.entries.get(nodeId);
  }

  /** The generation to pass to `set` for a computation starting now. */
  begin(): number {
    return this.generation;
  }

  set(nodeId: string, value: CachedEffective, startedAt: number): void {
    if (startedAt !== this.generation) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(nodeId, value);
  }

  /** Drops every entry whose lineage contains the node. */
  invalidate(nodeId: string): void {
    this.generation++;
    for (const [k, v] of this.entries) if (v.lineage.includes(nodeId)) this.entries.delete(k);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
