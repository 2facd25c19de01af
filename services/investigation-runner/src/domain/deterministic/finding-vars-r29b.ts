/**
 * (r29b) Template variables for the rules on application runtimes: what a careful engineer reads
 * beside the line that matched — the max heap a JVM logged at start, and whether any flag sets it.
 */
import type { FindingContext } from './finding-vars';
import { linesOf } from './finding-vars-configuration';
import { quantity } from './model';
import { clip } from './text';

type Vars = Record<string, string>;

/** a flag that sets a JVM's max heap, in its environment or arguments */
const JVM_HEAP_FLAG = /-Xmx\d|-XX:(?:MaxRAMPercentage|MaxRAM|MaxHeapSize|MaxRAMFraction)=/i;

/** a JVM size ("512M", "2G", "1536m", "524288K") in bytes: the JVM's units are binary */
const jvmBytes = (n: string, u: string): number =>
  Number(n) *
    ({ k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 } as Record<string, number>)[
      u.toLowerCase()
    ]! || Number(n);

/**
 * A JVM out of heap with no heap flag anywhere it is started from: the JVM sized its heap itself,
 * at its default of 25% of the container memory limit. Its -Xlog:gc+init start line ("Heap Max
 * Capacity: 512M") or -XX:+PrintFlagsFinal ("MaxHeapSize = 536870912") shows the cap it chose.
 */
function jvmDefaultHeap({ f, model, pods, pod, container }: FindingContext): Vars {
  if (!/OutOfMemoryError|Java heap space/i.test(f.fact)) return {};
  const set = Object.values(container?.env ?? {}).some((v) => JVM_HEAP_FLAG.test(v));
  if (set) return {};
  const lines = [pod, ...pods]
    .filter((p, i, a) => p && a.indexOf(p) === i)
    .flatMap((p) => linesOf(model, p!.name, p!.namespace));
  // a -Xmx the JVM reported picking up (JAVA_TOOL_OPTIONS baked into the image) is a flag too
  if (lines.some((l) => /Picked up \w*JAVA\w*OPTIONS:/.test(l) && JVM_HEAP_FLAG.test(l))) return {};
  let cap: { text: string; bytes: number; line: string } | undefined;
  for (const l of lines) {
    const m =
      /\bHeap Max Capacity: (\d+(?:\.\d+)?)([KMGT])\b/i.exec(l) ??
      /\bMaxHeapSize\s*(?::=|=)\s*(\d+)()\b/.exec(l);
    if (m) {
      cap = {
        text: m[2] ? `${m[1]}${m[2]}` : `${m[1]} bytes`,
        bytes: jvmBytes(m[1]!, m[2] ?? ''),
        line: m[0],
      };
      break;
    }
  }
  const limit = quantity(container?.limits['memory']);
  if (!cap || !limit) return {};
  // the default: a quarter of the limit the JVM sees (allow rounding to the heap region size)
  const share = cap.bytes / limit;
  if (share < 0.23 || share > 0.27) return {};
  return {
    heap: ` (${cap.text}, the JVM's default max heap: 25% of the container limit, as no -Xmx or -XX:MaxRAMPercentage is set; its start log says "${cap.line}")`,
  };
}

/** gunicorn's --preload (or preload_app) in a container's environment or arguments */
const PRELOAD = /(?:^|\s)--preload\b|\bpreload_app\s*=\s*True\b/;

/** where a container sets gunicorn's preload: "--preload in GUNICORN_CMD_ARGS" */
function preloadIn(env: Record<string, string> | undefined): string | undefined {
  for (const [name, value] of Object.entries(env ?? {}))
    if (PRELOAD.test(value)) return name === '__args' ? 'its arguments' : name;
  return undefined;
}

/**
 * A connection shared across a fork: where the app is loaded before the workers fork (gunicorn
 * --preload), and the revision that added it when the previous ReplicaSet's template had none.
 */
function forkOrigin({ f, model, pod, container }: FindingContext): Vars {
  const where = preloadIn(container?.env);
  if (!where || !container) return {};
  let added = '';
  const rss = model
    .list('replicaset', pod?.namespace)
    .filter((r) => f.workload && model.workloadOf(r).name === f.workload)
    .sort((a, b) => Number(b.fields['revision'] ?? 0) - Number(a.fields['revision'] ?? 0));
  const [now, before] = rss;
  const c = (r: typeof now) => r?.containers.find((x) => x.name === container.name);
  if (now && before && preloadIn(c(now)?.env) && c(before) && !preloadIn(c(before)?.env))
    added = ` (added in revision ${now.fields['revision'] ?? '?'}${now.fields['changeCause'] ? `, "${now.fields['changeCause']}"` : ''}; revision ${before.fields['revision'] ?? '?'} had none)`;
  return {
    fork_origin: `: ${where} sets gunicorn's --preload${added}, so the application is imported in the gunicorn master, which opens its database connection there before forking the workers`,
    fork_fix: ` (--preload in ${where})`,
  };
}

/**
 * What a full uWSGI listen queue's workers wait on: the number of workers it spawned, and the
 * service its own lines say a call to still waits on / timed out ("stock-feed call still
 * waiting", url http://stock-feed.inventory.svc...:8080/...).
 */
function uwsgiWait({ model, pods, pod, container }: FindingContext): Vars {
  const lines = [pod, ...pods]
    .filter((p, i, a) => p && a.indexOf(p) === i)
    .flatMap((p) => linesOf(model, p!.name, p!.namespace));
  const vars: Vars = {};
  const spawned = new Set(
    lines.map((l) => /spawned uWSGI worker (\d+)\b/.exec(l)?.[1]).filter((x): x is string => !!x),
  );
  const configured = Object.entries(container?.env ?? {}).find(([k]) =>
    /^UWSGI_(?:PROCESSES|WORKERS)$/i.test(k),
  )?.[1];
  const n = /^\d+$/.test(configured ?? '') ? configured : spawned.size ? String(spawned.size) : '';
  if (n) vars['uwsgi_workers'] = ` ${n}`;
  const hosts = new Map<string, { n: number; line: string }>();
  for (const l of lines) {
    if (!/still waiting|timed? ?out|timeout|slow|elapsed|waiting for|hung|stuck/i.test(l)) continue;
    const m = /\bhttps?:\/\/([a-z0-9](?:[a-z0-9-]*[a-z0-9])?)(?:\.[a-z0-9.-]+)?(?::\d+)?/i.exec(l);
    if (!m) continue;
    const h = hosts.get(m[1]!) ?? { n: 0, line: l };
    h.n++;
    hosts.set(m[1]!, h);
  }
  const top = [...hosts].sort((a, b) => b[1].n - a[1].n)[0];
  if (top) {
    vars['uwsgi_wait'] =
      `: ${top[1].n} of its lines show workers waiting on calls to ${top[0]} ("${clip(top[1].line.replace(/^\S*\d{4}-\d\d-\d\dT\S*\s*/, ''), 200)}"), so the slow ${top[0]} holds every worker`;
    vars['uwsgi_wait_fix'] = ` to ${top[0]}`;
  }
  return vars;
}

export const R29B_VARS: Record<string, (x: FindingContext) => Vars> = {
  runtime_heap_exhausted: jvmDefaultHeap,
  db_tls_connection_shared_across_fork: forkOrigin,
  uwsgi_listen_queue_full: uwsgiWait,
};
