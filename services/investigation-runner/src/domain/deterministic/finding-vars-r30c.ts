/**
 * The template variables of the round30 (r30c) rules (cause-catalog.data.ts, its "round30 (r30c)"
 * block): where the limit came from that a pod's request is above (a LimitRange default).
 */
import type { FindingContext } from './finding-vars';
import { quantity } from './model';

type Vars = Record<string, string>;

/** the LimitRanges of the namespace whose Container default for the resource is the limit */
function limitDefaultFrom({ f, model, pods }: FindingContext): Vars {
  const res = f.groups['over_res'] ?? 'cpu';
  const limit = f.groups['over_limit'] ?? '';
  const request = f.groups['over_request'] ?? '';
  const ns = f.object?.namespace ?? pods[0]?.namespace;
  const ranges = model.list('limitrange', ns).filter((r) => !ns || r.namespace === ns);
  const match = ranges.find((r) => {
    try {
      const limits = JSON.parse(r.fields['limits'] ?? '[]') as {
        type?: string;
        default?: Record<string, string>;
        _default?: Record<string, string>;
      }[];
      return limits.some((l) => {
        // some servers print the key `default` as `_default`
        const given = (l.default ?? l._default)?.[res];
        return (
          (l.type ?? 'Container') === 'Container' &&
          given !== undefined &&
          (!limit || quantity(String(given)) === quantity(limit))
        );
      });
    } catch {
      return false;
    }
  });
  // the pods already running carry the LimitRanger note when their limit came from a default
  const noted = pods.find((p) =>
    new RegExp(`\\b${res} limit\\b`, 'i').test(p.fields['limitRanger'] ?? ''),
  );
  const fixTail = `set an explicit ${res} limit of at least ${request || 'the request'}, or lower the ${res} request to ${limit || 'the limit'} or less, and roll out again`;
  if (match)
    return {
      limit_default_from: `. The pod template sets no ${res} limit of its own: the namespace's LimitRange ${match.name} fills in its default ${res} limit ${limit} at admission, and a request above that default is invalid`,
      limit_default_fix: `In the pod template of ${f.workload}, ${fixTail} (or raise the default ${res} limit of LimitRange ${match.name}); the new ReplicaSet then creates its pods by itself.`,
    };
  if (noted)
    return {
      limit_default_from: `. The pods that run carry the LimitRanger note "${noted.fields['limitRanger']}": their ${res} limit is the default of the namespace's LimitRange, which the new template's request is above`,
      limit_default_fix: `In the pod template of ${f.workload}, ${fixTail} (or raise the default ${res} limit of the namespace's LimitRange, \`kubectl get limitrange\`).`,
    };
  return {
    limit_default_from: `. When the template sets no ${res} limit, the limit is the default of the namespace's LimitRange (\`kubectl get limitrange\`), filled in at admission`,
    limit_default_fix: `In the pod template of ${f.workload}, ${fixTail}; when the template sets no ${res} limit, check the default limit of the namespace's LimitRange (\`kubectl describe limitrange\`).`,
  };
}

export const R30C_VARS: Record<string, (x: FindingContext) => Vars> = {
  request_above_limit_rejected: limitDefaultFrom,
};
