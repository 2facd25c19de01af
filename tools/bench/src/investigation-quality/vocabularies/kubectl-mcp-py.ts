import { createHash } from 'node:crypto';
import { type KubeObject, type WorldIndex, rfc1123z, toDate } from '@inquest/kube';
import { CONTEXT, KubectlFailure, kubectlCli } from './kubectl-cli';
import { ToolFailure, type VocabularyTool } from './mcp-vocabulary-server';

/*
 * The Python side of rohitg00/kubectl-mcp-server as a client sees it: FastMCP 3 tools declared from
 * Python signatures and Google docstrings, results serialized the way FastMCP serializes them,
 * argument validation as pydantic does it, exceptions as the kubernetes client and kubectl
 * report them. kubectl-mcp.ts and kubectl-mcp-ecosystem.ts declare the tools over these helpers.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Py = any;

/** A Python type annotation of a tool parameter. `?` is Optional[...]. */
export type PyType =
  | 'str'
  | 'str?'
  | 'int'
  | 'int?'
  | 'float'
  | 'bool'
  | 'list[str]'
  | 'list[str]?'
  | 'dict[str,str]'
  | 'dict[str,str]?'
  | 'dict?';

/** Marks a parameter without a default (required). */
export const REQ = Symbol('required');

export interface Param {
  name: string;
  type: PyType;
  default: unknown;
  /** the docstring's `Args:` line for it (FastMCP puts it in the schema) */
  doc?: string;
}

export const param = (name: string, type: PyType, dflt: unknown = REQ, doc?: string): Param => ({
  name,
  type,
  default: dflt,
  ...(doc ? { doc } : {}),
});

/** An exception raised out of a tool function: FastMCP answers `Error calling tool '<name>': <e>`. */
export class PyError extends Error {}

export interface ToolDef {
  name: string;
  /** the docstring's summary (text before `Args:`), which FastMCP 3 publishes as the description */
  doc: string;
  params: Param[];
  annotations?: Record<string, unknown>;
  /** True for a tool that changes the cluster (or the server's machine): refused by the bench */
  write?: boolean;
  writes?(args: Record<string, unknown>): boolean;
  /** the function: a dict (serialized as FastMCP does) or a str (returned as is) */
  run?(args: Record<string, Py>): Py;
}

/** Annotations as declared: `ToolAnnotations(title=..., readOnlyHint=...)` (None fields omitted). */
export const ann = (title: string | undefined, hints: Record<string, boolean>) => ({
  ...(title ? { title } : {}),
  ...hints,
});
/** readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=True */
export const RO_FULL = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};

// ------------------------------------------------------------------ Python values and text

/** Python's repr() of a JSON-like value. */
export function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(v);
  if (typeof v === 'string') {
    const quote = v.includes("'") && !v.includes('"') ? '"' : "'";
    const body = v
      .replace(/\\/g, '\\\\')
      .replace(/\n/g, '\\n')
      .replace(/\t/g, '\\t')
      .replace(quote === "'" ? /'/g : /"/g, `\\${quote}`);
    return `${quote}${body}${quote}`;
  }
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (typeof v === 'object')
    return `{${Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`)
      .join(', ')}}`;
  return String(v);
}

/** Python's str() inside an f-string. */
export const pyStr = (v: unknown): string => (typeof v === 'string' ? v : pyRepr(v));

const pyTypeName = (v: unknown): string =>
  v === null || v === undefined
    ? 'NoneType'
    : typeof v === 'string'
      ? 'str'
      : typeof v === 'boolean'
        ? 'bool'
        : typeof v === 'number'
          ? Number.isInteger(v)
            ? 'int'
            : 'float'
          : Array.isArray(v)
            ? 'list'
            : 'dict';

/**
 * `json.dumps(v, indent=2)`: two-space indent, `": "` and `","` separators, non-ASCII escaped.
 */
export function pyJsonIndent(v: unknown): string {
  return JSON.stringify(v, null, 2).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** `json.dumps(v)`: `", "` and `": "` separators on one line. */
export function pyJsonDumps(v: unknown): string {
  const walk = (x: unknown): string => {
    if (x === null || x === undefined) return 'null';
    if (Array.isArray(x)) return `[${x.map(walk).join(', ')}]`;
    if (typeof x === 'object')
      return `{${Object.entries(x as Record<string, unknown>)
        .map(([k, y]) => `${JSON.stringify(k)}: ${walk(y)}`)
        .join(', ')}}`;
    return JSON.stringify(x);
  };
  return walk(v).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A Kubernetes timestamp as the python client's datetime prints: str() or isoformat(). */
export function pyDate(ts: unknown, iso = false): string | null {
  const d = toDate(ts);
  if (!d) return null;
  const s = d.toISOString();
  const frac = s.slice(19, 23) === '.000' ? '' : `${s.slice(19, 23)}000`;
  return `${s.slice(0, 10)}${iso ? 'T' : ' '}${s.slice(11, 19)}${frac}+00:00`;
}

/** Python's round(x, 1) / round(x, 2) as pydantic serializes the float. */
export const pyRound = (x: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/** Python's f"{x:.1f}". */
export const fmt1 = (x: number) => x.toFixed(1);

// ------------------------------------------------------------------ schemas and validation

function typeSchema(t: PyType): Record<string, unknown> {
  switch (t.replace('?', '')) {
    case 'str':
      return { type: 'string' };
    case 'int':
      return { type: 'integer' };
    case 'float':
      return { type: 'number' };
    case 'bool':
      return { type: 'boolean' };
    case 'list[str]':
      return { items: { type: 'string' }, type: 'array' };
    case 'dict[str,str]':
      return { additionalProperties: { type: 'string' }, type: 'object' };
    default:
      return { additionalProperties: true, type: 'object' };
  }
}

/** The input schema FastMCP derives from the signature (pydantic, titles pruned). */
export function inputSchema(params: Param[]): VocabularyTool['inputSchema'] {
  const properties: Record<string, unknown> = {};
  for (const p of params) {
    const base = typeSchema(p.type);
    const schema: Record<string, unknown> = p.type.endsWith('?')
      ? { anyOf: [base, { type: 'null' }] }
      : { ...base };
    if (p.default !== REQ) schema['default'] = p.default;
    if (p.doc) schema['description'] = p.doc;
    properties[p.name] = schema;
  }
  const required = params.filter((p) => p.default === REQ).map((p) => p.name);
  return {
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
  };
}

interface Issue {
  loc: string;
  msg: string;
  type: string;
  input: unknown;
}

const TRUE = ['true', '1', 'yes', 'y', 'on', 't'];
const FALSE = ['false', '0', 'no', 'n', 'off', 'f'];

function coerce(t: PyType, v: unknown, loc: string, issues: Issue[]): unknown {
  if (v === null && t.endsWith('?')) return null;
  const base = t.replace('?', '');
  const bad = (msg: string, type: string) => {
    issues.push({ loc, msg, type, input: v });
    return undefined;
  };
  switch (base) {
    case 'str':
      return typeof v === 'string' ? v : bad('Input should be a valid string', 'string_type');
    case 'int':
      if (typeof v === 'number') {
        if (Number.isInteger(v)) return v;
        return bad(
          'Input should be a valid integer, got a number with a fractional part',
          'int_from_float',
        );
      }
      if (typeof v === 'string' && /^\s*[-+]?\d+\s*$/.test(v)) return Number(v.trim());
      if (typeof v === 'boolean') return v ? 1 : 0;
      return typeof v === 'string'
        ? bad(
            'Input should be a valid integer, unable to parse string as an integer',
            'int_parsing',
          )
        : bad('Input should be a valid integer', 'int_type');
    case 'float':
      if (typeof v === 'number') return v;
      if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
      return typeof v === 'string'
        ? bad('Input should be a valid number, unable to parse string as a number', 'float_parsing')
        : bad('Input should be a valid number', 'float_type');
    case 'bool':
      if (typeof v === 'boolean') return v;
      if (typeof v === 'number' && (v === 0 || v === 1)) return v === 1;
      if (typeof v === 'string' && TRUE.includes(v.toLowerCase())) return true;
      if (typeof v === 'string' && FALSE.includes(v.toLowerCase())) return false;
      return bad('Input should be a valid boolean, unable to interpret input', 'bool_parsing');
    case 'list[str]':
      if (!Array.isArray(v)) return bad('Input should be a valid list', 'list_type');
      return v.map((x, i) => coerce('str', x, `${loc}.${i}`, issues));
    case 'dict[str,str]':
      if (!v || typeof v !== 'object' || Array.isArray(v))
        return bad('Input should be a valid dictionary', 'dict_type');
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>).map(([k, x]) => [
          k,
          coerce('str', x, `${loc}.${k}`, issues),
        ]),
      );
    default:
      if (!v || typeof v !== 'object' || Array.isArray(v))
        return bad('Input should be a valid dictionary', 'dict_type');
      return v;
  }
}

/**
 * The arguments as pydantic validates a call: defaults filled in, lax coercion, and its
 * ValidationError text for missing, unexpected or mistyped arguments.
 */
export function validateArgs(def: ToolDef, args: Record<string, unknown>): Record<string, Py> {
  const issues: Issue[] = [];
  const out: Record<string, Py> = {};
  for (const p of def.params) {
    if (!(p.name in args)) {
      if (p.default === REQ)
        issues.push({
          loc: p.name,
          msg: 'Missing required argument',
          type: 'missing_argument',
          input: args,
        });
      else out[p.name] = p.default;
      continue;
    }
    out[p.name] = coerce(p.type, args[p.name], p.name, issues);
  }
  for (const [k, v] of Object.entries(args)) {
    if (!def.params.some((p) => p.name === k))
      issues.push({
        loc: k,
        msg: 'Unexpected keyword argument',
        type: 'unexpected_keyword_argument',
        input: v,
      });
  }
  if (issues.length) {
    const lines = [
      `${issues.length} validation error${issues.length > 1 ? 's' : ''} for call[${def.name}]`,
    ];
    for (const i of issues) {
      lines.push(
        i.loc,
        `  ${i.msg} [type=${i.type}, input_value=${pyRepr(i.input)}, input_type=${pyTypeName(i.input)}]`,
        `    For further information visit https://errors.pydantic.dev/2.12/v/${i.type}`,
      );
    }
    throw new PyError(lines.join('\n'));
  }
  return out;
}

// ------------------------------------------------------------------ the cluster, as Python sees it

const uuidOf = (seed: string) => {
  const h = createHash('sha1').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
};

/** kubernetes.client.exceptions.ApiException as str() prints it. */
export function apiException(
  world: WorldIndex,
  status: number,
  reason: string,
  body: Record<string, unknown>,
): string {
  const text = JSON.stringify(body);
  const seed = text;
  const date = rfc1123z(world.now).replace('+0000', 'GMT');
  const headers = `HTTPHeaderDict({'Audit-Id': '${uuidOf(`a${seed}`)}', 'Cache-Control': 'no-cache, private', 'Content-Type': 'application/json', 'X-Kubernetes-Pf-Flowschema-Uid': '${uuidOf(`f${seed}`)}', 'X-Kubernetes-Pf-Prioritylevel-Uid': '${uuidOf(`p${seed}`)}', 'Date': '${date}', 'Content-Length': '${Buffer.byteLength(text)}'})`;
  return `(${status})\nReason: ${reason}\nHTTP response headers: ${headers}\nHTTP response body: ${text}\n`;
}

/** The API server's 404 for `<plural>[.group] "<name>"`, as the python client raises it. */
export function notFound(world: WorldIndex, plural: string, name: string, group = ''): string {
  return apiException(world, 404, 'Not Found', {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${group ? `${plural}.${group}` : plural} "${name}" not found`,
    reason: 'NotFound',
    details: { name, ...(group ? { group } : {}), kind: plural },
    code: 404,
  });
}

/**
 * `get_k8s_client(context)` and friends: an unknown context fails to load the kubeconfig and the
 * helper raises RuntimeError("Invalid kube-config. ...").
 */
export function k8sClient(context: string): void {
  if (context && context !== CONTEXT.name)
    throw new PyError(
      `Invalid kube-config. Context: ${context}. Error: Invalid kube-config file. Expected object with name ${context} in /root/.kube/config/contexts list`,
    );
}

/** `_get_kubectl_context_args(context)` */
export const ctxArgs = (context: string): string[] =>
  context && context.trim() ? ['--context', context.trim()] : [];

export interface KubectlResult {
  returncode: number;
  stdout: string;
  stderr: string;
}

/** Runs a kubectl command line over the world as `subprocess.run(..., capture_output=True)`. */
export function runner(world: WorldIndex, extra: (args: string[]) => KubectlResult | undefined) {
  const cli = kubectlCli(world);
  return (args: string[]): KubectlResult => {
    const special = extra(args);
    if (special) return special;
    try {
      return { returncode: 0, stdout: cli.run(args), stderr: '' };
    } catch (err) {
      if (err instanceof KubectlFailure)
        return {
          returncode: 1,
          stdout: '',
          stderr: err.stderr.endsWith('\n') ? err.stderr : `${err.stderr}\n`,
        };
      throw err;
    }
  };
}

/** `context or "current"` */
export const ctxOf = (context: string) => context || 'current';

/** The world's custom kinds as the CRDs a cluster serving them has. */
export function crdsOf(world: WorldIndex): KubeObject[] {
  return world.customKinds().map((k) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${k.plural}.${k.group}`,
      uid: uuidOf(`crd${k.plural}.${k.group}`),
      creationTimestamp: world.now.toISOString().replace(/\.\d+Z$/, 'Z'),
    },
    spec: {
      group: k.group,
      names: {
        kind: k.kind,
        listKind: `${k.kind}List`,
        plural: k.plural,
        singular: k.singular ?? k.kind.toLowerCase(),
        ...(k.shortNames.length ? { shortNames: k.shortNames } : {}),
      },
      scope: k.namespaced ? 'Namespaced' : 'Cluster',
      versions: [{ name: k.version, served: true, storage: true }],
    },
    status: {
      conditions: [
        { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts' },
        { type: 'Established', status: 'True', reason: 'InitialNamesAccepted' },
      ],
      acceptedNames: { kind: k.kind, plural: k.plural },
      storedVersions: [k.version],
    },
  }));
}

/** Turns the declarations into the bench's tools: validation, FastMCP's serialization and errors. */
export function toVocabulary(defs: ToolDef[]): VocabularyTool[] {
  return defs.map((def) => ({
    name: def.name,
    description: def.doc,
    inputSchema: inputSchema(def.params),
    ...(def.annotations ? { annotations: def.annotations } : {}),
    ...(def.write ? { write: true } : {}),
    ...(def.writes ? { writes: def.writes } : {}),
    ...(def.run
      ? {
          run: (args: Record<string, unknown>) => {
            try {
              const a = validateArgs(def, args);
              const out = def.run!(a);
              return typeof out === 'string' ? out : JSON.stringify(out);
            } catch (err) {
              if (err instanceof PyError) throw new ToolError(def.name, err.message);
              throw err;
            }
          },
        }
      : {}),
  }));
}

/** FastMCP's ToolError for an exception raised by the tool (mask_error_details off). */
export class ToolError extends ToolFailure {
  constructor(tool: string, message: string) {
    super(`Error calling tool '${tool}': ${message}`);
  }
}
