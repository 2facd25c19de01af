/**
 * A question of round29 (r29b): "which Java services (in namespace X) set no heap size (no -Xmx,
 * no MaxRAMPercentage)?" A JVM given no heap flag sizes its max heap at 25% of the container
 * memory limit. Whether a workload is a JVM, and the flags it runs with, come from its pod spec
 * (JAVA_TOOL_OPTIONS / JDK_JAVA_OPTIONS / JAVA_OPTS, a `java` command, a JDK/JRE image) and from its
 * log (the JVM's "Picked up JAVA_TOOL_OPTIONS: ..." line, Spring Boot's "using Java 21"); the
 * gatherer reads one pod of each workload whole and its log.
 */
import type { ClusterModel } from './model';
import { quantity } from './model';
import type { ObjectView } from './observe';
import type { Question } from './scope';
import { clip } from './text';

/** a flag that sets a JVM's max heap */
const HEAP_FLAG =
  /-Xmx\d+[kmgt]?|-XX:(?:MaxRAMPercentage|MaxRAM|MaxHeapSize|MaxRAMFraction)=[\w.]+/i;
/** the environment variables a JVM reads its options from, or a launcher passes on */
const JVM_ENV =
  /^(?:JAVA_TOOL_OPTIONS|JDK_JAVA_OPTIONS|_JAVA_OPTIONS|JAVA_OPTS|JAVA_OPTIONS|JVM_OPTS)$/;
/** what a JVM (or a Java application) logs at start */
const JVM_LOG =
  /Picked up (?:JAVA_TOOL_OPTIONS|JDK_JAVA_OPTIONS|_JAVA_OPTIONS):|\busing Java \d|\bJava(?:\(TM\))? SE Runtime|OpenJDK (?:64-Bit )?Server VM|\(JVM running for [\d.]+/;
/** an image built on a JDK/JRE */
const JVM_IMAGE =
  /(?:^|[/:_-])(?:openjdk|temurin|corretto|zulu|jdk|jre|java|adoptium|liberica)(?:[/:_.-]|\d|$)/i;

export function jvmHeapQuestion(t: string, namespaces: string[]): Question | undefined {
  if (/^\s*why\b/.test(t)) return undefined;
  if (!/\b(?:java|jvms?)\b/.test(t)) return undefined;
  if (!/\bheap\b|-xmx|maxrampercentage/.test(t)) return undefined;
  if (
    !/\b(?:which|list|any|how many|find|show|what (?:java |jvm )?(?:services|workloads|deployments|apps))\b/.test(
      t,
    )
  )
    return undefined;
  if (
    !/\b(?:services|workloads|deployments|apps|applications|pods|containers|statefulsets)\b/.test(t)
  )
    return undefined;
  if (!/\b(?:don'?t|do not|doesn'?t|does not|no|without|not|never|missing|lacks?)\b/.test(t))
    return undefined;
  return { type: 'jvm_default_heap', namespace: namespaces[0] };
}

interface JvmView {
  /** what shows it is a JVM, undefined: nothing does */
  jvm?: string;
  /** the heap flag and where it is set */
  heap?: string;
  /** the JVM options it runs with, when some are set */
  options?: string;
  limit?: string;
}

/** the lines a pod logged (current and previous) */
const linesOfPod = (model: ClusterModel, p: ObjectView): string[] =>
  model.logs
    .filter(
      (l) => l.pod === p.name && (!l.namespace || !p.namespace || l.namespace === p.namespace),
    )
    .flatMap((l) => l.lines.map((x) => x.text));

/** what a pod's first container (or its JVM) shows about its runtime and heap */
function jvmOf(model: ClusterModel, pods: ObjectView[]): JvmView {
  const out: JvmView = {};
  for (const p of pods) {
    for (const c of p.containers.filter((x) => !x.init)) {
      for (const [k, v] of Object.entries(c.env)) {
        const where = k === '__args' ? 'its arguments' : k;
        const isJvm =
          JVM_ENV.test(k) ||
          (k === '__args' && /(?:^|\/|\s)java(?:\s|$)|\s-jar\s|-Xm[sx]\d/.test(` ${v} `));
        if (isJvm) {
          out.jvm ??= k === '__args' ? 'its command runs java' : `it sets ${k}`;
          out.options ??= `${where}: ${clip(v, 120)}`;
        }
        const h = HEAP_FLAG.exec(v);
        if (h && (isJvm || k === '__args')) out.heap ??= `${h[0]} in ${where}`;
      }
      if (!out.jvm && c.image && JVM_IMAGE.test(c.image)) out.jvm = `its image ${c.image}`;
      if (c.limits['memory']) out.limit ??= c.limits['memory'];
    }
    for (const l of linesOfPod(model, p)) {
      const m = JVM_LOG.exec(l);
      if (!m) continue;
      out.jvm ??= `its log ("${clip(l.slice(Math.max(0, m.index - 40)).trim(), 100)}")`;
      const h = /Picked up \w+:/.test(l) ? HEAP_FLAG.exec(l) : null;
      if (h)
        out.heap ??= `${h[0]} (its log: "${clip(l.replace(/^\S*\d{4}-\d\d-\d\dT\S*\s*/, ''), 120)}")`;
    }
  }
  return out;
}

/** the default max heap for a limit: 25% of it */
const quarter = (limit: string | undefined): string => {
  const b = quantity(limit);
  if (!b) return '';
  const mi = Math.round(b / 4 / 1024 ** 2);
  return ` (limit ${limit}: default max heap ${mi >= 1024 && mi % 1024 === 0 ? `${mi / 1024}Gi` : `${mi}Mi`})`;
};

export function jvmWithoutHeap(model: ClusterModel, namespace: string | undefined): string {
  const where = namespace ? ` in namespace ${namespace}` : '';
  const pods = model
    .list('pod', namespace)
    .filter((p) => p.kind === 'pod' && (!namespace || p.namespace === namespace));
  if (!pods.length) return `I could not list the pods${where} with the tools available.`;
  const byWorkload = new Map<string, { label: string; pods: ObjectView[] }>();
  for (const p of pods) {
    if (/^(?:Succeeded|Completed|Failed)$/.test(p.status ?? '')) continue;
    const w = model.workloadOf(p);
    const key = `${w.kind}/${w.name}`;
    const e = byWorkload.get(key) ?? {
      label:
        w.name === p.name
          ? `pod ${p.name}`
          : `${w.kind.charAt(0).toUpperCase()}${w.kind.slice(1)} ${w.name}`,
      pods: [],
    };
    e.pods.push(p);
    byWorkload.set(key, e);
  }
  const seen = [...byWorkload.values()].map((w) => ({ ...w, v: jvmOf(model, w.pods) }));
  const jvms = seen.filter((w) => w.v.jvm);
  if (!jvms.length)
    return `No workload${where} shows a JVM (no JAVA_TOOL_OPTIONS/JDK_JAVA_OPTIONS/JAVA_OPTS, no java command, no JVM start line in the logs read), of ${seen.length} seen.`;
  const without = jvms.filter((w) => !w.v.heap);
  const withHeap = jvms.filter((w) => w.v.heap);
  const others = seen.filter((w) => !w.v.jvm);
  const head = without.length
    ? `${without.length} Java workload${without.length === 1 ? '' : 's'}${where} set${without.length === 1 ? 's' : ''} no heap size (no -Xmx, -XX:MaxRAMPercentage or MaxRAM in its environment, arguments or the JVM options it logs), so the JVM takes its default max heap of 25% of the container memory limit: ${without
        .map(
          (w) =>
            `${w.label} (${w.v.options ? `${w.v.options}, no heap flag` : `no JVM options set; a JVM by ${w.v.jvm}`}${quarter(w.v.limit).replace(/^ \(/, '; ').replace(/\)$/, '')})`,
        )
        .join('; ')}.`
    : `Every Java workload${where} sets its heap size (${jvms.length} seen).`;
  const set = withHeap.length
    ? ` The others set one: ${withHeap.map((w) => `${w.label} (${w.v.heap})`).join('; ')}.`
    : '';
  const not = others.length
    ? ` Not Java (no JVM seen): ${others.map((w) => w.label).join(', ')}.`
    : '';
  return `${head}${set}${not}`;
}
