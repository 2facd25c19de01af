/**
 * The template variables of the round25 (r25a) rules (cause-catalog.data.ts, its "round25 (r25a)"
 * block): which Service's service-link variable an application read as a number.
 */
import type { FindingContext } from './finding-vars';
import { podOf, podsBefore } from './finding-vars-r20logs';
import { servicePorts } from './model';
import { iso } from './questions-activity';

type Vars = Record<string, string>;

/**
 * "tcp://<ip>:<port>" is the value of <SERVICE>_PORT the kubelet injects for each Service of the
 * pod's namespace (service links): the Service with that ClusterIP names the variable, and the
 * pods of the workload that started before that Service do not have it.
 */
function serviceLinkSource(x: FindingContext): Vars {
  const ip = x.f.groups['link_ip'] ?? '';
  const port = x.f.groups['link_port'] ?? '';
  const value = `tcp://${ip}:${port}`;
  const pod = podOf(x);
  const ns = pod?.namespace ?? x.f.object?.namespace;
  const svc = x.model
    .list('service')
    .find(
      (s) =>
        (!ns || s.namespace === ns) &&
        s.fields['clusterIP'] === ip &&
        (!servicePorts(s).length || servicePorts(s).some((sp) => String(sp.port ?? '') === port)),
    );
  const c = pod?.containers.find((k) => !k.init) ?? x.container;
  const explicit = Object.entries(c?.env ?? {}).find(([, v]) => v === value)?.[0];
  if (svc) {
    const name = `${svc.name.toUpperCase().replace(/-/g, '_')}_PORT`;
    if (explicit && explicit !== name)
      return {
        link_source: `: ${explicit}=${value} is set in its pod spec, a Service URL where the application expects a port number`,
        link_fix: `Set ${explicit} in ${x.vars['subject']}'s environment to the port number only (${port}).`,
      };
    const older = podsBefore(x, pod, svc);
    const linksOff = pod?.fields['enableServiceLinks'] === 'false';
    return {
      link_source: `. ${value} is the value of ${name}${explicit ? '' : `, which ${x.vars['subject']} does not set itself`}: the kubelet injects it because a Service named "${svc.name}" (ClusterIP ${ip}) exists in namespace ${svc.namespace}${svc.created ? ` (created ${iso(svc.created)})` : ''}; every container started after a Service gets <NAME>_PORT=tcp://<ClusterIP>:<port>, <NAME>_SERVICE_HOST and related environment variables for it (service links${linksOff ? '' : '; enableServiceLinks is true by default'}), and the application reads ${name} as a port number${older.length ? `. ${older.join(', ')} started before that Service and do not have it, so they keep working` : ''}`,
      link_fix: `Set enableServiceLinks: false in the pod template of ${x.vars['subject']} (or set ${name} explicitly to the port it expects, or rename the Service "${svc.name}"), so its pods no longer get the injected ${name}; the change the rollout made is not the cause.`,
    };
  }
  return {
    link_source: `. ${value} has the form of a service-link variable (<SERVICE>_PORT=tcp://<ClusterIP>:<port>) the kubelet injects for each Service of the namespace (enableServiceLinks is true by default), where the application expects a port number`,
    link_fix: `Find the variable that holds ${value} in ${x.vars['subject']}'s environment: if no Service named after it should inject it, set enableServiceLinks: false in the pod template (or set the variable explicitly).`,
  };
}

/**
 * Where a user name with a trailing newline comes from: the Secret key the container loads it
 * from (its env's secretKeyRef named like a user, or the Secrets it loads whole).
 */
function userNewlineSource(x: FindingContext): Vars {
  const pod = podOf(x);
  const c = pod?.containers.find((k) => !k.init) ?? x.container;
  const refs = c?.envRefs ?? [];
  const keyed = refs
    .map((r) => /^(\S+) <- secret (\S+) key (\S+)$/.exec(r))
    .find((m) => m && /user|login/i.test(`${m[1]} ${m[3]}`));
  const whole = refs.map((r) => /^envFrom secret (\S+)$/.exec(r)?.[1]).filter(Boolean);
  const subject = x.vars['subject'];
  if (keyed) {
    const [, env, secret, key] = keyed;
    const s = x.model.get('secret', secret!, pod?.namespace);
    return {
      nl_source: `. ${env} comes from key "${key}" of Secret ${secret}${s?.created ? ` (written ${iso(s.created)})` : ''}: its value ends in a newline (a value encoded with \`echo\` without -n, or created from a file with a final newline); pods started before it was written still have the old value`,
      nl_fix: `Write key "${key}" of Secret ${secret} again without the trailing newline (\`kubectl create secret generic ${secret} --from-literal=${key}=<user> ...\`, or \`echo -n <user> | base64\`), then restart ${subject}.`,
    };
  }
  return {
    nl_source: whole.length
      ? `. It comes from the environment ${subject} loads from Secret ${whole.join(', ')}: a value there ends in a newline (encoded with \`echo\` without -n, or created from a file with a final newline)`
      : ': the value it is configured with ends in a newline (encoded with `echo` without -n, or created from a file with a final newline)',
    nl_fix: `Write the user name again without the trailing newline (\`--from-literal\`, or \`echo -n <user> | base64\`) where ${subject} reads it, then restart ${subject}.`,
  };
}

export const R25A_VARS: Record<string, (x: FindingContext) => Vars> = {
  service_link_env_parsed_as_port: serviceLinkSource,
  db_user_trailing_newline: userNewlineSource,
};
