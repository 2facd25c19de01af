/**
 * A subset of Go's `html/template`, as strowk/mcp-k8s-go's get-k8s-resource runs its `go_template`
 * argument over an unstructured object (a JSON-decoded map): actions with field chains,
 * variables, pipelines, parenthesised pipelines, `if`/`else if`/`else`, `range` (maps in key
 * order), `with`, comments, `{{-`/`-}}` trimming and the builtin functions (and, or, not, len,
 * index, print, printf, println, eq, ne, lt, le, gt, ge, html, js, urlquery). Every value an action
 * prints is HTML-escaped, as html/template does in a text context; a missing map key prints
 * nothing. Errors read like Go's (`template: template:1: function "x" not defined`,
 * `template: template:1:3: executing "template" at <.a.b>: nil pointer evaluating interface {}.b`).
 * Not emulated: `define`/`template`/`block`, `break`/`continue`, HTML-context-dependent escaping.
 */

const NAME = 'template';

/** A Go template error: the message Go's error prints. */
export class GoTemplateError extends Error {}

/** A value missing from a map (Go's invalid reflect.Value), distinct from a JSON null. */
const MISSING: unique symbol = Symbol('missing');
type Value = unknown;

type Arg =
  | { t: 'field'; chain: string[]; pos: number }
  | { t: 'var'; name: string; chain: string[]; pos: number }
  | { t: 'dot'; pos: number }
  | { t: 'ident'; name: string; pos: number }
  | { t: 'str'; v: string; pos: number }
  | { t: 'num'; v: number; pos: number }
  | { t: 'bool'; v: boolean; pos: number }
  | { t: 'nil'; pos: number }
  | { t: 'pipe'; p: Pipeline; chain: string[]; pos: number };
interface Command {
  args: Arg[];
  pos: number;
}
interface Pipeline {
  decl: string[];
  assign: boolean;
  cmds: Command[];
  pos: number;
}
type Node =
  | { t: 'text'; v: string }
  | { t: 'action'; p: Pipeline }
  | { t: 'if' | 'with'; p: Pipeline; list: Node[]; else: Node[] | undefined }
  | { t: 'range'; p: Pipeline; list: Node[]; else: Node[] | undefined };

const FUNCS = new Set([
  'and',
  'or',
  'not',
  'len',
  'index',
  'print',
  'printf',
  'println',
  'eq',
  'ne',
  'lt',
  'le',
  'gt',
  'ge',
  'html',
  'js',
  'urlquery',
  'slice',
  'call',
]);

interface Token {
  k:
    | 'field'
    | 'var'
    | 'ident'
    | 'str'
    | 'num'
    | 'char'
    | 'pipe'
    | 'lp'
    | 'rp'
    | 'decl'
    | 'assign'
    | 'comma'
    | 'dot';
  v: string;
  pos: number;
}

class Parser {
  private i = 0;
  private toks: Token[] = [];
  constructor(private readonly src: string) {}

  line(pos: number): number {
    return this.src.slice(0, pos).split('\n').length;
  }

  fail(pos: number, msg: string): never {
    throw new GoTemplateError(`template: ${NAME}:${this.line(pos)}: ${msg}`);
  }

  /** Splits the source into text and action pieces (with trim markers applied). */
  pieces(): Array<{ text: string } | { action: string; pos: number }> {
    const out: Array<{ text: string } | { action: string; pos: number }> = [];
    let at = 0;
    let trimNext = false;
    while (at <= this.src.length) {
      const open = this.src.indexOf('{{', at);
      let text = this.src.slice(at, open < 0 ? undefined : open);
      if (trimNext) text = text.replace(/^\s+/, '');
      trimNext = false;
      if (open < 0) {
        if (text) out.push({ text });
        break;
      }
      let start = open + 2;
      if (/^-[ \t\r\n]/.test(this.src.slice(start, start + 2))) {
        text = text.replace(/\s+$/, '');
        start += 1;
      }
      if (text) out.push({ text });
      // find the closing delimiter outside of string literals
      let j = start;
      let close = -1;
      while (j < this.src.length) {
        const c = this.src[j]!;
        if (c === '"' || c === '`' || c === "'") {
          const end = this.src.indexOf(c, j + 1);
          if (c === '"' || c === "'") {
            let k = j + 1;
            while (k < this.src.length && this.src[k] !== c) k += this.src[k] === '\\' ? 2 : 1;
            j = k + 1;
          } else j = end < 0 ? this.src.length : end + 1;
          continue;
        }
        if (this.src.startsWith('/*', j)) {
          const end = this.src.indexOf('*/', j + 2);
          if (end < 0) this.fail(j, 'unclosed comment');
          j = end + 2;
          continue;
        }
        if (this.src.startsWith('}}', j)) {
          close = j;
          break;
        }
        j++;
      }
      if (close < 0) this.fail(open, 'unclosed action');
      let inner = this.src.slice(start, close);
      if (/[ \t\r\n]-$/.test(inner)) {
        inner = inner.slice(0, -1);
        trimNext = true;
      }
      out.push({ action: inner, pos: start });
      at = close + 2;
    }
    return out;
  }

  lex(s: string, base: number): Token[] {
    const toks: Token[] = [];
    let i = 0;
    while (i < s.length) {
      const c = s[i]!;
      const pos = base + i;
      if (/\s/.test(c)) {
        i++;
        continue;
      }
      if (s.startsWith('/*', i)) {
        const end = s.indexOf('*/', i + 2);
        i = end < 0 ? s.length : end + 2;
        continue;
      }
      if (c === '|') toks.push({ k: 'pipe', v: c, pos });
      else if (c === '(') toks.push({ k: 'lp', v: c, pos });
      else if (c === ')') toks.push({ k: 'rp', v: c, pos });
      else if (c === ',') toks.push({ k: 'comma', v: c, pos });
      else if (s.startsWith(':=', i)) {
        toks.push({ k: 'decl', v: ':=', pos });
        i += 2;
        continue;
      } else if (c === '=') toks.push({ k: 'assign', v: c, pos });
      else if (c === '"') {
        let j = i + 1;
        while (j < s.length && s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
        if (j >= s.length) this.fail(pos, 'unterminated quoted string');
        toks.push({ k: 'str', v: JSON.parse(s.slice(i, j + 1)) as string, pos });
        i = j + 1;
        continue;
      } else if (c === '`') {
        const j = s.indexOf('`', i + 1);
        if (j < 0) this.fail(pos, 'unterminated raw quoted string');
        toks.push({ k: 'str', v: s.slice(i + 1, j), pos });
        i = j + 1;
        continue;
      } else if (c === "'") {
        const j = s.indexOf("'", i + 1);
        toks.push({ k: 'char', v: s.slice(i + 1, j), pos });
        i = j + 1;
        continue;
      } else if (c === '.' || c === '$') {
        const m = /^(\$[A-Za-z0-9_]*|)((?:\.[A-Za-z0-9_]+)*)(\.?)/.exec(s.slice(i))!;
        if (c === '.' && !m[2]) {
          toks.push({ k: 'dot', v: '.', pos });
          i++;
          continue;
        }
        toks.push({ k: c === '$' ? 'var' : 'field', v: m[1]! + m[2]!, pos });
        i += m[1]!.length + m[2]!.length;
        continue;
      } else if (/[-+0-9]/.test(c)) {
        const m = /^[-+]?(0x[0-9a-fA-F_]+|[0-9_]*\.?[0-9_]+(?:[eE][-+]?[0-9]+)?)/.exec(s.slice(i));
        if (!m) this.fail(pos, `bad number syntax: "${c}"`);
        toks.push({ k: 'num', v: m[0], pos });
        i += m[0].length;
        continue;
      } else if (/[A-Za-z_]/.test(c)) {
        const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(i))!;
        toks.push({ k: 'ident', v: m[0], pos });
        i += m[0].length;
        continue;
      } else this.fail(pos, `unexpected "${c}" in command`);
      i++;
    }
    return toks;
  }

  parse(): Node[] {
    const pieces = this.pieces();
    let at = 0;
    const list = (ends: string[]): { nodes: Node[]; end: string; rest: Token[]; pos: number } => {
      const nodes: Node[] = [];
      while (at < pieces.length) {
        const p = pieces[at++]!;
        if ('text' in p) {
          nodes.push({ t: 'text', v: p.text });
          continue;
        }
        const trimmed = p.action.trim();
        if (trimmed.startsWith('/*')) continue;
        const toks = this.lex(p.action, p.pos);
        if (toks.length === 0) this.fail(p.pos, 'missing value for command');
        const head = toks[0]!;
        const word = head.k === 'ident' ? head.v : '';
        if (word === 'end' || word === 'else') {
          if (!ends.includes(word)) this.fail(head.pos, `unexpected {{${word}}}`);
          return { nodes, end: word, rest: toks.slice(1), pos: head.pos };
        }
        if (word === 'if' || word === 'with' || word === 'range') {
          nodes.push(this.control(word, toks.slice(1), head.pos, list));
          continue;
        }
        if (['define', 'template', 'block', 'break', 'continue'].includes(word))
          this.fail(head.pos, `{{${word}}} is not supported here`);
        this.toks = toks;
        this.i = 0;
        nodes.push({ t: 'action', p: this.pipeline(head.pos, true) });
      }
      if (ends.length) this.fail(this.src.length, 'unexpected EOF');
      return { nodes, end: '', rest: [], pos: this.src.length };
    };
    return list([]).nodes;
  }

  private control(
    word: 'if' | 'with' | 'range',
    toks: Token[],
    pos: number,
    list: (ends: string[]) => { nodes: Node[]; end: string; rest: Token[]; pos: number },
  ): Node {
    this.toks = toks;
    this.i = 0;
    if (toks.length === 0) this.fail(pos, `missing value for ${word}`);
    const p = this.pipeline(pos, word === 'range');
    const body = list(['end', 'else']);
    let elseList: Node[] | undefined;
    if (body.end === 'else') {
      const head = body.rest[0];
      if (
        head &&
        head.k === 'ident' &&
        (head.v === 'if' || head.v === 'with') &&
        word !== 'range'
      ) {
        // {{else if ...}} / {{else with ...}}: a nested control that shares our {{end}}
        elseList = [this.control(head.v as 'if' | 'with', body.rest.slice(1), head.pos, list)];
        return { t: word, p, list: body.nodes, else: elseList } as Node;
      }
      if (body.rest.length) this.fail(body.pos, `unexpected ${body.rest[0]!.v} in else`);
      const tail = list(['end']);
      elseList = tail.nodes;
    }
    return { t: word, p, list: body.nodes, else: elseList } as Node;
  }

  private peek(): Token | undefined {
    return this.toks[this.i];
  }

  private pipeline(pos: number, allowDecl: boolean): Pipeline {
    const decl: string[] = [];
    let assign = false;
    // $x := / $x = / $i, $v :=
    const save = this.i;
    const vars: string[] = [];
    while (this.peek()?.k === 'var' && !this.peek()!.v.includes('.')) {
      vars.push(this.peek()!.v);
      this.i++;
      if (this.peek()?.k === 'comma' && allowDecl) {
        this.i++;
        continue;
      }
      break;
    }
    const op = this.peek();
    if (vars.length && op && (op.k === 'decl' || op.k === 'assign')) {
      this.i++;
      decl.push(...vars);
      assign = op.k === 'assign';
    } else this.i = save;
    const cmds: Command[] = [];
    for (;;) {
      const cmd = this.command();
      cmds.push(cmd);
      const t = this.peek();
      if (!t || t.k === 'rp') break;
      if (t.k === 'pipe') {
        this.i++;
        continue;
      }
      this.fail(t.pos, `unexpected "${t.v}" in operand`);
    }
    return { decl, assign, cmds, pos };
  }

  private command(): Command {
    const args: Arg[] = [];
    const start = this.peek();
    if (!start || start.k === 'pipe' || start.k === 'rp')
      this.fail(start?.pos ?? this.src.length, 'missing value for command');
    while (this.peek() && this.peek()!.k !== 'pipe' && this.peek()!.k !== 'rp') {
      args.push(this.operand());
    }
    return { args, pos: start.pos };
  }

  private operand(): Arg {
    const t = this.toks[this.i++]!;
    switch (t.k) {
      case 'field':
        return { t: 'field', chain: t.v.split('.').slice(1), pos: t.pos };
      case 'var': {
        const [name, ...chain] = t.v.split('.');
        return { t: 'var', name: name!, chain, pos: t.pos };
      }
      case 'dot':
        return { t: 'dot', pos: t.pos };
      case 'str':
        return { t: 'str', v: t.v, pos: t.pos };
      case 'char':
        return { t: 'num', v: t.v.codePointAt(0) ?? 0, pos: t.pos };
      case 'num': {
        const v = Number(t.v.replace(/_/g, ''));
        if (!Number.isFinite(v)) this.fail(t.pos, `bad number syntax: "${t.v}"`);
        return { t: 'num', v, pos: t.pos };
      }
      case 'ident':
        if (t.v === 'true' || t.v === 'false') return { t: 'bool', v: t.v === 'true', pos: t.pos };
        if (t.v === 'nil') return { t: 'nil', pos: t.pos };
        if (!FUNCS.has(t.v)) this.fail(t.pos, `function "${t.v}" not defined`);
        return { t: 'ident', name: t.v, pos: t.pos };
      case 'lp': {
        const p = this.pipeline(t.pos, false);
        if (this.toks[this.i]?.k !== 'rp') this.fail(t.pos, 'unclosed left paren');
        this.i++;
        // a field chain may follow the closing paren: (index .a 0).b
        const next = this.peek();
        let chain: string[] = [];
        if (next && next.k === 'field' && next.pos === this.toks[this.i - 1]!.pos + 1) {
          chain = next.v.split('.').slice(1);
          this.i++;
        }
        return { t: 'pipe', p, chain, pos: t.pos };
      }
      default:
        this.fail(t.pos, `unexpected "${t.v}" in operand`);
    }
  }
}

const isMap = (v: Value): v is Record<string, Value> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function goType(v: Value): string {
  if (v === null || v === MISSING || v === undefined) return 'interface {}';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** Go's %v of a float64. */
function goFloat(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  const exp = n === 0 ? 0 : Math.floor(Math.log10(Math.abs(n)));
  if (exp < -4 || exp >= 21) {
    const [m, e] = n.toExponential().split('e') as [string, string];
    const sign = e.startsWith('-') ? '-' : '+';
    const digits = e.replace(/^[-+]/, '').padStart(2, '0');
    return `${m}e${sign}${digits}`;
  }
  return String(n);
}

/** fmt's %v of a JSON-decoded value. */
export function goPrint(v: Value): string {
  if (v === MISSING || v === undefined) return '<no value>';
  if (v === null) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return goFloat(v);
  if (Array.isArray(v)) return `[${v.map(goPrint).join(' ')}]`;
  const m = v as Record<string, Value>;
  return `map[${Object.keys(m)
    .sort()
    .map((k) => `${k}:${goPrint(m[k])}`)
    .join(' ')}]`;
}

export function htmlEscape(s: string): string {
  return s.replace(/[&'<>"+\0]/g, (c) =>
    c === '&'
      ? '&amp;'
      : c === "'"
        ? '&#39;'
        : c === '<'
          ? '&lt;'
          : c === '>'
            ? '&gt;'
            : c === '"'
              ? '&#34;'
              : c === '+'
                ? '&#43;'
                : '\uFFFD',
  );
}

function truth(v: Value): boolean {
  if (v === MISSING || v === undefined || v === null) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  return Object.keys(v as object).length > 0;
}

/** Go's fmt.Sprintf for the verbs a template uses. */
function sprintf(format: string, args: Value[]): string {
  let n = 0;
  const out = format.replace(
    /%([-+# 0]*)(\d+)?(?:\.(\d+))?([a-zA-Z%])/g,
    (_all, flags, width, prec, verb) => {
      if (verb === '%') return '%';
      if (n >= args.length) return `%!${verb}(MISSING)`;
      const a = args[n++];
      let s: string;
      switch (verb) {
        case 'd':
          s = typeof a === 'number' ? String(Math.trunc(a)) : `%!d(${goType(a)}=${goPrint(a)})`;
          break;
        case 'f':
        case 'F':
          s =
            typeof a === 'number'
              ? a.toFixed(prec === undefined ? 6 : Number(prec))
              : `%!f(${goType(a)}=${goPrint(a)})`;
          break;
        case 'q':
          s = typeof a === 'string' ? JSON.stringify(a) : `%!q(${goType(a)}=${goPrint(a)})`;
          break;
        case 't':
          s = typeof a === 'boolean' ? String(a) : `%!t(${goType(a)}=${goPrint(a)})`;
          break;
        case 's':
        case 'v':
        default:
          s = a === MISSING || a === undefined || a === null ? '%!' + verb + '(<nil>)' : goPrint(a);
          if (verb === 'v' && (a === null || a === MISSING)) s = '<nil>';
          if (prec !== undefined && verb === 's') s = s.slice(0, Number(prec));
      }
      if (width) {
        const w = Number(width);
        if (s.length < w)
          s = String(flags).includes('-')
            ? s.padEnd(w)
            : s.padStart(w, String(flags).includes('0') && verb !== 's' ? '0' : ' ');
      }
      return s;
    },
  );
  return n < args.length
    ? `${out}%!(EXTRA ${args
        .slice(n)
        .map((a) => `${goType(a)}=${goPrint(a)}`)
        .join(', ')})`
    : out;
}

/** fmt.Sprint: a space between operands when neither is a string. */
function sprint(args: Value[]): string {
  let out = '';
  args.forEach((a, i) => {
    if (i > 0 && typeof a !== 'string' && typeof args[i - 1] !== 'string') out += ' ';
    out += goPrint(a === MISSING ? null : a);
  });
  return out;
}

class Exec {
  private vars: Array<[string, Value]> = [];
  private out = '';
  constructor(
    private readonly src: string,
    private readonly root: Value,
  ) {
    this.vars.push(['$', root]);
  }

  private fail(pos: number, at: string, msg: string): never {
    const before = this.src.slice(0, pos);
    const line = before.split('\n').length;
    const col = pos - (before.lastIndexOf('\n') + 1);
    throw new GoTemplateError(
      `template: ${NAME}:${line}:${col}: executing "${NAME}" at <${at}>: ${msg}`,
    );
  }

  run(nodes: Node[]): string {
    this.list(nodes, this.root);
    return this.out;
  }

  private list(nodes: Node[], dot: Value): void {
    for (const n of nodes) this.node(n, dot);
  }

  private node(n: Node, dot: Value): void {
    switch (n.t) {
      case 'text':
        this.out += n.v;
        return;
      case 'action': {
        const v = this.pipeline(n.p, dot);
        if (n.p.decl.length === 0) this.out += this.printed(v);
        return;
      }
      case 'if':
      case 'with': {
        const mark = this.vars.length;
        const v = this.pipeline(n.p, dot);
        if (truth(v)) this.list(n.list, n.t === 'with' ? v : dot);
        else if (n.else) this.list(n.else, dot);
        this.vars.length = mark;
        return;
      }
      case 'range': {
        const mark = this.vars.length;
        const decl = n.p.decl;
        const v = this.pipeline({ ...n.p, decl: [] }, dot);
        const items: Array<[Value, Value]> = [];
        if (Array.isArray(v)) v.forEach((x, i) => items.push([i, x]));
        else if (isMap(v)) for (const k of Object.keys(v).sort()) items.push([k, v[k]]);
        else if (typeof v === 'number' && Number.isInteger(v))
          for (let i = 0; i < v; i++) items.push([i, i]);
        else if (v !== null && v !== MISSING && v !== undefined)
          this.fail(n.p.pos, this.source(n.p), `range can't iterate over ${goPrint(v)}`);
        if (items.length === 0) {
          if (n.else) this.list(n.else, dot);
        }
        for (const [k, x] of items) {
          const inner = this.vars.length;
          if (decl.length === 1) this.vars.push([decl[0]!, x]);
          else if (decl.length === 2) this.vars.push([decl[0]!, k], [decl[1]!, x]);
          this.list(n.list, x);
          this.vars.length = inner;
        }
        this.vars.length = mark;
        return;
      }
    }
  }

  /** What html/template prints for a value: nothing for nil, else %v HTML-escaped. */
  private printed(v: Value): string {
    if (v === MISSING || v === null || v === undefined) return '';
    return htmlEscape(goPrint(v));
  }

  private source(p: Pipeline | Arg): string {
    if ('cmds' in p)
      return p.cmds.map((c) => c.args.map((a) => this.argText(a)).join(' ')).join(' | ');
    return this.argText(p);
  }

  private argText(a: Arg): string {
    switch (a.t) {
      case 'field':
        return '.' + a.chain.join('.');
      case 'var':
        return [a.name, ...a.chain].join('.');
      case 'dot':
        return '.';
      case 'ident':
        return a.name;
      case 'str':
        return JSON.stringify(a.v);
      case 'num':
        return String(a.v);
      case 'bool':
        return String(a.v);
      case 'nil':
        return 'nil';
      case 'pipe':
        return `(${this.source(a.p)})${a.chain.length ? '.' + a.chain.join('.') : ''}`;
    }
  }

  private pipeline(p: Pipeline, dot: Value): Value {
    let v: Value = MISSING;
    let first = true;
    for (const c of p.cmds) {
      v = this.command(c, dot, first ? undefined : { v });
      first = false;
    }
    if (p.decl.length) {
      if (p.assign) {
        const name = p.decl[0]!;
        const slot = [...this.vars].reverse().find(([n]) => n === name);
        if (!slot) this.fail(p.pos, name, `undefined variable: ${name}`);
        slot[1] = v;
      } else this.vars.push([p.decl[0]!, v]);
    }
    return v;
  }

  private command(c: Command, dot: Value, piped?: { v: Value }): Value {
    const head = c.args[0]!;
    if (head.t === 'ident') {
      const args = c.args.slice(1);
      return this.call(head, args, dot, piped);
    }
    if (c.args.length > 1 || piped)
      this.fail(
        head.pos,
        this.argText(head),
        `can't give argument to non-function ${this.argText(head)}`,
      );
    return this.arg(head, dot);
  }

  private chain(receiver: Value, chain: string[], a: Arg): Value {
    let v = receiver;
    for (const key of chain) {
      if (v === MISSING || v === undefined) return MISSING;
      if (v === null)
        this.fail(a.pos, this.argText(a), `nil pointer evaluating interface {}.${key}`);
      if (!isMap(v))
        this.fail(a.pos, this.argText(a), `can't evaluate field ${key} in type ${goType(v)}`);
      v = Object.prototype.hasOwnProperty.call(v, key) ? v[key] : MISSING;
    }
    return v;
  }

  private arg(a: Arg, dot: Value): Value {
    switch (a.t) {
      case 'dot':
        return dot;
      case 'field':
        return this.chain(dot, a.chain, a);
      case 'var': {
        const slot = [...this.vars].reverse().find(([n]) => n === a.name);
        if (!slot) this.fail(a.pos, a.name, `undefined variable: ${a.name}`);
        return this.chain(slot[1], a.chain, a);
      }
      case 'str':
        return a.v;
      case 'num':
        return a.v;
      case 'bool':
        return a.v;
      case 'nil':
        this.fail(a.pos, 'nil', 'nil is not a command');
      // eslint-disable-next-line no-fallthrough
      case 'pipe':
        return this.chain(this.pipeline(a.p, dot), a.chain, a);
      case 'ident':
        return this.call(a, [], dot);
    }
  }

  private call(
    fn: Extract<Arg, { t: 'ident' }>,
    argNodes: Arg[],
    dot: Value,
    piped?: { v: Value },
  ): Value {
    const at = fn.name;
    // and/or evaluate lazily
    if (fn.name === 'and' || fn.name === 'or') {
      const all = [
        ...argNodes.map((a) => () => this.arg(a, dot)),
        ...(piped ? [() => piped.v] : []),
      ];
      if (all.length === 0)
        this.fail(fn.pos, at, `wrong number of args for ${fn.name}: want at least 1 got 0`);
      let v: Value = MISSING;
      for (const f of all) {
        v = f();
        if (fn.name === 'and' ? !truth(v) : truth(v)) return v;
      }
      return v;
    }
    const args = argNodes.map((a) => this.arg(a, dot));
    if (piped) args.push(piped.v);
    const want = (n: number) => {
      if (args.length !== n)
        this.fail(fn.pos, at, `wrong number of args for ${fn.name}: want ${n} got ${args.length}`);
    };
    const cmp = (a: Value, b: Value): number => {
      if (typeof a === 'number' && typeof b === 'number') return a - b;
      if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
      if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : NaN;
      if ((a === null || a === MISSING) && (b === null || b === MISSING)) return 0;
      this.fail(fn.pos, at, `error calling ${fn.name}: incompatible types for comparison`);
    };
    switch (fn.name) {
      case 'not':
        want(1);
        return !truth(args[0]);
      case 'len': {
        want(1);
        const v = args[0];
        if (typeof v === 'string') return Buffer.byteLength(v);
        if (Array.isArray(v)) return v.length;
        if (isMap(v)) return Object.keys(v).length;
        this.fail(
          fn.pos,
          at,
          `error calling len: len of ${v === null || v === MISSING ? 'nil pointer' : 'type ' + goType(v)}`,
        );
      }
      // eslint-disable-next-line no-fallthrough
      case 'index': {
        if (args.length < 1) want(1);
        let v = args[0];
        for (const k of args.slice(1)) {
          if (v === null || v === MISSING)
            this.fail(fn.pos, at, 'error calling index: index of untyped nil');
          if (Array.isArray(v)) {
            if (typeof k !== 'number')
              this.fail(
                fn.pos,
                at,
                `error calling index: cannot index slice/array with type ${goType(k)}`,
              );
            if (k < 0 || k >= v.length)
              this.fail(fn.pos, at, `error calling index: index out of range: ${k}`);
            v = v[k];
          } else if (isMap(v)) {
            if (typeof k !== 'string')
              this.fail(
                fn.pos,
                at,
                `error calling index: value has type ${goType(k)}; should be string`,
              );
            v = Object.prototype.hasOwnProperty.call(v, k) ? v[k] : null;
          } else
            this.fail(fn.pos, at, `error calling index: can't index item of type ${goType(v)}`);
        }
        return v;
      }
      case 'print':
        return sprint(args);
      case 'println':
        return args.map((a) => goPrint(a === MISSING ? null : a)).join(' ') + '\n';
      case 'printf': {
        if (args.length < 1 || typeof args[0] !== 'string')
          this.fail(fn.pos, at, `wrong type for value; expected string; got ${goType(args[0])}`);
        return sprintf(args[0], args.slice(1));
      }
      case 'eq': {
        if (args.length < 2)
          this.fail(fn.pos, at, 'error calling eq: missing argument for comparison');
        return args.slice(1).some((b) => cmp(args[0], b) === 0);
      }
      case 'ne':
        want(2);
        return cmp(args[0], args[1]) !== 0;
      case 'lt':
        want(2);
        return cmp(args[0], args[1]) < 0;
      case 'le':
        want(2);
        return cmp(args[0], args[1]) <= 0;
      case 'gt':
        want(2);
        return cmp(args[0], args[1]) > 0;
      case 'ge':
        want(2);
        return cmp(args[0], args[1]) >= 0;
      case 'html':
        return htmlEscape(sprint(args));
      case 'js':
        return sprint(args).replace(/[\\'"<>&=]/g, (c) =>
          c === '\\' ? '\\\\' : `\\u00${c.charCodeAt(0).toString(16).toUpperCase()}`,
        );
      case 'urlquery':
        return encodeURIComponent(sprint(args)).replace(/%20/g, '+');
      default:
        this.fail(fn.pos, at, `error calling ${fn.name}: not supported`);
    }
  }
}

/** Parses and executes `source` over `data` as html/template would; throws GoTemplateError. */
export function executeGoTemplate(source: string, data: Value): string {
  const nodes = new Parser(source).parse();
  return new Exec(source, data).run(nodes);
}
