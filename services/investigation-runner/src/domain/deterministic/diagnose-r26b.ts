/**
 * The rules of round26 (r26b) that compare several facts (cause-catalog.data.ts, its "round26
 * (r26b)" block):
 * - ingress-nginx cuts requests at its proxy read timeout: the controller's access log shows
 *   504s (or websocket upgrades, status 101) whose request_time is that timeout, the timeout the
 *   Ingress's annotation, else the controller ConfigMap, else ingress-nginx's 60 s default sets;
 *   a 504 only when the backend's own log shows work longer than the timeout (a slow export, not
 *   a dead dependency);
 * - an ingress that proxies plain HTTP to a pod that serves TLS: the pod's TLS library logs the
 *   request it got in clear text (OpenSSL's "http request", Go's "client sent an HTTP request to
 *   an HTTPS server") while an Ingress routes to it without a backend-protocol HTTPS annotation.
 */
import type { CauseEntry } from './cause-catalog.data';
import { INGRESS_CONTROLLER, backingWorkload, ingressBackends } from './dependencies';
import type { Finding } from './diagnose';
import { jsonField, type ClusterModel } from './model';
import type { LogView, ObjectView } from './observe/views';
import { clip } from './text';

/** ingress-nginx's default log format, from the request to the upstream name */
export const ACCESS =
  /"(?<req>[A-Z]+ \S+) HTTP\/[\d.]+" (?<status>\d{3}) \d+ "[^"]*" "[^"]*" \d+ (?<rt>\d+\.\d{3}) \[(?<up>[a-z0-9][a-z0-9-]*)\]/;

const ANN = 'nginx.ingress.kubernetes.io/';
/** ingress-nginx's proxy-read-timeout when nothing sets it (seconds) */
const DEFAULT_READ_TIMEOUT = 60;

/** The Service an ingress-nginx upstream name (`<namespace>-<service>-<port>`) is for. */
export function serviceOfUpstream(model: ClusterModel, up: string): ObjectView | undefined {
  return model
    .list('service')
    .filter((s) => s.namespace && up.startsWith(`${s.namespace}-${s.name}-`))
    .sort((a, b) => b.name.length - a.name.length)[0];
}

/** The Ingresses whose rules route to a Service. */
export function ingressesTo(model: ClusterModel, svc: ObjectView): ObjectView[] {
  return model
    .list('ingress', svc.namespace)
    .filter(
      (i) =>
        i.namespace === svc.namespace && ingressBackends(i).some((b) => b.service === svc.name),
    );
}

/** The ingress controller's ConfigMap (its data read). */
export function controllerConfig(model: ClusterModel): ObjectView | undefined {
  return model
    .list('configmap')
    .find(
      (c) =>
        /^(?:ingress-nginx|nginx-ingress|rke2-ingress-nginx)(?:-controller)?$/.test(c.name) &&
        c.fields['data'] !== undefined,
    );
}

interface Timeout {
  seconds: number;
  /** where it comes from, a sentence */
  source: string;
}

/** The proxy read timeout that applies to an Ingress, and who sets it. */
function readTimeout(model: ClusterModel, ing: ObjectView | undefined): Timeout {
  const own = jsonField(ing, 'annotations')[`${ANN}proxy-read-timeout`];
  if (ing && own && Number(own) > 0)
    return {
      seconds: Number(own),
      source: `the Ingress ${ing.name} sets ${ANN}proxy-read-timeout: "${own}"`,
    };
  const cm = controllerConfig(model);
  const global = jsonField(cm, 'data')['proxy-read-timeout'];
  if (cm && global && Number(global) > 0)
    return {
      seconds: Number(global),
      source: `${ing ? `the Ingress ${ing.name} sets no ${ANN}proxy-read-timeout, and ` : ''}the controller ConfigMap ${cm.name} sets proxy-read-timeout: "${global}"`,
    };
  return {
    seconds: DEFAULT_READ_TIMEOUT,
    source: `${ing ? `the Ingress ${ing.name} sets no ${ANN}proxy-read-timeout annotation` : 'no proxy-read-timeout is set for it'}${cm ? ` and the controller ConfigMap ${cm.name} does not set proxy-read-timeout` : ''}, so ingress-nginx's default of ${DEFAULT_READ_TIMEOUT}s (proxy_read_timeout) applies`,
  };
}

/** Durations a backend logs for its work ("duration=77.4s", "durationMs":83100), in seconds. */
function loggedDurations(logs: LogView[]): { s: number; text: string }[] {
  const out: { s: number; text: string }[] = [];
  for (const l of logs)
    for (const x of l.lines) {
      const m = /\bduration(?<ms>_?ms)?["']?\s*[=:]\s*"?(?<v>\d+(?:\.\d+)?)(?<unit>ms|s)?\b/i.exec(
        x.text,
      );
      if (!m?.groups) continue;
      const v = Number(m.groups['v']);
      const ms = m.groups['ms'] || m.groups['unit'] === 'ms';
      if (!m.groups['ms'] && !m.groups['unit']) continue;
      out.push({ s: ms ? v / 1000 : v, text: x.text });
    }
  return out;
}

/** A websocket server's heartbeat (ping) interval as it logs it, in seconds. */
function heartbeat(logs: LogView[]): { s: number; text: string } | undefined {
  for (const l of logs)
    for (const x of l.lines) {
      const m =
        /\b(?:heartbeat|ping)[_-]?(?:interval)?(?<ms>_?ms)?["']?\s*[=:]\s*"?(?<v>\d+(?:\.\d+)?)(?<unit>ms|s)?\b/i.exec(
          x.text,
        );
      if (!m?.groups) continue;
      const v = Number(m.groups['v']);
      const ms = m.groups['ms'] || m.groups['unit'] === 'ms' || (!m.groups['unit'] && v >= 1000);
      return { s: ms ? v / 1000 : v, text: x.text };
    }
  return undefined;
}

const fmt = (s: number) => `${Number.isInteger(s) ? s : s.toFixed(1)}s`;

function readTimeoutCuts(model: ClusterModel, entry: CauseEntry): Finding[] {
  type Hit = { status: string; rt: number; text: string; at?: number; source: string };
  const byUpstream = new Map<string, Hit[]>();
  for (const l of model.logs) {
    if (!l.pod || !INGRESS_CONTROLLER.test(l.pod)) continue;
    for (const x of l.lines) {
      const m = ACCESS.exec(x.text)?.groups;
      if (!m || (m['status'] !== '504' && m['status'] !== '101')) continue;
      const list = byUpstream.get(m['up']!) ?? [];
      list.push({
        status: m['status']!,
        rt: Number(m['rt']),
        text: x.text,
        at: x.at,
        source: l.source,
      });
      byUpstream.set(m['up']!, list);
    }
  }
  const out: Finding[] = [];
  for (const [up, hits] of byUpstream) {
    const svc = serviceOfUpstream(model, up);
    if (!svc) continue;
    const ing = ingressesTo(model, svc)[0];
    const t = readTimeout(model, ing);
    const atTimeout = (h: Hit) => h.rt >= t.seconds && h.rt < t.seconds + 1;
    const workload = backingWorkload(model, svc);
    const name = workload?.name ?? svc.name;
    const pods = model
      .list('pod', svc.namespace)
      .filter((p) => p.namespace === svc.namespace && model.workloadOf(p).name === name);
    const podLogs = model.logs.filter(
      (l) => l.namespace === svc.namespace && pods.some((p) => p.name === l.pod),
    );
    const cut504 = hits.filter((h) => h.status === '504' && atTimeout(h));
    const upgrades = hits.filter((h) => h.status === '101');
    const cut101 = upgrades.filter(atTimeout);
    let detail = '';
    let kind: 'requests' | 'websockets' | undefined;
    let hit: Hit | undefined;
    if (cut504.length) {
      // the backend finishes the work, later than the timeout: slow, not dead
      const longer = loggedDurations(podLogs).filter((d) => d.s > t.seconds);
      if (!longer.length) continue;
      const ds = [...new Set(longer.map((d) => fmt(d.s)))].slice(0, 4);
      kind = 'requests';
      hit = cut504[cut504.length - 1];
      const piped = podLogs.some((l) =>
        l.lines.some((x) => /broken pipe|connection reset by peer|EPIPE/i.test(x.text)),
      );
      detail = `${name}'s own log shows that work taking ${ds.join(', ')}, longer than ${t.seconds} s ("${clip(longer[longer.length - 1]!.text, 200)}")${piped ? ', and then failing to write the response (broken pipe) because the ingress had already closed the connection' : ''}`;
    } else if (cut101.length >= 2 && cut101.length * 2 > upgrades.length) {
      kind = 'websockets';
      hit = cut101[cut101.length - 1];
      const hb = heartbeat(podLogs);
      detail =
        hb && hb.s >= t.seconds
          ? `${name} sends a heartbeat only every ${fmt(hb.s)} ("${clip(hb.text, 160)}"), longer than the timeout, so an idle connection carries no data for ${t.seconds} s and nginx closes it (the client sees code 1006 and reconnects)`
          : `a connection that carries no data from ${name} for ${t.seconds} s is closed by nginx, and the client reconnects`;
    }
    if (!kind || !hit) continue;
    const who = ing ? `the Ingress ${ing.name}` : `the Ingress of ${name}`;
    out.push({
      entry,
      object: workload
        ? { kind: workload.kind, name: workload.name, namespace: workload.namespace }
        : { kind: 'service', name: svc.name, namespace: svc.namespace },
      workload: name,
      fact: clip(hit.text.replace(/^\S+Z\s+/, ''), 260),
      groups: {
        timeout: `${t.seconds}s`,
        timeout_source: t.source,
        cut_what:
          kind === 'requests'
            ? `requests to ${name} that take longer than ${t.seconds} s: nginx stops waiting for the response and answers 504 Gateway Time-out (request_time ${hit.rt.toFixed(3)} in its access log, ${cut504.length} such request${cut504.length > 1 ? 's' : ''})`
            : `websocket connections to ${name} (101 Switching Protocols) after ${t.seconds} s without data from the server (request_time ${hit.rt.toFixed(3)}, ${cut101.length} of ${upgrades.length} connections in its access log)`,
        cut_detail: detail,
        timeout_fix:
          kind === 'requests'
            ? `Set ${ANN}proxy-read-timeout (and proxy-send-timeout) on ${who} above the longest such request (e.g. "300"), or make the long work asynchronous or streamed (start it, then poll or download the result).`
            : `Set ${ANN}proxy-read-timeout and proxy-send-timeout on ${who} to the longest idle time a websocket may have (e.g. "3600"), or make ${name} send a heartbeat more often than every ${t.seconds} s.`,
      },
      at: hit.at,
      where: 'log',
      source: hit.source,
    });
  }
  return out;
}

/** an application's log line for a websocket that closed (abnormally: code 1006) */
export const WEBSOCKET_DROPPED =
  /\b(?:ws|websocket|socket)\b[^\n]{0,40}\b(?:closed|disconnected)\b|"code"\s*:\s*1006\b|\bcode[= ]1006\b/i;

/** A TLS server's words for a request that arrived in plain HTTP. */
const PLAIN_HTTP_TO_TLS =
  /SSL routines[^\n]*:http request|error:0A00009C|error:1408F09C|client sent an HTTP request to an HTTPS server|Unrecognized SSL message, plaintext connection|plain HTTP request was sent to HTTPS port/i;
/** the backend-protocol values under which ingress-nginx speaks TLS to the pods */
const TLS_PROTOCOL = /^(?:HTTPS|GRPCS|AUTO_HTTP)$/i;

function plainHttpToTls(model: ClusterModel, entry: CauseEntry): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const { l, lines, pod, w, key } of workloadLogs(
    model,
    INGRESS_CONTROLLER,
    PLAIN_HTTP_TO_TLS,
    seen,
  )) {
    // the Ingress that routes to a Service of this workload, speaking plain HTTP to it
    const ing = model
      .list('service', pod.namespace)
      .filter((s) => s.namespace === pod.namespace && backingWorkload(model, s)?.name === w.name)
      .flatMap((s) => ingressesTo(model, s).map((i) => ({ s, i })))
      .find(
        ({ i }) => !TLS_PROTOCOL.test(jsonField(i, 'annotations')[`${ANN}backend-protocol`] ?? ''),
      );
    if (!ing) continue;
    seen.add(key);
    const port = ingressBackends(ing.i).find((b) => b.service === ing.s.name)?.port;
    const listen = l.lines
      .map((x) =>
        /\b(?:Listening on|listening on|listen(?:ing)? at)\s+(ssl:\/\/|https:\/\/|tls:\/\/)(\S+)/i.exec(
          x.text,
        ),
      )
      .find(Boolean);
    const proto = jsonField(ing.i, 'annotations')[`${ANN}backend-protocol`];
    const last = lines[lines.length - 1]!;
    out.push({
      entry,
      object: { kind: w.kind, name: w.name, namespace: pod.namespace },
      workload: w.name,
      fact: clip(last.text.replace(/^\S+Z\s+/, ''), 220),
      groups: {
        tls_ingress: ing.i.name,
        tls_listen: listen ? ` (its log: "Listening on ${listen[1]}${clip(listen[2]!, 60)}")` : '',
        tls_service: `${ing.s.name}${port ? ` port ${port}` : ''}`,
        tls_protocol: proto
          ? `its ${ANN}backend-protocol is "${proto}"`
          : `it has no ${ANN}backend-protocol annotation`,
      },
      at: last.at,
      where: 'log',
      source: l.source,
    });
  }
  return out;
}

/** an application's words for a lookup that failed */
export const LOOKUP_FAILED =
  /Temporary failure in name resolution|EAI_AGAIN|Name or service not known|getaddrinfo ENOTFOUND|no such host|UnknownHostException|i\/o timeout[^\n]*lookup|lookup [^\n]*i\/o timeout/i;
/** CoreDNS's errors plugin: "[ERROR] plugin/errors: 2 name.suffix. A: read udp ...: i/o timeout" */
export const COREDNS_ERROR =
  /\[ERROR\] plugin\/errors: \d+ (?<name>[\w.-]+)\.? (?<type>A|AAAA) ?: (?<err>[^\n]+)/;
/** a DNS name with at least one dot, as configuration and logs write it */
const HOSTNAME = /\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z0-9-]*[a-z0-9]\b/gi;

/**
 * Lookups of a name with fewer dots than ndots (5 by default under dnsPolicy ClusterFirst) walk the
 * pod's search list first: CoreDNS's error log shows `<name>.<search suffix>.` failing (an
 * upstream that times out on the node's search domain), while the workload that dials `<name>`
 * logs failed lookups.
 */
function searchListExpansion(model: ClusterModel, entry: CauseEntry): Finding[] {
  const dnsErrors = model.logs
    .filter((l) => l.pod && /^(?:coredns|kube-dns)-/.test(l.pod))
    .flatMap((l) =>
      l.lines
        .map((x) => ({ x, g: COREDNS_ERROR.exec(x.text)?.groups, source: l.source }))
        .filter((e) => e.g),
    );
  if (!dnsErrors.length) return [];
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const { l, lines: failed, pod, w, key } of workloadLogs(
    model,
    /^(?:coredns|kube-dns)-/,
    LOOKUP_FAILED,
    seen,
  )) {
    // the names the workload dials: its environment and its own log
    const names = new Set<string>();
    for (const c of pod.containers)
      for (const v of Object.values(c.env))
        for (const m of v.matchAll(HOSTNAME)) names.add(m[0].toLowerCase());
    for (const x of l.lines)
      for (const m of x.text.matchAll(HOSTNAME)) names.add(m[0].toLowerCase());
    const ndots = Number(pod.fields['dnsNdots'] ?? '5');
    let best: { host: string; suffix: string; line: string; source: string } | undefined;
    for (const host of names) {
      const dots = host.split('.').length - 1;
      if (dots < 1 || dots >= ndots || /\.(?:svc|cluster\.local)$|\.local$/.test(host)) continue;
      // an expansion: the name with a search suffix after it (not the name itself, fully qualified)
      const e = dnsErrors.find((d) => {
        const n = d.g!['name']!.toLowerCase().replace(/\.$/, '');
        return n.length > host.length + 1 && n.startsWith(`${host}.`);
      });
      if (!e) continue;
      if (!best || host.length > best.host.length)
        best = {
          host,
          suffix: e.g!['name']!.slice(host.length + 1).replace(/\.$/, ''),
          line: e.x.text,
          source: e.source,
        };
    }
    if (!best) continue;
    seen.add(key);
    const last = failed[failed.length - 1]!;
    const dots = best.host.split('.').length - 1;
    const others = [
      ...new Set(
        dnsErrors
          .map((d) => d.g!['name']!.toLowerCase().replace(/\.$/, ''))
          .filter((n) => !n.startsWith(`${best.host}.`) && n.endsWith(`.${best.suffix}`))
          .map((n) => n.slice(0, -(best.suffix.length + 1))),
      ),
    ].slice(0, 2);
    out.push({
      entry,
      object: { kind: w.kind, name: w.name, namespace: pod.namespace },
      workload: w.name,
      fact: clip(last.text.replace(/^\S+Z\s+/, ''), 220),
      groups: {
        dns_host: best.host,
        dns_dots: String(dots),
        dns_ndots: String(ndots),
        dns_ndots_from: pod.fields['dnsNdots']
          ? `the ndots:${ndots} its dnsConfig sets`
          : `ndots:5, the default under dnsPolicy ${pod.fields['dnsPolicy'] ?? 'ClusterFirst'} (its pod spec sets no dnsConfig ndots)`,
        dns_suffix: best.suffix,
        dns_line: clip(best.line.replace(/^\S+Z\s+/, ''), 200),
        dns_others: others.length
          ? `; the same happens to other names (${others.join(', ')} tried as <name>.${best.suffix})`
          : '',
      },
      at: last.at,
      where: 'log',
      source: l.source,
    });
  }
  return out;
}

/**
 * The pods' logs (pods named like `skip` aside) with the lines `test` matches, each with its pod
 * and workload; a workload the caller has put in `done` is not given again.
 */
function* workloadLogs(model: ClusterModel, skip: RegExp, test: RegExp, done: Set<string>) {
  for (const l of model.logs) {
    if (!l.pod || skip.test(l.pod)) continue;
    const lines = l.lines.filter((x) => test.test(x.text));
    if (!lines.length) continue;
    const pod = model.get('pod', l.pod, l.namespace);
    if (!pod) continue;
    const w = model.workloadOf(pod);
    const key = `${pod.namespace}/${w.name}`;
    if (!done.has(key)) yield { l, lines, pod, w, key };
  }
}

export function r26bFindings(model: ClusterModel, entries: CauseEntry[]): Finding[] {
  const out: Finding[] = [];
  const cut = entries.find((e) => e.id === 'ingress_proxy_read_timeout_cut');
  if (cut) out.push(...readTimeoutCuts(model, cut));
  const plain = entries.find((e) => e.id === 'ingress_plain_http_to_tls_backend');
  if (plain) out.push(...plainHttpToTls(model, plain));
  const search = entries.find((e) => e.id === 'dns_search_list_expansion');
  if (search) out.push(...searchListExpansion(model, search));
  return out;
}
