import type { ClusterModel } from './model';
import type { ObjectView } from './observe';
import { hasFinished } from './health';
import type { Question, Subject } from './scope';

/**
 * Two questions read off objects' own fields (round23, r23a):
 * - "can I grow data-x-0 to 800Gi, or will the API refuse it?": the claim's StorageClass and its
 *   allowVolumeExpansion (the API server rejects a larger request unless the class allows it);
 * - "which running pods in billing are not in the mesh (no istio-proxy sidecar)?": the running
 *   pods whose containers (native sidecars are init containers) do not include the proxy.
 */

const ASKING =
  /\?|\b(?:can|could|may|will|would|is it|are|which|what|whose|any|list|show|find|tell me|how many)\b/;

/** the proxy container a mesh injects, named by the question */
function sidecarOf(t: string): string | undefined {
  if (/\bistio-proxy\b|\bistio\b|\benvoy\b/.test(t)) return 'istio-proxy';
  if (/\blinkerd\b/.test(t)) return 'linkerd-proxy';
  return undefined;
}

export function meshOrExpansionQuestion(
  t: string,
  namespaces: string[],
  subjects: Subject[],
  near: string[],
): Question | undefined {
  if (!ASKING.test(t)) return undefined;
  // "which pods are not in the mesh / have no istio-proxy sidecar?"
  const sidecar = sidecarOf(t);
  if (
    sidecar &&
    /\bpods?\b/.test(t) &&
    /\b(?:which|what|list|show|find|any|how many)\b/.test(t) &&
    (/\b(?:no|not|without|missing|lack\w*|n['’]t)\b[^?.]{0,40}\b(?:sidecars?|mesh|istio-proxy|linkerd-proxy|proxy|injected)\b/.test(
      t,
    ) ||
      /\b(?:outside|out of)\s+(?:the\s+)?mesh\b/.test(t)) &&
    !/\bwhy\b/.test(t)
  )
    return { type: 'pods_without_sidecar', sidecar, namespace: namespaces[0], near };
  // "can I bump data-orders-db-0 to 800Gi?", "can this PVC be expanded?"
  const grow =
    /\b(?:expand\w*|resiz\w*|grow\w*|bump\w*|enlarg\w*|increas\w*|extend\w*|make\s+\S+\s+bigger)\b/.test(
      t,
    );
  const volume =
    /\bpvcs?\b|\bclaims?\b|\bvolumes?\b|\bdisks?\b|\bstorage\b|\b\d+\s*[gt]i?b?\b/.test(t);
  const can =
    /\b(?:can|could|may)\s+(?:i|we|you|it|this|that|the|they)\b|\bwill\s+(?:the\s+)?(?:api|it|that|this)\b|\bis it possible\b|\bpossible to\b|\ballowed\b|\brefuse\b|\breject\b/.test(
      t,
    );
  if (grow && volume && can && !/\bwhy\b/.test(t)) {
    const claim = subjects.find((s) => s.kind === 'persistentvolumeclaim' || s.kind === 'pvc');
    return {
      type: 'claim_expansion',
      ...(claim ? { claim: claim.name } : {}),
      namespace: namespaces[0],
      near,
    };
  }
  return undefined;
}

const isSc = (o: ObjectView) => o.kind === 'storageclass';

/** the claims the question is about: the one it names, else those of the workload it names */
function claimsAsked(
  model: ClusterModel,
  namespace: string | undefined,
  claim: string | undefined,
  subjects: Subject[],
): ObjectView[] {
  const claims = model
    .list('persistentvolumeclaim', namespace)
    .filter((c) => c.kind === 'persistentvolumeclaim' && (!namespace || c.namespace === namespace));
  const named = claims.filter((c) => c.name === claim || subjects.some((s) => s.name === c.name));
  if (named.length) return named;
  // a StatefulSet's claims are named <template>-<statefulset>-<ordinal>
  return claims.filter((c) =>
    subjects.some((s) =>
      new RegExp(`-${s.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-\\d+$`).test(c.name),
    ),
  );
}

/** the StorageClass a claim was provisioned from: the claim's, else its bound volume's */
function classOf(model: ClusterModel, c: ObjectView): string | undefined {
  const own = c.fields['storageClassName'];
  if (own && own !== '<none>') return own;
  const pv = model.list('persistentvolume').find((v) => v.name === c.fields['volumeName']);
  const theirs = pv?.fields['storageClassName'];
  return theirs && theirs !== '<none>' ? theirs : undefined;
}

export function claimExpansion(
  model: ClusterModel,
  namespace: string | undefined,
  claim: string | undefined,
  subjects: Subject[],
): string {
  const claims = claimsAsked(model, namespace, claim, subjects);
  if (!claims.length)
    return `I could not find the PersistentVolumeClaim${claim ? ` ${claim}` : ''}${namespace ? ` in namespace ${namespace}` : ''} with the tools available, so I cannot say whether it can be expanded.`;
  const classes = model.list('storageclass').filter(isSc);
  const growable = classes.filter((s) => s.fields['allowVolumeExpansion'] === 'true');
  const rows = claims.slice(0, 4).map((c) => {
    const size = c.fields['storageCapacity'] ?? c.fields['capacity'];
    const head = `PersistentVolumeClaim ${c.name}${size ? ` (${size})` : ''}`;
    const scName = classOf(model, c);
    if (!scName)
      return `${head} has no StorageClass (a statically provisioned volume): it cannot be expanded by editing its size, the API server will reject it (only dynamically provisioned claims can be resized).`;
    const sc = classes.find((s) => s.name === scName);
    const driver = sc?.fields['provisioner'] ? `, provisioner ${sc.fields['provisioner']}` : '';
    if (!sc || sc.fields['allowVolumeExpansion'] === undefined)
      return `${head} is on StorageClass ${scName}${driver}; I could not read whether ${scName} sets allowVolumeExpansion (check \`kubectl get storageclass ${scName} -o yaml\`): without allowVolumeExpansion: true the API server rejects a larger size.`;
    if (sc.fields['allowVolumeExpansion'] === 'true')
      return `${head} is on StorageClass ${scName}${driver}, which sets allowVolumeExpansion: true: raising spec.resources.requests.storage is accepted and the volume is expanded (the file system grows online or on the pod's next start, depending on the driver).`;
    const others = growable.map((s) => s.name).filter((n) => n !== scName);
    return `${head} is on StorageClass ${scName}${driver}, which ${sc.fields['allowVolumeExpansion'] === 'false' ? 'has allowVolumeExpansion false (false or unset)' : 'does not set allowVolumeExpansion (unset = false)'}: the API server will reject a larger size ("only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize"), so it cannot be expanded with kubectl edit as it is. An admin must first set allowVolumeExpansion: true on StorageClass ${scName} (the field may be changed in place), then raise the claim's request.${others.length ? ` (${others.join(', ')} ${others.length === 1 ? 'allows' : 'allow'} expansion.)` : ''}`;
  });
  return rows.join(' ');
}

/** "which running pods in billing have no istio-proxy sidecar?" */
export function podsWithoutSidecar(
  model: ClusterModel,
  namespace: string | undefined,
  sidecar: string,
): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const pods = model
    .list('pod', namespace)
    .filter((p) => p.kind === 'pod' && (!namespace || p.namespace === namespace));
  if (!pods.length) return `I could not list the pods${where} with the tools available.`;
  const running = pods.filter((p) => !hasFinished(p) && (!p.status || /Running/i.test(p.status)));
  const read = running.filter((p) => p.containers.length);
  const unread = running.length - read.length;
  const without = read.filter((p) => !p.containers.some((c) => c.name === sidecar));
  const finished = pods.filter(
    (p) => hasFinished(p) && p.containers.length && !p.containers.some((c) => c.name === sidecar),
  );
  const why = (p: ObjectView) =>
    /^false$/i.test(p.fields['sidecarInject'] ?? '')
      ? ' (sidecar.istio.io/inject: "false")'
      : p.created !== undefined
        ? ` (created ${new Date(p.created).toISOString().slice(0, 10)})`
        : '';
  const tail = `${unread ? ` I could not read the containers of ${unread} other running pod${unread === 1 ? '' : 's'}.` : ''}${finished.length ? ` Finished pods without it, not running: ${finished.map((p) => p.name).join(', ')}.` : ''}`;
  if (!without.length)
    return `Every running pod${where} whose containers I read has the ${sidecar} sidecar (${read.length} of ${running.length} running pods read).${tail}`;
  return `${without.length} running pod${without.length === 1 ? '' : 's'}${where} ${without.length === 1 ? 'has' : 'have'} no ${sidecar} sidecar (not in the mesh; of ${read.length} running pods read): ${without
    .map((p) => `${p.name}${why(p)}`)
    .join(
      ', ',
    )}. Under STRICT mTLS their plain-text calls to meshed pods are refused: get the sidecar injected (drop the opt-out, restart pods created before injection was enabled) or keep a PERMISSIVE exception for them.${tail}`;
}
