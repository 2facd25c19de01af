/**
 * A question of round28 (r28a): before scaling StatefulSets down (or deleting them), which of
 * them delete the PersistentVolumeClaims of the pods removed: spec.persistentVolumeClaimRetentionPolicy
 * whenScaled / whenDeleted = Delete. Absent, both are Retain (the claims stay).
 */
import type { ClusterModel } from './model';
import type { Question } from './scope';

const SCALE_OR_DELETE =
  /\b(?:scal\w*\s+(?:\w+\s+){0,4}?down|scale-?down|downscal\w*|delet\w*|remov\w*|reduc\w*)\b/;
const CLAIMS = /\b(?:pvcs?|persistent ?volume ?claims?|claims?|volumes?|data|disks?|storage)\b/;
const LOSE =
  /\b(?:delet\w*|throw\w* away|lose|losing|lost|wipe\w*|keep|kept|retain\w*|drop\w*|remov\w*)\b/;
const STATEFULSET = /\bstatefulsets?\b|\bsts\b/;

export function pvcRetentionQuestion(t: string, namespaces: string[]): Question | undefined {
  if (!STATEFULSET.test(t) || !SCALE_OR_DELETE.test(t) || !CLAIMS.test(t) || !LOSE.test(t))
    return undefined;
  if (!/\b(?:which|what|any|list|will|does|do|is|are)\b/.test(t)) return undefined;
  const scaled = /\bscal\w*|downscal/.test(t);
  return { type: 'pvc_retention', on: scaled ? 'scale' : 'delete', namespace: namespaces[0] };
}

/** a StatefulSet's policy as read: whenDeleted/whenScaled, Retain when the spec has none */
export function retentionOf(
  model: ClusterModel,
  name: string,
  ns?: string,
): { whenDeleted: string; whenScaled: string; read: boolean } | undefined {
  const s = model.get('statefulset', name, ns);
  if (!s) return undefined;
  const f = s.fields['pvcRetention'];
  if (f === undefined) return { whenDeleted: 'Retain', whenScaled: 'Retain', read: false };
  const m = /whenDeleted=(\w+),whenScaled=(\w+)/.exec(f);
  return { whenDeleted: m?.[1] ?? 'Retain', whenScaled: m?.[2] ?? 'Retain', read: true };
}

export function pvcRetention(
  q: Extract<Question, { type: 'pvc_retention' }>,
  model: ClusterModel,
): string {
  const where = q.namespace ? ` in namespace ${q.namespace}` : '';
  const sets = model
    .list('statefulset', q.namespace)
    .filter((s) => !q.namespace || s.namespace === q.namespace);
  if (!sets.length) return `I could not list the StatefulSets${where} with the tools available.`;
  const rows = sets.map((s) => ({ s, p: retentionOf(model, s.name, s.namespace)! }));
  const key = q.on === 'scale' ? 'whenScaled' : 'whenDeleted';
  const deleting = rows.filter((r) => r.p[key] === 'Delete');
  const keeping = rows.filter((r) => r.p[key] !== 'Delete' && r.p.read);
  const unread = rows.filter((r) => !r.p.read);
  const claims = (name: string, ns?: string) =>
    model
      .list('persistentvolumeclaim', ns)
      .filter((c) => new RegExp(`-${name.replace(/[.]/g, '\\.')}-\\d+$`).test(c.name))
      .map((c) => c.name);
  const top = (name: string, ns?: string) => {
    const cs = claims(name, ns).sort(
      (a, b) => Number(/-(\d+)$/.exec(b)?.[1]) - Number(/-(\d+)$/.exec(a)?.[1]),
    );
    return cs.length ? `; the highest ordinal's claim (${cs[0]}) goes first` : '';
  };
  const what =
    q.on === 'scale'
      ? 'scaling down deletes the PVCs of the pods removed'
      : 'deleting the StatefulSet deletes its PVCs';
  const parts = [
    deleting.length
      ? `${deleting.length} StatefulSet${deleting.length === 1 ? '' : 's'}${where} ${deleting.length === 1 ? 'has' : 'have'} persistentVolumeClaimRetentionPolicy ${key}: Delete, so ${what} (their data is lost): ${deleting
          .map(
            (r) =>
              `${r.s.name} (whenScaled ${r.p.whenScaled}, whenDeleted ${r.p.whenDeleted}${top(r.s.name, r.s.namespace)})`,
          )
          .join(', ')}.`
      : `No StatefulSet${where} has persistentVolumeClaimRetentionPolicy ${key}: Delete; ${q.on === 'scale' ? 'scaling down' : 'deleting them'} keeps the PVCs.`,
  ];
  if (keeping.length)
    parts.push(
      `These keep their PVCs (${key} Retain${keeping.some((r) => r.s.fields['pvcRetention'] === 'none') ? ', or no policy: Retain by default' : ''}): ${keeping
        .map((r) => `${r.s.name}${r.s.fields['pvcRetention'] === 'none' ? ' (no policy set)' : ''}`)
        .join(', ')}.`,
    );
  if (unread.length)
    parts.push(
      `I could not read the retention policy of ${unread.map((r) => r.s.name).join(', ')} (absent means Retain).`,
    );
  return parts.join(' ');
}
