/**
 * A question of round26 (r26b): "which Ingresses (in namespace X) set annotation K, and to what?"
 * (before changing the controller's global setting: which Ingresses override it). K is a full
 * annotation key (`nginx.ingress.kubernetes.io/proxy-read-timeout`) or its last part
 * (`proxy-read-timeout`), which matches any prefix.
 */
import { controllerConfig } from './diagnose-r26b';
import { jsonField, type ClusterModel } from './model';
import type { ObjectView } from './observe';
import type { Question } from './scope';

/** an annotation key, or its name part: `a.b/c-d`, `proxy-read-timeout`, `ssl-redirect` */
const KEY =
  '[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?/[a-z0-9][a-z0-9_.-]*[a-z0-9]|[a-z0-9]+(?:-[a-z0-9]+)+';
/** names of ingress controllers, not settings */
const CONTROLLER = /^(?:ingress-nginx|nginx-ingress|rke2-ingress-nginx|haproxy-ingress)$/;

export function ingressAnnotationQuestion(
  t: string,
  namespaces: string[],
  near: string[],
): Question | undefined {
  if (/^\s*why\b/.test(t)) return undefined;
  if (!/\bingress(?:es)?\b/.test(t) || !/\b(?:which|what|list|show|any|how many)\b/.test(t))
    return undefined;
  if (!/\bannotat(?:ion|ions|ed)\b|\boverrid(?:e|es|ing|den)\b/.test(t)) return undefined;
  const full = new RegExp(
    `(?:^|[\\s"'\`(])([a-z0-9][a-z0-9.-]*\\.[a-z]{2,}/[a-z0-9][a-z0-9_.-]*[a-z0-9])`,
  ).exec(t)?.[1];
  const usable = (k: string | undefined) =>
    k && !CONTROLLER.test(k) && !namespaces.includes(k) && !near.includes(k) ? k : undefined;
  const after = [
    ...t.matchAll(
      new RegExp(
        `\\b(?:overrid(?:e|es|ing)|set(?:s|ting)?|ha(?:ve|s)|with|uses?|carry|carries)\\s+(?:an?\\s+|the\\s+|their\\s+own\\s+|its\\s+own\\s+)?(?:annotation\\s+)?[\`'"]?(${KEY})`,
        'g',
      ),
    ),
  ]
    .map((m) => usable(m[1]))
    .find(Boolean);
  const beside =
    usable(new RegExp(`[\`'"]?(${KEY})[\`'"]?\\s+annotation`).exec(t)?.[1]) ??
    usable(new RegExp(`annotation\\s+[\`'"]?(${KEY})`).exec(t)?.[1]);
  const key = full ?? after ?? beside;
  if (!key) return undefined;
  return { type: 'ingress_annotation', key, namespace: namespaces[0], near };
}

/** An Ingress's value for an annotation key or name part (undefined: it does not set it). */
function annotationOf(ing: ObjectView, key: string): { key: string; value: string } | undefined {
  const ann = jsonField(ing, 'annotations');
  const k = Object.keys(ann).find(
    (x) => x === key || (!key.includes('/') && x.endsWith(`/${key}`)),
  );
  return k ? { key: k, value: ann[k]! } : undefined;
}

export function ingressesWithAnnotation(
  model: ClusterModel,
  namespace: string | undefined,
  key: string,
): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const all = model
    .list('ingress', namespace)
    .filter((i) => !namespace || i.namespace === namespace);
  if (!all.length) return `I could not list the Ingresses${where} with the tools available.`;
  const read = all.filter((i) => i.fields['annotations'] !== undefined);
  const setting = read
    .map((i) => ({ i, a: annotationOf(i, key) }))
    .filter((x): x is { i: ObjectView; a: { key: string; value: string } } => !!x.a);
  const name = (i: ObjectView) => (namespace ? i.name : `${i.namespace}/${i.name}`);
  const keys = [...new Set(setting.map((x) => x.a.key))];
  const others = read.filter((i) => !setting.some((x) => x.i === i)).map(name);
  const unread = all.filter((i) => i.fields['annotations'] === undefined).map(name);
  // the controller's ConfigMap: the global value the annotation overrides (same name part)
  const part = key.split('/').pop()!;
  const cm = controllerConfig(model);
  const global = cm ? jsonField(cm, 'data')[part] : undefined;
  const globalNote = cm
    ? ` The controller ConfigMap ${cm.namespace ? `${cm.namespace}/` : ''}${cm.name} ${global !== undefined ? `sets ${part}: "${global}"` : `does not set ${part}`}, which applies to the Ingresses without the annotation.`
    : '';
  const head = setting.length
    ? `${setting.length} Ingress${setting.length > 1 ? 'es' : ''}${where} set ${keys.join(' / ')}: ${setting
        .map((x) => `${name(x.i)} "${x.a.value}"`)
        .join(', ')}.`
    : `No Ingress${where} sets ${key}${read.length ? ` (${read.length} read: ${read.map(name).join(', ')})` : ''}.`;
  return `${head}${setting.length && others.length ? ` ${others.join(', ')} ${others.length > 1 ? 'do' : 'does'} not set it.` : ''}${unread.length ? ` I could not read the annotations of ${unread.join(', ')}.` : ''}${globalNote}`;
}
