import { Registry, collectDefaultMetrics } from 'prom-client';

/** A fresh prom-client registry with the default process metrics, labelled by service. */
export function createMetricsRegistry(service: string, withDefaults = true): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (withDefaults) collectDefaultMetrics({ register: registry });
  return registry;
}
