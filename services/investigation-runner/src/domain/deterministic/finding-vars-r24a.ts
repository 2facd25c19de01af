/**
 * The template variables of the round24 (r24a) rules (cause-catalog.data.ts, its "round24 (r24a)"
 * block): why PostgreSQL's pg_wal filled its volume, read from the server's own log.
 */
import type { FindingContext } from './finding-vars';
import type { LogLine } from './observe/views';
import { clip } from './text';

type Vars = Record<string, string>;

/** the message of a log line: a JSON record's message (CloudNativePG wraps PostgreSQL's) or the line */
function message(text: string): string {
  if (!text.trimStart().startsWith('{')) return text;
  try {
    const j = JSON.parse(text) as {
      msg?: string;
      message?: string;
      record?: { message?: string };
      error?: string;
    };
    const m = j.record?.message ?? j.message ?? j.msg ?? text;
    return j.error && !m.includes(j.error) ? `${m}: ${j.error}` : m;
  } catch {
    return text;
  }
}

/** the leading timestamp of a PostgreSQL line ("2026-08-14 22:14:58.090 UTC") or a JSON record's */
function stamp(text: string): string {
  return (
    /(\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d)?)/.exec(
      /"log_time"\s*:\s*"([^"]+)"/.exec(text)?.[1] ?? text,
    )?.[1] ?? ''
  ).replace('T', ' ');
}

const SLOT =
  /(?:START_REPLICATION SLOT|logical decoding for slot|replication slot)\s+\\?"([^"\\]+)/;
const GONE =
  /unexpected EOF on standby connection|could not receive data from client|terminating walsender|replication (?:connection|slot)[^\n]*(?:closed|terminated)/i;
const NOTHING_REMOVED = /checkpoint complete:[^\n]*\b0 removed, 0 recycled/i;
const ARCHIVE_FAILED = /archive command failed|archiving write-ahead log file[^\n]*failed/i;

/**
 * Why pg_wal grew: in the log of the server that ran out of space, a replication slot whose
 * consumer disconnected (and checkpoints that since removed nothing), or an archive command that
 * keeps failing (with the archiver's own error).
 */
function pgWalWhy({ f, model }: FindingContext): Vars {
  const pod = f.object?.kind === 'pod' ? f.object.name : undefined;
  const own = model.logs.filter((l) => !pod || l.pod === pod);
  const lines: LogLine[] = (own.length ? own : model.logs)
    .slice()
    .sort((a, b) => Number(b.previous) - Number(a.previous))
    .flatMap((l) => l.lines);

  // a replication slot: its last START, then a disconnect and no new start
  let slot = '';
  let slotAt = -1;
  lines.forEach((l, i) => {
    const m = SLOT.exec(l.text);
    if (m?.[1]) {
      slot = m[1];
      slotAt = i;
    }
  });
  if (slot) {
    const goneAt = lines.findIndex((l, i) => i > slotAt && GONE.test(l.text));
    const idle = lines.filter(
      (l, i) => i > Math.max(slotAt, goneAt) && NOTHING_REMOVED.test(l.text),
    );
    if (goneAt >= 0 && idle.length) {
      const gone = lines[goneAt]!;
      const consumer = model.logs
        .filter((l) => l.pod !== pod && l.lines.some((x) => /replication slot/i.test(x.text)))
        .flatMap((l) =>
          l.lines
            .filter((x) =>
              /will not recover until manually restarted|unrecoverable exception/i.test(x.text),
            )
            .map((x) => ({ pod: l.pod, x })),
        )[0];
      const when = stamp(gone.text);
      return {
        pg_wal_why: `. WAL is retained by the replication slot "${slot}": its consumer disconnected${when ? ` at ${when}` : ''} ("${clip(message(gone.text).trim(), 120)}") and never came back${consumer ? ` (${consumer.pod ? `${consumer.pod}: ` : ''}"${clip(message(consumer.x.text).trim(), 200)}")` : ''}, so the inactive slot holds every WAL segment since then: ${idle.length} checkpoint(s) after it removed nothing ("${clip((/\d+ WAL file\(s\) added, 0 removed, 0 recycled/.exec(idle[idle.length - 1]!.text) ?? ['0 removed, 0 recycled'])[0], 80)}") until the volume filled`,
        pg_wal_fix: `Grow the volume so PostgreSQL starts, then restart the consumer of the replication slot "${slot}" (or drop the slot: \`SELECT pg_drop_replication_slot('${slot}')\`) so the WAL it holds is released; set max_slot_wal_keep_size so an abandoned slot can never fill the disk again, and alert on pg_replication_slots where active = false.`,
      };
    }
  }

  // WAL archiving that fails: every unarchived segment stays in pg_wal
  const failed = lines.filter((l) => ARCHIVE_FAILED.test(l.text));
  if (failed.length) {
    const why = lines
      .map((l) => message(l.text))
      .find(
        (m) =>
          /archiv|barman|wal-g|pgbackrest/i.test(m) &&
          /exception|error:|denied|InvalidAccessKeyId|SignatureDoesNotMatch|NoSuchBucket|ExpiredToken|not authorized/i.test(
            m,
          ) &&
          !ARCHIVE_FAILED.test(m),
      );
    const since = stamp(failed[0]!.text);
    return {
      pg_wal_why: `. WAL archiving fails: "${clip(message(failed[0]!.text).trim(), 120)}" (${failed.length} time(s) in its log${since ? ` since ${since}` : ''})${why ? `, the archiver says "${clip(why.trim(), 220)}"` : ''}; PostgreSQL keeps every WAL segment until it is archived, so pg_wal grew until the volume filled`,
      pg_wal_fix: `Fix what makes WAL archiving fail${why ? ` ("${clip(why.trim(), 120)}": e.g. the object-store credentials it uses)` : ''} so the archiver drains pg_wal, and grow the volume so PostgreSQL can start meanwhile; alert on failed archiving (pg_stat_archiver.failed_count).`,
    };
  }
  return {
    pg_wal_why:
      '. Find what keeps the WAL: an inactive replication slot (pg_replication_slots, active = false), a failing archive_command, or a max_wal_size / wal_keep_size larger than the volume',
    pg_wal_fix:
      'Grow the volume so PostgreSQL starts, then release what keeps the WAL (drop or restart the consumer of an inactive replication slot, fix a failing archive_command) and set max_slot_wal_keep_size.',
  };
}

/**
 * An OOMKilled container whose memory limit the VerticalPodAutoscaler set at admission (the pod's
 * vpaUpdates annotation names the VPA and the values it changed): that limit follows the VPA's
 * recommendation (scaled with the request under controlledValues RequestsAndLimits), not the
 * workload's template; a recommendation learnt over quiet days is too small for the busy ones.
 */
export function vpaLimitSource({ f, model, pods, container: c }: FindingContext): Vars | undefined {
  const pod = pods.find((p) => /memory limit/i.test(p.fields['vpaUpdates'] ?? ''));
  if (!pod || !c?.limits['memory']) return undefined;
  const note = pod.fields['vpaUpdates']!;
  const vpa = /updated by ([\w.-]+)/.exec(note)?.[1];
  const workload = model.get('deployment', f.workload, pod.namespace);
  const template = workload?.containers.find((x) => x.name === c.name)?.limits['memory'];
  return {
    limit_from: `. That limit is not the workload's: the VerticalPodAutoscaler${vpa ? ` ${vpa}` : ''} set it when the pod was created ("vpaUpdates: ${clip(note, 160)}")${template && template !== c.limits['memory'] ? `, while the template asks ${template}` : ''}; with controlledValues RequestsAndLimits the VPA scales the limit with its recommended request, so a recommendation learnt over quiet days leaves too little for the busy ones`,
    oom_also: `: give the VerticalPodAutoscaler${vpa ? ` ${vpa}` : ''} a minAllowed memory that covers the peak (or controlledValues RequestsOnly, or updateMode Off) and restart the pods`,
  };
}

/**
 * Which master-eligible nodes an Elasticsearch election misses: the voting configuration's size,
 * and the StatefulSet of the node that logged it, run at fewer replicas than that (its controller's
 * SuccessfulDelete events name the pods it removed).
 */
function esQuorum({ f, model, pod }: FindingContext): Vars {
  const voters = (f.groups['es_ids'] ?? '').split(',').filter((x) => x.trim()).length;
  const set = pod?.owner?.kind?.toLowerCase() === 'statefulset' ? pod.owner.name : undefined;
  const sts = set ? model.get('statefulset', set, pod?.namespace) : undefined;
  const replicas = Number(
    sts?.fields['replicas'] ??
      /(\d+) desired/.exec(sts?.fields['Replicas'] ?? '')?.[1] ??
      /^\d+\/(\d+)$/.exec(sts?.fields['ready'] ?? '')?.[1] ??
      NaN,
  );
  const deleted = set
    ? model.events
        .filter((e) => e.reason === 'SuccessfulDelete')
        .map(
          (e) =>
            new RegExp(`delete Pod (\\S+) in StatefulSet ${set} successful`).exec(e.message)?.[1],
        )
        .filter((x): x is string => !!x)
    : [];
  const down = set && Number.isFinite(replicas) && voters && replicas < voters;
  const scaled = down
    ? `: the StatefulSet ${set} runs replicas: ${replicas}, fewer than the ${voters} master nodes its voting configuration still counts (scaled down${deleted.length ? `: the statefulset controller deleted ${[...new Set(deleted)].join(', ')}` : ''}), and one master alone is not a quorum`
    : deleted.length
      ? `: the statefulset controller deleted ${[...new Set(deleted)].join(', ')}`
      : '';
  return {
    es_voters: voters ? String(voters) : 'several',
    es_scaled: scaled,
    es_fix: down
      ? `Scale the StatefulSet ${set} back to ${voters} replicas (\`kubectl scale statefulset ${set} --replicas=${voters}\`) so the removed masters rejoin from their retained volumes; to run fewer masters, first exclude them from the voting configuration (POST _cluster/voting_config_exclusions?node_names=...), then scale down.`
      : 'Bring back the master-eligible nodes the voting configuration lists (their pods and volumes) so a majority can elect a master; to remove masters for good, exclude them from the voting configuration (POST _cluster/voting_config_exclusions) before stopping them.',
  };
}

export const R24A_VARS: Record<string, (x: FindingContext) => Vars> = {
  pg_wal_full: pgWalWhy,
  es_master_no_quorum: esQuorum,
};
