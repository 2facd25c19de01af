/**
 * The template variables of the rules whose product line names the failure while the cause is a
 * fact beside it (cause-catalog.data.ts, its "round20 (r20logs)" block): the versions pg_dump's
 * detail line states, the volume initdb found lost+found on, the Redis eviction policy BullMQ
 * warned about, the Service whose name injects an environment variable through service links,
 * and the ZooKeeper that came back empty.
 */
import type { FindingContext } from './finding-vars';
import { matchesLabels } from '@inquest/kube';
import { selectorOf } from './dependencies';
import { jsonField, servicePorts, type ClusterModel } from './model';
import type { ObjectView } from './observe/views';
import { clip } from './text';
import { linesOf } from './finding-vars-configuration';
import { iso } from './questions-activity';

type Vars = Record<string, string>;

/** the pod a finding is about: its object when a pod, else the first pod of its workload */
export function podOf({ f, model, pod }: FindingContext): ObjectView | undefined {
  return f.object?.kind === 'pod'
    ? (model.get('pod', f.object.name, f.object.namespace) ?? pod)
    : pod;
}

/**
 * The other pods of the finding's workload created before `svc`: they started without the
 * variables its service links inject.
 */
export function podsBefore(
  x: FindingContext,
  pod: ObjectView | undefined,
  svc: ObjectView,
): string[] {
  if (!pod) return [];
  const ns = pod.namespace ?? x.f.object?.namespace;
  return x.model
    .podsOf(x.model.workloadOf(pod).kind ?? 'deployment', x.f.workload, ns)
    .filter((p) => p.name !== pod.name && svc.created && p.created && p.created < svc.created)
    .map((p) => p.name);
}

/** the lines of the finding's pod, else of every pod of its workload */
function findingLines(x: FindingContext): string[] {
  const own = linesOf(x.model, podOf(x)?.name ?? x.f.object?.name, x.f.object?.namespace);
  return own.length ? own : [...x.names].flatMap((n) => linesOf(x.model, n));
}

/** what a pod's volume is ("persistentVolumeClaim x", "emptyDir", "configMap y"), by volume name */
const volumeSources = (pod: ObjectView | undefined): Record<string, string> =>
  jsonField(pod, 'volumeSources');

/** the volume mounted at a path of a pod ("/var/lib/postgresql/data from data") */
function volumeAt(pod: ObjectView | undefined, path: string): string | undefined {
  const norm = (p: string) => p.replace(/\/+$/, '');
  return (pod?.fields['mountPaths'] ?? '')
    .split(', ')
    .map((m) => / from (\S+)$/.exec(m) && ([m.split(' from ')[0]!, m.split(' from ')[1]!] as const))
    .find((m) => m && norm(m[0]) === norm(path))?.[1];
}

/** pg_dump's detail line: "server version: 17.2 (...); pg_dump version: 16.4" */
function pgDumpVersions(x: FindingContext): Vars {
  const detail = findingLines(x)
    .map((t) => /server version: ([^;]+?); pg_dump(?:all)? version: (\S+)/.exec(t))
    .find(Boolean);
  const image = podOf(x)?.containers.find((c) => !c.init)?.image ?? x.container?.image;
  const major = detail ? /^(\d+)/.exec(detail[1]!)?.[1] : undefined;
  return {
    pg_versions: detail
      ? ` (server version: ${detail[1]!.trim()}; pg_dump version: ${detail[2]!}): the server is PostgreSQL ${detail[1]!.trim().split(' ')[0]!}, its pg_dump is ${detail[2]!}`
      : '',
    pg_image: image ? ` (${image})` : '',
    pg_fix: major ? ` (pg_dump ${major} or newer)` : '',
  };
}

/**
 * initdb's detail line (a lost+found directory: the data directory is the root of a volume) and
 * the volume mounted there.
 */
function initdbVolume(x: FindingContext): Vars {
  const dir = x.f.groups['datadir'] ?? '';
  const lines = findingLines(x);
  const lostFound = lines.find((t) => /contains a lost\+found directory/i.test(t));
  const pod = podOf(x);
  const volume = dir ? volumeAt(pod, dir) : undefined;
  const source = volume ? volumeSources(pod)[volume] : undefined;
  const what = volume
    ? ` (volume ${volume}${source ? `, ${source.replace(/^persistentVolumeClaim /, 'PersistentVolumeClaim ')}` : ''})`
    : '';
  if (lostFound)
    return {
      initdb_detail: `; "${clip(lostFound.replace(/^.*?initdb: (?:detail: )?/, ''), 160)}"`,
      initdb_volume: `. ${dir} is the root of a mounted volume${what}: a new filesystem has a lost+found directory at its root, and initdb only initialises an empty directory, so the database never starts and its clients are refused`,
      initdb_fix: `Point PGDATA of ${x.vars['subject']} at a subdirectory of the mount (PGDATA=${dir.replace(/\/+$/, '')}/pgdata), or mount the volume with a subPath, so initdb gets an empty directory; nothing needs to be deleted.`,
    };
  return {
    initdb_detail: '',
    initdb_volume: `. The data directory${what} holds files but no database, and initdb only initialises an empty directory`,
    initdb_fix: `Give ${x.vars['subject']} an empty data directory: point PGDATA at a new subdirectory of the mount (${dir.replace(/\/+$/, '')}/pgdata), or remove what is left in ${dir} once you know it is not a database you need.`,
  };
}

/** the MongoDB host a client logged it connected to, and the topology its driver reported */
function mongoTopology(x: FindingContext): Vars {
  const lines = findingLines(x);
  const host = lines
    .filter((t) => /mongo/i.test(t))
    .map((t) => /"host"\s*:\s*"([\w.-]+(?::\d+)?)"|\bhost[=:]\s*([\w.-]+:\d+)/.exec(t))
    .find(Boolean);
  const name = host ? (host[1] ?? host[2]) : undefined;
  const topology = lines
    .map((t) => /"?topologyType"?\s*[:=]\s*"?(\w+)/i.exec(t)?.[1])
    .find(Boolean);
  return {
    mongo_server: name ? ` (${name})` : '',
    mongo_topology: topology
      ? `; its driver reports topologyType ${topology}${/^Single$/i.test(topology) ? ' (one standalone server)' : ''}`
      : '',
  };
}

/** BullMQ's own warning at start: "IMPORTANT! Eviction policy is allkeys-lru. It should be "noeviction"" */
const BULLMQ_EVICTION = /IMPORTANT! Eviction policy is ([\w-]+)\. It should be "noeviction"/;

/** a ConfigMap that holds a redis.conf with a maxmemory-policy (the Redis's namespace first) */
function redisConfig(
  model: ClusterModel,
  namespaces: string[],
): { name: string; policy: string; max?: string } | undefined {
  const maps = model
    .list('configmap')
    .filter((m) => /maxmemory-policy/.test(m.fields['data'] ?? ''))
    .sort(
      (a, b) =>
        Number(namespaces.includes(b.namespace ?? '')) -
        Number(namespaces.includes(a.namespace ?? '')),
    );
  for (const m of maps) {
    const values = Object.values(jsonField(m, 'data'));
    const text = values.length ? values.join('\n') : m.fields['data']!;
    const policy = /^\s*maxmemory-policy\s+(\S+)/m.exec(text)?.[1];
    if (!policy) continue;
    return { name: m.name, policy, max: /^\s*maxmemory\s+(\S+)/m.exec(text)?.[1] };
  }
  return undefined;
}

/** the Redis a BullMQ worker uses, its eviction policy (BullMQ's warning, its redis.conf) */
function bullmqEviction(x: FindingContext): Vars {
  const lines = [...x.names].flatMap((n) => linesOf(x.model, n));
  const all = lines.length ? lines : findingLines(x);
  const warned = all.map((t) => BULLMQ_EVICTION.exec(t)).find(Boolean);
  const redisHost = all
    .map((t) => /redis(?:s)?:\/\/(?:[^@\s/]*@)?([\w.-]+)|"redis"\s*:\s*"([\w.-]+)/i.exec(t))
    .map((m) => m?.[1] ?? m?.[2])
    .find(Boolean);
  const redisNs = redisHost ? /^[\w-]+\.([\w-]+)\.svc\b/.exec(redisHost)?.[1] : undefined;
  const conf = redisConfig(
    x.model,
    [redisNs, x.f.object?.namespace].filter((n): n is string => !!n),
  );
  const policy = warned?.[1] ?? conf?.policy;
  const redis = redisHost ? ` ${redisHost.replace(/\.svc(?:\.cluster\.local)?$/, '')}` : '';
  const said = [
    warned ? `BullMQ warned at start: "${warned[0]}"` : '',
    conf
      ? `its redis.conf (ConfigMap ${conf.name}) sets maxmemory-policy ${conf.policy}${conf.max ? ` with maxmemory ${conf.max}` : ''}`
      : '',
  ]
    .filter(Boolean)
    .join('; ');
  if (policy && !/^noeviction$/i.test(policy))
    return {
      bullmq_policy: `: the Redis${redis} evicts keys when it reaches its maxmemory (maxmemory-policy ${policy}${said ? `; ${said}` : ''}), and a queue's job hashes and locks are keys like any other: once memory fills (another user of that Redis, a cache, grows), Redis evicts them and those jobs are lost`,
      bullmq_fix: `Set maxmemory-policy noeviction on the Redis ${x.vars['subject']} uses${conf ? ` (ConfigMap ${conf.name})` : ''}, as BullMQ requires, and give the queue a Redis of its own when that Redis is also a cache (or a maxmemory the queue never reaches); the jobs whose keys were evicted must be enqueued again.`,
    };
  return {
    bullmq_policy: `: something removes BullMQ's keys: a Redis eviction policy other than noeviction (BullMQ warns "IMPORTANT! Eviction policy is ..." at start), keys expiring, or a FLUSHDB`,
    bullmq_fix: `Check the Redis ${x.vars['subject']} uses: \`CONFIG GET maxmemory-policy\` must be noeviction and \`INFO stats\` evicted_keys 0; give the queue a Redis of its own if another user fills it.`,
  };
}

/**
 * The variable cp-kafka's configure script refuses ("port is deprecated" = KAFKA_PORT): set in the
 * pod spec, or injected by the kubelet for a Service of that name (service links).
 */
function kafkaEnvSource(x: FindingContext): Vars {
  const prop = x.f.groups['prop'] ?? 'port';
  const name = `KAFKA_${prop.toUpperCase().replace(/\./g, '_')}`;
  const pod = podOf(x);
  const c = pod?.containers.find((k) => !k.init) ?? x.container;
  const set = c?.env[name];
  if (set !== undefined)
    return {
      kafka_env_source: `: its environment sets ${name}=${set}, which the image reads as the old "${prop}" setting and refuses`,
      kafka_env_fix: `Remove ${name} from the environment of ${x.vars['subject']} (KAFKA_ADVERTISED_LISTENERS and KAFKA_LISTENERS replace it).`,
    };
  // service links: <SERVICE>_PORT=tcp://<clusterIP>:<port>, <SERVICE>_SERVICE_HOST, ...
  const link = /^(.+)_PORT$/.exec(name);
  const ns = pod?.namespace ?? x.f.object?.namespace;
  const svcName = link ? link[1]!.toLowerCase().replace(/_/g, '-') : undefined;
  const svc = svcName ? x.model.get('service', svcName, ns) : undefined;
  if (svc && pod?.fields['enableServiceLinks'] !== 'false') {
    const ip = svc.fields['clusterIP'];
    const port = servicePorts(svc)[0]?.port;
    const value = ip && ip !== 'None' ? `tcp://${ip}${port ? `:${port}` : ''}` : undefined;
    const older = podsBefore(x, pod, svc);
    return {
      kafka_env_source: `. ${name} is not in its pod spec: the kubelet injects it, because a Service named "${svcName}" exists in namespace ${ns}${svc.created ? ` (created ${iso(svc.created)})` : ''}: every pod created after a Service gets <NAME>_PORT=tcp://<ClusterIP>:<port> and related variables for it (service links; enableServiceLinks is true by default), so ${name}${value ? `=${value}` : ''} is set and the image reads it as the old "${prop}" setting${older.length ? `. ${older.join(', ')} started before that Service and do not have it` : ''}`,
      kafka_env_fix: `Set enableServiceLinks: false in the pod template of ${x.vars['subject']} (or rename the Service "${svcName}"), so its pods start without ${name}; the listeners settings are not the problem.`,
    };
  }
  return {
    kafka_env_source: `: ${name} is set in its environment (the image reads it as the old "${prop}" setting); a Service named "${svcName ?? 'kafka'}" in its namespace would inject it through service links`,
    kafka_env_fix: `Find where ${name} comes from in ${x.vars['subject']}'s environment (its pod spec, an envFrom, or a Service named "${svcName ?? 'kafka'}" through service links: set enableServiceLinks: false) and remove it.`,
  };
}

/** a ZooKeeper connect string a broker uses: its environment, else its log */
function zookeeperConnect(x: FindingContext): string | undefined {
  const pod = podOf(x);
  const c = pod?.containers.find((k) => !k.init) ?? x.container;
  const env = Object.entries(c?.env ?? {}).find(([k]) => /ZOOKEEPER_CONNECT$/i.test(k))?.[1];
  if (env) return env;
  return findingLines(x)
    .map((t) => /Connecting to zookeeper on (\S+)/.exec(t)?.[1])
    .find(Boolean);
}

/** the pods behind a ZooKeeper host ("zk", "zk-0.zk-headless.ns.svc", "events-zookeeper:2181") */
function zookeeperPods(model: ClusterModel, connect: string, ns?: string): ObjectView[] {
  const first = connect.split(',')[0]!.replace(/\/.*$/, '').replace(/:\d+$/, '');
  const [label, second] = first.split('.');
  const inNs = second && model.get('namespace', second) ? second : ns;
  const direct = model.get('pod', label!, inNs);
  if (direct) return [direct];
  const pods = model.list('pod', inNs).filter((p) => p.namespace === inNs || !inNs);
  const svc = model.get('service', label!, inNs);
  const reqs = svc ? selectorOf(svc.fields['selector'] ?? '') : undefined;
  if (reqs?.length)
    return pods.filter((p) => Object.keys(p.labels).length && matchesLabels(p.labels, reqs));
  return pods.filter(
    (p) => p.name.startsWith(`${label}-`) && /^\d+$/.test(p.name.slice(label!.length + 1)),
  );
}

/**
 * A broker whose stored cluster ID is not ZooKeeper's: the ZooKeeper it connects to, and whether
 * it keeps its data on an emptyDir (a restart, a new node, and it starts empty).
 */
function kafkaZookeeperLost(x: FindingContext): Vars {
  const connect = zookeeperConnect(x);
  const ns = podOf(x)?.namespace ?? x.f.object?.namespace;
  const zk = connect ? zookeeperPods(x.model, connect, ns) : [];
  const generic: Vars = {
    kafka_zk_lost: `: ZooKeeper${connect ? ` (${connect})` : ''} lost the data the brokers registered (a ZooKeeper without persistent storage that restarted empty hands out a new cluster ID), or the brokers now point at another ensemble or chroot`,
    kafka_zk_fix: `Check the ZooKeeper ${x.vars['subject']} connects to${connect ? ` (${connect})` : ''}: if it lost its data, give it persistent storage and restore it (or reset meta.properties on the brokers' volumes to the new cluster ID); if zookeeper.connect changed, point it back at the ensemble and chroot the brokers joined.`,
  };
  for (const p of zk) {
    const sources = volumeSources(p);
    const empty = Object.entries(sources).filter(([, s]) => /^emptyDir$/.test(s));
    if (!empty.length || Object.values(sources).some((s) => /^persistentVolumeClaim\b/.test(s)))
      continue;
    const mounts = (p.fields['mountPaths'] ?? '').split(', ');
    const at = empty
      .map(([v]) => mounts.find((m) => m.endsWith(` from ${v}`)))
      .find((m) => m && !/^\/(?:tmp|var\/run|run)\b/.test(m));
    if (!at) continue;
    const owner = x.model.workloadOf(p);
    const started = linesOf(x.model, p.name, p.namespace).find((t) =>
      /from scratch|Snapshotting: 0x0 |No snapshot found|zxid 0x0\b/i.test(t),
    );
    const name = owner.name && owner.name !== p.name ? `${owner.name} (pod ${p.name})` : p.name;
    return {
      kafka_zk_lost: `: ZooKeeper ${name} keeps its data on an emptyDir (${at.replace(' from ', ' from volume ')}), not on a persistent volume, so it starts empty whenever its pod is recreated${p.created ? `; its pod was created at ${iso(p.created)}${p.node ? ` on ${p.node}` : ''}` : ''}${started ? ` and logged "${clip(started.replace(/^\S+\s+/, ''), 120)}"` : ''}. The empty ZooKeeper handed out a new cluster ID, and every broker that kept the old one on its volume refuses to join`,
      kafka_zk_fix: `Give ZooKeeper ${owner.name || p.name} persistent storage (a volumeClaimTemplate; the chart's persistence.enabled) so a restart keeps its data. Its old data is gone: restore it from a backup, or align the brokers with the new cluster (set cluster.id in meta.properties on each broker's volume to ${x.f.groups['new_id'] ?? 'the new ID'}, or remove that file) and recreate the topic configuration.`,
    };
  }
  return generic;
}

export const R20LOGS_VARS: Record<string, (x: FindingContext) => Vars> = {
  pg_dump_server_version_mismatch: pgDumpVersions,
  initdb_directory_not_empty: initdbVolume,
  mongodb_transactions_on_standalone: mongoTopology,
  bullmq_job_key_missing: bullmqEviction,
  kafka_port_env_deprecated: kafkaEnvSource,
  kafka_inconsistent_cluster_id: kafkaZookeeperLost,
};
