/**
 * Rules of round21 (r21data) that compare several facts (cause-catalog.data.ts, its "round21
 * (r21data)" block): a JVM OOMKilled whose logged maximum heap exceeds its container's memory
 * limit (it does not see the limit: Java 8 before 8u372 and 11 before 11.0.16 read no cgroup v2),
 * a Redis OOMKilled while its background save's forked child ran (copy-on-write on top of its
 * dataset), and a database client refused with "password authentication failed" by a database
 * that started on data kept from before its password Secret was (re)generated.
 */
import type { CauseEntry } from './cause-catalog.data';
import type { Finding } from './diagnose';
import { quantity, type ClusterModel } from './model';
import type { LogView, ObjectView } from './observe/views';
import { clip } from './text';

export function r21dataFindings(model: ClusterModel, entries: CauseEntry[]): Finding[] {
  const byId = (id: string) => entries.find((e) => e.id === id);
  const out: Finding[] = [];
  const jvm = byId('jvm_heap_over_container_limit');
  if (jvm) out.push(...jvmHeapOverLimit(model, jvm));
  const fork = byId('redis_fork_cow_oom');
  if (fork) out.push(...redisKilledDuringSave(model, fork));
  const kept = byId('db_password_kept_on_persisted_data');
  if (kept) out.push(...passwordKeptOnPersistedData(model, kept));
  return out;
}

/** the pods of a pod's workload (names are unique in the namespace) */
const siblingsOf = (model: ClusterModel, pod: ObjectView): ObjectView[] => {
  const w = model.workloadOf(pod).name;
  return model.list('pod', pod.namespace).filter((p) => model.workloadOf(p).name === w);
};

/** a container killed by the kernel at its memory limit (its last or current termination) */
const oomKilled = (p: ObjectView) =>
  p.containers.find((c) => [c.last, c.terminated].some((s) => s?.reason === 'OOMKilled'));

/**
 * A JVM's maximum heap as it states it: -XshowSettings:vm ("Max. Heap Size (Estimated): 7.22G"),
 * -XX:+PrintFlagsFinal ("MaxHeapSize = 7751073792"), an application's own start line ("JVM heap:
 * max=7.22 GB", "max heap size: 7398 MB").
 */
const JVM_MAX_HEAP =
  /\bMax\.? Heap Size(?: \(Estimated\))?:\s*(?<a>\d+(?:\.\d+)?)\s*(?<au>[KMGT]i?B?)?(?![\w.])|\bMaxHeapSize\s*:?=\s*(?<b>\d+)\b|\b(?:max(?:imum)?[ _-]?heap(?:[ _-]?size)?|heap(?: size)?:? max(?:imum)?)\s*[:=]?\s*(?<c>\d+(?:\.\d+)?)\s*(?<cu>[KMGT]i?B?|bytes)(?![\w])/i;

/** bytes of a JVM size: its units are binary (1g = 1024m) */
function jvmBytes(n: string, unit = ''): number {
  const k = { k: 1, m: 2, g: 3, t: 4 }[unit.charAt(0).toLowerCase() as 'k'] ?? 0;
  return Number(n) * 1024 ** k;
}

/** a Java version that reads cgroup v1 limits only: 8 before 8u372, 11 before 11.0.16 */
function cgroupV1OnlyJava(lines: string[]): string | undefined {
  for (const t of lines) {
    const eight = /\b1\.8\.0_(\d+)\b/.exec(t);
    if (eight && Number(eight[1]) < 372)
      return `Java ${eight[0]} reads only cgroup v1 limits (cgroup v2 support came with 8u372), so on nodes with cgroup v2 it sizes its heap from the node's memory`;
    const eleven = /\b(?:Java|JDK|JRE|openjdk(?: version)?)[ "]*(11\.0\.(\d+))/i.exec(t);
    if (eleven && Number(eleven[2]) < 16)
      return `Java ${eleven[1]} reads only cgroup v1 limits (cgroup v2 support came with 11.0.16), so on nodes with cgroup v2 it sizes its heap from the node's memory`;
  }
  return undefined;
}

/**
 * A JVM OOMKilled whose logged maximum heap exceeds its container's memory limit: it sized the
 * heap from the node's memory, not from the limit, so the heap may grow past the limit.
 */
function jvmHeapOverLimit(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const l of model.logs) {
    const pod = l.pod ? model.get('pod', l.pod, l.namespace) : undefined;
    if (!pod) continue;
    const w = model.workloadOf(pod).name;
    if (seen.has(`${pod.namespace}/${w}`)) continue;
    const line = l.lines.find((x) => JVM_MAX_HEAP.test(x.text));
    if (!line) continue;
    const g = JVM_MAX_HEAP.exec(line.text)!.groups!;
    const heap = g['a']
      ? jvmBytes(g['a'], g['au'])
      : g['b']
        ? Number(g['b'])
        : jvmBytes(g['c']!, g['cu']);
    const siblings = siblingsOf(model, pod);
    const killed = siblings.find(oomKilled);
    if (!killed) continue;
    const c =
      pod.containers.find((x) => x.name === l.container) ?? oomKilled(killed) ?? pod.containers[0];
    const limit =
      c?.limits['memory'] ??
      siblings
        .map((p) => p.containers.find((x) => x.name === c?.name)?.limits['memory'])
        .find(Boolean);
    if (!limit || !quantity(limit) || heap <= quantity(limit)) continue;
    seen.add(`${pod.namespace}/${w}`);
    const lines = model.logs.filter((x) => siblings.some((p) => p.name === x.pod));
    const java = cgroupV1OnlyJava(lines.flatMap((x) => x.lines.map((y) => y.text)));
    const stated = clip(line.text.replace(/^\S+Z\s+/, ''), 200);
    // the other pods of the workload that state the same heap (they run the same JVM)
    const same = siblings
      .filter((p) => p.name !== killed.name)
      .filter((p) =>
        lines.some((x) => x.pod === p.name && x.lines.some((y) => JVM_MAX_HEAP.test(y.text))),
      )
      .map((p) => p.name);
    out.push({
      entry,
      object: { kind: 'pod', name: killed.name, namespace: killed.namespace },
      workload: w,
      ...(same.length ? { alsoOn: same } : {}),
      fact: stated,
      groups: {
        heap_max: `${(heap / 1024 ** 3).toFixed(2)} GiB`,
        heap_limit: limit,
        jvm_version: java ? `. ${java}` : '',
      },
      at: line.at,
      where: 'log',
      source: l.source,
    });
  }
  return out;
}

/** a forked child of Redis that writes a snapshot or rewrites the append-only file */
const SAVE_STARTED =
  /Background saving started|Background append only file rewriting started|Starting BGSAVE/i;
const SAVE_ENDED =
  /Background saving terminated|DB saved on disk|Background AOF rewrite (?:terminated|finished)|Background saving error|BGSAVE done/i;
const FORK_COW = /Fork CoW for (?:RDB|AOF)[^\n]*/i;

/** Redis's memory cap in its arguments or a redis.conf it mounts */
function redisSetting(model: ClusterModel, pod: ObjectView, name: string): string | undefined {
  for (const c of pod.containers) {
    const m = new RegExp(`--${name}[ =]+("[^"]*"|.+?)(?=\\s--|$)`, 'i').exec(c.env['__args'] ?? '');
    if (m) return m[1];
  }
  for (const cm of model.list('configmap', pod.namespace)) {
    const m = new RegExp(`^\\s*${name}\\s+(.+)$`, 'im').exec(cm.fields['data'] ?? '');
    if (m) return m[1]!.trim();
  }
  return undefined;
}

/**
 * A Redis OOMKilled while a background save ran: the log of the run that was killed ends in a
 * save that never finished (the forked child's copy-on-write pages count against the same limit).
 */
function redisKilledDuringSave(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  const unfinished = (l: LogView) => {
    const texts = l.lines.map((x) => x.text);
    let start = -1;
    texts.forEach((t, i) => {
      if (SAVE_STARTED.test(t)) start = i;
    });
    if (start < 0 || texts.slice(start + 1).some((t) => SAVE_ENDED.test(t))) return undefined;
    const cow = texts
      .slice(start + 1)
      .map((t) => FORK_COW.exec(t)?.[0])
      .filter(Boolean)
      .pop();
    return { started: texts[start]!, cow, at: l.lines[start]!.at };
  };
  for (const pod of model.list('pod')) {
    const c = oomKilled(pod);
    if (!c || seen.has(`${pod.namespace}/${model.workloadOf(pod).name}`)) continue;
    const logs = model.logs.filter(
      (l) =>
        l.pod === pod.name &&
        (!l.namespace || l.namespace === pod.namespace) &&
        (!l.container || l.container === c.name),
    );
    // the killed run's log; without it, the current run's save that grows its copy-on-write
    const prev = logs.filter((l) => l.previous);
    const save = prev.length
      ? prev.map(unfinished).find(Boolean)
      : logs
          .map(unfinished)
          .filter((s) => s?.cow)
          .find(Boolean);
    if (!save) continue;
    seen.add(`${pod.namespace}/${model.workloadOf(pod).name}`);
    const max = redisSetting(model, pod, 'maxmemory');
    const saves = redisSetting(model, pod, 'save');
    const quote = (t: string) => clip(t.replace(/^\S+Z\s+/, ''), 140);
    out.push({
      entry,
      object: { kind: 'pod', name: pod.name, namespace: pod.namespace },
      workload: model.workloadOf(pod).name,
      fact: [save.started, save.cow]
        .filter(Boolean)
        .map((t) => quote(t!))
        .join(' … '),
      groups: {
        redis_maxmemory: max ? ` (maxmemory ${max})` : '',
        redis_maxmemory_fix: max ? ` (now ${max})` : '',
        redis_save: saves ? ` (save ${saves})` : '',
      },
      at: save.at,
      where: 'log',
      source: logs[0]?.source ?? pod.source,
    });
  }
  return out;
}

/** a PostgreSQL client refused for its password (SQLSTATE 28P01) */
export const PG_PASSWORD_REFUSED =
  /password authentication failed for user \\?"?([\w.@-]+)|\b28P01\b/i;
/** a database image that started on the data its volume kept (and skipped initialisation) */
const PERSISTED_DATA =
  /Deploying PostgreSQL with persisted data|PostgreSQL Database directory appears to contain a database; Skipping initialization|Using persisted data/i;
const HOUR = 3_600_000;
const day = (ms?: number) => (ms ? new Date(ms).toISOString().slice(0, 10) : '');

/**
 * A client refused with "password authentication failed" by a database that started on kept data
 * ("Deploying PostgreSQL with persisted data") whose volume claim is older than the Secret that
 * holds its password (or than its own StatefulSet): the database was reinstalled, its chart
 * generated a new password, and the kept data still has the old one (an init step that sets the
 * password runs only on an empty data directory).
 */
function passwordKeptOnPersistedData(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  const servers = model.logs.filter(
    (l) => l.pod && l.lines.some((x) => PERSISTED_DATA.test(x.text)),
  );
  for (const s of servers) {
    const db = model.get('pod', s.pod!, s.namespace);
    if (!db) continue;
    const claims = (db.fields['claims'] ?? '')
      .split(',')
      .filter(Boolean)
      .map((n) => model.get('persistentvolumeclaim', n, db.namespace))
      .filter((x): x is ObjectView => !!x?.created);
    const claim = claims.sort((a, b) => a.created! - b.created!)[0];
    if (!claim) continue;
    const dbWorkload = model.workloadOf(db);
    // the clients refused: pods of another workload of the namespace
    const client = model.logs
      .filter((l) => l.pod && l.namespace === db.namespace)
      .map((l) => ({ l, pod: model.get('pod', l.pod!, l.namespace) }))
      .filter(({ pod }) => pod && model.workloadOf(pod).name !== dbWorkload.name)
      .map(({ l, pod }) => ({
        pod: pod!,
        line: l.lines.find((x) => PG_PASSWORD_REFUSED.test(x.text)),
        l,
      }))
      .find((x) => x.line);
    if (!client) continue;
    const secretNames = [client.pod, db]
      .flatMap((p) => p.containers.flatMap((c) => c.envRefs))
      .map((r) => /<- secret (\S+)|^envFrom secret (\S+)/.exec(r))
      .map((m) => m?.[1] ?? m?.[2])
      .filter((n): n is string => !!n);
    const dated = [...new Set(secretNames)]
      .map((n) => model.get('secret', n, db.namespace))
      .filter((x): x is ObjectView => !!x?.created);
    const secret = dated.find((x) => x.created! > claim.created! + HOUR);
    const set = model.get(dbWorkload.kind, dbWorkload.name, db.namespace);
    // a password Secret whose age is known and is not newer than the data: no new password
    const newer = secret
      ? `Secret ${secret.name} (created ${day(secret.created)})`
      : !dated.length && set?.created && set.created > claim.created! + HOUR && set.kind !== 'pod'
        ? `${set.kind === 'statefulset' ? 'StatefulSet' : set.kind} ${set.name} (created ${day(set.created)})`
        : undefined;
    if (!newer) continue;
    const persisted = s.lines.find((x) => PERSISTED_DATA.test(x.text))!;
    const user = PG_PASSWORD_REFUSED.exec(client.line!.text)?.[1];
    const refused = /password authentication failed for user \\?"?([\w.@-]+)/i.exec(
      client.line!.text,
    );
    // the client's other pods refused alike, or crash-looping on it (their log not read)
    const alike = siblingsOf(model, client.pod)
      .filter((p) => p.name !== client.pod.name)
      .filter(
        (p) =>
          model.logs.some(
            (l) => l.pod === p.name && l.lines.some((x) => PG_PASSWORD_REFUSED.test(x.text)),
          ) || p.containers.some((c) => c.waiting?.reason === 'CrashLoopBackOff'),
      )
      .map((p) => p.name);
    out.push({
      entry,
      object: { kind: 'pod', name: client.pod.name, namespace: client.pod.namespace },
      workload: model.workloadOf(client.pod).name,
      ...(alike.length ? { alsoOn: alike } : {}),
      fact: refused
        ? `password authentication failed for user "${refused[1]}"${/28P01/.test(client.line!.text) ? ' (28P01)' : ''}`
        : clip(client.line!.text, 200),
      groups: {
        db_pod: db.name,
        persisted: clip(
          persisted.text
            .replace(/^\S+Z\s+/, '')
            .replace(/^.*?(?=Deploying|PostgreSQL Database|Using)/, ''),
          120,
        ),
        claim: claim.name,
        claim_created: day(claim.created),
        newer,
        db_user: user ? ` ${user}` : '',
        secret_name: secret ? ` in Secret ${secret.name}` : '',
      },
      at: client.line!.at,
      where: 'log',
      source: client.l.source,
    });
  }
  return out;
}
