/**
 * A rule of round26 (r26c) that compares objects (cause-catalog.data.ts, its "round26 (r26c)"
 * block): a container OOMKilled on a node whose kubelet recorded SystemOOM. The kubelet records
 * SystemOOM only for an OOM kill outside any container's cgroup limit: the whole node ran out of
 * memory and the kernel picked a victim. A container without a memory limit cannot reach a limit
 * of its own; one with a limit counts only when a SystemOOM falls at its kill. The pod that uses
 * the most memory on that node (kubectl top) is named.
 */
import type { CauseEntry } from './cause-catalog.data';
import type { Finding } from './diagnose';
import { quantity, type ClusterModel } from './model';
import type { ContainerView, ObjectView } from './observe/views';

const SYSTEM_OOM = /^SystemOOM$/;
/** a SystemOOM this close to a container's kill is that kill */
const SAME_KILL_MS = 3 * 60_000;

export function r26cFindings(model: ClusterModel, entries: CauseEntry[]): Finding[] {
  const entry = entries.find((e) => e.id === 'node_system_oom_victim');
  const stale = entries.find((e) => e.id === 'tag_split_cached_image');
  return [
    ...(entry ? systemOomVictims(model, entry) : []),
    ...(stale ? cachedOldBuilds(model, stale) : []),
  ];
}

const MOVING_TAG =
  /^(?:latest|stable|main|master|develop|dev|prod|production|staging|release|edge|nightly|current|live|lts)$/i;
const digestOf = (id?: string) => /sha256:[0-9a-f]{8,}/.exec(id ?? '')?.[0];
/** the kubelet did not pull: the image under that reference was on the node already */
const ALREADY_PRESENT = /Container image "([^"]+)" already present on machine/;
const PULLED = /Successfully pulled image "([^"]+)"/;
/** a version a process states when it starts */
const VERSION_LINE =
  /\b(?:start\w*|version|release|build)\b[^\n]{0,80}?\bv?(\d+\.\d+\.\d+(?:[-+][\w.]+)?)\b/i;

/**
 * One ReplicaSet's pods (one pod template) whose container runs the same image reference, a tag
 * and no digest, resolved to two digests: the tag was pushed again, and the pods that started on
 * a node that had the old build cached ran it (the kubelet's "already present on machine": with
 * imagePullPolicy IfNotPresent it does not ask the registry), while the others pulled the new one.
 */
function cachedOldBuilds(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  const groups = new Map<string, { pods: ObjectView[] }>();
  for (const pod of model.list('pod')) {
    if (pod.kind !== 'pod' || hasFinishedPod(pod)) continue;
    const template =
      pod.owner?.kind?.toLowerCase() === 'replicaset'
        ? pod.owner.name
        : /^(.*-[a-z0-9]{6,10})-[a-z0-9]{5}$/.exec(pod.name)?.[1];
    if (!template) continue;
    const key = `${pod.namespace ?? ''}/${template}`;
    const g = groups.get(key) ?? { pods: [] };
    g.pods.push(pod);
    groups.set(key, g);
  }
  for (const { pods } of groups.values()) {
    if (pods.length < 2) continue;
    const names = new Set(pods.flatMap((p) => p.containers.map((c) => c.name)));
    for (const name of names) {
      const runs = pods
        .map((p) => ({ p, c: p.containers.find((c) => c.name === name && !c.init) }))
        .filter(
          (x): x is { p: ObjectView; c: ContainerView } => !!x.c?.image && !!digestOf(x.c.imageID),
        );
      if (runs.length < 2) continue;
      const image = runs[0]!.c.image!;
      // a tag meant to move (latest, stable, main...): a version tag is pushed once, and worlds
      // where each pod reports its own digest for one version say nothing about a push
      const tag = /:([\w.-]+)$/.exec(image.replace(/^[^/]+\/(?=.*\/)/, ''))?.[1] ?? 'latest';
      if (/@sha256:/.test(image) || !MOVING_TAG.test(tag) || runs.some((x) => x.c.image !== image))
        continue;
      const byDigest = new Map<string, ObjectView[]>();
      for (const x of runs) {
        const d = digestOf(x.c.imageID)!;
        byDigest.set(d, [...(byDigest.get(d) ?? []), x.p]);
      }
      if (byDigest.size < 2) continue;
      // which pods did not pull (the kubelet found the reference on the node), which pulled
      const said = (p: ObjectView, re: RegExp) =>
        model.events.find(
          (e) =>
            e.object?.name === p.name &&
            (!e.namespace || !p.namespace || e.namespace === p.namespace) &&
            re.exec(e.message)?.[1] === image,
        );
      const cachedDigests = [...byDigest].filter(([, ps]) =>
        ps.every((p) => said(p, ALREADY_PRESENT)),
      );
      const pulledDigests = [...byDigest].filter(([, ps]) => ps.some((p) => said(p, PULLED)));
      const [oldDigest, oldPods] = cachedDigests[0] ?? [];
      // the other build was pulled by the pods that run it
      const [newDigest, newPods] = pulledDigests.find(([d]) => d !== oldDigest) ?? [];
      if (!oldDigest || !oldPods || !newDigest || !newPods) continue;
      const version = (ps: ObjectView[]) => {
        for (const p of ps)
          for (const l of model.logs.filter((x) => x.pod === p.name))
            for (const x of l.lines) {
              const m = VERSION_LINE.exec(x.text);
              if (m) return { v: m[1]!, line: x.text };
            }
        return undefined;
      };
      const vOld = version(oldPods);
      const vNew = version(newPods);
      const nodes = (ps: ObjectView[]) =>
        [...new Set(ps.map((p) => p.node).filter(Boolean))].join(', ');
      const evidence = said(oldPods[0]!, ALREADY_PRESENT)!;
      const workload = model.workloadOf(oldPods[0]!).name;
      out.push({
        entry,
        object: { kind: 'deployment', name: workload, namespace: oldPods[0]!.namespace },
        workload,
        fact: evidence.message,
        at: evidence.last ?? evidence.first,
        groups: {
          image,
          container: name,
          old_digest: `${oldDigest.slice(0, 19)}…`,
          new_digest: `${newDigest.slice(0, 19)}…`,
          old_pods: `${oldPods.length} of ${runs.length} pods (${oldPods.map((p) => p.name).join(', ')}${nodes(oldPods) ? ` on ${nodes(oldPods)}` : ''})`,
          new_pods: `${newPods.length} (${newPods.map((p) => p.name).join(', ')}${nodes(newPods) ? ` on ${nodes(newPods)}` : ''})`,
          versions:
            vOld && vNew && vOld.v !== vNew.v
              ? ` Their logs say so: the stale pods start version ${vOld.v} ("${vOld.line.slice(0, 160)}"), the others ${vNew.v}.`
              : '',
        },
        where: 'event',
        source: 'r26c',
      });
    }
  }
  return out;
}

const hasFinishedPod = (p: ObjectView) => /Succeeded|Completed|Failed/.test(p.status ?? '');

const mib = (bytes: number) => `${Math.round(bytes / 1024 ** 2)}Mi`;

function systemOomVictims(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const pod of model.list('pod')) {
    if (pod.kind !== 'pod' || !pod.node) continue;
    const ooms = model.events.filter(
      (e) =>
        e.object?.name === pod.node &&
        (!e.object?.kind || /^node$/i.test(e.object.kind)) &&
        SYSTEM_OOM.test(e.reason ?? ''),
    );
    if (!ooms.length) continue;
    for (const c of pod.containers) {
      const kill = [c.last, c.terminated].find((s) => s?.reason === 'OOMKilled');
      if (!kill) continue;
      // resources read (a listing shows none) and no memory limit: no cgroup limit to reach
      const unlimited =
        !c.limits['memory'] &&
        (Object.keys(c.limits).length > 0 || Object.keys(c.requests).length > 0);
      const atKill =
        kill.at !== undefined &&
        ooms.some((e) => {
          const at = e.last ?? e.first;
          return at !== undefined && Math.abs(at - kill.at!) <= SAME_KILL_MS;
        });
      if (!unlimited && !atKill) continue;
      const workload = model.workloadOf(pod).name;
      const key = `${pod.namespace ?? ''}/${workload}/${pod.node}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const sorted = [...ooms].sort((a, b) => (a.last ?? a.first ?? 0) - (b.last ?? b.first ?? 0));
      const times = sorted
        .map((e) => e.last ?? e.first)
        .filter((t): t is number => t !== undefined)
        .map((t) => new Date(t).toISOString().slice(11, 16));
      // who holds the node's memory: the largest pod of another workload on that node
      const node = model.get('node', pod.node);
      const listed = new Set((node?.fields['pods'] ?? '').split(',').filter(Boolean));
      const onNode = (name: string, ns?: string) =>
        model.get('pod', name, ns)?.node === pod.node || listed.has(`${ns ?? ''}/${name}`);
      const hog = model.metrics
        .filter(
          (m) =>
            m.kind === 'pod' &&
            m.memory &&
            onNode(m.name, m.namespace) &&
            !(m.namespace === pod.namespace && m.name === pod.name),
        )
        .map((m) => ({ m, bytes: quantity(m.memory) }))
        .sort((a, b) => b.bytes - a.bytes)[0];
      const hogPod = hog ? model.get('pod', hog.m.name, hog.m.namespace) : undefined;
      const hogWorkload = hogPod
        ? model.workloadOf(hogPod).name
        : hog
          ? hog.m.name.replace(/-[a-z0-9]{6,10}-[a-z0-9]{5}$/, '')
          : '';
      const nodeUse = model.metrics.find((m) => m.kind === 'node' && m.name === pod.node)?.memory;
      const hogLimit = hogPod?.containers.length
        ? hogPod.containers.some((x) => x.limits['memory'])
          ? ''
          : ', with no memory limit'
        : '';
      // no memory figures: the other workloads' pods there that have no memory limit (largest
      // request first) are what may take the node's memory
      const unlimitedThere = hog
        ? undefined
        : (node ? model.podsOn(node) : [])
            .filter(
              (p) =>
                p.name !== pod.name &&
                model.workloadOf(p).name !== workload &&
                p.containers.length &&
                p.containers.some(
                  (x) =>
                    !x.limits['memory'] &&
                    (Object.keys(x.limits).length || Object.keys(x.requests).length),
                ),
            )
            .map((p) => ({
              p,
              req: p.containers.reduce((a, x) => a + quantity(x.requests['memory']), 0),
            }))
            .sort((a, b) => b.req - a.req)[0];
      const suspect = unlimitedThere ? model.workloadOf(unlimitedThere.p).name : '';
      out.push({
        entry,
        object: { kind: 'pod', name: pod.name, namespace: pod.namespace },
        workload,
        fact: sorted[sorted.length - 1]!.message,
        at: kill.at,
        groups: {
          node: pod.node,
          oom_times: `${ooms.length} SystemOOM event${ooms.length === 1 ? '' : 's'}${times.length ? ` (${times.join(', ')})` : ''}`,
          own_limit: c.limits['memory']
            ? ` (its limit ${c.limits['memory']} was not reached: the SystemOOM fell at its kill)`
            : ` (${c.name} has no memory limit, so no limit of its own was reached)`,
          hog: hog
            ? `. On ${pod.node}, ${hogWorkload}${hog.m.namespace ? ` (namespace ${hog.m.namespace})` : ''} uses ${mib(hog.bytes)}${nodeUse ? ` of the node's ${nodeUse} in use` : ''}${hogLimit} (pod ${hog.m.name}): it took the node's memory`
            : unlimitedThere
              ? `. No memory figures were read; on ${pod.node}, ${suspect}${unlimitedThere.p.namespace ? ` (namespace ${unlimitedThere.p.namespace})` : ''} runs with no memory limit${unlimitedThere.req ? ` (memory request ${mib(unlimitedThere.req)})` : ''} (pod ${unlimitedThere.p.name}): nothing bounds what it takes of the node's memory`
              : '',
          hog_fix: hog
            ? `Put a memory limit on ${hogWorkload} (or lower its load, or move it to a node of its own)`
            : unlimitedThere
              ? `Check \`kubectl top pod -A\` on ${pod.node}; put a memory limit on ${suspect} (or whichever pod uses the node's memory)`
              : "Find the pod that uses the node's memory (`kubectl top pod -A` on that node) and give it a memory limit",
        },
        where: 'event',
        source: 'r26c',
      });
    }
  }
  return out;
}
