/**
 * The template variables of the round30 (r30a) rules (cause-catalog.data.ts, its "round30 (r30a)"
 * block): what a broker or store was configured with when it refused (JetStream's max_file_store,
 * a Loki compactor's retention).
 */
import type { FindingContext } from './finding-vars';
import { configMapNamesOf, jsonField } from './model';

type Vars = Record<string, string>;

/** "max_file_store: 10Gi" in a NATS server configuration */
const MAX_FILE_STORE = /^\s*max_file_store\s*[:=]\s*["']?([\w.]+)/m;
/** the JetStream banner of a NATS server's log: "Max Storage:     10.00 GB" */
const MAX_STORAGE_LOGGED = /\bMax Storage:\s+([\d.]+ ?[KMGT]?i?B)\b/;

/** what each NATS server may store for JetStream (its configuration, else its start banner) */
function jetstreamStore(x: FindingContext): Vars {
  const conf = x.model
    .list('configmap')
    .map((c) => ({ c, m: MAX_FILE_STORE.exec(c.fields['data'] ?? '') }))
    .find((v) => v.m);
  const logged = x.model.logs
    .flatMap((l) => l.lines.map((line) => ({ l, m: MAX_STORAGE_LOGGED.exec(line.text) })))
    .find((v) => v.m);
  const parts: string[] = [];
  if (conf?.m)
    parts.push(
      `max_file_store: ${conf.m[1]} in ConfigMap ${conf.c.name}${conf.c.namespace ? ` (namespace ${conf.c.namespace})` : ''}`,
    );
  if (logged?.m)
    parts.push(`"Max Storage: ${logged.m[1]}" in the log of ${logged.l.pod ?? 'a server'}`);
  return { js_store: parts.length ? ` (${parts.join('; ')})` : '', js_reserved: '' };
}

/** Kafka's refusal of a replication factor above the brokers registered */
const REPLICATION_ABOVE_BROKERS =
  /replication factor of (\d+) cannot be reached because only (\d+) broker\(?s?\)? (?:are|is) registered/i;

/** where the KafkaTopic is, and what its refusal asks to change */
function kafkaTopic(x: FindingContext): Vars {
  const name = x.f.groups['kafka_topic'] ?? '';
  const ns = x.f.groups['topic_ns'];
  const m = REPLICATION_ABOVE_BROKERS.exec(x.f.fact);
  return {
    topic_where: ns ? ` (namespace ${ns})` : '',
    topic_spec: m
      ? `. It asks for replicas: ${m[1]} (replication factor ${m[1]}) while the Kafka cluster has only ${m[2]} broker(s) registered: a partition cannot have more replicas than there are brokers`
      : '',
    topic_fix: m
      ? `Set spec.replicas of KafkaTopic ${name} to at most ${m[2]} (and its min.insync.replicas no higher than that) for this cluster, or add brokers until there are ${m[1]}`
      : `Fix what the topic operator reports for KafkaTopic ${name} (kubectl get kafkatopic ${name}${ns ? ` -n ${ns}` : ''} -o yaml)`,
  };
}

/** what fills the store: a Loki configuration (a ConfigMap the pod mounts) that keeps every chunk */
function objectStoreFull(x: FindingContext): Vars {
  const maps = x.pods
    .flatMap((p) => configMapNamesOf(p).map((n) => x.model.get('configmap', n, p.namespace)))
    .filter((c): c is NonNullable<typeof c> => !!c?.fields['lokiRetention']);
  const none = {
    store_held: '',
    store_retention: '',
    store_fix: `Free space in the object store ${x.vars['subject'] ?? ''} writes to (delete old objects, or expand its volume), and set a retention or lifecycle policy on what is written there so it does not fill again.`,
  };
  const loki = maps[0];
  if (!loki) return none;
  const r = jsonField(loki, 'lokiRetention');
  const enabled = r['retention_enabled'];
  const period = r['retention_period'];
  const where = `the Loki configuration (ConfigMap ${loki.name}${loki.namespace ? `, namespace ${loki.namespace}` : ''})`;
  const held =
    '. The chunks the ingesters cannot flush stay in their memory, so their memory grows toward the limit (and an OOMKill replays the WAL): more memory only delays the next one';
  if (enabled === 'true')
    return {
      ...none,
      store_held: held,
      store_retention: `. ${where} has compactor retention_enabled: true${period ? ` with retention_period ${period}` : ''}: the store is too small for that much data`,
    };
  return {
    store_held: held,
    store_retention: `. Nothing deletes old chunks from it: ${where} has ${enabled === 'unset' ? "no compactor retention_enabled (Loki's default: false)" : `compactor retention_enabled: ${enabled}`}, so retention is disabled${period ? ` and limits_config retention_period ${period} is never enforced` : ''}; every chunk written is kept until the store is full`,
    store_fix: `Free space in the object store (expand its volume, or delete the oldest chunks), and set compactor retention_enabled: true in ${where} (with a delete_request_store)${period ? ` so retention_period ${period} is enforced` : ''}; raising the ingesters' memory does not help while flushes fail.`,
  };
}

/** what retains WAL for the standbys: a CloudNativePG Cluster's replication slots and wal_keep_size */
function standbyWal(x: FindingContext): Vars {
  const pod = x.pod ?? x.pods[0];
  const name = pod?.labels['cnpg.io/cluster'];
  const cluster = name
    ? x.model
        .list('cluster', pod?.namespace)
        .find((o) => o.name === name && o.fields['replicationSlotsHA'] !== undefined)
    : undefined;
  const keep = cluster?.fields['walKeepSize'];
  const standby =
    pod && pod.name !== x.vars['subject']
      ? `${pod.name} (of ${x.vars['subject'] ?? ''})`
      : (x.vars['subject'] ?? '');
  if (!cluster)
    return {
      pg_standby: standby,
      pg_slots: '',
      pg_slots_fix:
        ', and keep WAL for the standbys: replication slots for them (CloudNativePG: spec.replicationSlots.highAvailability.enabled: true) or a WAL archive they can restore from',
    };
  const ha = cluster.fields['replicationSlotsHA'];
  return {
    pg_standby: standby,
    pg_slots:
      ha === 'true'
        ? ` (Cluster ${cluster.name} has spec.replicationSlots.highAvailability.enabled: true${keep ? `, wal_keep_size ${keep}` : ''})`
        : `: Cluster ${cluster.name} has spec.replicationSlots.highAvailability.enabled: ${ha || 'false'} (replication slots disabled)${keep ? ` and wal_keep_size ${keep}` : ''}${cluster.fields['walArchive'] ? '' : ', and no WAL archive (spec.backup)'}`,
    pg_slots_fix:
      ha === 'true'
        ? ''
        : `, and set spec.replicationSlots.highAvailability.enabled: true on Cluster ${cluster.name} (or configure a WAL archive in spec.backup) so the primary keeps the WAL a standby still needs`,
  };
}

export const R30A_VARS: Record<string, (x: FindingContext) => Vars> = {
  jetstream_insufficient_storage: jetstreamStore,
  kafka_topic_not_created: kafkaTopic,
  object_store_full: objectStoreFull,
  pg_standby_wal_removed: standbyWal,
};
