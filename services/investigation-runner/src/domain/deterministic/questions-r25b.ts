import { hasFinished } from './health';
import type { ClusterModel } from './model';
import type { ObjectView } from './observe';
import type { Question, Subject } from './scope';

/**
 * A question of round25 (r25b): "we rotated Secret X at 09:02: which pods still need a restart to
 * pick up the new key?". Environment variables (env valueFrom secretKeyRef / configMapKeyRef,
 * envFrom) are read once, when a container starts: a pod that reads the object that way and
 * started before the change still holds the old value. A mounted volume (without subPath) is
 * updated in place by the kubelet; the app has to reread the file.
 */
export function rotatedObjectQuestion(
  t: string,
  namespaces: string[],
  subjects: Subject[],
  now: number,
): Question | undefined {
  if (/^\s*why\b/.test(t)) return undefined;
  const changed =
    /\b(?:rotat(?:e|ed|ing)|re-?keyed|chang(?:ed|ing)|updat(?:ed|ing)|replac(?:ed|ing)|renew(?:ed|ing)|regenerat(?:ed|ing))\b/.exec(
      t,
    );
  if (!changed) return undefined;
  const asks = /\b(?:which|what|any|list)\b/.test(t);
  const stale =
    /\b(?:need|needs|require|requires)\s+(?:a\s+)?(?:restart|rollout|bounce|redeploy)/.test(t) ||
    /\bstill\b[^?.]{0,40}\b(?:old|previous|former)\b/.test(t) ||
    /\bpick(?:s|ed)?\s+up\b[^?.]{0,30}\bnew\b/.test(t) ||
    /\b(?:old|previous|stale)\s+(?:key|value|password|token|secret|credentials?|certificate|config)\b/.test(
      t,
    );
  if (!asks || !stale) return undefined;
  // the object changed: the name right after the verb ("rotated psp-api-key"), "secret x", "x secret"
  const after =
    /^\s+(?:the\s+)?(?:secret\s+|configmap\s+)?[`'"]?([a-z0-9][a-z0-9.-]*[a-z0-9])/.exec(
      t.slice(changed.index + changed[0].length),
    )?.[1];
  const named =
    /\b(?:secret|configmap|config map)\s+[`'"]?([a-z0-9][a-z0-9.-]*[a-z0-9])/.exec(t)?.[1] ??
    /\b([a-z0-9][a-z0-9.-]*[a-z0-9])[`'"]?\s+(?:secret|configmap|config map)\b/.exec(t)?.[1];
  // r29c: "rotated the password in the vault and the operator refreshed orders-db": the object
  // named after any later change verb (refreshed, synced too) when it is a subject of the request
  const afterAny = [
    ...t.matchAll(
      /\b(?:rotat(?:e|ed|ing)|re-?keyed|chang(?:ed|ing)|updat(?:ed|ing)|replac(?:ed|ing)|renew(?:ed|ing)|regenerat(?:ed|ing)|refresh(?:ed|ing)?|re-?sync(?:ed|ing)?|sync(?:ed|ing))\s+(?:the\s+)?(?:secret\s+|configmap\s+)?[`'"]?([a-z0-9][a-z0-9.-]*[a-z0-9])/g,
    ),
  ]
    .map((m) => m[1])
    .find((n) => n !== after && subjects.some((s) => s.name === n));
  const name =
    subjects.find((s) => s.name === after)?.name ??
    afterAny ??
    subjects.find((s) => s.name === named)?.name ??
    (named && named !== 'the' ? named : undefined) ??
    subjects.find((s) => /[-.]/.test(s.name) && (!s.kind || /secret|configmap/.test(s.kind)))?.name;
  if (!name) return undefined;
  const kind =
    /\bconfig ?maps?\b/.test(t) && !/\bsecrets?\b|\bkey\b|\bpassword\b|\btoken\b/.test(t)
      ? 'configmap'
      : 'secret';
  return {
    type: 'uses',
    kind,
    name,
    namespace: namespaces[0],
    stale: true,
    ...(changedAtOf(t, now) !== undefined ? { changedAt: changedAtOf(t, now) } : {}),
  };
}

/** "at about 09:02": that time of day (UTC) on the day of `now`, the day before when still to come */
function changedAtOf(t: string, now: number): number | undefined {
  const m = /\b(?:at|around|about|since|~)\s*(?:about\s+|around\s+|~\s*)?(\d{1,2}):(\d{2})\b/.exec(
    t,
  );
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return undefined;
  const d = new Date(now);
  let at = Date.UTC(
    d.getUTCFullYear(),
    d.getUTCMonth(),
    d.getUTCDate(),
    Number(m[1]),
    Number(m[2]),
  );
  if (at > now) at -= 86_400_000;
  return at;
}

const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

/** the pods that read the object as env and started before the change (still the old value) */
export function podsHoldingOldValue(
  model: ClusterModel,
  kind: 'secret' | 'configmap',
  name: string,
  namespace: string | undefined,
  changedAt: number | undefined,
): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const label = kind === 'secret' ? 'Secret' : 'ConfigMap';
  const pods = model
    .list('pod', namespace)
    .filter(
      (p) =>
        (!namespace || p.namespace === namespace) &&
        !hasFinished(p) &&
        p.containers.some((c) => !c.init),
    );
  if (!pods.length)
    return `I could not read the containers of the pods${where} with the tools available.`;
  const esc = name.replace(/[.]/g, '\\.');
  const byEnv = (p: ObjectView) =>
    p.containers
      .flatMap((c) => c.envRefs)
      .some((r) => new RegExp(`(?:<-|envFrom) ${kind} ${esc}(?: |$)`).test(r));
  const byVolume = (p: ObjectView) =>
    (p.fields[kind === 'secret' ? 'secrets' : 'configMaps'] ?? '').split(',').includes(name);
  const started = (p: ObjectView) => Date.parse(p.fields['startTime'] ?? '') || p.created;
  const env = pods.filter(byEnv);
  const volume = pods.filter((p) => !byEnv(p) && byVolume(p));
  if (!env.length && !volume.length)
    return `No pod${where} reads the ${label} ${name} (${pods.length} pods read: env, envFrom and volumes), so none needs a restart for it.`;
  const since = changedAt !== undefined ? ` at ${when(changedAt)} UTC` : '';
  const old = env.filter((p) => changedAt === undefined || (started(p) ?? 0) < changedAt);
  const fresh = env.filter((p) => !old.includes(p));
  const startedText = (p: ObjectView) => {
    const s = started(p);
    return `${p.name} (started ${s ? `${when(s)} UTC` : 'at a time not shown'})`;
  };
  const workloads = [
    ...new Set(
      old.map((p) => {
        const w = model.workloadOf(p);
        return w.kind && w.kind !== 'pod' ? `${w.kind}/${w.name}` : `pod/${p.name}`;
      }),
    ),
  ];
  const parts: string[] = [];
  parts.push(
    old.length
      ? `${old.length} pod${old.length === 1 ? '' : 's'}${where} still ${old.length === 1 ? 'holds' : 'hold'} the old value of ${label} ${name} and need${old.length === 1 ? 's' : ''} a restart: ${old.map(startedText).join(', ')} read${old.length === 1 ? 's' : ''} it as environment variables, which are set only when a container starts, and ${changedAt !== undefined ? `started before the change${since}` : 'the change time was not given: compare it with these start times'}. Restart: ${workloads.map((w) => `kubectl rollout restart ${w}${namespace ? ` -n ${namespace}` : ''}`).join('; ')}.`
      : `No pod${where} that reads ${label} ${name} as environment variables started before the change${since}: none still holds the old value.`,
  );
  if (fresh.length)
    parts.push(
      `${fresh.map(startedText).join(', ')} read${fresh.length === 1 ? 's' : ''} it as environment variables too but started after the change: ${fresh.length === 1 ? 'it has' : 'they have'} the new value.`,
    );
  if (volume.length)
    parts.push(
      `${volume.map((p) => p.name).join(', ')} mount${volume.length === 1 ? 's' : ''} it as a volume: the kubelet updates the files in place (not when mounted with subPath); the app must reread them.`,
    );
  return parts.join(' ');
}
