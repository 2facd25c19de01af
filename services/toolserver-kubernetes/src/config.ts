import { z } from 'zod';
import { envBool, envLogLevel, envPort, envPositiveInt } from '@inquest/runtime';

/** Environment of the Kubernetes tool server (validated at start). */
export const EnvSchema = z.object({
  INQUEST_K8S_TOOLSERVER_PORT: envPort(7071),
  INQUEST_K8S_TOOLSERVER_HOST: z.string().default('127.0.0.1'),
  /** when set, every request must carry `Authorization: Bearer <token>` */
  INQUEST_K8S_TOOLSERVER_TOKEN: z.string().min(16, 'use at least 16 characters').optional(),
  /** kubeconfig file; unset in a pod = the pod's service account; else KUBECONFIG / ~/.kube/config */
  INQUEST_KUBECONFIG: z.string().optional(),
  KUBECONFIG: z.string().optional(),
  /** kubeconfig context (default: the file's current-context) */
  INQUEST_KUBE_CONTEXT: z.string().optional(),
  /** comma-separated namespaces the tools may read; empty = every namespace */
  INQUEST_KUBE_NAMESPACES: z.string().default(''),
  /** list Secrets' names and keys (never values); off by default */
  INQUEST_KUBE_SECRETS: envBool(false),
  /** show ConfigMap values (keys are always shown) */
  INQUEST_KUBE_CONFIGMAP_VALUES: envBool(false),
  /** deadline of each Kubernetes API call */
  INQUEST_KUBE_TIMEOUT_MS: envPositiveInt(10_000),
  /** how long the API server's discovery (where custom resource kinds are found) is cached */
  INQUEST_KUBE_DISCOVERY_TTL_SECONDS: envPositiveInt(300),
  /** set by Kubernetes in a pod: in-cluster service account */
  KUBERNETES_SERVICE_HOST: z.string().optional(),
  INQUEST_LOG_LEVEL: envLogLevel,
});

export type Env = z.infer<typeof EnvSchema>;
