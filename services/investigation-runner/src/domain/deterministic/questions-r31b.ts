/**
 * A question of round31 (r31b): which workloads do NOT run with a read-only root filesystem
 * (securityContext.readOnlyRootFilesystem: true). The pod specs are read whole (listings and
 * descriptions do not show a container's securityContext); a container that does not set it
 * has a writable root filesystem (the default), one that sets it to false says so explicitly.
 */
import { hasCompleted } from './health';
import type { ClusterModel } from './model';
import type { ObjectView } from './observe/views';
import type { Question, Scope } from './scope';
import { questionNamespace, templateKey } from './questions';

const ROOTFS =
  /\breadonlyrootfilesystem\b|\bread[- ]?only[- ]?root[- ]?(?:file ?system|fs)\b|\breadonlyrootfs\b/;
const ASKS = /\b(?:which|what|list|any|show|are|is|do|does|who)\b/;
/** an error ("read-only file system" refused a write) is an incident, not an audit */
const FAILING =
  /\b(?:erofs|crash\w*|fail\w*|error\w*|cannot|can'?t|won'?t|refus\w*|denied|broken|logs?|logged)\b/;

export function readOnlyRootfsQuestion(
  t: string,
  namespaces: string[],
  near: string[],
): Question | undefined {
  if (!ROOTFS.test(t) || !ASKS.test(t) || FAILING.test(t)) return undefined;
  return { type: 'readonly_rootfs', namespace: namespaces[0], near };
}

interface Security {
  name: string;
  init?: boolean;
  readOnlyRootFilesystem?: boolean;
}

function securityOf(p: ObjectView): Security[] | undefined {
  if (!p.fields['podSecurity']) return undefined;
  try {
    return JSON.parse(p.fields['podSecurity']) as Security[];
  } catch {
    return undefined;
  }
}

export function readOnlyRootfs(
  q: Extract<Question, { type: 'readonly_rootfs' }>,
  model: ClusterModel,
  scope: Scope,
): string {
  const ns = questionNamespace(q, model, scope);
  const where = ns ? ` in namespace ${ns}` : '';
  const pods = model.list('pod', ns).filter((p) => (!ns || p.namespace === ns) && !hasCompleted(p));
  // one spec per template: pods of one ReplicaSet / DaemonSet share it
  const specs = new Map<string, ObjectView>();
  for (const p of pods) if (securityOf(p)) specs.set(templateKey(model, p), p);
  // per workload: its containers that are not read-only, and why
  const writable = new Map<string, string[]>();
  const readOnly = new Set<string>();
  const unread = new Set<string>();
  for (const p of pods) {
    const w = model.workloadOf(p);
    const label = ns ? `${w.name}` : `${p.namespace ?? ''}/${w.name}`;
    const named = `${label} (${w.kind})`;
    const spec = specs.get(templateKey(model, p));
    const sec = spec ? securityOf(spec) : undefined;
    if (!sec) {
      unread.add(named);
      continue;
    }
    const why = sec
      .filter((c) => c.readOnlyRootFilesystem !== true)
      .map(
        (c) =>
          `${c.init ? 'init container' : 'container'} ${c.name}: ${
            c.readOnlyRootFilesystem === false
              ? 'readOnlyRootFilesystem: false'
              : 'readOnlyRootFilesystem not set, so its root filesystem is writable (the default)'
          }`,
      );
    if (why.length) writable.set(named, why);
    else readOnly.add(named);
  }
  for (const n of [...writable.keys(), ...readOnly]) unread.delete(n);
  const seen = writable.size + readOnly.size;
  if (!seen)
    return `I could not read the pod specs${where} (their containers' securityContext) with the tools available${
      pods.length ? '' : ': no running pod was seen'
    }.`;
  const parts = [
    writable.size
      ? `${writable.size} of ${seen} workloads${where} do NOT run with a read-only root filesystem: ${[
          ...writable,
        ]
          .map(([n, why]) => `${n}: ${why.join('; ')}`)
          .join(
            '. ',
          )}. Set securityContext.readOnlyRootFilesystem: true on those containers (mount an emptyDir where they must write).`
      : `Every workload${where} (${seen}) runs with readOnlyRootFilesystem: true.`,
  ];
  if (writable.size && readOnly.size)
    parts.push(`With readOnlyRootFilesystem: true: ${[...readOnly].join(', ')}.`);
  if (unread.size) parts.push(`Not read: ${[...unread].join(', ')}.`);
  return parts.join(' ');
}
