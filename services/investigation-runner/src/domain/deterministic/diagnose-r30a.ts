/**
 * Round30 (r30a) rules that compare objects (cause-catalog.data.ts, its "round30 (r30a)" block).
 *
 * An app that cannot find the broker object it uses (a NATS JetStream stream) while the broker
 * refused to create that object: the app's "stream not found" is explained by the refusal the
 * stream controller recorded (an event, the Stream's Ready condition, the controller's log).
 */
import type { CauseEntry } from './cause-catalog.data';
import type { Finding } from './diagnose';
import type { ClusterModel } from './model';

/** an S3 write MinIO refuses for lack of space (the client's line) */
export const OBJECT_STORE_FULL = /XMinioStorageFull: [^\n]*?minimum free drive threshold/;

/** a PostgreSQL standby asks for WAL the primary has removed */
export const PG_WAL_REMOVED = /requested WAL segment [0-9A-F]{24} has already been removed/;

/** NATS answers a consumer bind / lookup of a stream that does not exist */
export const STREAM_NOT_FOUND = /\bstream not found\b/i;
/** the stream the app's line names: JSON "stream":"X", or stream "X" / stream X */
const STREAM_NAMED = /"stream"\s*:\s*"([\w.-]+)"|\bstream[= ]\\?"?([A-Za-z0-9_.-]+)/;
/** JetStream's refusal to create a stream for lack of storage (NATS err_code 10047) */
export const JETSTREAM_NO_STORAGE =
  /failed to create stream \\?"([^"\\]+)\\?"[^\n]*?(?:err_code=10047|insufficient storage resources)[^\n"]*/i;

export function r30aFindings(model: ClusterModel, entries: CauseEntry[]): Finding[] {
  const entry = entries.find((e) => e.id === 'jetstream_insufficient_storage');
  const topic = entries.find((e) => e.id === 'kafka_topic_not_created');
  return [
    ...(entry ? jetstreamStreamsRefused(model, entry) : []),
    ...(topic ? kafkaTopicsNotCreated(model, topic) : []),
  ];
}

/**
 * A Kafka client that finds no topic it uses: "Topic X not present in metadata after 60000 ms"
 * (a producer), "{X=UNKNOWN_TOPIC_OR_PARTITION}" (the metadata answer)
 */
export const TOPIC_MISSING =
  /\bTopic ([\w.-]+) not present in metadata\b|\{([\w.-]+)=UNKNOWN_TOPIC_OR_PARTITION\}/;
/** the Strimzi topic operator's refusal: "KafkaTopic(ns/x): Error creating topic x: <why>" */
const TOPIC_OPERATOR_ERROR =
  /KafkaTopic\(([\w.-]+)\/([\w.-]+)\): Error creating topic [\w.-]+: ([^\n]+)/;

/** the topic a client misses: a KafkaTopic (Strimzi) of that name that is not Ready says why */
function kafkaTopicsNotCreated(model: ClusterModel, entry: CauseEntry): Finding[] {
  const topics = model.list('kafkatopic').filter((o) => o.kind === 'kafkatopic');
  const why = (name: string): { fact: string; ns?: string } | undefined => {
    const t = topics.find((o) => o.name === name || o.fields['topicName'] === name);
    const c = t?.conditions.find((x) => x.type === 'Ready' && x.status === 'False' && x.message);
    if (t && c) return { fact: c.message!, ns: t.namespace };
    for (const l of model.logs)
      for (const x of l.lines) {
        const m = TOPIC_OPERATOR_ERROR.exec(x.text);
        if (m && m[2] === name) return { fact: m[3]!.trim(), ns: m[1] };
      }
    return undefined;
  };
  return firstLinePerWorkload(model, entry, (text) => {
    const m = TOPIC_MISSING.exec(text);
    const name = m?.[1] ?? m?.[2];
    const found = name ? why(name) : undefined;
    if (!name || !found) return undefined;
    return {
      fact: found.fact,
      groups: {
        kafka_topic: name,
        topic_ns: found.ns ?? '',
        kafka_app_line: text.trim().slice(0, 300),
      },
    };
  });
}

/** every refusal the cluster recorded, by stream name (upper-cased as JetStream names them) */
export function refusals(model: ClusterModel): Map<string, string> {
  const out = new Map<string, string>();
  const add = (text: string | undefined) => {
    const m = text ? JETSTREAM_NO_STORAGE.exec(text) : null;
    if (m && !out.has(m[1]!.toUpperCase())) out.set(m[1]!.toUpperCase(), m[0].replace(/\\"/g, '"'));
  };
  for (const e of model.events) add(e.message);
  for (const o of model.objects.values()) for (const c of o.conditions) add(c.message);
  for (const l of model.logs) for (const x of l.lines) add(x.text);
  return out;
}

function jetstreamStreamsRefused(model: ClusterModel, entry: CauseEntry): Finding[] {
  const refused = refusals(model);
  if (!refused.size) return [];
  return firstLinePerWorkload(model, entry, (text) => {
    if (!STREAM_NOT_FOUND.test(text)) return undefined;
    const m = STREAM_NAMED.exec(text);
    const named = (m?.[1] ?? m?.[2])?.toUpperCase();
    // the stream the line names, else the only one refused
    const stream =
      named && refused.has(named)
        ? named
        : !named && refused.size === 1
          ? [...refused.keys()][0]
          : undefined;
    if (!stream) return undefined;
    return {
      fact: refused.get(stream)!,
      groups: { js_stream: stream, js_app_line: text.trim().slice(0, 300) },
    };
  });
}

/**
 * One finding per workload: the first line of its pods' logs that `read` explains (its fact and
 * template groups), attached to the pod that logged it.
 */
function firstLinePerWorkload(
  model: ClusterModel,
  entry: CauseEntry,
  read: (text: string) => { fact: string; groups: Record<string, string> } | undefined,
): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const l of model.logs) {
    if (!l.pod) continue;
    const pod = model.get('pod', l.pod, l.namespace);
    const workload = pod ? model.workloadOf(pod).name : l.pod;
    const key = `${l.namespace ?? ''}/${workload}`;
    if (seen.has(key)) continue;
    for (const x of l.lines) {
      const found = read(x.text);
      if (!found) continue;
      seen.add(key);
      out.push({
        entry,
        object: { kind: 'pod', name: l.pod, namespace: l.namespace },
        workload,
        fact: found.fact,
        groups: found.groups,
        at: x.at,
        where: 'log',
        source: l.source,
      });
      break;
    }
  }
  return out;
}
