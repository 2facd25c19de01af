// The editor's logic without React: the merge patch a draft sends, the rows of a diff, and where
// the API's validation problems (dot paths) belong: a form input or a line of the JSON text.
import { isPlainObject, jsonEqual, type JsonObject } from '@inquest/config-model/merge';

/**
 * The JSON Merge Patch (RFC 7396) that turns the team's own config `before` into `after`: keys
 * gone become `null` (the inherited value applies again), objects on both sides are descended,
 * anything else that differs is sent whole. Empty when nothing changed.
 */
export function mergePatchBetween(before: JsonObject, after: JsonObject): JsonObject {
  const patch: JsonObject = {};
  for (const k of Object.keys(before)) if (!(k in after)) patch[k] = null;
  for (const [k, v] of Object.entries(after)) {
    const prev = before[k];
    if (isPlainObject(prev) && isPlainObject(v)) {
      const sub = mergePatchBetween(prev, v);
      if (Object.keys(sub).length > 0) patch[k] = sub;
    } else if (!(k in before) || !jsonEqual(prev, v)) {
      patch[k] = v;
    }
  }
  return patch;
}

export type DiffKind = 'added' | 'removed' | 'changed';

export interface DiffRow {
  path: string;
  kind: DiffKind;
  /** the value before as JSON text; undefined when absent */
  old?: string;
  /** the value after as JSON text; undefined when absent */
  new?: string;
}

/** A value as one line of JSON (strings quoted, so `"5"` and `5` differ). */
export function formatValue(v: unknown): string {
  return JSON.stringify(v) ?? String(v);
}

/**
 * Rows of a diff, sorted by path. Takes config-model's diff (absent = undefined) and the API's
 * `diff`/`changes` (absent = null): the API never stores null, so null means absent there too.
 */
export function diffRows(diff: Record<string, { old?: unknown; new?: unknown }>): DiffRow[] {
  const absent = (v: unknown) => v === undefined || v === null;
  return Object.entries(diff)
    .map(([path, c]): DiffRow => {
      const kind: DiffKind = absent(c.old) ? 'added' : absent(c.new) ? 'removed' : 'changed';
      return {
        path,
        kind,
        ...(absent(c.old) ? {} : { old: formatValue(c.old) }),
        ...(absent(c.new) ? {} : { new: formatValue(c.new) }),
      };
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A validation problem as the API reports it (`details`, `errors[]`, or `field` alone). */
export interface FieldProblem {
  field: string;
  error: string;
}

/** Every problem of an API error: `errors`, else `details`, else `field` with the message. */
export function problemsOf(err: {
  message: string;
  field?: string;
  details?: FieldProblem;
  errors?: FieldProblem[];
}): FieldProblem[] {
  if (err.errors && err.errors.length > 0) return err.errors;
  if (err.details) return [err.details];
  if (err.field) return [{ field: err.field, error: err.message }];
  return [];
}

/**
 * Splits problems between the form's inputs and the rest. A problem belongs to an input when its
 * path is the input's path or lies below it (`agents.planner.enable_extra_tools.1` belongs to the
 * list input `agents.planner.enable_extra_tools`); the nearest input wins.
 */
export function assignProblems(
  problems: FieldProblem[],
  inputPaths: Iterable<string>,
): { byInput: Map<string, string[]>; unplaced: FieldProblem[] } {
  const paths = [...inputPaths].sort((a, b) => b.length - a.length);
  const byInput = new Map<string, string[]>();
  const unplaced: FieldProblem[] = [];
  for (const p of problems) {
    const input = paths.find((ip) => p.field === ip || p.field.startsWith(`${ip}.`));
    if (input === undefined) unplaced.push(p);
    else byInput.set(input, [...(byInput.get(input) ?? []), p.error]);
  }
  return { byInput, unplaced };
}

/**
 * The 1-based line of each member and array element of a JSON text, by dot path (`agents.planner`,
 * `mcp_servers.0.url`). Tolerant: stops at the first syntax error and returns what it found.
 */
export function jsonLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  let i = 0;
  let line = 1;
  const fail = (): never => {
    throw new SyntaxError('json');
  };
  const ws = () => {
    while (i < text.length && /\s/.test(text[i]!)) {
      if (text[i] === '\n') line++;
      i++;
    }
  };
  const str = (): string => {
    if (text[i] !== '"') fail();
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++;
      if (text[i] === '\n') fail();
      i++;
    }
    if (i >= text.length) fail();
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: string): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        const at = line;
        const key = str();
        const p = path ? `${path}.${key}` : key;
        if (!lines.has(p)) lines.set(p, at);
        ws();
        if (text[i] !== ':') fail();
        i++;
        value(p);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail();
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (let n = 0; ; n++) {
        ws();
        const p = path ? `${path}.${n}` : String(n);
        if (!lines.has(p)) lines.set(p, line);
        value(p);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail();
      }
    } else if (c === '"') {
      str();
    } else {
      const m = /^-?[0-9][0-9.eE+-]*|^true|^false|^null/.exec(text.slice(i, i + 64));
      if (!m) fail();
      i += m![0].length;
    }
  };
  try {
    value('');
  } catch {
    // keep the lines found before the error
  }
  return lines;
}

/**
 * The line a problem's path points at: the path itself, else its nearest ancestor present in the
 * text (an unknown key the user typed is there; a missing required member is not, its object is).
 */
export function lineOf(lines: Map<string, number>, path: string): number | undefined {
  const parts = path.split('.');
  for (let n = parts.length; n > 0; n--) {
    const hit = lines.get(parts.slice(0, n).join('.'));
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/**
 * A copy of `doc` with `value` at the dot path; `undefined` removes the key, and objects left
 * empty by a removal are removed too (the team then sets nothing there and inherits).
 */
export function withValueAt(doc: JsonObject, path: string, value: unknown): JsonObject {
  const [head, ...rest] = path.split('.');
  const key = head!;
  const out: JsonObject = { ...doc };
  if (rest.length === 0) {
    if (value === undefined) delete out[key];
    else out[key] = value;
    return out;
  }
  const child = isPlainObject(doc[key]) ? doc[key] : {};
  const next = withValueAt(child, rest.join('.'), value);
  if (Object.keys(next).length === 0) delete out[key];
  else out[key] = next;
  return out;
}
