/**
 * The template variables of the round22 (r22i) rules (cause-catalog.data.ts, its "round22 (r22i)"
 * block): the CPU limit a LimitRange default gave a container whose own spec sets none (the
 * LimitRanger admission plugin's annotation says so), and the load balancer annotations of a
 * Service the in-tree cloud controller found no subnets for.
 */
import type { FindingContext } from './finding-vars';
import { jsonField } from './model';

type Vars = Record<string, string>;

/**
 * A CPU limit nobody wrote: the pods carry the LimitRanger note "LimitRanger plugin set: cpu limit
 * for container X", so the limit came from the namespace's LimitRange default at admission, and
 * a container held to it is throttled (CFS quota) while it starts and under load.
 */
export function cpuLimitFrom({ model, pods, container: c }: FindingContext): Vars {
  const ranger = pods.find((p) => /\bcpu limit\b/i.test(p.fields['limitRanger'] ?? ''));
  const limit = c?.limits['cpu'];
  if (!ranger || !limit) return { cpu_limit_from: '', cpu_limit_fix: '' };
  const lr = model.list('limitrange', ranger.namespace).map((x) => x.name);
  const which = lr.length ? ` ${lr.join(', ')}` : '';
  return {
    cpu_limit_from: `. Its CPU limit ${limit} is not in its pod spec: the namespace's LimitRange${which} default set it at admission ("${ranger.fields['limitRanger']}"), so the container is throttled at ${limit} of CPU (CFS quota) and starts and answers slowly`,
    cpu_limit_fix: ` Set an explicit CPU limit (or none) in the pod spec of the workload, or lower or remove the default cpu limit of the LimitRange${which}: a rollback gets the same default.`,
  };
}

/** the load balancer annotations of the Service the finding is about */
function lbAnnotations({ obj }: FindingContext): Vars {
  const ann = jsonField(obj, 'annotations');
  const lb = Object.entries(ann).filter(([k]) => /aws-load-balancer-/.test(k));
  const internal = ann['service.beta.kubernetes.io/aws-load-balancer-internal'];
  return {
    lb_annotations: lb.length
      ? ` Its annotations: ${lb
          .slice(0, 4)
          .map(([k, v]) => `${k}: ${v}`)
          .join(', ')}${
          internal
            ? ''
            : ' (no aws-load-balancer-internal, which is what the in-tree controller reads; aws-load-balancer-scheme is read only by the AWS Load Balancer Controller)'
        }.`
      : '',
  };
}

export const R22I_VARS: Record<string, (x: FindingContext) => Vars> = {
  lb_no_suitable_subnets: lbAnnotations,
};

export const R22I_CLASS_VARS: Record<string, (x: FindingContext) => Vars> = {
  probe_failure: cpuLimitFrom,
};
