/**
 * A stand-in for `helm template`, for tests where no `helm` binary can be installed: the subset
 * of Go's text/template and of Helm's and sprig's functions that deploy/helm/inquest uses.
 * Actions `{{ }}` with trim markers, comments, pipelines, variables (`:=`, `=`), `if`/`else if`/
 * `else`, `range` (lists and maps in key order, with `$k, $v :=`), `with`/`else`, `define` and
 * `include`. Not Helm: no `lookup`, no `tpl`, no `Capabilities` beyond a fixed version, numbers
 * print as JavaScript prints them. A function the chart starts using must be added here.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';

type Value = unknown;
type Dict = Record<string, Value>;

// ---------------------------------------------------------------- lexing and parsing

type Node =
  | { t: 'text'; text: string }
  | { t: 'action'; pipe: Pipeline }
  | { t: 'if'; branches: { cond: Pipeline; body: Node[] }[]; otherwise?: Node[] }
  | { t: 'range'; vars: string[]; pipe: Pipeline; body: Node[]; otherwise?: Node[] }
  | { t: 'with'; pipe: Pipeline; body: Node[]; otherwise?: Node[] }
  | { t: 'define'; name: string; body: Node[] };

/** `$x := …`, `$x = …` or a plain pipeline */
interface Pipeline {
  decl?: { name: string; assign: boolean };
  cmds: Arg[][];
}

type Arg =
  | { k: 'lit'; v: Value }
  | { k: 'field'; base: 'dot' | string; path: string[] }
  | { k: 'ident'; name: string }
  | { k: 'pipe'; pipe: Pipeline; path: string[] };

interface Action {
  text: string;
}

function tokenize(src: string): (string | Action)[] {
  const out: (string | Action)[] = [];
  let i = 0;
  let trimNext = false;
  while (i < src.length) {
    const open = src.indexOf('{{', i);
    let text = open < 0 ? src.slice(i) : src.slice(i, open);
    if (trimNext) text = text.replace(/^\s+/, '');
    trimNext = false;
    if (open < 0) {
      out.push(text);
      break;
    }
    let start = open + 2;
    if (src[start] === '-' && /\s/.test(src[start + 1] ?? '')) {
      text = text.replace(/\s+$/, '');
      start += 1;
    }
    out.push(text);
    // a comment may hold "}}"-free text only up to "*/}}"
    let close: number;
    const afterOpen = src.slice(start).trimStart();
    if (afterOpen.startsWith('/*')) {
      const end = src.indexOf('*/', start);
      close = src.indexOf('}}', end);
    } else close = findClose(src, start);
    if (close < 0) throw new Error(`unclosed action at ${src.slice(open, open + 40)}`);
    let inner = src.slice(start, close);
    if (/\s-$/.test(inner)) {
      inner = inner.slice(0, -1);
      trimNext = true;
    }
    out.push({ text: inner.trim() });
    i = close + 2;
  }
  return out;
}

/** the `}}` closing an action, skipping string literals */
function findClose(src: string, from: number): number {
  let q: string | undefined;
  for (let i = from; i < src.length; i++) {
    const c = src[i]!;
    if (q) {
      if (c === '\\' && q === '"') i++;
      else if (c === q) q = undefined;
    } else if (c === '"' || c === '`') q = c;
    else if (c === '}' && src[i + 1] === '}') return i;
  }
  return -1;
}

function lexArgs(s: string): string[] {
  const toks: string[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"' || c === '`') {
      let j = i + 1;
      while (j < s.length && s[j] !== c) j += s[j] === '\\' && c === '"' ? 2 : 1;
      toks.push(s.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    if (c === '(' || c === ')' || c === '|') {
      toks.push(c);
      i++;
      // `(…).field` (no space): a field of the parenthesised value, marked for the parser
      if (c === ')' && s[i] === '.' && /[A-Za-z_]/.test(s[i + 1] ?? '')) {
        let j = i;
        while (j < s.length && !/[\s()|]/.test(s[j]!)) j++;
        toks.push(`\u0000${s.slice(i, j)}`);
        i = j;
      }
      continue;
    }
    if (c === ':' && s[i + 1] === '=') {
      toks.push(':=');
      i += 2;
      continue;
    }
    if (c === '=' && s[i + 1] !== '=') {
      toks.push('=');
      i++;
      continue;
    }
    let j = i;
    while (j < s.length && !/[\s()|]/.test(s[j]!) && !(s[j] === ':' && s[j + 1] === '=')) j++;
    toks.push(s.slice(i, j));
    i = j;
  }
  return toks;
}

function parsePipeline(text: string): Pipeline {
  const toks = lexArgs(text);
  let pos = 0;
  const pipe: Pipeline = { cmds: [] };
  if (toks.length >= 2 && toks[0]!.startsWith('$') && (toks[1] === ':=' || toks[1] === '=')) {
    pipe.decl = { name: toks[0]!, assign: toks[1] === '=' };
    pos = 2;
  }
  const parseCmds = (stopAt?: string): Arg[][] => {
    const cmds: Arg[][] = [[]];
    while (pos < toks.length) {
      const t = toks[pos++]!;
      if (t === stopAt) return cmds;
      if (t === '|') {
        cmds.push([]);
        continue;
      }
      if (t === '(') {
        const inner = parseCmds(')');
        let path: string[] = [];
        const next = toks[pos];
        if (next && next.startsWith('\u0000')) {
          path = next.slice(2).split('.');
          pos++;
        }
        cmds[cmds.length - 1]!.push({ k: 'pipe', pipe: { cmds: inner }, path });
        continue;
      }
      cmds[cmds.length - 1]!.push(term(t));
    }
    if (stopAt) throw new Error(`missing ${stopAt} in ${text}`);
    return cmds;
  };
  pipe.cmds = parseCmds();
  return pipe;
}

function term(t: string): Arg {
  if (t.startsWith('"')) return { k: 'lit', v: JSON.parse(t) as string };
  if (t.startsWith('`')) return { k: 'lit', v: t.slice(1, -1) };
  if (/^-?\d+(\.\d+)?$/.test(t)) return { k: 'lit', v: Number(t) };
  if (t === 'true' || t === 'false') return { k: 'lit', v: t === 'true' };
  if (t === 'nil') return { k: 'lit', v: null };
  if (t === '.') return { k: 'field', base: 'dot', path: [] };
  if (t.startsWith('.')) return { k: 'field', base: 'dot', path: t.slice(1).split('.') };
  if (t.startsWith('$')) {
    const [name, ...path] = t.split('.');
    return { k: 'field', base: name!, path };
  }
  return { k: 'ident', name: t };
}

function parse(tokens: (string | Action)[]): { nodes: Node[]; defines: Map<string, Node[]> } {
  const defines = new Map<string, Node[]>();
  let pos = 0;
  const block = (): { nodes: Node[]; end: string } => {
    const nodes: Node[] = [];
    while (pos < tokens.length) {
      const tok = tokens[pos++]!;
      if (typeof tok === 'string') {
        if (tok) nodes.push({ t: 'text', text: tok });
        continue;
      }
      const a = tok.text;
      if (a.startsWith('/*')) continue;
      const [kw, ...restArr] = a.split(/\s+/);
      const rest = a.slice(kw!.length).trim();
      void restArr;
      if (kw === 'end' || kw === 'else') return { nodes, end: a };
      if (kw === 'if') {
        const branches = [{ cond: parsePipeline(rest), body: [] as Node[] }];
        let otherwise: Node[] | undefined;
        for (;;) {
          const r = block();
          if (otherwise) {
            otherwise = r.nodes;
            break;
          }
          branches[branches.length - 1]!.body = r.nodes;
          if (r.end === 'end') break;
          const elseRest = r.end.slice(4).trim();
          if (elseRest.startsWith('if ')) {
            branches.push({ cond: parsePipeline(elseRest.slice(3)), body: [] });
            continue;
          }
          const last = block();
          otherwise = last.nodes;
          break;
        }
        nodes.push({ t: 'if', branches, otherwise });
        continue;
      }
      if (kw === 'range' || kw === 'with') {
        let vars: string[] = [];
        let expr = rest;
        const m = /^(\$\w*)(?:\s*,\s*(\$\w*))?\s*:=\s*(.*)$/.exec(rest);
        if (kw === 'range' && m) {
          vars = m[2] ? [m[1]!, m[2]] : [m[1]!];
          expr = m[3]!;
        }
        const body = block();
        const otherwise = body.end === 'else' ? block().nodes : undefined;
        if (kw === 'range')
          nodes.push({ t: 'range', vars, pipe: parsePipeline(expr), body: body.nodes, otherwise });
        else nodes.push({ t: 'with', pipe: parsePipeline(expr), body: body.nodes, otherwise });
        continue;
      }
      if (kw === 'define') {
        const name = JSON.parse(rest) as string;
        defines.set(name, block().nodes);
        continue;
      }
      if (kw === 'template') throw new Error('{{ template }} is not supported: use include');
      nodes.push({ t: 'action', pipe: parsePipeline(a) });
    }
    return { nodes, end: '' };
  };
  const { nodes } = block();
  return { nodes, defines };
}

// ---------------------------------------------------------------- evaluation

class Scope {
  private vars = new Map<string, Value>();
  constructor(private readonly parent?: Scope) {}
  get(name: string): Value {
    if (this.vars.has(name)) return this.vars.get(name);
    if (this.parent) return this.parent.get(name);
    throw new Error(`undefined variable ${name}`);
  }
  declare(name: string, v: Value): void {
    this.vars.set(name, v);
  }
  assign(name: string, v: Value): void {
    if (this.vars.has(name)) this.vars.set(name, v);
    else if (this.parent) this.parent.assign(name, v);
    else throw new Error(`assignment to undeclared ${name}`);
  }
}

export function truthy(v: Value): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

function str(v: Value): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

const sortedKeys = (o: object) => Object.keys(o).sort();

function sortDeep(v: Value): Value {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (v && typeof v === 'object')
    return Object.fromEntries(sortedKeys(v).map((k) => [k, sortDeep((v as Dict)[k])]));
  return v;
}

function field(v: Value, path: string[], what: string): Value {
  let cur = v;
  for (const p of path) {
    if (cur === undefined || cur === null)
      throw new Error(`nil pointer evaluating ${what}: .${path.join('.')}`);
    if (typeof cur !== 'object') throw new Error(`can't evaluate field ${p} in ${what}`);
    cur = (cur as Dict)[p];
  }
  return cur;
}

function printf(fmt: string, ...args: Value[]): string {
  let i = 0;
  return fmt.replace(/%([svdq%])/g, (_m, c: string) => {
    if (c === '%') return '%';
    const a = args[i++];
    if (c === 'q') return JSON.stringify(str(a));
    if (c === 'd') return String(Math.trunc(Number(a)));
    return str(a);
  });
}

export interface Chart {
  name: string;
  version: string;
  appVersion: string;
  /** template file (path under the chart's parent dir, e.g. inquest/templates/x.yaml) -> source */
  templates: Map<string, string>;
}

export function loadChart(dir: string): Chart {
  const meta = parseYaml(readFileSync(join(dir, 'Chart.yaml'), 'utf8')) as Dict;
  const templates = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else templates.set(join(basename(dir), relative(dir, p)), readFileSync(p, 'utf8'));
    }
  };
  walk(join(dir, 'templates'));
  return {
    name: str(meta.name),
    version: str(meta.version),
    appVersion: str(meta.appVersion),
    templates,
  };
}

/** Deep merge of values files (later wins; maps merge, everything else replaces), like `-f a -f b`. */
export function mergeValues(...layers: Dict[]): Dict {
  const merge = (a: Value, b: Value): Value => {
    if (
      a &&
      b &&
      typeof a === 'object' &&
      typeof b === 'object' &&
      !Array.isArray(a) &&
      !Array.isArray(b)
    ) {
      const out: Dict = { ...(a as Dict) };
      for (const [k, v] of Object.entries(b as Dict))
        out[k] = v === null ? undefined : merge(out[k], v);
      for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
      return out;
    }
    return b === undefined ? a : b;
  };
  return layers.reduce((acc, l) => merge(acc, l) as Dict, {} as Dict);
}

export interface RenderOptions {
  releaseName?: string;
  namespace?: string;
  /** true for `helm upgrade` */
  isUpgrade?: boolean;
}

/** Renders every template of the chart: file name -> output (partials `_*.tpl` left out). */
export function renderChart(
  chart: Chart,
  values: Dict,
  opts: RenderOptions = {},
): Map<string, string> {
  const parsed = new Map<string, ReturnType<typeof parse>>();
  const defines = new Map<string, Node[]>();
  for (const [name, src] of chart.templates) {
    const p = parse(tokenize(src));
    parsed.set(name, p);
    for (const [d, body] of p.defines) defines.set(d, body);
  }
  const releaseName = opts.releaseName ?? 'inquest';
  const top = (templateName: string): Dict => ({
    Values: values,
    Chart: { Name: chart.name, Version: chart.version, AppVersion: chart.appVersion },
    Release: {
      Name: releaseName,
      Namespace: opts.namespace ?? 'default',
      Service: 'Helm',
      IsInstall: !opts.isUpgrade,
      IsUpgrade: !!opts.isUpgrade,
      Revision: 1,
    },
    Template: { Name: templateName, BasePath: `${chart.name}/templates` },
    Capabilities: { KubeVersion: { Version: 'v1.30.0', Major: '1', Minor: '30' } },
  });

  const renderNodes = (nodes: Node[], dot: Value, scope: Scope, rootDot: Value): string => {
    let out = '';
    for (const n of nodes) {
      switch (n.t) {
        case 'text':
          out += n.text;
          break;
        case 'action': {
          const v = runPipe(n.pipe, dot, scope, rootDot);
          if (!n.pipe.decl) out += str(v);
          break;
        }
        case 'if': {
          const hit = n.branches.find((b) =>
            truthy(runPipe(b.cond, dot, new Scope(scope), rootDot)),
          );
          if (hit) out += renderNodes(hit.body, dot, new Scope(scope), rootDot);
          else if (n.otherwise) out += renderNodes(n.otherwise, dot, new Scope(scope), rootDot);
          break;
        }
        case 'with': {
          const v = runPipe(n.pipe, dot, scope, rootDot);
          if (truthy(v)) out += renderNodes(n.body, v, new Scope(scope), rootDot);
          else if (n.otherwise) out += renderNodes(n.otherwise, dot, new Scope(scope), rootDot);
          break;
        }
        case 'range': {
          const v = runPipe(n.pipe, dot, scope, rootDot);
          const entries: [Value, Value][] = Array.isArray(v)
            ? v.map((x, i) => [i, x])
            : v && typeof v === 'object'
              ? sortedKeys(v).map((k) => [k, (v as Dict)[k]])
              : typeof v === 'number'
                ? Array.from({ length: v }, (_, i) => [i, i])
                : [];
          if (!entries.length && n.otherwise) {
            out += renderNodes(n.otherwise, dot, new Scope(scope), rootDot);
            break;
          }
          for (const [k, x] of entries) {
            const s = new Scope(scope);
            if (n.vars.length === 1) s.declare(n.vars[0]!, x);
            if (n.vars.length === 2) {
              s.declare(n.vars[0]!, k);
              s.declare(n.vars[1]!, x);
            }
            out += renderNodes(n.body, x, s, rootDot);
          }
          break;
        }
        case 'define':
          break;
      }
    }
    return out;
  };

  const include = (name: string, data: Value): string => {
    const body = defines.get(name);
    if (body) return renderNodes(body, data, rootScope(data), data);
    const file = parsed.get(name);
    if (file) return renderNodes(file.nodes, data, rootScope(data), data);
    throw new Error(`include: no template "${name}"`);
  };
  const rootScope = (dot: Value) => {
    const s = new Scope();
    s.declare('$', dot);
    return s;
  };

  const fns: Record<string, (...a: Value[]) => Value> = {
    include: (name, data) => include(str(name), data),
    required: (msg, v) => {
      if (v === undefined || v === null || v === '') throw new Error(`required: ${str(msg)}`);
      return v;
    },
    fail: (msg) => {
      throw new Error(`fail: ${str(msg)}`);
    },
    default: (d, v) => (truthy(v) ? v : d),
    empty: (v) => !truthy(v),
    coalesce: (...a) => a.find(truthy),
    ternary: (a, b, c) => (truthy(c) ? a : b),
    quote: (...a) => a.map((v) => JSON.stringify(str(v))).join(' '),
    squote: (...a) => a.map((v) => `'${str(v)}'`).join(' '),
    printf: (f, ...a) => printf(str(f), ...a),
    print: (...a) => a.map(str).join(''),
    toString: (v: Value) => str(v),
    int: (v) => Math.trunc(Number(v)),
    toYaml: (v) =>
      v === undefined || v === null
        ? 'null'
        : stringifyYaml(sortDeep(v), { lineWidth: 0 }).replace(/\n$/, ''),
    toJson: (v) => JSON.stringify(sortDeep(v) ?? null),
    fromJson: (v) => JSON.parse(str(v)) as Value,
    nindent: (n, v) =>
      '\n' +
      str(v)
        .split('\n')
        .map((l) => ' '.repeat(Number(n)) + l)
        .join('\n'),
    indent: (n, v) =>
      str(v)
        .split('\n')
        .map((l) => ' '.repeat(Number(n)) + l)
        .join('\n'),
    trunc: (n, v) => str(v).slice(0, Number(n)),
    trim: (v) => str(v).trim(),
    trimSuffix: (suf, v) =>
      str(v).endsWith(str(suf)) ? str(v).slice(0, -str(suf).length || undefined) : str(v),
    trimPrefix: (pre, v) => (str(v).startsWith(str(pre)) ? str(v).slice(str(pre).length) : str(v)),
    hasPrefix: (pre, v) => str(v).startsWith(str(pre)),
    hasSuffix: (suf, v) => str(v).endsWith(str(suf)),
    contains: (sub, v) => str(v).includes(str(sub)),
    replace: (a, b, v) => str(v).split(str(a)).join(str(b)),
    upper: (v) => str(v).toUpperCase(),
    lower: (v) => str(v).toLowerCase(),
    b64enc: (v) => Buffer.from(str(v)).toString('base64'),
    sha256sum: (v) => createHash('sha256').update(str(v)).digest('hex'),
    join: (sep, l) => (Array.isArray(l) ? l.map(str).join(str(sep)) : str(l)),
    split: (sep, v) => str(v).split(str(sep)),
    list: (...a) => a,
    append: (l, v) => [...(Array.isArray(l) ? l : []), v],
    concat: (...ls) => ls.flatMap((l) => (Array.isArray(l) ? l : [])),
    first: (l) => (Array.isArray(l) ? l[0] : undefined),
    has: (v, l) => Array.isArray(l) && l.includes(v),
    dict: (...a) => {
      const d: Dict = {};
      for (let i = 0; i + 1 < a.length; i += 2) d[str(a[i])] = a[i + 1];
      return d;
    },
    set: (d, k, v) => {
      (d as Dict)[str(k)] = v;
      return d;
    },
    hasKey: (d, k) =>
      !!d && typeof d === 'object' && Object.prototype.hasOwnProperty.call(d, str(k)),
    // Go's map order is random: a chart sorts what it prints (sortAlpha)
    keys: (d) => (d && typeof d === 'object' ? Object.keys(d).reverse() : []),
    sortAlpha: (l) => (Array.isArray(l) ? l.map(str).sort() : []),
    merge: (dst, ...srcs) => mergeValues(...srcs.reverse().map((s) => s as Dict), dst as Dict),
    index: (v, ...ks) =>
      ks.reduce((cur: Value, k) => (cur == null ? undefined : (cur as Dict)[str(k)]), v),
    eq: (a, ...bs) => bs.some((b) => a === b),
    ne: (a, b) => a !== b,
    lt: (a, b) => Number(a) < Number(b),
    le: (a, b) => Number(a) <= Number(b),
    gt: (a, b) => Number(a) > Number(b),
    ge: (a, b) => Number(a) >= Number(b),
    not: (v) => !truthy(v),
    and: (...a) => a.find((x) => !truthy(x)) ?? a[a.length - 1],
    or: (...a) => a.find(truthy) ?? a[a.length - 1],
    add: (...a) => a.reduce((s: number, x) => s + Number(x), 0),
    kindIs: (k, v) =>
      ({
        map: !!v && typeof v === 'object' && !Array.isArray(v),
        slice: Array.isArray(v),
        string: typeof v === 'string',
        bool: typeof v === 'boolean',
      })[str(k)] ?? false,
  };

  const evalArg = (a: Arg, dot: Value, scope: Scope, rootDot: Value): Value => {
    switch (a.k) {
      case 'lit':
        return a.v;
      case 'field':
        return a.base === 'dot'
          ? field(dot, a.path, '.')
          : field(scope.get(a.base), a.path, a.base);
      case 'pipe':
        return field(runPipe(a.pipe, dot, scope, rootDot), a.path, '(…)');
      case 'ident': {
        const f = fns[a.name];
        if (!f) throw new Error(`function "${a.name}" not defined`);
        return f();
      }
    }
  };

  const runPipe = (p: Pipeline, dot: Value, scope: Scope, rootDot: Value): Value => {
    let prev: Value;
    let first = true;
    for (const cmd of p.cmds) {
      const [head, ...rest] = cmd;
      if (!head) throw new Error('empty command');
      let v: Value;
      if (head.k === 'ident' && (head.name === 'and' || head.name === 'or') && first) {
        // Go 1.18+: and/or evaluate their arguments only as far as needed
        let last: Value;
        for (const a of rest) {
          last = evalArg(a, dot, scope, rootDot);
          if (head.name === 'and' ? !truthy(last) : truthy(last)) break;
        }
        v = last;
      } else if (head.k === 'ident') {
        const f = fns[head.name];
        if (!f) throw new Error(`function "${head.name}" not defined`);
        const args = rest.map((a) => evalArg(a, dot, scope, rootDot));
        if (!first) args.push(prev);
        v = f(...args);
      } else {
        if (rest.length) throw new Error('arguments to a non-function');
        v = evalArg(head, dot, scope, rootDot);
      }
      prev = v;
      first = false;
    }
    if (p.decl) {
      if (p.decl.assign) scope.assign(p.decl.name, prev);
      else scope.declare(p.decl.name, prev);
    }
    return prev;
  };

  const out = new Map<string, string>();
  for (const [name, p] of parsed) {
    if (basename(name).startsWith('_')) continue;
    const dot = top(name);
    out.set(name, renderNodes(p.nodes, dot, rootScope(dot), dot));
  }
  return out;
}
