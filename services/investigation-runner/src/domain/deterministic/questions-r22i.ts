/**
 * Round22 (r22i) question: "which Ingress paths point at a Service that does not exist, or at a
 * port the Service does not have?" Each backend of the namespace's Ingresses against the Services
 * read: a Service not among them (when the Services were listed), or a port (number or name) the
 * Service does not expose.
 */
import { ingressBackends } from './dependencies';
import { servicePorts, type ClusterModel } from './model';

export function ingressBackendsDangling(
  model: ClusterModel,
  namespace: string | undefined,
): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const ingresses = model
    .list('ingress', namespace)
    .filter((i) => !namespace || i.namespace === namespace)
    .sort((a, b) => a.name.localeCompare(b.name));
  if (!ingresses.length) return `I could not list any Ingress${where} with the tools available.`;
  const services = model.list('service', namespace);
  const missing: string[] = [];
  const noPort: string[] = [];
  const fine: string[] = [];
  const unread: string[] = [];
  for (const ing of ingresses) {
    const backends = ingressBackends(ing);
    if (!backends.length) unread.push(ing.name);
    for (const b of backends) {
      const route = `Ingress ${ing.name} ${b.host ? `${b.host}` : ''}${b.path || '/'} -> ${b.service}:${b.port}`;
      const svc = services.find((s) => s.name === b.service && s.namespace === ing.namespace);
      if (!svc) {
        if (services.length) missing.push(`${route} (no Service ${b.service}${where} exists)`);
        continue;
      }
      const ports = servicePorts(svc);
      if (!ports.length) continue;
      if (ports.some((p) => String(p.port) === b.port || p.name === b.port)) {
        fine.push(`${b.service}:${b.port}`);
        continue;
      }
      const has = ports.map((p) => `${p.port}${p.name ? ` (${p.name})` : ''}`).join(', ');
      noPort.push(`${route} (Service ${b.service} exposes only port ${has})`);
    }
  }
  const parts: string[] = [];
  if (missing.length)
    parts.push(
      `${missing.length} path${missing.length === 1 ? ' points' : 's point'} at a Service that does not exist: ${missing.join('; ')}.`,
    );
  if (noPort.length)
    parts.push(
      `${noPort.length} path${noPort.length === 1 ? ' points' : 's point'} at a port the Service does not have: ${noPort.join('; ')}.`,
    );
  if (!parts.length)
    parts.push(
      `No Ingress path${where} points at a missing Service or port${fine.length ? ` (backends checked: ${[...new Set(fine)].join(', ')})` : ''}.`,
    );
  else if (fine.length) parts.push(`The other backends exist: ${[...new Set(fine)].join(', ')}.`);
  if (unread.length) parts.push(`I could not read the rules of Ingress ${unread.join(', ')}.`);
  return parts.join(' ');
}
