import type { ClusterModel } from './model';
import type { ObjectView } from './observe';

/**
 * Answers read off one kind's own fields (scope.ts scalingOrAliasQuestion): which
 * HorizontalPodAutoscalers are at their maximum replicas right now, which Services are of type
 * ExternalName and the host each one aliases.
 */

const count = (o: ObjectView, field: string): number | undefined => {
  const v = o.fields[field];
  return v !== undefined && /^\d+$/.test(v.trim()) ? Number(v) : undefined;
};

/** "cpu: 86%/70%" as `kubectl get hpa` prints it (observe/ reads it from every output form) */
const targetsOf = (h: ObjectView): string | undefined =>
  h.fields['targets'] && h.fields['targets'] !== '<none>' ? h.fields['targets'] : undefined;

/** "which HPAs are maxed out right now?": current replicas at maxReplicas, with the target each scales */
export function hpasAtMax(model: ClusterModel, namespace: string | undefined): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const hpas = model
    .list('horizontalpodautoscaler', namespace)
    .filter(
      (h) => h.kind === 'horizontalpodautoscaler' && (!namespace || h.namespace === namespace),
    );
  if (!hpas.length)
    return `No HorizontalPodAutoscaler${where} was listed by the tools available, so none is at its maximum replicas.`;
  const known = hpas.filter(
    (h) =>
      count(h, 'status.currentReplicas') !== undefined && count(h, 'maxReplicas') !== undefined,
  );
  const atMax = known.filter(
    (h) =>
      count(h, 'status.currentReplicas')! >= count(h, 'maxReplicas')! &&
      count(h, 'maxReplicas')! > 0,
  );
  const unknown = hpas.length - known.length;
  const tail = unknown
    ? ` The current or maximum replicas of ${unknown} HorizontalPodAutoscaler${unknown === 1 ? ' was' : 's were'} not shown.`
    : '';
  const seen = `${hpas.length} HorizontalPodAutoscaler${hpas.length === 1 ? '' : 's'}${where}`;
  if (!atMax.length)
    return `None of the ${seen} is at its maximum replicas right now: ${known.length === 1 ? 'it is' : `all ${known.length} read are`} below maxReplicas.${tail}`;
  const rows = atMax.map((h) => {
    const target = h.fields['scaleTarget'];
    const metrics = targetsOf(h);
    const limited = h.conditions.find(
      (c) => c.type === 'ScalingLimited' && c.status === 'True' && c.reason === 'TooManyReplicas',
    );
    const ns = namespace || !h.namespace ? '' : `namespace ${h.namespace}, `;
    const about = [
      target && target !== '/' ? `scales ${target}` : '',
      metrics ? `metrics ${metrics}` : '',
      limited ? 'ScalingLimited: it wants more replicas than its maximum' : '',
    ].filter(Boolean);
    return `${h.name} at ${count(h, 'status.currentReplicas')}/${count(h, 'maxReplicas')} replicas${about.length || ns ? ` (${ns}${about.join('; ')})` : ''}`;
  });
  const below = known.length - atMax.length;
  return `${atMax.length} of the ${seen} ${atMax.length === 1 ? 'is' : 'are'} at ${atMax.length === 1 ? 'its' : 'their'} maximum replicas right now (current = maxReplicas): ${rows.join('; ')}.${below ? ` The other ${below} ${below === 1 ? 'is' : 'are'} below ${below === 1 ? 'its' : 'their'} maximum.` : ''}${tail}`;
}

/** "which services are ExternalName, and what does each point to?": spec.externalName of each */
export function externalNameServices(model: ClusterModel, namespace: string | undefined): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const services = model
    .list('service', namespace)
    .filter((s) => s.kind === 'service' && (!namespace || s.namespace === namespace));
  if (!services.length) return `I could not list the Services${where} with the tools available.`;
  const aliases = services.filter(
    (s) =>
      s.fields['type'] === 'ExternalName' ||
      (s.fields['type'] === undefined && s.fields['externalName']),
  );
  const unknown = services.filter(
    (s) => s.fields['type'] === undefined && !s.fields['externalName'],
  ).length;
  const tail = unknown ? ` The type of ${unknown} Service(s) was not shown.` : '';
  const seen = `of ${services.length} Service${services.length === 1 ? '' : 's'} seen`;
  if (!aliases.length) return `No Service${where} is of type ExternalName (${seen}).${tail}`;
  return `${aliases.length} Service${aliases.length === 1 ? ' is' : 's are'} of type ExternalName${where} (${seen}): ${aliases
    .map(
      (s) =>
        `${s.name}${namespace || !s.namespace ? '' : ` (namespace ${s.namespace})`} points to ${s.fields['externalName'] || 'an external name not shown'}`,
    )
    .join('; ')}.${tail}`;
}
