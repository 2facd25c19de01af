/**
 * The template variables of the round24 (r24b) rules (cause-catalog.data.ts, its "round24 (r24b)"
 * block): where the -javaagent flag a JVM cannot load comes from (the container's environment or
 * a ConfigMap it loads), and which other workloads load the same setting.
 */
import { containerSetting, type FindingContext } from './finding-vars';
import { configMapsOf } from './model';
import { clip } from './text';

type Vars = Record<string, string>;

/** "Picked up JAVA_TOOL_OPTIONS: ..." (HotSpot prints the variable it read) */
const PICKED_UP = /Picked up (JAVA_TOOL_OPTIONS|JDK_JAVA_OPTIONS|_JAVA_OPTIONS): ([^\n]*)/;

function jvmAgent({ f, model, pod, container }: FindingContext): Vars {
  const jar = f.groups['agent_jar'] ?? '';
  const flag = new RegExp(`-javaagent:${jar.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\S*`);
  const set = containerSetting(model, pod, container, flag);
  const picked = model.logs
    .filter((l) => !pod || l.pod === pod.name)
    .flatMap((l) => l.lines)
    .map((x) => PICKED_UP.exec(x.text))
    .find((m) => m && flag.test(m[2] ?? ''));
  // a server that hides ConfigMap values still shows their keys: the variable the JVM picked up,
  // not set in the container's own env, comes from the loaded ConfigMap that has that key
  const keyed =
    !set && picked?.[1] && container && container.env[picked[1]] === undefined
      ? configMapsOf(container).find((m) =>
          (model.get('configmap', m, pod?.namespace)?.fields['keys'] ?? '')
            .split(',')
            .includes(picked[1]!),
        )
      : undefined;
  const where =
    set?.split(', in ')[1] ?? (keyed ? `${picked![1]} of ConfigMap ${keyed}` : undefined);
  const map = where ? / of ConfigMap (\S+)$/.exec(where)?.[1] : undefined;
  // other workloads that load the same ConfigMap: they fail the same way at their next start
  const others = map
    ? [
        ...new Set(
          model
            .list(undefined, pod?.namespace)
            .filter(
              (o) =>
                ['deployment', 'statefulset', 'daemonset'].includes(o.kind) &&
                o.name !== f.workload &&
                o.containers.some((c) => configMapsOf(c).includes(map)),
            )
            .map((o) => o.name),
        ),
      ]
    : [];
  return {
    agent_flag: set
      ? ` (${set})`
      : picked
        ? ` (the JVM says "${clip(picked[0], 200)}"${keyed ? `; ${picked[1]} is a key of ConfigMap ${keyed}, which the container loads with envFrom` : ''})`
        : '',
    agent_fix: where ? ` from ${where}` : picked ? ` from ${picked[1]}` : '',
    agent_others: map
      ? `. The flag comes from ConfigMap ${map}, not from the image or its release${others.length ? `; ${others.join(', ')} load${others.length === 1 ? 's' : ''} the same ConfigMap and will fail the same way when restarted` : ''}, so a rollback of the image crashes the same way`
      : '',
  };
}

export const R24B_VARS: Record<string, (x: FindingContext) => Vars> = {
  jvm_agent_jar_missing: jvmAgent,
};
