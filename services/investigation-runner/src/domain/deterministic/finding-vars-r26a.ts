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
    .filter((m): m is RegExpExecArray => !!m && file.startsWith(`${m[1]!.replace(/\/$/, '')}/`))
    .sort((a, b) => b[1]!.length - a[1]!.length);
  const volume = mounts[0]?.[2];
  return volume
    ? {
        key_volume: ` (volume ${volume}, mounted at ${mounts[0]![1]})`,
        key_volume_fix: ` ${volume}`,
      }
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
    ...configMapNamesOf(pod).flatMap((m) =>
      Object.values(jsonField(x.model.get('configmap', m, ns), 'data')),
    ),
  ].map(String);
  const hosts = new Set(
    values
      .map(
        (v) =>
          /^(?:[a-z]+:\/\/)?(?:[^@/\s]*@)?([a-z0-9][a-z0-9-]*)(?:\.[a-z0-9.-]+)?(?::\d+)?(?:\/\S*)?$/.exec(
            v.trim(),
          )?.[1],
      )
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

/** MySQL's version id (80040) as a version (8.0.40) */
function mysqlVersion(id: string | undefined): string {
  const n = Number(id);
  if (!id || !Number.isFinite(n) || n < 10000) return id ?? '';
  return `${Math.floor(n / 10000)}.${Math.floor(n / 100) % 100}.${n % 100}`;
}

/**
 * The image a MySQL that refuses a newer data directory runs: a tag without a patch version
 * (mysql:8.0, :8, :latest, none) and no digest resolves to whatever build the node has cached.
 */
function mysqlDowngrade(x: FindingContext): Vars {
  const run = mysqlVersion(x.f.groups['mysql_run']);
  const built = mysqlVersion(x.f.groups['mysql_built']);
  const pod = podOf(x);
  const c =
    pod?.containers.find(
      (k) => !k.init && /mysql|mariadb|percona/i.test(k.specImage ?? k.image ?? ''),
    ) ?? x.container;
  const image = c?.specImage ?? c?.image ?? '';
  const base: Vars = {
    mysql_run_v: run,
    mysql_built_v: built,
    mysql_image: '',
    mysql_image_fix: '',
  };
  if (!image) return base;
  const at = image.lastIndexOf('/');
  const tagAt = image.indexOf(':', at + 1);
  const repo = tagAt > 0 ? image.slice(0, tagAt) : image.replace(/@.*$/, '');
  const tag = tagAt > 0 ? image.slice(tagAt + 1) : '';
  const moving = !image.includes('@') && !/^\d+\.\d+\.\d+/.test(tag);
  base['mysql_image_fix'] = ` (${repo}:${built})`;
  if (!moving) {
    base['mysql_image'] = `. Its image is ${image}`;
    return base;
  }
  const cached = x.model.events.find(
    (e) =>
      e.object?.name === pod?.name &&
      /already present on machine/i.test(e.message) &&
      e.message.includes(image),
  );
  base['mysql_image'] = `. Its image ${image} is a moving tag (no patch version, no digest): ${
    cached
      ? `on node ${pod?.node ?? 'where it runs'} the kubelet reused the image it had cached ("${cached.message}"), an older build of that tag (${run}), while a node that pulled the tag later ran ${built} on the same volume and upgraded it`
      : `the node where it runs resolves it to the ${run} build it has (an imagePullPolicy of IfNotPresent reuses a cached image), while ${built} ran on the same volume before and upgraded it`
  }`;
  return base;
}

/** the pod an Erlang node name (rabbit@<pod>.<service>...) belongs to, and whether only it changed */
function erlangPeer(x: FindingContext): Vars {
  const node = x.f.groups['erl_node'] || x.f.groups['erl_node2'] || '';
  const host = /@([a-z0-9-]+)/i.exec(node)?.[1];
  const ns = podOf(x)?.namespace ?? x.f.object?.namespace;
  // a node that logs the mismatch of its own cookie file is the refused one
  const peer = host ? x.model.get('pod', host, ns) : node ? undefined : podOf(x);
  if (!peer)
    return {
      erl_peer: node ? `node ${node}` : 'the refused node',
      erl_cookie: '',
      erl_cookie_fix: '',
    };
  const siblings = x.model
    .podsOf(x.model.workloadOf(peer).kind, x.model.workloadOf(peer).name, ns)
    .filter((p) => p.name !== peer.name);
  const older = siblings.filter((p) => p.created && peer.created && p.created < peer.created);
  return {
    erl_peer: `pod ${peer.name}${node ? ` (node ${node})` : ''}`,
    erl_cookie:
      older.length && older.length === siblings.length
        ? ` (${peer.name} is the only pod recreated since the others started: a chart that generates the cookie when no value is set writes a new one on every upgrade, and only pods started after it get it)`
        : '',
    erl_cookie_fix: older.length ? ` (${older.map((p) => p.name).join(', ')})` : '',
  };
}

export const R26A_VARS: Record<string, (x: FindingContext) => Vars> = {
  libpq_key_file_permissions: keyVolume,
  mysql_client_auth_plugin_unsupported: mysqlAuthPlugin,
  mysql_datadir_downgrade: mysqlDowngrade,
  erlang_cookie_mismatch: erlangPeer,
};
