/**
 * Whether a tool can change anything. Investigations are read-only (API-DECISIONS.md): they call
 * only tools this module judges read-only, whatever the engine and whatever the team's flags.
 */

export interface ToolSafetyInput {
  name: string;
  description?: string;
  /** MCP tool annotations (readOnlyHint, destructiveHint, ...) */
  annotations?: Record<string, unknown> | undefined;
  /** the tool-server contract's optional flags on a tool definition */
  read_only?: unknown;
  destructive?: unknown;
}

export interface ToolSafety {
  readOnly: boolean;
  /** why, for people: "annotation destructiveHint", "name says delete", ... */
  reason: string;
}

/** Verbs that change a system. A name word or the first word of a description sentence. */
const WRITE_VERBS = [
  'restart',
  'delete',
  'remove',
  'destroy',
  'purge',
  'scale',
  'patch',
  'apply',
  'rollback',
  'rollout_undo',
  'undo',
  'exec',
  'execute',
  'drain',
  'cordon',
  'uncordon',
  'kill',
  'create',
  'update',
  'upsert',
  'install',
  'uninstall',
  'upgrade',
  'run',
  'set',
  'edit',
  'replace',
  'evict',
  'terminate',
  'stop',
  'start',
  'reboot',
  'shutdown',
  'write',
  'put',
  'post',
  'trigger',
  'label',
  'annotate',
  'taint',
  'resize',
  'deploy',
  'redeploy',
  'promote',
  'revert',
  'reset',
  'flush',
  'truncate',
  'drop',
  'mutate',
  'modify',
  'change',
  'insert',
  'send',
  'silence',
  'expire',
  'acknowledge',
  'ack',
  'resolve',
  'approve',
  'merge',
  'pause',
  'resume',
  'suspend',
  'enable',
  'disable',
];
const WRITE_SET = new Set(WRITE_VERBS);

/** Words that make a name read-only even when a write verb also appears ("get_restart_count"). */
const READ_LEADS = new Set([
  'get',
  'list',
  'describe',
  'read',
  'fetch',
  'find',
  'search',
  'show',
  'query',
  'top',
  'count',
  'check',
  'lookup',
  'view',
  'watch',
  'explain',
  'inspect',
  'history',
  'status',
  'logs',
  'log',
  'events',
]);

/** `kubectl_get_by_kind`, `pods-delete`, `restartDeployment` -> words */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const DESCRIPTION_WRITE =
  /(^|[.!?]\s+|^\s*)(restart|delete|remove|destroy|scale|patch|apply|roll ?back|exec(ute)?|drain|cordon|uncordon|kill|create|update|install|uninstall|upgrade|run|set|edit|replace|evict|terminate|stop|start|reboot|write|trigger|deploy|revert|reset|modify|change|silence)s?\b/i;
const DESCRIPTION_CHANGES =
  /\b(this tool|it|will)\s+(deletes?|modif(y|ies)|changes?|restarts?|scales?|creates?|updates?|writes?|removes?|executes?|runs?)\b/i;

function flag(v: unknown): boolean | undefined {
  return v === true || v === 'true' ? true : v === false || v === 'false' ? false : undefined;
}

export function classifyTool(def: ToolSafetyInput): ToolSafety {
  const a = def.annotations ?? {};
  if (a['destructiveHint'] === true)
    return { readOnly: false, reason: 'annotation destructiveHint' };
  if (a['readOnlyHint'] === false)
    return { readOnly: false, reason: 'annotation readOnlyHint false' };
  if (flag(def.destructive) === true) return { readOnly: false, reason: 'definition destructive' };
  if (flag(def.read_only) === true) return { readOnly: true, reason: 'definition read_only' };
  if (flag(def.read_only) === false)
    return { readOnly: false, reason: 'definition read_only false' };
  if (a['readOnlyHint'] === true) return { readOnly: true, reason: 'annotation readOnlyHint' };
  const words = nameWords(def.name);
  const lead = words.find((w) => READ_LEADS.has(w) || WRITE_SET.has(w));
  const writeWord = words.find((w) => WRITE_SET.has(w));
  // A name whose first verb reads ("get_restart_count", "list_scale_targets") reads.
  if (writeWord && !(lead && READ_LEADS.has(lead)))
    return { readOnly: false, reason: `name says ${writeWord}` };
  const description = (def.description ?? '').slice(0, 2000);
  const m = DESCRIPTION_WRITE.exec(description) ?? DESCRIPTION_CHANGES.exec(description);
  if (m && !(lead && READ_LEADS.has(lead)))
    return { readOnly: false, reason: `description says "${m[0].trim().slice(0, 40)}"` };
  return { readOnly: true, reason: 'no sign of a write' };
}
