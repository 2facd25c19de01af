import type { ClusterModel } from './model';
import type { ObjectView } from './observe';
import type { Question } from './scope';

/**
 * A question of round24 (r24b): "which deployments in payments are NOT managed by Argo CD (someone
 * kubectl-applied them)?": the workloads of a kind that carry no GitOps tracking marker (Argo CD's
 * argocd.argoproj.io/tracking-id annotation or instance label, Flux's kustomize/helm labels), with
 * their image and what their metadata says of who applied them.
 */

const WORKLOAD_KINDS: Record<string, string> = {
  deployment: 'deployment',
  deployments: 'deployment',
  statefulset: 'statefulset',
  statefulsets: 'statefulset',
  daemonset: 'daemonset',
  daemonsets: 'daemonset',
  cronjob: 'cronjob',
  cronjobs: 'cronjob',
};

export function gitopsQuestion(
  t: string,
  namespaces: string[],
  near: string[],
): Question | undefined {
  // a question for a list, not an incident ("why does X, which Argo CD does not manage, crash?")
  if (!/\?|\b(?:which|what|list|show|find|any)\b/.test(t) || /\bwhy\b/.test(t)) return undefined;
  const tool = /\bargo(?:\s?cd)?\b/.test(t) ? 'argocd' : /\bflux(?:cd)?\b/.test(t) ? 'flux' : '';
  const outside =
    /\b(?:not|n['’]t|never|un)[- ]?(?:managed|tracked|owned|deployed|synced)\s+(?:by|via|through|from)\b/.test(
      t,
    ) ||
    /\b(?:outside|not in|not part of)\s+(?:of\s+)?(?:argo|flux|git)/.test(t) ||
    /\bkubectl[- ]appl(?:y|ied)\b|\b(?:applied|created|deployed) (?:by hand|manually)\b/.test(t);
  if (!outside || (!tool && !/\bgitops\b|\bkubectl[- ]appl/.test(t))) return undefined;
  const word = /\b(deployments?|statefulsets?|daemonsets?|cronjobs?)\b/.exec(t)?.[1];
  if (!word && !/\bworkloads?\b|\bapps?\b/.test(t)) return undefined;
  return {
    type: 'gitops_unmanaged',
    kind: word ? WORKLOAD_KINDS[word]! : 'deployment',
    tool: tool || 'argocd',
    namespace: namespaces[0],
    near,
  };
}

/** the GitOps marker of an object (fields set by observe/kube-objects.ts), or undefined */
export function gitopsMarker(o: ObjectView): string | undefined {
  if (o.fields['argocdTrackingId']) return `Argo CD tracking-id ${o.fields['argocdTrackingId']}`;
  if (o.labels['argocd.argoproj.io/instance'])
    return `Argo CD instance label ${o.labels['argocd.argoproj.io/instance']}`;
  const flux =
    o.labels['kustomize.toolkit.fluxcd.io/name'] ?? o.labels['helm.toolkit.fluxcd.io/name'];
  if (flux) return `Flux ${flux}`;
  return undefined;
}

const imagesOf = (o: ObjectView) =>
  [...new Set([...o.containers.filter((c) => !c.init).map((c) => c.image), ...o.images])]
    .filter(Boolean)
    .join(', ');

const day = (t: number | undefined) => (t ? new Date(t).toISOString().slice(0, 10) : '');

export function gitopsUnmanaged(
  model: ClusterModel,
  namespace: string | undefined,
  kind: string,
  tool: string,
): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const plural = `${kind}s`;
  const name = tool === 'flux' ? 'Flux' : 'Argo CD';
  const all = model
    .list(kind, namespace)
    .filter((o) => o.kind === kind && (!namespace || o.namespace === namespace));
  if (!all.length) return `I could not list the ${plural}${where} with the tools available.`;
  // only objects read with their metadata (a listing's row shows no annotations)
  const read = all.filter((o) => o.fields['metadataRead'] === 'true');
  if (!read.length)
    return `I listed ${all.length} ${plural}${where} but could not read their annotations with the tools available, so I cannot tell which ${name} manages.`;
  const managed = read.filter((o) => gitopsMarker(o));
  const bare = read.filter((o) => !gitopsMarker(o));
  if (!managed.length)
    return `None of the ${read.length} ${plural}${where} carries a GitOps tracking marker (argocd.argoproj.io/tracking-id annotation, argocd.argoproj.io/instance label, Flux labels); if ${name} tracks by the app.kubernetes.io/instance label, compare with the Application's resource list.`;
  const unread = all.length - read.length;
  const row = (o: ObjectView) => {
    const notes = [
      imagesOf(o) ? `image ${imagesOf(o)}` : '',
      o.fields['kubectlApplied'] === 'true' ? 'kubectl last-applied-configuration annotation' : '',
      o.created ? `created ${day(o.created)}` : '',
    ].filter(Boolean);
    return `${o.name}${notes.length ? ` (${notes.join('; ')})` : ''}`;
  };
  const head = bare.length
    ? `${bare.length} of the ${read.length} ${plural}${where} ${bare.length === 1 ? 'is' : 'are'} not managed by ${name} (no tracking-id annotation or instance label): ${bare.map(row).join(', ')}.`
    : `Every one of the ${read.length} ${plural}${where} is managed by ${name}.`;
  const apps = [
    ...new Set(
      managed.map((o) => (o.fields['argocdTrackingId'] ?? '').split(':')[0]).filter(Boolean),
    ),
  ];
  return `${head} The other ${managed.length} carry ${name}'s tracking marker${apps.length ? ` (Application ${apps.join(', ')})` : ''}: ${managed.map((o) => o.name).join(', ')}.${unread ? ` ${unread} more could not be read.` : ''}`;
}
