/**
 * The template variables of the round29 (r29c) rules (cause-catalog.data.ts, its "round29 (r29c)"
 * block): the limits of a Karpenter NodePool that refuses to grow, and what its nodes hold.
 */
import type { FindingContext } from './finding-vars';
import { jsonField, quantity } from './model';

type Vars = Record<string, string>;

/** the NodePool's spec.limits, which of them its nodes already reach (status.resources) */
function nodePoolLimits(x: FindingContext): Vars {
  const name = x.f.groups['nodepool'] ?? '';
  const pool = x.model.get('nodepool', name);
  const limits = jsonField(pool, 'limits');
  const used = jsonField(pool, 'resources');
  const keys = Object.keys(limits);
  if (!pool || !keys.length)
    return {
      nodepool_limits: '',
      nodepool_fix: `Raise spec.limits of NodePool ${name}`,
    };
  const reached = keys.filter(
    (k) => used[k] !== undefined && quantity(String(used[k])) >= quantity(String(limits[k])),
  );
  const shown = (reached.length ? reached : keys)
    .map(
      (k) =>
        `${k}: ${limits[k]}${used[k] !== undefined ? ` (its nodes hold ${k} ${used[k]} already, status.resources)` : ''}`,
    )
    .join(', ');
  return {
    nodepool_limits: reached.length
      ? `: it is at its limit, spec.limits ${shown}`
      : ` (spec.limits ${shown}; a node of the size the pods need would go past it)`,
    nodepool_fix: `Raise spec.limits${reached.length ? ` ${reached.map((k) => `${k} (now ${limits[k]})`).join(', ')}` : ''} of NodePool ${name}`,
  };
}

export const R29C_VARS: Record<string, (x: FindingContext) => Vars> = {
  karpenter_nodepool_limits: nodePoolLimits,
};
