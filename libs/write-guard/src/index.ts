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
  'clean',
  'cleanup',
  'clear',
  'wipe',
  'nuke',
  'erase',
  'recycle',
  'bounce',
  'rotate',
  'cancel',
  'sync',
  'rerun',
  'retry',
  'revoke',
  'grant',
  'invalidate',
  'failover',
  'restore',
  'migrate',
  'provision',
  'deprovision',
  'halt',
  'abort',
  'lock',
  'unlock',
  'notify',
  'publish',
  'push',
  'commit',
  'mute',
  'unmute',
  'snooze',
  'escalate',
  'attach',
  'detach',
  'upload',
  'rename',
  'move',
  'overwrite',
];

/** Words that join two actions in a name: `get_and_delete_pod`, `show_then_restart_service`. */
const JOINERS = new Set(['and', 'then', 'plus', 'also', 'after', 'or']);
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

/**
 * What a tool says it does to things counts even when its name starts like a read (`get_…`):
 * a sentence that starts with a destructive verb acting on something ("Deletes the pod", "Wipes
 * every key"), or an action joined to another ("List pods and remove failed ones", "… then
 * restart it"). Verbs that are also nouns in read descriptions ("Restarts per pod", "readiness
 * and restart count") need an object after them, or are not followed by such a noun.
 */
const DESTRUCTIVE =
  'delete|remove|destroy|purge|wipe|kill|terminate|evict|erase|flush|truncate|restart|reboot|drain|cordon|uncordon|scale|patch|recycle|roll ?back|uninstall|reset|overwrite|nuke|clean ?up|clear';
const OBJECT =
  'the|a|an|all|every|each|any|one|its|their|this|these|those|them|it|pods?|containers?|deployments?|services?|nodes?|keys?|entries|records?|namespaces?|resources?|jobs?|caches?|tables?|volumes?|files?|data';
const DESCRIPTION_ACTS = new RegExp(
  `(^|[.!?;:]\\s+|^\\s*)(${DESTRUCTIVE}|modif(y|ies))(e?s)?\\s+(${OBJECT})\\b`,
  'i',
);
const DESCRIPTION_JOINED = new RegExp(
  `\\b(and|then|also|afterwards)\\s+(${DESTRUCTIVE}|modify)\\b(?!\\s+(counts?|history|reasons?|polic(y|ies)|rates?|totals?|times?|loops?|events?|status|limits?)\\b)`,
  'i',
);

function flag(v: unknown): boolean | undefined {
  return v === true || v === 'true' ? true : v === false || v === 'false' ? false : undefined;
}

/**
 * Verbs that destroy or disrupt: when one leads a name (or is joined to its read) or a description
 * sentence says the tool does it to something, a read-only mark from the tool server does not
 * outweigh it. Annotations are hints from an untrusted server (the MCP specification says so);
 * `delete_pod` marked `readOnlyHint: true` is a contradiction, and an investigation must not bet
 * a pod on it. Verbs that also name harmless things (`run_query`, `send_report`, `execute_sql`)
 * are left to the mark.
 */
const DESTRUCTIVE_NAME_VERBS = new Set([
  'restart',
  'delete',
  'remove',
  'destroy',
  'purge',
  'wipe',
  'kill',
  'terminate',
  'evict',
  'erase',
  'flush',
  'truncate',
  'drop',
  'reboot',
  'shutdown',
  'drain',
  'cordon',
  'uncordon',
  'scale',
  'patch',
  'recycle',
  'rollback',
  'rollout_undo',
  'undo',
  'uninstall',
  'reset',
  'overwrite',
  'nuke',
  'cleanup',
  'clean',
  'clear',
  'bounce',
  'failover',
  'revoke',
  'taint',
]);

/**
 * A read word followed by `only` is a claim (`read_only_restart`, `view_only_delete_pod`), not a
 * verb: the name is judged by the verb after it, as a name without the claim would be.
 */
function leadWords(words: string[]): string[] {
  return words.filter((w, i) => !(READ_LEADS.has(w) && words[i + 1] === 'only') && w !== 'only');
}

interface NameReading {
  /** the first verb of the name reads (claims like `read_only` skipped) */
  readLead: boolean;
  /** a write word the name leads with (no read verb before it) */
  writeWord?: string;
  /** a write verb joined to the name's read (`get_and_delete_pod`): `and delete` */
  joined?: { joiner: string; verb: string };
}

function readName(name: string): NameReading {
  const words = leadWords(nameWords(name));
  const lead = words.find((w) => READ_LEADS.has(w) || WRITE_SET.has(w));
  const readLead = lead !== undefined && READ_LEADS.has(lead);
  const writeWord = readLead ? undefined : words.find((w) => WRITE_SET.has(w));
  const joiner = words.findIndex((w) => JOINERS.has(w));
  const verb = joiner < 0 ? undefined : words.slice(joiner + 1).find((w) => WRITE_SET.has(w));
  return {
    readLead,
    ...(writeWord ? { writeWord } : {}),
    ...(verb ? { joined: { joiner: words[joiner]!, verb } } : {}),
  };
}

const says = (m: RegExpExecArray) => `description says "${m[0].trim().slice(0, 40)}"`;

/**
 * What outweighs a read-only mark: a name that leads with (or joins) a destructive verb, or a
 * description sentence saying the tool destroys something ("Deletes the pod").
 */
function destroys(name: NameReading, description: string): string | undefined {
  if (name.writeWord && DESTRUCTIVE_NAME_VERBS.has(name.writeWord))
    return `name says ${name.writeWord}`;
  if (name.joined && DESTRUCTIVE_NAME_VERBS.has(name.joined.verb))
    return `name says ${name.joined.joiner} ${name.joined.verb}`;
  const acts = DESCRIPTION_ACTS.exec(description) ?? DESCRIPTION_JOINED.exec(description);
  return acts ? says(acts) : undefined;
}

export function classifyTool(def: ToolSafetyInput): ToolSafety {
  const a = def.annotations ?? {};
  if (a['destructiveHint'] === true)
    return { readOnly: false, reason: 'annotation destructiveHint' };
  if (a['readOnlyHint'] === false)
    return { readOnly: false, reason: 'annotation readOnlyHint false' };
  if (flag(def.destructive) === true) return { readOnly: false, reason: 'definition destructive' };
  if (flag(def.read_only) === false)
    return { readOnly: false, reason: 'definition read_only false' };
  const name = readName(def.name);
  const description = (def.description ?? '').slice(0, 2000);
  const markedReadOnly = flag(def.read_only) === true || a['readOnlyHint'] === true;
  if (markedReadOnly) {
    // a server's read-only mark does not outweigh a name or description that says it destroys
    const destroying = destroys(name, description);
    if (destroying)
      return { readOnly: false, reason: `${destroying} (outweighs its read-only mark)` };
    return {
      readOnly: true,
      reason: flag(def.read_only) === true ? 'definition read_only' : 'annotation readOnlyHint',
    };
  }
  // A name whose first verb reads ("get_restart_count", "list_scale_targets") reads...
  if (name.writeWord) return { readOnly: false, reason: `name says ${name.writeWord}` };
  // ...unless a second action is joined to it ("get_and_delete_pod", "show_then_restart")
  if (name.joined)
    return { readOnly: false, reason: `name says ${name.joined.joiner} ${name.joined.verb}` };
  // what the description says the tool does to things counts whatever the name
  const acts =
    DESCRIPTION_CHANGES.exec(description) ??
    DESCRIPTION_ACTS.exec(description) ??
    DESCRIPTION_JOINED.exec(description);
  if (acts) return { readOnly: false, reason: says(acts) };
  const m = DESCRIPTION_WRITE.exec(description);
  if (m && !name.readLead) return { readOnly: false, reason: says(m) };
  return { readOnly: true, reason: 'no sign of a write' };
}
