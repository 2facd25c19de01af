import { z } from 'zod';
import { envBool, envLogLevel, envOptionalPort, envPort } from '@inquest/runtime';

/** Environment of the all-in-one launcher (`npm start`). Every service's own variables pass through. */
export const LauncherEnvSchema = z.object({
  PORT: envPort(8080),
  INQUEST_HTTP_HOST: z.string().default('127.0.0.1'),
  INQUEST_DATA_DIR: z.string().min(1).default('./.inquest'),
  INQUEST_LOG_LEVEL: envLogLevel.default('warn'),
  INQUEST_DEMO: envBool(true),
  /** unset: the port it had last time in this data dir if free, else any free port */
  INQUEST_DEMO_TOOLSERVER_PORT: envOptionalPort,
  INQUEST_ADMIN_TOKEN: z.string().optional(),
  INQUEST_ADMIN_TOKEN_SHA256: z.string().optional(),
  /** added to the all-in-one default (loopback minus the launcher's own ports) */
  INQUEST_EGRESS_ALLOW: z.string().optional(),
  /** passed to the gRPC services; 0 gives each its own free port */
  INQUEST_METRICS_PORT: envOptionalPort,
  /** when set, the Prometheus/Alertmanager tool server runs in-process too (registered for demo-team) */
  INQUEST_PROMETHEUS_URL: z.string().optional(),
  INQUEST_ALERTMANAGER_URL: z.string().optional(),
  INQUEST_TOOLSERVER_PROMETHEUS_PORT: envPort(0),
  /** when set (or KUBECONFIG is), the Kubernetes tool server runs in-process too (registered for demo-team) */
  INQUEST_KUBECONFIG: z.string().optional(),
  KUBECONFIG: z.string().optional(),
  INQUEST_KUBE_CONTEXT: z.string().optional(),
  INQUEST_KUBE_NAMESPACES: z.string().default(''),
  INQUEST_KUBE_SECRETS: envBool(false),
  INQUEST_KUBE_CONFIGMAP_VALUES: envBool(false),
  INQUEST_K8S_TOOLSERVER_PORT: envPort(0),
});

export type LauncherEnv = z.infer<typeof LauncherEnvSchema>;
