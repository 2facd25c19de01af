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

/** Argo CD's controller: a sync task that is a hook ("PostSync/0 hook batch/Job:ns/name") */
const ARGO_HOOK = /\b(PreSync|Sync|PostSync|SyncFail)\/\d+ hook batch\/Job:([\w.-]+)\/([\w.-]+)/g;
const ARGO_WAITING = /waiting for healthy state of ([^"\n]+?)(?:"|$| application=)/;

/**
 * Why the migrations never ran: a migration Job Argo CD runs as a PostSync hook (it waits for the
 * very pods that wait for the migrations), a migration Job that exists (its state), or none.
 */
function migrationJob({ model, pod }: FindingContext): Vars {
  const ns = pod?.namespace;
  const argo = model.logs
    .filter((l) => l.pod && /^argocd-application-controller-/.test(l.pod))
    .flatMap((l) => l.lines.map((x) => x.text));
  const hook = argo
    .flatMap((t) => [...t.matchAll(ARGO_HOOK)])
    .find((m) => (!ns || m[2] === ns) && /migrat/i.test(m[3] ?? ''));
  const waits = argo
    .map((t) => ARGO_WAITING.exec(t)?.[1])
    .filter(Boolean)
    .pop();
  const jobs = model.list('job', ns).filter((j) => j.kind === 'job');
  const named = hook ? jobs.find((j) => j.name === hook[3]) : undefined;
  if (hook && !named && hook[1] === 'PostSync')
    return {
      migration_job: `: the Job ${hook[3]} that runs them does not exist. Argo CD runs it as a PostSync hook ("${hook[0]}"; the chart declares it a Helm post-install hook, migrateDatabaseJob.useHelmHooks=true by default), and a PostSync hook starts only after every resource of the sync is healthy${waits ? `, while the sync is "waiting for healthy state of ${waits}"` : ''}: those pods wait for the migrations, the migrations wait for those pods, a deadlock`,
      migration_fix: `Make the migration Job a plain resource of the sync: set migrateDatabaseJob.useHelmHooks=false and createUserJob.useHelmHooks=false (with migrateDatabaseJob.applyCustomEnv=false) in the chart values, or annotate the Job argocd.argoproj.io/hook: Sync; Argo CD then runs ${hook[3]}, the schema is migrated and the pods start.`,
    };
  const migrator = named ?? jobs.find((j) => /migrat/i.test(j.name));
  if (migrator)
    return {
      migration_job: `: the migration Job ${migrator.name} exists${migrator.status ? ` (${migrator.status})` : ''}; its pod's log says why it did not finish`,
      migration_fix: `Read the log of Job ${migrator.name} and fix what stops it; once the schema is migrated the pods start.`,
    };
  return {
    migration_job:
      jobs.length || model.list('job').length
        ? `: no Job that migrates the database exists${ns ? ` in namespace ${ns}` : ''} (the chart runs \`airflow db migrate\` in a Job, by default a Helm post-install hook; a hook that never ran, e.g. one a GitOps tool holds back, leaves the schema empty)`
        : ' (the chart runs `airflow db migrate` in a Job, by default a Helm post-install hook; a hook that never ran leaves the schema empty)',
    migration_fix:
      "Run the migrations: let the chart's migration Job run (under a GitOps tool: migrateDatabaseJob.useHelmHooks=false so it is a plain resource) or run `airflow db migrate` once; then the pods start.",
  };
}

export const R24B_VARS: Record<string, (x: FindingContext) => Vars> = {
  jvm_agent_jar_missing: jvmAgent,
  airflow_migrations_never_run: migrationJob,
};
