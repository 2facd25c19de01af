/**
 * The template variables of the round26 (r26a) rules (cause-catalog.data.ts, its "round26 (r26a)"
 * block): the volume a refused client key is mounted from, and the MySQL server configuration
 * that asks clients for caching_sha2_password.
 */
import type { FindingContext } from './finding-vars';
import { podOf } from './finding-vars-r20logs';
import { configMapNamesOf, jsonField } from './model';

type Vars = Record<string, string>;

/** the volume mounted over the directory of the refused key ("/etc/x from client-cert") */
function keyVolume(x: FindingContext): Vars {
  const file = x.f.groups['key_file'] ?? '';
  const pod = podOf(x);
  const mounts = (pod?.fields['mountPaths'] ?? '')
    .split(', ')
    .map((m) => /^(\S+) from (\S+)$/.exec(m))
    .filter((m): m is RegExpExecArray => !!m && file.startsWith(`${m[1].replace(/\/$/, '')}/`))
    .sort((a, b) => b[1]!.length - a[1]!.length);
  const volume = mounts[0]?.[2];
  return volume
    ? { key_volume: ` (volume ${volume}, mounted at ${mounts[0]![1]})`, key_volume_fix: ` ${volume}` }
    : { key_volume: '', key_volume_fix: '' };
}

const AUTH_SETTING =
  /^\s*(default_authentication_plugin\s*=\s*(?:caching_sha2_password|sha256_password)|authentication_policy\s*=\s*[^\n]*(?:caching_sha2_password|sha256_password)[^\n]*)\s*$/im;

/**
 * The server's configuration that makes new users caching_sha2_password: a ConfigMap (my.cnf)
 * of the database the client is pointed at (the first label of a host in its environment or
 * its ConfigMaps names the database's Service or workload, whose pods mount that ConfigMap).
 */
function mysqlAuthPlugin(x: FindingContext): Vars {
  const pod = podOf(x);
  const ns = pod?.namespace ?? x.f.object?.namespace;
  const setting = (name: string, n?: string) => {
    const data = jsonField(x.model.get('configmap', name, n), 'data');
    for (const [key, value] of Object.entries(data)) {
      const m = AUTH_SETTING.exec(String(value));
      if (m) return `${m[1]!.replace(/\s+/g, '')} in key ${key} of ConfigMap ${name}`;
    }
    return undefined;
  };
  if (!pod) return { mysql_auth_plugin: '', mysql_auth_fix: '' };
  const values = [
    ...pod.containers.flatMap((c) => Object.values(c.env)),
    ...configMapNamesOf(pod).flatMap((m) => Object.values(jsonField(x.model.get('configmap', m, ns), 'data'))),
  ].map(String);
  const hosts = new Set(
    values
      .map((v) => /^(?:[a-z]+:\/\/)?(?:[^@/\s]*@)?([a-z0-9][a-z0-9-]*)(?:\.[a-z0-9.-]+)?(?::\d+)?(?:\/\S*)?$/.exec(v.trim())?.[1])
      .filter((h): h is string => !!h),
  );
  for (const host of hosts) {
    const direct = setting(host, ns);
    const mounted = x.model
      .list('pod', ns)
      .filter((p) => x.model.workloadOf(p).name === host)
      .flatMap((p) => configMapNamesOf(p))
      .map((m) => setting(m, ns))
      .find(Boolean);
    const found = direct ?? mounted;
    if (found)
      return {
        mysql_auth_plugin: `: the database it is pointed at (${host}) sets ${found}, so its users authenticate with that plugin`,
        mysql_auth_fix: ` (or set default_authentication_plugin=mysql_native_password in ${host}'s configuration for users created after the change)`,
      };
  }
  return { mysql_auth_plugin: '', mysql_auth_fix: '' };
}

export const R26A_VARS: Record<string, (x: FindingContext) => Vars> = {
  libpq_key_file_permissions: keyVolume,
  mysql_client_auth_plugin_unsupported: mysqlAuthPlugin,
};
