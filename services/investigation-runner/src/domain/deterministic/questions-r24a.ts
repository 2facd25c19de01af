import type { ClusterModel } from './model';
import type { ObjectView } from './observe';
import type { Question } from './scope';

/**
 * A question read off objects' own fields (round24, r24a): "which workloads in data have no IRSA
 * role (would break when IMDS is blocked)?": each workload's ServiceAccount (serviceAccountName,
 * `default` when unset) and whether that ServiceAccount carries the eks.amazonaws.com/role-arn
 * annotation; without it the pods' AWS SDK falls back to the node's instance role via IMDS.
 */

const IRSA_ANNOTATION = 'eks.amazonaws.com/role-arn';

export function irsaQuestion(t: string, namespaces: string[]): Question | undefined {
  if (
    /\birsa\b|\biam roles? for service accounts?\b|\bimds\b|\bnode(?:'s)? (?:iam |instance )?role\b|\binstance role\b|\brole-arn\b/.test(
      t,
    ) &&
    /\b(?:which|what|list|show|any|how many)\b/.test(t) &&
    /\b(?:workloads?|deployments?|apps?|services?|pods?|statefulsets?)\b/.test(t) &&
    !/\bwhy\b/.test(t)
  )
    return { type: 'workloads_without_irsa', namespace: namespaces[0] };
  return undefined;
}

const WORKLOADS = ['deployment', 'statefulset', 'daemonset', 'cronjob'];

/** the role a ServiceAccount's IRSA annotation names, '' when it has none, undefined when unread */
function roleOf(sa: ObjectView | undefined): string | undefined {
  if (!sa || sa.fields['annotations'] === undefined) return undefined;
  try {
    const ann = JSON.parse(sa.fields['annotations']) as Record<string, string>;
    return ann[IRSA_ANNOTATION] ?? '';
  } catch {
    return undefined;
  }
}

/** the workloads of the namespace: their ServiceAccount and its IRSA role */
export function workloadsWithoutIrsa(model: ClusterModel, namespace: string | undefined): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const workloads = model
    .list(undefined, namespace)
    .filter((o) => WORKLOADS.includes(o.kind) && (!namespace || o.namespace === namespace));
  if (!workloads.length) return `I could not list the workloads${where} with the tools available.`;
  const rows = workloads.map((w) => {
    // a workload read whole has its containers; its serviceAccountName is `default` when unset
    const sa = w.fields['serviceAccount'] ?? (w.containers.length ? 'default' : undefined);
    const role = sa ? roleOf(model.get('serviceaccount', sa, w.namespace)) : undefined;
    return { w, sa, role };
  });
  const without = rows.filter((r) => r.sa && r.role === '');
  const withRole = rows.filter((r) => r.role);
  const unknown = rows.filter((r) => r.role === undefined);
  const name = (r: (typeof rows)[number]) =>
    `${r.w.name} (ServiceAccount ${r.sa}${r.sa === 'default' ? ', the namespace default' : ''}, no ${IRSA_ANNOTATION} annotation)`;
  const head = without.length
    ? `${without.length} workload${without.length === 1 ? '' : 's'}${where} ${without.length === 1 ? 'has' : 'have'} no IRSA role: ${without.map(name).join('; ')}. Their pods get no web identity token, so the AWS SDK falls back to the node's instance role through IMDS: blocking IMDS breaks their AWS calls. Give each a ServiceAccount of its own annotated with ${IRSA_ANNOTATION} (an IAM role trusting the cluster's OIDC provider for that ServiceAccount), then restart its pods.`
    : `Every workload${where} whose ServiceAccount I read has an IRSA role.`;
  const ok = withRole.length
    ? ` With an IRSA role: ${withRole.map((r) => `${r.w.name} (ServiceAccount ${r.sa}: ${r.role})`).join(', ')}.`
    : '';
  const unread = unknown.length
    ? ` I could not read the ServiceAccount of ${unknown.map((r) => r.w.name).join(', ')}.`
    : '';
  return `${head}${ok}${unread}`;
}
