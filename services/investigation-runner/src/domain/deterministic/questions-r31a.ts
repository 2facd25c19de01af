/**
 * A question of round31 (r31a): "which Ingresses (in namespace X) have rate limiting, and what are
 * the limits?" ingress-nginx limits requests per Ingress with its limit-* annotations: limit-rps
 * and limit-rpm (requests per client address), limit-connections (concurrent connections),
 * global-rate-limit; limit-burst-multiplier and limit-whitelist/limit-allowlist shape them. The
 * question reuses the ingress_annotation question's gathering (the Ingresses read whole).
 */
import { controllerConfig } from './diagnose-r26b';
import { jsonField, type ClusterModel } from './model';
import type { ObjectView } from './observe';
import type { Question } from './scope';

/** the key an ingress_annotation question carries when it asks for rate limits */
export const RATE_LIMIT_KEYS = 'limit-rps|limit-rpm|limit-connections|global-rate-limit';

export function ingressRateLimitQuestion(
  t: string,
  namespaces: string[],
  near: string[],
): Question | undefined {
  if (/^\s*why\b/.test(t)) return undefined;
  if (!/\bingress(?:es)?\b/.test(t) || !/\brate[- ]?limit/.test(t)) return undefined;
  if (!/\b(?:which|what|list|show|any|how many)\b/.test(t)) return undefined;
  return { type: 'ingress_annotation', key: RATE_LIMIT_KEYS, namespace: namespaces[0], near };
}

/** an annotation's name part (`limit-rps` of nginx.ingress.kubernetes.io/limit-rps) */
const part = (k: string) => k.split('/').pop()!;
const LIMITS = new Set(RATE_LIMIT_KEYS.split('|'));
/** the settings that shape a limit (its burst, the addresses exempt from it, its window) */
const SHAPING =
  /^(?:limit-burst-multiplier|limit-whitelist|limit-allowlist|limit-rate|limit-rate-after|global-rate-limit-window|global-rate-limit-key)$/;

export function ingressRateLimits(model: ClusterModel, namespace: string | undefined): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const all = model
    .list('ingress', namespace)
    .filter((i) => !namespace || i.namespace === namespace);
  if (!all.length) return `I could not list the Ingresses${where} with the tools available.`;
  const name = (i: ObjectView) => (namespace ? i.name : `${i.namespace}/${i.name}`);
  const read = all.filter((i) => i.fields['annotations'] !== undefined);
  const unread = all.filter((i) => i.fields['annotations'] === undefined).map(name);
  const limited = read
    .map((i) => {
      const ann = Object.entries(jsonField(i, 'annotations'));
      const limits = ann.filter(([k]) => LIMITS.has(part(k)));
      const shaping = ann.filter(([k]) => SHAPING.test(part(k)));
      return { i, limits, shaping };
    })
    .filter((x) => x.limits.length);
  const perMinute = (k: string, v: string) =>
    part(k) === 'limit-rpm' && Number(v) >= 60
      ? ` (${+(Number(v) / 60).toFixed(1)} per second)`
      : '';
  const row = (x: (typeof limited)[number]) =>
    `${name(x.i)} (${[...x.limits, ...x.shaping]
      .map(([k, v]) => `${part(k)} "${v}"${perMinute(k, v)}`)
      .join(', ')})`;
  const others = read.filter((i) => !limited.some((x) => x.i === i)).map(name);
  // the answer a refused request gets: 503 unless the controller's limit-req-status-code says
  const cm = controllerConfig(model);
  const code = cm ? jsonField(cm, 'data')['limit-req-status-code'] : undefined;
  const head = limited.length
    ? `${limited.length} Ingress${limited.length > 1 ? 'es' : ''}${where} ${limited.length > 1 ? 'have' : 'has'} ingress-nginx rate limits: ${limited.map(row).join('; ')}.`
    : `No Ingress${where} sets an ingress-nginx rate limit (limit-rps, limit-rpm, limit-connections)${read.length ? `; ${read.length} read: ${read.map(name).join(', ')}` : ''}.`;
  return `${head}${limited.length && others.length ? ` ${others.join(', ')} ${others.length > 1 ? 'set' : 'sets'} no rate limit.` : ''}${unread.length ? ` I could not read the annotations of ${unread.join(', ')}.` : ''}${limited.length ? ` The limits count per client address; requests above them are refused with ${code ? `${code} (limit-req-status-code in ConfigMap ${cm!.name})` : '503 unless the controller ConfigMap sets limit-req-status-code (often 429)'}.` : ''}`;
}
