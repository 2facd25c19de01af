/**
 * The template variables of the round31 (r31b) rules (cause-catalog.data.ts, its "round31 (r31b)"
 * block): what the pod spec says of the capabilities of a container whose binary the runtime may
 * not exec.
 */
import type { FindingContext } from './finding-vars';

type Vars = Record<string, string>;

interface Security {
  name: string;
  init?: boolean;
  privileged?: boolean;
  capDrop?: string[];
  capAdd?: string[];
  allowPrivilegeEscalation?: boolean;
}

/** the podSecurity entry (observe/kube-objects.ts containerSecurity) of the finding's container */
function securityOf(x: FindingContext): Security | undefined {
  const pods = x.pod ? [x.pod, ...x.pods] : x.pods;
  for (const p of pods) {
    let list: Security[] = [];
    try {
      list = JSON.parse(p.fields['podSecurity'] ?? '[]') as Security[];
    } catch {
      continue;
    }
    const mine = list.filter((s) => !s.init);
    const hit = (x.container && mine.find((s) => s.name === x.container?.name)) ?? mine[0];
    if (hit) return hit;
  }
  return undefined;
}

/**
 * EPERM at exec: the image's binary carries file capabilities the container may not have. Said
 * as the cause only when the spec drops capabilities; otherwise the usual suspects are listed.
 */
function execCaps(x: FindingContext): Vars {
  const c = x.container;
  const image = c?.image ?? c?.specImage;
  const sec = securityOf(x);
  const drop = sec?.capDrop ?? [];
  const dropsAll = drop.some((d) => /^ALL$/i.test(d));
  const added = (sec?.capAdd ?? []).join(', ');
  const binary = x.vars['exec_binary'] || 'the binary';
  const exec_image = image ? ` (image ${image})` : '';
  if (!drop.length)
    return {
      exec_image,
      exec_caps: `The kernel refuses the exec itself: ${binary} carries file capabilities (setcap) the container's capability bounding set lacks, or it lies on a noexec mount, or an AppArmor/SELinux/seccomp profile denies it`,
      exec_caps_fix: `Find what changed in ${image ?? 'the image'}: \`getcap ${binary}\` in the image (file capabilities), the mount its directory is on, the security profile; then remove the file capability (or add it to the container's securityContext.capabilities.add), or roll back to the last image that started.`,
    };
  return {
    exec_image,
    exec_caps: `The container's securityContext drops ${dropsAll ? 'ALL capabilities (capabilities.drop: ["ALL"])' : `capabilities ${drop.join(', ')}`}${added ? ` and adds back only ${added}` : ''}${
      sec?.allowPrivilegeEscalation === false ? ' with allowPrivilegeEscalation: false' : ''
    }: when the image's binary carries a file capability (set with setcap, e.g. cap_net_bind_service=+ep) that is not in the container's bounding set, the kernel refuses to exec it with "operation not permitted"; a binary without file capabilities would start under the same securityContext`,
    exec_caps_fix: `Remove the file capability from ${binary} in the image (\`setcap -r ${binary}\`, or build it without setcap; bind a port above 1024 instead of needing NET_BIND_SERVICE), or add exactly that capability to the container (securityContext.capabilities.add, e.g. ["NET_BIND_SERVICE"]) if the namespace's Pod Security level allows it; until then roll back to the previous image.`,
  };
}

export const R31B_VARS: Record<string, (x: FindingContext) => Vars> = {
  runc_exec_operation_not_permitted: execCaps,
};
