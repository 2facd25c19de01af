import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { invalidField } from '@inquest/errors';

export interface KubeConfigSource {
  /** a kubeconfig file */
  kubeconfig?: string;
  /** a context of that file (default: its current-context) */
  context?: string;
  /** use the pod's service account (token and CA mounted by Kubernetes) */
  inCluster?: boolean;
}

/**
 * Where the tool server finds its cluster: an explicit kubeconfig file, else the pod's service
 * account when running in a pod, else ~/.kube/config. A named context must exist.
 */
export function loadKubeConfig(source: KubeConfigSource): KubeConfig {
  const kc = new KubeConfig();
  if (source.kubeconfig) {
    if (!existsSync(source.kubeconfig))
      throw invalidField('kubeconfig', `kubeconfig ${source.kubeconfig} does not exist`);
    try {
      kc.loadFromFile(source.kubeconfig);
    } catch (e) {
      throw invalidField(
        'kubeconfig',
        `cannot read kubeconfig ${source.kubeconfig}: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  } else if (source.inCluster) {
    kc.loadFromCluster();
  } else {
    const home = join(homedir(), '.kube', 'config');
    if (!existsSync(home)) {
      throw invalidField(
        'kubeconfig',
        'no kubeconfig: set INQUEST_KUBECONFIG (or KUBECONFIG), or run in a pod with a service account',
      );
    }
    kc.loadFromFile(home);
  }
  if (source.context) {
    if (!kc.getContextObject(source.context)) {
      throw invalidField(
        'context',
        `context "${source.context}" is not in the kubeconfig (contexts: ${kc
          .getContexts()
          .map((c) => c.name)
          .join(', ')})`,
      );
    }
    kc.setCurrentContext(source.context);
  }
  if (!kc.getCurrentCluster())
    throw invalidField('context', 'the kubeconfig has no current context/cluster');
  return kc;
}
