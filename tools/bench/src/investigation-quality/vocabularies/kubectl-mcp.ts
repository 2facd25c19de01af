import {
  type KubeObject,
  type WorldIndex,
  matchesLabels,
  parseLabelSelector,
  parseQuantity,
} from '@inquest/kube';
import { CONTEXT } from './kubectl-cli';
import { ecosystemTools, helmTools } from './kubectl-mcp-ecosystem';
import {
  ann,
  apiException,
  crdsOf,
  ctxArgs,
  ctxOf,
  fmt1,
  k8sClient,
  notFound,
  param,
  PyError,
  pyDate,
  pyRepr,
  pyRound,
  pyStr,
  RO_FULL,
  runner,
  toVocabulary,
  type KubectlResult,
  type Py,
  type ToolDef,
} from './kubectl-mcp-py';
import type { VocabularyTool } from './mcp-vocabulary-server';

/*
 * rohitg00/kubectl-mcp-server (PyPI kubectl-mcp-server, FastMCP 3), default (normal) safety
 * mode: every tool is listed, write tools are declared as the server declares them and refused by
 * the bench. The server also has --read-only / --disable-destructive modes (safety.py): they keep
 * the same tool list and make the write tools answer {"success": false, "error": "Blocked: ..."}.
 *
 * Followed (the stored repository's newest versions of each file): kubectl_mcp_tool/mcp_server.py
 * (registration order; vind, kind and custom-resource tools registered), tests/test_tools.py @
 * 254e4a78 (the 281 expected tool names), tools/cluster.py @ 4b6ac9f1 (tools renamed to those
 * names: list_contexts, node_logs, node_stats_summary, node_top; multi-cluster tools), pods.py,
 * core.py, deployments.py @ 0fec7200, security.py @ 0666e19b, networking.py, storage.py,
 * operations.py, diagnostics.py, cost.py (the versions with the `context` parameter), helm.py @
 * 3fe17b94, and the ecosystem toolsets (gitops, certs, policy, backup, keda, cilium, rollouts,
 * capi, kubevirt, kiali/istio, vind, kind, custom_resources) as kubectl-mcp-ecosystem.ts says.
 * k8s_config.py (contexts), crd_detector.py (`kubectl get crd <name>`), FastMCP 3 (PrefectHQ):
 * docstring summaries as descriptions and `Args:` lines as parameter descriptions, dict results
 * as compact JSON text, str results as they are, exceptions as "Error calling tool '<t>': <e>",
 * pydantic's ValidationError for missing, unexpected or mistyped arguments.
 *
 * Where the server calls the Kubernetes API (python client) it answers from the world, with the
 * client's ApiException text for 404s; where it runs kubectl it runs the bench's kubectl. The
 * world's custom kinds are served as CRDs. Tools that exec into pods or need the kubelet's log
 * files answer as a cluster without them would. Helm reads the world's release Secrets; the
 * server is online, but Artifact Hub's catalogue is not part of a world (a hub search finds no
 * chart). `kubectl rollout status` of an unfinished rollout runs into the tool's 60 s timeout.
 */

const CTX_DOC = 'Kubernetes context to use (uses current context if not specified)';
const CTX_OPT = 'Kubernetes context to use (optional, uses current context if not specified)';
const ctx = (doc = CTX_DOC) => param('context', 'str', '', doc);
const nsAll = (what: string) =>
  param(
    'namespace',
    'str?',
    null,
    `Namespace to list ${what} from (all namespaces if not specified)`,
  );
const full = (title: string) => ann(title, RO_FULL);
const fullW = (title: string, destructive: boolean, idempotent: boolean) =>
  ann(title, {
    readOnlyHint: false,
    destructiveHint: destructive,
    idempotentHint: idempotent,
    openWorldHint: true,
  });
const short = (title: string) => ann(title, { readOnlyHint: true });
const shortW = (title: string) => ann(title, { destructiveHint: true });

/** The python client's `except Exception as e: return {"success": False, "error": str(e)}`. */
const guarded = (f: () => Py): Py => {
  try {
    return f();
  } catch (err) {
    if (err instanceof PyError) return { success: false, error: err.message };
    throw err;
  }
};

const conditionsOf = (o: KubeObject): Py[] => (o.status?.conditions as Py[] | undefined) ?? [];

/** The core, cluster, workload, security, networking, storage, operations and cost tools. */
function coreTools(world: WorldIndex): ToolDef[] {
  const crds = crdsOf(world);
  const run = runner(world, (args) => special(args));

  /** kubectl commands the bench's kubectl does not serve, answered as a real cluster would. */
  function special(args: string[]): KubectlResult | undefined {
    const a = [...args];
    let context = '';
    const ci = a.indexOf('--context');
    if (ci >= 0) {
      context = a[ci + 1] ?? '';
      a.splice(ci, 2);
    }
    if (context && context !== CONTEXT.name)
      return { returncode: 1, stdout: '', stderr: `error: context "${context}" does not exist\n` };
    const [verb, what, name] = a;
    if (
      verb === 'get' &&
      (what === 'crd' || what === 'crds' || what === 'customresourcedefinitions')
    ) {
      if (a.includes('-o') && a[a.indexOf('-o') + 1] === 'name') {
        const c = crds.find((x) => x.metadata?.name === name);
        if (!c)
          return {
            returncode: 1,
            stdout: '',
            stderr: `Error from server (NotFound): customresourcedefinitions.apiextensions.k8s.io "${name}" not found\n`,
          };
        return {
          returncode: 0,
          stdout: `customresourcedefinition.apiextensions.k8s.io/${name}\n`,
          stderr: '',
        };
      }
      return {
        returncode: 0,
        stdout: `${JSON.stringify({ apiVersion: 'v1', items: crds, kind: 'List', metadata: { resourceVersion: '' } }, null, 4)}\n`,
        stderr: '',
      };
    }
    if (verb === 'get' && what === 'componentstatuses')
      return {
        returncode: 0,
        stdout: `${JSON.stringify({ apiVersion: 'v1', items: componentStatuses(), kind: 'List', metadata: { resourceVersion: '' } }, null, 4)}\n`,
        stderr: 'Warning: v1 ComponentStatus is deprecated in v1.19+\n',
      };
    if (verb === 'get' && what === '--raw') {
      const path = name ?? '';
      const m = /^\/api\/v1\/nodes\/([^/]+)\/proxy\/(.*)$/.exec(path);
      if (m && world.get('Node', m[1]!) && m[2] === 'stats/summary')
        return { returncode: 0, stdout: JSON.stringify(statsSummary(m[1]!)), stderr: '' };
      return {
        returncode: 1,
        stdout: '',
        stderr:
          m && !world.get('Node', m[1]!)
            ? `Error from server (NotFound): nodes "${m[1]}" not found\n`
            : 'Error from server (NotFound): the server could not find the requested resource\n',
      };
    }
    if (verb === 'cluster-info')
      return {
        returncode: 0,
        stdout:
          "\u001b[0;32mKubernetes control plane\u001b[0m is running at \u001b[0;33mhttps://127.0.0.1:6443\u001b[0m\n\u001b[0;32mCoreDNS\u001b[0m is running at \u001b[0;33mhttps://127.0.0.1:6443/api/v1/namespaces/kube-system/services/kube-dns:dns/proxy\u001b[0m\n\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n",
        stderr: '',
      };
    if (verb === 'version')
      return {
        returncode: 0,
        stdout: 'Client Version: v1.31.2\nKustomize Version: v5.4.2\nServer Version: v1.30.4\n',
        stderr: '',
      };
    if (verb === 'auth' && what === 'can-i') return { returncode: 0, stdout: 'yes\n', stderr: '' };
    if (verb === 'config' && what === 'view')
      return { returncode: 0, stdout: `${JSON.stringify(kubeconfig(), null, 4)}\n`, stderr: '' };
    if (verb === 'config' && what === 'get-clusters')
      return { returncode: 0, stdout: `NAME\n${CONTEXT.cluster}\n`, stderr: '' };
    if (verb === 'top' && a.includes('--no-headers')) {
      const rest = a.filter((x) => x !== '--no-headers');
      const out = run(rest);
      if (out.returncode !== 0) return out;
      return { ...out, stdout: out.stdout.split('\n').slice(1).join('\n') };
    }
    if (verb === 'wait') return waitFor(a);
    if (verb === 'rollout' && (what === 'status' || what === 'history')) return rollout(what, a);
    return undefined;
  }

  /** `kubectl rollout status|history KIND/NAME -n NS`, as the tool runs it (60 s timeout). */
  function rollout(sub: string, a: string[]): KubectlResult {
    const ref = a[2] ?? '';
    const ni = a.indexOf('-n');
    const ns = ni >= 0 ? (a[ni + 1] ?? 'default') : 'default';
    const fail = (stderr: string): KubectlResult => ({ returncode: 1, stdout: '', stderr });
    const slash = ref.indexOf('/');
    if (slash < 0)
      return fail(
        `error: you must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'\n`,
      );
    const [kind, name] = [ref.slice(0, slash), ref.slice(slash + 1)];
    const info = world.resolve(kind);
    if (!info) return fail(`error: the server doesn't have a resource type "${kind}"\n`);
    const obj = world.get(info, name, info.namespaced ? ns : undefined);
    const res = info.group ? `${info.plural}.${info.group}` : info.plural;
    if (!obj) return fail(`Error from server (NotFound): ${res} "${name}" not found\n`);
    if (!['Deployment', 'StatefulSet', 'DaemonSet'].includes(info.kind))
      return fail(
        sub === 'status'
          ? `error: no status viewer has been implemented for ${info.kind}\n`
          : `error: no history viewer has been implemented for ${info.kind}\n`,
      );
    const st: Py = obj.status ?? {};
    const spec: Py = obj.spec ?? {};
    const gen = obj.metadata?.generation;
    // a world without generations is taken as observed
    const observed =
      gen === undefined || st.observedGeneration === undefined || gen <= st.observedGeneration;
    const timedOut = (): KubectlResult => {
      throw new PyError(`Command '${pyRepr(['kubectl', ...a])}' timed out after 60 seconds`);
    };
    if (sub === 'history') {
      const prefix = `${info.group ? `${info.kind.toLowerCase()}.${info.group}` : info.kind.toLowerCase()}/${name}`;
      if (info.kind !== 'Deployment')
        return { returncode: 0, stdout: `${prefix} \nNo rollout history found.\n`, stderr: '' };
      const rows = world
        .ownedBy(obj, 'ReplicaSet')
        .map((rs) => ({
          rev: Number(rs.metadata?.annotations?.['deployment.kubernetes.io/revision'] ?? NaN),
          cause: rs.metadata?.annotations?.['kubernetes.io/change-cause'] ?? '<none>',
        }))
        .filter((r) => Number.isFinite(r.rev))
        .sort((x, y) => x.rev - y.rev);
      if (!rows.length)
        return { returncode: 0, stdout: `${prefix} \nNo rollout history found.\n`, stderr: '' };
      const w = Math.max('REVISION'.length, ...rows.map((r) => String(r.rev).length)) + 2;
      const body = rows.map((r) => `${String(r.rev).padEnd(w)}${r.cause}\n`).join('');
      return {
        returncode: 0,
        stdout: `${prefix} \n${'REVISION'.padEnd(w)}CHANGE-CAUSE\n${body}\n`,
        stderr: '',
      };
    }
    if (info.kind === 'Deployment') {
      if (!observed) return timedOut();
      const progressing = conditionsOf(obj).find((c) => c.type === 'Progressing');
      if (progressing?.reason === 'ProgressDeadlineExceeded')
        return fail(`error: deployment "${name}" exceeded its progress deadline\n`);
      const want = spec.replicas ?? 1;
      if ((st.updatedReplicas ?? 0) < want) return timedOut();
      if ((st.replicas ?? 0) > (st.updatedReplicas ?? 0)) return timedOut();
      if ((st.availableReplicas ?? 0) < (st.updatedReplicas ?? 0)) return timedOut();
      return {
        returncode: 0,
        stdout: `deployment "${name}" successfully rolled out\n`,
        stderr: '',
      };
    }
    if (info.kind === 'DaemonSet') {
      if ((spec.updateStrategy?.type ?? 'RollingUpdate') !== 'RollingUpdate')
        return fail('error: rollout status is only available for RollingUpdate strategy type\n');
      if (!observed) return timedOut();
      const desired = st.desiredNumberScheduled ?? 0;
      if ((st.updatedNumberScheduled ?? 0) < desired) return timedOut();
      if ((st.numberAvailable ?? 0) < desired) return timedOut();
      return {
        returncode: 0,
        stdout: `daemon set "${name}" successfully rolled out\n`,
        stderr: '',
      };
    }
    if ((spec.updateStrategy?.type ?? 'RollingUpdate') !== 'RollingUpdate')
      return fail('error: rollout status is only available for RollingUpdate strategy type\n');
    if (!observed) return timedOut();
    if ((st.readyReplicas ?? 0) < (spec.replicas ?? 1)) return timedOut();
    if (st.updateRevision !== undefined && st.updateRevision !== st.currentRevision)
      return timedOut();
    return {
      returncode: 0,
      stdout: `statefulset rolling update complete ${st.currentReplicas ?? st.replicas ?? 0} pods at revision ${st.currentRevision ?? ''}...\n`,
      stderr: '',
    };
  }

  function componentStatuses(): Py[] {
    return ['controller-manager', 'scheduler', 'etcd-0'].map((n) => ({
      apiVersion: 'v1',
      conditions: [
        {
          message: n === 'etcd-0' ? '{"health":"true","reason":""}' : 'ok',
          status: 'True',
          type: 'Healthy',
        },
      ],
      kind: 'ComponentStatus',
      metadata: { creationTimestamp: null, name: n },
    }));
  }

  function kubeconfig(): Py {
    return {
      kind: 'Config',
      apiVersion: 'v1',
      preferences: {},
      clusters: [
        {
          name: CONTEXT.cluster,
          cluster: {
            server: 'https://127.0.0.1:6443',
            'certificate-authority-data': 'DATA+OMITTED',
          },
        },
      ],
      users: [
        {
          name: CONTEXT.user,
          user: { 'client-certificate-data': 'DATA+OMITTED', 'client-key-data': 'DATA+OMITTED' },
        },
      ],
      contexts: [{ name: CONTEXT.name, context: { cluster: CONTEXT.cluster, user: CONTEXT.user } }],
      'current-context': CONTEXT.name,
    };
  }

  function statsSummary(node: string): Py {
    const t = world.now.toISOString().replace(/\.\d+Z$/, 'Z');
    const nm = world.nodeMetrics().find((m) => m.name === node);
    const pods = world.list('Pod').filter((p) => p.spec?.nodeName === node);
    const cpu = (q: unknown) => Math.round((parseQuantity(q) ?? 0) * 1e9);
    const mem = (q: unknown) => Math.round(parseQuantity(q) ?? 0);
    return {
      node: {
        nodeName: node,
        startTime: world.get('Node', node)?.metadata?.creationTimestamp ?? t,
        cpu: nm ? { time: t, usageNanoCores: cpu(nm.cpu) } : { time: t },
        memory: nm
          ? { time: t, workingSetBytes: mem(nm.memory), usageBytes: mem(nm.memory) }
          : { time: t },
      },
      pods: pods.map((p) => {
        const pm = world.podMetrics(p.metadata?.namespace).find((m) => m.name === p.metadata?.name);
        return {
          podRef: {
            name: p.metadata?.name,
            namespace: p.metadata?.namespace,
            uid: p.metadata?.uid,
          },
          startTime: p.status?.startTime,
          containers: (pm?.containers ?? []).map((c) => ({
            name: c.name,
            cpu: { time: t, usageNanoCores: cpu(c.cpu) },
            memory: { time: t, workingSetBytes: mem(c.memory), usageBytes: mem(c.memory) },
          })),
          cpu: pm
            ? { time: t, usageNanoCores: pm.containers.reduce((s, c) => s + cpu(c.cpu), 0) }
            : {},
          memory: pm
            ? { time: t, workingSetBytes: pm.containers.reduce((s, c) => s + mem(c.memory), 0) }
            : {},
        };
      }),
    };
  }

  function waitFor(a: string[]): KubectlResult {
    const target = a[1] ?? '';
    const forFlag = a.find((x) => x.startsWith('--for='))?.slice(6) ?? '';
    const nsI = a.indexOf('-n');
    const namespace = nsI >= 0 ? (a[nsI + 1] ?? 'default') : 'default';
    const [type, name] = target.split('/');
    const info = world.resolve(type ?? '');
    if (!info)
      return {
        returncode: 1,
        stdout: '',
        stderr: `error: the server doesn't have a resource type "${type}"\n`,
      };
    const obj = world.get(info, name ?? '', info.namespaced ? namespace : undefined);
    const ref = `${info.group ? `${info.plural}.${info.group}` : info.plural}/${name}`;
    if (!obj)
      return {
        returncode: 1,
        stdout: '',
        stderr: `Error from server (NotFound): ${info.group ? `${info.plural}.${info.group}` : info.plural} "${name}" not found\n`,
      };
    const m = /^condition=([^=]+)(?:=(.*))?$/i.exec(forFlag);
    if (m) {
      const want = (m[2] ?? 'True').toLowerCase();
      const c = conditionsOf(obj).find((x) => String(x.type).toLowerCase() === m[1]!.toLowerCase());
      if (c && String(c.status).toLowerCase() === want)
        return {
          returncode: 0,
          stdout: `${info.kind.toLowerCase()}${info.group ? `.${info.group}` : ''}/${name} condition met\n`,
          stderr: '',
        };
    }
    return {
      returncode: 1,
      stdout: '',
      stderr: `error: timed out waiting for the condition on ${ref}\n`,
    };
  }

  const pod404 = (name: string) => new PyError(notFound(world, 'pods', name));
  const readPod = (name: string, namespace: string) => {
    const p = world.get('Pod', name, namespace);
    if (!p) throw pod404(name);
    return p;
  };
  const list = (kind: string, namespace?: string | null) =>
    world.list(kind, namespace ? { namespace } : {});
  const nsEvents = (namespace: string, involvedName: string) =>
    world.events({ namespace }).filter((e) => e.involvedObject?.name === involvedName);
  /** subprocess.run refuses a None in the argument list */
  const noneArg = (...xs: unknown[]) => {
    if (xs.some((x) => x === null))
      throw new PyError('expected str, bytes or os.PathLike object, not NoneType');
  };

  /** kubectl top pods --no-headers, split into fields */
  const topPods = (context: string, namespace: string | null, flag: '--all-namespaces' | '-A') =>
    run(
      [
        'kubectl',
        ...ctxArgs(context),
        'top',
        'pods',
        ...(namespace ? ['-n', namespace] : [flag]),
        '--no-headers',
      ].slice(1),
    );

  const cpuMilli = (s: unknown): number => {
    const str = String(s ?? '0');
    try {
      if (str.endsWith('m')) return pyInt(str.slice(0, -1));
      if (str.endsWith('n')) return Math.floor(pyInt(str.slice(0, -1)) / 1000000);
      const f = Number(str);
      if (Number.isNaN(f)) return 0;
      return Math.trunc(f * 1000);
    } catch {
      return 0;
    }
  };
  const memBytes = (s: unknown): number => {
    const str = String(s ?? '0');
    const units: [string, number][] = [
      ['Ki', 1024],
      ['Mi', 1024 ** 2],
      ['Gi', 1024 ** 3],
      ['K', 1000],
      ['M', 1e6],
      ['G', 1e9],
    ];
    try {
      for (const [u, f] of units) if (str.endsWith(u)) return pyInt(str.slice(0, -u.length)) * f;
      return pyInt(str);
    } catch {
      return 0;
    }
  };

  const defs: ToolDef[] = [];

  // ---------------------------------------------------------------- pods.py
  defs.push(
    {
      name: 'get_pods',
      doc: 'Get all pods in the specified namespace.',
      params: [nsAll('pods'), ctx()],
      annotations: full('Get Pods'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          return {
            success: true,
            context: ctxOf(a.context),
            pods: list('Pod', a.namespace).map((p) => ({
              name: p.metadata?.name,
              namespace: p.metadata?.namespace,
              status: p.status?.phase ?? null,
              ip: p.status?.podIP ?? null,
            })),
          };
        }),
    },
    {
      name: 'get_logs',
      doc: 'Get logs from a pod.',
      params: [
        param('pod_name', 'str', undefined, 'Name of the pod'),
        param('namespace', 'str?', 'default', 'Namespace of the pod'),
        param('container', 'str?', null, 'Container name (for multi-container pods)'),
        param('tail', 'int?', null, 'Number of lines to show from end of logs'),
        ctx(),
      ],
      annotations: full('Get Logs'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          if (a.namespace === null)
            throw new PyError(
              'Missing the required parameter `namespace` when calling `read_namespaced_pod_log`',
            );
          const pod = readPod(a.pod_name, a.namespace);
          const names = (pod.spec?.containers ?? []).map((c: Py) => c.name as string);
          const inits = (pod.spec?.initContainers ?? []).map((c: Py) => c.name as string);
          const bad = (message: string) =>
            new PyError(
              apiException(world, 400, 'Bad Request', {
                kind: 'Status',
                apiVersion: 'v1',
                metadata: {},
                status: 'Failure',
                message,
                reason: 'BadRequest',
                code: 400,
              }),
            );
          if (!a.container && names.length > 1)
            throw bad(
              `a container name must be specified for pod ${a.pod_name}, choose one of: [${names.join(' ')}]${inits.length ? ` or one of the init containers: [${inits.join(' ')}]` : ''}`,
            );
          let logs: string;
          try {
            logs = world.logs({
              namespace: a.namespace,
              pod: a.pod_name,
              ...(a.container ? { container: a.container } : {}),
              ...(a.tail !== null ? { tailLines: a.tail } : {}),
            });
          } catch (err) {
            throw bad((err as Error).message);
          }
          return { success: true, context: ctxOf(a.context), logs };
        }),
    },
    {
      name: 'get_pod_events',
      doc: 'Get events for a specific pod.',
      params: [
        param('pod_name', 'str', undefined, 'Name of the pod'),
        param('namespace', 'str', 'default', 'Namespace of the pod'),
        ctx(),
      ],
      annotations: full('Get Pod Events'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          return {
            success: true,
            context: ctxOf(a.context),
            events: nsEvents(a.namespace, a.pod_name).map((e) => ({
              name: e.metadata?.name,
              type: e.type ?? null,
              reason: e.reason ?? null,
              message: e.message ?? null,
              timestamp: pyDate(e.lastTimestamp, true),
            })),
          };
        }),
    },
    {
      name: 'check_pod_health',
      doc: 'Check the health status of a pod.',
      params: [
        param('pod_name', 'str', undefined, 'Name of the pod'),
        param('namespace', 'str', 'default', 'Namespace of the pod'),
        ctx(),
      ],
      annotations: full('Check Pod Health'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          const pod = readPod(a.pod_name, a.namespace);
          return {
            success: true,
            context: ctxOf(a.context),
            phase: pod.status?.phase ?? null,
            conditions: conditionsOf(pod).map((c) => c.type),
          };
        }),
    },
    {
      name: 'exec_in_pod',
      doc: 'Execute a command inside a pod.',
      params: [
        param('pod_name', 'str', undefined, 'Name of the pod'),
        param('command', 'str', undefined, 'Command to execute'),
        param('namespace', 'str?', 'default', 'Namespace of the pod'),
        param('container', 'str?', null, 'Container name (for multi-container pods)'),
        ctx(),
      ],
      annotations: fullW('Exec in Pod', true, false),
      write: true,
    },
    {
      name: 'cleanup_pods',
      doc: 'Clean up pods in problematic states (Evicted, Error, Completed, etc.).',
      params: [
        param('namespace', 'str?', null, 'Namespace to clean up (all namespaces if not specified)'),
        param(
          'states',
          'list[str]?',
          null,
          'List of states to clean up (default: Evicted, Error, Completed, ContainerStatusUnknown)',
        ),
        ctx(),
      ],
      annotations: fullW('Cleanup Pods', true, true),
      write: true,
    },
    {
      name: 'run_pod',
      doc: 'Run a container image as a pod (kubectl run equivalent).\n\nCreates a pod with the specified container image. This is useful for\nquick debugging, running one-off tasks, or testing container images.',
      params: [
        param(
          'image',
          'str',
          undefined,
          "Container image to run (e.g., 'nginx:latest', 'busybox')",
        ),
        param('name', 'str?', null, 'Name for the pod (auto-generated if not specified)'),
        param('namespace', 'str', 'default', 'Namespace to create the pod in'),
        param(
          'command',
          'list[str]?',
          null,
          "Override the container's entrypoint (list of strings)",
        ),
        param(
          'args',
          'list[str]?',
          null,
          'Arguments to pass to the container command (list of strings)',
        ),
        param('env', 'dict[str,str]?', null, 'Environment variables as key-value pairs'),
        param('labels', 'dict[str,str]?', null, 'Labels to apply to the pod'),
        param('restart_policy', 'str', 'Never', 'Pod restart policy (Never, OnFailure, Always)'),
        ctx(),
      ],
      annotations: fullW('Run Pod', false, false),
      write: true,
    },
    {
      name: 'get_pod_conditions',
      doc: 'Get detailed pod conditions breakdown.',
      params: [
        param('pod_name', 'str', undefined, 'Name of the pod'),
        param('namespace', 'str', 'default', 'Namespace of the pod'),
        ctx(),
      ],
      annotations: full('Get Pod Conditions Detailed'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          const pod = readPod(a.pod_name, a.namespace);
          const dstr = (t: unknown) => (t ? pyDate(t) : null);
          return {
            success: true,
            context: ctxOf(a.context),
            pod: a.pod_name,
            namespace: a.namespace,
            phaseAnalysis: {
              phase: pod.status?.phase ?? null,
              reason: pod.status?.reason ?? null,
              message: pod.status?.message ?? null,
              hostIP: pod.status?.hostIP ?? null,
              podIP: pod.status?.podIP ?? null,
              startTime: dstr(pod.status?.startTime),
              qosClass: pod.status?.qosClass ?? null,
            },
            conditions: conditionsOf(pod).map((c) => ({
              type: c.type,
              status: c.status,
              reason: c.reason ?? null,
              message: c.message ?? null,
              lastTransitionTime: dstr(c.lastTransitionTime),
              lastProbeTime: dstr(c.lastProbeTime),
            })),
            containerStatuses: ((pod.status?.containerStatuses ?? []) as Py[]).map((cs) => {
              const st: Py = {
                name: cs.name,
                ready: cs.ready ?? null,
                started: cs.started ?? null,
                restartCount: cs.restartCount ?? null,
                image: cs.image ?? null,
                containerID: cs.containerID ?? null,
              };
              const s = cs.state;
              if (s?.running) {
                st.state = 'running';
                st.startedAt = pyStr(pyDate(s.running.startedAt));
              } else if (s?.waiting) {
                st.state = 'waiting';
                st.waitingReason = s.waiting.reason ?? null;
              } else if (s?.terminated) {
                st.state = 'terminated';
                st.terminatedReason = s.terminated.reason ?? null;
                st.exitCode = s.terminated.exitCode ?? null;
              }
              return st;
            }),
          };
        }),
    },
    {
      name: 'get_previous_logs',
      doc: 'Get logs from the previous container instance (useful for crash debugging).',
      params: [
        param('pod_name', 'str', undefined, 'Name of the pod'),
        param('namespace', 'str', 'default', 'Namespace of the pod'),
        param('container', 'str?', null, 'Container name (for multi-container pods)'),
        param('tail', 'int', 100, 'Number of lines to show from end of logs'),
        ctx(),
      ],
      annotations: full('Get Container Logs Previous'),
      run: (a) =>
        guarded(() => {
          const res = run([
            ...ctxArgs(a.context),
            'logs',
            a.pod_name,
            '-n',
            a.namespace,
            '--previous',
            `--tail=${a.tail}`,
            ...(a.container ? ['-c', a.container] : []),
          ]);
          if (res.returncode !== 0) {
            if (res.stderr.toLowerCase().includes('previous terminated container'))
              return {
                success: false,
                error: "No previous container instance found (container hasn't crashed)",
              };
            return { success: false, error: res.stderr.trim() };
          }
          return {
            success: true,
            context: ctxOf(a.context),
            pod: a.pod_name,
            namespace: a.namespace,
            container: a.container,
            logs: res.stdout,
            lineCount: res.stdout.split('\n').length,
          };
        }),
    },
    {
      name: 'diagnose_pod_crash',
      doc: 'Automated diagnosis of pod crash loops and failures.',
      params: [
        param('pod_name', 'str', undefined, 'Name of the pod'),
        param('namespace', 'str', 'default', 'Namespace of the pod'),
        ctx(),
      ],
      annotations: full('Diagnose Pod Crash'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          const pod = readPod(a.pod_name, a.namespace);
          const d: Py = {
            pod: a.pod_name,
            namespace: a.namespace,
            context: ctxOf(a.context),
            phase: pod.status?.phase ?? null,
            issues: [],
            recommendations: [],
            containerStatuses: [],
            events: [],
          };
          for (const cs of (pod.status?.containerStatuses ?? []) as Py[]) {
            const info: Py = {
              name: cs.name,
              ready: cs.ready ?? null,
              restartCount: cs.restartCount ?? null,
              state: null,
              lastState: null,
            };
            const s = cs.state;
            if (s?.waiting) {
              info.state = {
                status: 'waiting',
                reason: s.waiting.reason ?? null,
                message: s.waiting.message ?? null,
              };
              const r = s.waiting.reason;
              if (r === 'CrashLoopBackOff') {
                d.issues.push({
                  container: cs.name,
                  issue: 'CrashLoopBackOff',
                  severity: 'critical',
                  description: 'Container is crashing repeatedly',
                });
                d.recommendations.push(
                  'Check container logs for error messages',
                  'Verify the container command and args are correct',
                );
              } else if (r === 'ImagePullBackOff') {
                d.issues.push({
                  container: cs.name,
                  issue: 'ImagePullBackOff',
                  severity: 'critical',
                  description: 'Unable to pull container image',
                });
                d.recommendations.push(
                  'Verify the image name and tag exist',
                  'Check imagePullSecrets if using private registry',
                );
              } else if (r === 'CreateContainerConfigError') {
                d.issues.push({
                  container: cs.name,
                  issue: 'CreateContainerConfigError',
                  severity: 'critical',
                  description: 'Container configuration error',
                });
                d.recommendations.push('Check ConfigMaps and Secrets referenced by the container');
              }
            } else if (s?.running) {
              info.state = { status: 'running', startedAt: pyStr(pyDate(s.running.startedAt)) };
            } else if (s?.terminated) {
              const t = s.terminated;
              info.state = {
                status: 'terminated',
                exitCode: t.exitCode ?? null,
                reason: t.reason ?? null,
                message: t.message ?? null,
              };
              if (t.exitCode !== 0) {
                d.issues.push({
                  container: cs.name,
                  issue: `Exited with code ${pyStr(t.exitCode ?? null)}`,
                  severity: 'error',
                  reason: t.reason ?? null,
                });
                if (t.reason === 'OOMKilled')
                  d.recommendations.push(`Increase memory limit for container '${cs.name}'`);
                else if (t.reason === 'Error')
                  d.recommendations.push(
                    `Check logs for container '${cs.name}' to identify the error`,
                  );
              }
            }
            const lt = cs.lastState?.terminated;
            if (lt)
              info.lastState = {
                status: 'terminated',
                exitCode: lt.exitCode ?? null,
                reason: lt.reason ?? null,
                finishedAt: pyStr(pyDate(lt.finishedAt)),
              };
            d.containerStatuses.push(info);
          }
          for (const e of nsEvents(a.namespace, a.pod_name))
            if (e.type === 'Warning')
              d.events.push({
                type: e.type,
                reason: e.reason ?? null,
                message: e.message ?? null,
                count: e.count ?? null,
              });
          return { success: true, diagnosis: d };
        }),
    },
    {
      name: 'detect_pending_pods',
      doc: 'Find pending pods and explain why they are not scheduled.',
      params: [
        param('namespace', 'str?', null, 'Namespace to search (all namespaces if not specified)'),
        ctx(),
      ],
      annotations: full('Detect Pending Pods'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          const pending = list('Pod', a.namespace)
            .filter((p) => p.status?.phase === 'Pending')
            .map((p) => {
              const info: Py = {
                name: p.metadata?.name,
                namespace: p.metadata?.namespace,
                createdAt: pyStr(pyDate(p.metadata?.creationTimestamp)),
                reasons: [],
                events: [],
              };
              for (const c of conditionsOf(p))
                if (c.type === 'PodScheduled' && c.status === 'False')
                  info.reasons.push({
                    type: 'SchedulingFailed',
                    reason: c.reason ?? null,
                    message: c.message ?? null,
                  });
              for (const e of nsEvents(p.metadata?.namespace ?? '', p.metadata?.name ?? '')) {
                if (!['FailedScheduling', 'FailedAttachVolume', 'FailedMount'].includes(e.reason))
                  continue;
                info.events.push({
                  reason: e.reason,
                  message: e.message ?? null,
                  count: e.count ?? null,
                });
                const msg = String(e.message ?? '');
                if (msg.includes('Insufficient cpu'))
                  info.reasons.push({
                    type: 'InsufficientCPU',
                    message: 'Not enough CPU available on any node',
                  });
                else if (msg.includes('Insufficient memory'))
                  info.reasons.push({
                    type: 'InsufficientMemory',
                    message: 'Not enough memory available on any node',
                  });
                else if (msg.includes("node(s) didn't match node selector"))
                  info.reasons.push({
                    type: 'NodeSelectorMismatch',
                    message: "No nodes match the pod's nodeSelector",
                  });
                else if (msg.includes('PersistentVolumeClaim'))
                  info.reasons.push({
                    type: 'PVCPending',
                    message: 'PersistentVolumeClaim is not bound',
                  });
              }
              return info;
            });
          return {
            success: true,
            context: ctxOf(a.context),
            pendingCount: pending.length,
            pendingPods: pending,
          };
        }),
    },
    {
      name: 'get_evicted_pods',
      doc: 'Find evicted pods with their eviction reasons.',
      params: [
        param('namespace', 'str?', null, 'Namespace to search (all namespaces if not specified)'),
        ctx(),
      ],
      annotations: full('Get Evicted Pods'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          const evicted = list('Pod', a.namespace)
            .filter((p) => p.status?.phase === 'Failed' && p.status?.reason === 'Evicted')
            .map((p) => ({
              name: p.metadata?.name,
              namespace: p.metadata?.namespace,
              reason: p.status?.reason,
              message: p.status?.message ?? null,
              nodeName: p.spec?.nodeName ?? null,
              evictedAt: p.status?.startTime ? pyDate(p.status.startTime) : null,
            }));
          const byReason: Record<string, string[]> = {};
          for (const p of evicted) {
            if (p.message === null) throw new PyError("'NoneType' object has no attribute 'lower'");
            const msg = String(p.message).toLowerCase();
            const r = msg.includes('ephemeral-storage')
              ? 'DiskPressure'
              : msg.includes('memory')
                ? 'MemoryPressure'
                : 'Other';
            (byReason[r] ??= []).push(String(p.name));
          }
          return {
            success: true,
            context: ctxOf(a.context),
            summary: {
              totalEvicted: evicted.length,
              byReason: Object.fromEntries(Object.entries(byReason).map(([k, v]) => [k, v.length])),
            },
            evictedPods: evicted,
            recommendations: [
              ...('DiskPressure' in byReason
                ? ['DiskPressure: Clean up disk space or increase ephemeral-storage limits']
                : []),
              ...('MemoryPressure' in byReason
                ? ['MemoryPressure: Increase memory limits or add more nodes']
                : []),
            ],
          };
        }),
    },
  );

  // ---------------------------------------------------------------- core.py
  const listTool = (
    name: string,
    doc: string,
    title: string,
    what: string,
    key: string,
    kind: string,
    shape: (o: KubeObject) => Py,
    annotations: Record<string, unknown> = full(title),
  ): ToolDef => ({
    name,
    doc,
    params: [nsAll(what), ctx()],
    annotations,
    run: (a) =>
      guarded(() => {
        k8sClient(a.context);
        return {
          success: true,
          context: ctxOf(a.context),
          [key]: list(kind, a.namespace).map(shape),
        };
      }),
  });
  defs.push(
    {
      name: 'get_namespaces',
      doc: 'Get all Kubernetes namespaces.',
      params: [ctx()],
      annotations: full('Get Namespaces'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          return {
            success: true,
            context: ctxOf(a.context),
            namespaces: list('Namespace').map((n) => n.metadata?.name),
          };
        }),
    },
    listTool(
      'get_services',
      'Get all services in the specified namespace.',
      'Get Services',
      'services',
      'services',
      'Service',
      (s) => ({
        name: s.metadata?.name,
        namespace: s.metadata?.namespace,
        type: s.spec?.type ?? null,
        cluster_ip: s.spec?.clusterIP ?? null,
      }),
    ),
    {
      name: 'get_nodes',
      doc: 'Get all nodes in the cluster.',
      params: [ctx()],
      annotations: full('Get Nodes'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          return {
            success: true,
            context: ctxOf(a.context),
            nodes: list('Node').map((n) => {
              if (!n.status?.conditions) throw new PyError("'NoneType' object is not iterable");
              return {
                name: n.metadata?.name,
                status: conditionsOf(n).some((c) => c.type === 'Ready' && c.status === 'True')
                  ? 'Ready'
                  : 'NotReady',
                addresses: ((n.status?.addresses ?? []) as Py[]).map((x) => x.address),
              };
            }),
          };
        }),
    },
    listTool(
      'get_configmaps',
      'Get all ConfigMaps in the specified namespace.',
      'Get ConfigMaps',
      'ConfigMaps',
      'configmaps',
      'ConfigMap',
      (c) => ({
        name: c.metadata?.name,
        namespace: c.metadata?.namespace,
        data: c.data ?? null,
      }),
    ),
    listTool(
      'get_secrets',
      'Get all Secrets in the specified namespace.',
      'Get Secrets',
      'Secrets',
      'secrets',
      'Secret',
      (s) => ({
        name: s.metadata?.name,
        namespace: s.metadata?.namespace,
        type: s.type ?? null,
      }),
    ),
    {
      name: 'get_events',
      doc: 'Get Kubernetes events.',
      params: [nsAll('events'), ctx()],
      annotations: full('Get Events'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          return {
            success: true,
            context: ctxOf(a.context),
            events: world.events(a.namespace ? { namespace: a.namespace } : {}).map((e) => ({
              name: e.metadata?.name,
              namespace: e.metadata?.namespace,
              type: e.type ?? null,
              reason: e.reason ?? null,
              message: e.message ?? null,
              timestamp: pyDate(e.lastTimestamp, true),
            })),
          };
        }),
    },
    {
      name: 'get_resource_usage',
      doc: 'Get resource usage metrics for pods.',
      params: [
        param(
          'namespace',
          'str?',
          null,
          'Namespace to get metrics from (all namespaces if not specified)',
        ),
        ctx(),
      ],
      annotations: full('Get Resource Usage'),
      run: (a) =>
        guarded(() => {
          const res = topPods(a.context, a.namespace, '--all-namespaces');
          if (res.returncode !== 0)
            return { success: false, error: res.stderr || 'Failed to get metrics' };
          const pods: Py[] = [];
          for (const line of res.stdout.trim().split('\n')) {
            if (!line.trim()) continue;
            const p = line.split(/\s+/).filter(Boolean);
            if (a.namespace) {
              if (p.length >= 3) pods.push({ name: p[0], cpu: p[1], memory: p[2] });
            } else if (p.length >= 4)
              pods.push({ namespace: p[0], name: p[1], cpu: p[2], memory: p[3] });
          }
          return { success: true, context: ctxOf(a.context), pods };
        }),
    },
    listTool(
      'get_service_accounts',
      'Get service accounts in a namespace or cluster-wide.',
      'Get Service Accounts',
      'service accounts',
      'serviceAccounts',
      'ServiceAccount',
      (s) => ({
        name: s.metadata?.name,
        namespace: s.metadata?.namespace,
        secrets: ((s.secrets ?? []) as Py[]).map((x) => x.name ?? null),
        imagePullSecrets: ((s.imagePullSecrets ?? []) as Py[]).map((x) => x.name ?? null),
        automountToken: s.automountServiceAccountToken ?? null,
      }),
    ),
    {
      name: 'get_crds',
      doc: 'Get Custom Resource Definitions in the cluster.',
      params: [param('group', 'str?', null, 'Filter CRDs by API group'), ctx()],
      annotations: full('Get Custom Resource Definitions'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          return {
            success: true,
            context: ctxOf(a.context),
            crds: crds
              .filter((c) => !a.group || c.spec.group === a.group)
              .map((c) => ({
                name: c.metadata?.name,
                group: c.spec.group,
                version: c.spec.versions[0]?.name ?? null,
                scope: c.spec.scope,
                kind: c.spec.names.kind,
                plural: c.spec.names.plural,
                established: true,
              })),
          };
        }),
    },
    listTool(
      'get_resource_quotas',
      'Get resource quotas for namespaces.',
      'Get Resource Quotas',
      'resource quotas',
      'quotas',
      'ResourceQuota',
      (q) => ({
        name: q.metadata?.name,
        namespace: q.metadata?.namespace,
        hard: q.status?.hard ?? null,
        used: q.status?.used ?? null,
      }),
    ),
    listTool(
      'get_limit_ranges',
      'Get limit ranges for namespaces.',
      'Get Limit Ranges',
      'limit ranges',
      'limitRanges',
      'LimitRange',
      (l) => ({
        name: l.metadata?.name,
        namespace: l.metadata?.namespace,
        limits: ((l.spec?.limits ?? []) as Py[]).map((i) => ({
          type: i.type ?? null,
          default: i.default ?? null,
          defaultRequest: i.defaultRequest ?? null,
          max: i.max ?? null,
          min: i.min ?? null,
        })),
      }),
    ),
    {
      name: 'get_priority_classes',
      doc: 'Get priority classes in the cluster.',
      params: [ctx()],
      annotations: full('Get Priority Classes'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          const pcInfo = world.resolve('priorityclasses.scheduling.k8s.io');
          const custom = pcInfo ? world.list(pcInfo) : [];
          const builtin: Py[] = [
            {
              metadata: { name: 'system-cluster-critical' },
              value: 2000000000,
              globalDefault: false,
              description:
                'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
              preemptionPolicy: 'PreemptLowerPriority',
            },
            {
              metadata: { name: 'system-node-critical' },
              value: 2000001000,
              globalDefault: false,
              description:
                'Used for system critical pods that must not be moved from their current node.',
              preemptionPolicy: 'PreemptLowerPriority',
            },
          ];
          const all = [
            ...custom,
            ...builtin.filter((b) => !custom.some((c) => c.metadata?.name === b.metadata.name)),
          ].sort((x, y) => String(x.metadata?.name).localeCompare(String(y.metadata?.name)));
          return {
            success: true,
            context: ctxOf(a.context),
            priorityClasses: all.map((pc) => ({
              name: pc.metadata?.name,
              value: pc.value ?? null,
              globalDefault: pc.globalDefault ?? null,
              description: pc.description ?? null,
              preemptionPolicy: pc.preemptionPolicy ?? null,
            })),
          };
        }),
    },
  );

  // ---------------------------------------------------------------- cluster.py
  const contexts = [
    {
      name: CONTEXT.name,
      cluster: CONTEXT.cluster,
      user: CONTEXT.user,
      namespace: 'default',
      active: true,
    },
  ];
  const nodeName = (name: string): string | undefined => {
    if (!name) return 'Node name cannot be empty';
    if (name.length > 253) return `Node name too long: ${name.length} chars (max 253)`;
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(name))
      return `Invalid node name '${name}': must be a valid DNS-1123 subdomain (lowercase alphanumeric, '-' or '.', must start/end with alphanumeric)`;
    return undefined;
  };
  const version = {
    gitVersion: 'v1.30.4',
    major: '1',
    minor: '30',
    platform: 'linux/amd64',
    buildDate: '2024-08-14T19:29:03Z',
    goVersion: 'go1.22.5',
    compiler: 'gc',
  };
  const cliOutput = (a: Py, args: string[]) => {
    const res = run([...ctxArgs(a.context), ...args]);
    return {
      success: res.returncode === 0,
      context: ctxOf(a.context),
      output: res.stdout || res.stderr,
    };
  };
  defs.push(
    {
      name: 'list_contexts',
      doc: 'List all available kubectl contexts with detailed info.\n\nReturns all contexts from kubeconfig with cluster, user, namespace info.',
      params: [],
      annotations: full('List Contexts'),
      run: () => ({
        success: true,
        contexts,
        active_context: CONTEXT.name,
        total: contexts.length,
      }),
    },
    {
      name: 'get_current_context',
      doc: 'Get the current kubectl context.',
      params: [],
      annotations: full('Get Current Context'),
      run: () => ({ success: true, context: CONTEXT.name }),
    },
    {
      name: 'get_context_details',
      doc: 'Get details about a specific context.',
      params: [param('context_name', 'str', undefined, 'Name of the context to get details for')],
      annotations: full('Get Context Details'),
      run: (a) => {
        const c = contexts.find((x) => x.name === a.context_name);
        return c
          ? { success: true, context: c }
          : { success: false, error: `Context '${a.context_name}' not found` };
      },
    },
    {
      name: 'kubeconfig_view',
      doc: 'View kubeconfig file contents (sanitized - no secrets).',
      params: [
        param(
          'minify',
          'bool',
          true,
          'If True, show only current context info. If False, show all.',
        ),
      ],
      annotations: full('View Kubeconfig'),
      run: (a) => {
        const cfg = kubeconfig();
        for (const u of cfg.users)
          for (const s of ['client-certificate-data', 'client-key-data', 'token'])
            if (s in u.user) u.user[s] = '[REDACTED]';
        return { success: true, minified: a.minify, kubeconfig: cfg };
      },
    },
    {
      name: 'switch_context',
      doc: 'Switch to a different kubectl context (changes default context).',
      params: [param('context_name', 'str', undefined, 'Name of the context to switch to')],
      annotations: fullW('Switch Context', true, true),
      write: true,
    },
    {
      name: 'set_namespace_for_context',
      doc: 'Set the default namespace for a context.',
      params: [
        param('namespace', 'str', undefined, 'Namespace to set as default'),
        param(
          'context_name',
          'str?',
          null,
          'Context to modify (uses current context if not specified)',
        ),
      ],
      annotations: fullW('Set Namespace for Context', true, true),
      write: true,
    },
    {
      name: 'get_cluster_info',
      doc: 'Get cluster information.',
      params: [ctx()],
      annotations: full('Get Cluster Info'),
      run: (a) =>
        guarded(() => {
          const res = run([...ctxArgs(a.context), 'cluster-info']);
          return res.returncode === 0
            ? { success: true, context: ctxOf(a.context), info: res.stdout }
            : { success: false, error: res.stderr };
        }),
    },
    {
      name: 'get_cluster_version',
      doc: 'Get Kubernetes cluster version information.',
      params: [ctx()],
      annotations: full('Get Cluster Version Info'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          return { success: true, context: ctxOf(a.context), version };
        }),
    },
    {
      name: 'health_check',
      doc: 'Perform a cluster health check.',
      params: [ctx()],
      annotations: full('Health Check'),
      run: (a) =>
        guarded(() => {
          const res = run([...ctxArgs(a.context), 'get', 'componentstatuses', '-o', 'json']);
          return res.returncode === 0
            ? { success: true, context: ctxOf(a.context), components: JSON.parse(res.stdout).items }
            : { success: false, error: res.stderr };
        }),
    },
    {
      name: 'kubectl_explain',
      doc: 'Explain a Kubernetes resource.',
      params: [
        param(
          'resource',
          'str',
          undefined,
          'Resource type to explain (e.g., pods, deployments.spec)',
        ),
        ctx(),
      ],
      annotations: full('Kubectl Explain'),
      run: (a) => guarded(() => cliOutput(a, ['explain', a.resource])),
    },
    {
      name: 'get_api_resources',
      doc: 'Get available API resources.',
      params: [ctx()],
      annotations: full('Get API Resources'),
      run: (a) => guarded(() => cliOutput(a, ['api-resources'])),
    },
    {
      name: 'get_api_versions',
      doc: 'Get available API versions.',
      params: [ctx()],
      annotations: full('Get API Versions'),
      run: (a) =>
        guarded(() => {
          const res = run([...ctxArgs(a.context), 'api-versions']);
          if (res.returncode !== 0) return { success: false, error: res.stderr };
          const versions = res.stdout
            .trim()
            .split('\n')
            .map((v) => v.trim())
            .filter(Boolean);
          return { success: true, context: ctxOf(a.context), versions, total: versions.length };
        }),
    },
    {
      name: 'get_admission_webhooks',
      doc: 'Get admission webhooks configured in the cluster.',
      params: [ctx()],
      annotations: full('Get Admission Webhooks'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          const of = (plural: string) => {
            const info = world.resolve(`${plural}.admissionregistration.k8s.io`);
            return (info ? world.list(info) : []).map((w) => ({
              name: w.metadata?.name,
              webhooks: ((w.webhooks ?? []) as Py[]).map((h) => ({
                name: h.name,
                failurePolicy: h.failurePolicy ?? null,
                matchPolicy: h.matchPolicy ?? null,
                sideEffects: h.sideEffects ?? null,
              })),
            }));
          };
          return {
            success: true,
            context: ctxOf(a.context),
            validatingWebhooks: of('validatingwebhookconfigurations'),
            mutatingWebhooks: of('mutatingwebhookconfigurations'),
          };
        }),
    },
    {
      name: 'check_crd_exists',
      doc: 'Check if a Custom Resource Definition exists in the cluster.',
      params: [
        param(
          'crd_name',
          'str',
          undefined,
          'Name of the CRD to check (e.g., certificates.cert-manager.io)',
        ),
        ctx(),
      ],
      annotations: full('Check CRD Exists'),
      run: (a) =>
        guarded(() => {
          const res = run([...ctxArgs(a.context), 'get', 'crd', a.crd_name, '-o', 'name']);
          return {
            success: true,
            context: ctxOf(a.context),
            crd: a.crd_name,
            exists: res.returncode === 0,
          };
        }),
    },
    {
      name: 'list_crds',
      doc: 'List all Custom Resource Definitions in the cluster.',
      params: [ctx()],
      annotations: full('List CRDs'),
      run: (a) =>
        guarded(() => {
          const res = run([...ctxArgs(a.context), 'get', 'crd', '-o', 'json']);
          if (res.returncode !== 0) return { success: false, error: res.stderr };
          const items = (JSON.parse(res.stdout).items as Py[]).map((i) => ({
            name: i.metadata?.name,
            group: i.spec?.group,
            scope: i.spec?.scope,
            versions: ((i.spec?.versions ?? []) as Py[]).map((v) => v.name),
          }));
          return { success: true, context: ctxOf(a.context), crds: items, total: items.length };
        }),
    },
    {
      name: 'get_nodes_summary',
      doc: 'Get summary of all nodes in the cluster.',
      params: [ctx()],
      annotations: full('Get Nodes Summary'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          const nodes = list('Node');
          const summary: Py = { total: nodes.length, ready: 0, notReady: 0, nodes: [] };
          for (const n of nodes) {
            const ni = n.status?.nodeInfo;
            const cap = n.status?.capacity;
            const info: Py = {
              name: n.metadata?.name,
              status: 'Unknown',
              roles: [],
              kubeletVersion: ni ? (ni.kubeletVersion ?? null) : null,
              os: ni ? (ni.osImage ?? null) : null,
              capacity: {
                cpu: cap ? (cap.cpu ?? null) : null,
                memory: cap ? (cap.memory ?? null) : null,
                pods: cap ? (cap.pods ?? null) : null,
              },
            };
            for (const c of conditionsOf(n))
              if (c.type === 'Ready') {
                info.status = c.status === 'True' ? 'Ready' : 'NotReady';
                if (c.status === 'True') summary.ready += 1;
                else summary.notReady += 1;
              }
            for (const label of Object.keys(n.metadata?.labels ?? {}))
              if (label.startsWith('node-role.kubernetes.io/'))
                info.roles.push(label.split('/')[1]);
            summary.nodes.push(info);
          }
          return { success: true, context: ctxOf(a.context), summary };
        }),
    },
    {
      name: 'get_server_config_status',
      doc: 'Get current server configuration status.\n\nReturns information about:\n- Stateless mode (whether API clients are cached)\n- Kubeconfig watching (whether auto-reload is enabled)\n- Available contexts\n- Current active context',
      params: [],
      annotations: full('Get Server Config Status'),
      run: () => ({
        success: true,
        config: { statelessMode: false, kubeconfigWatching: false },
        contexts: {
          active: CONTEXT.name,
          available: contexts.map((c) => c.name),
          total: contexts.length,
        },
      }),
    },
    {
      name: 'enable_kubeconfig_watching',
      doc: 'Enable automatic kubeconfig file watching.\n\nWhen enabled, the server will automatically detect changes to kubeconfig\nfiles and reload the configuration. This is useful when:\n- Cloud provider CLIs update credentials (aws, gcloud, az)\n- Users switch contexts using external tools\n- Kubeconfig files are mounted dynamically',
      params: [
        param(
          'check_interval',
          'float',
          5.0,
          'How often to check for changes (seconds). Default: 5.0',
        ),
      ],
      annotations: fullW('Enable Kubeconfig Watching', true, true),
      write: true,
    },
    {
      name: 'disable_kubeconfig_watching',
      doc: 'Disable automatic kubeconfig file watching.\n\nStops monitoring kubeconfig files for changes.',
      params: [],
      annotations: fullW('Disable Kubeconfig Watching', true, true),
      write: true,
    },
    {
      name: 'set_server_stateless_mode',
      doc: 'Enable or disable stateless mode.\n\nIn stateless mode:\n- API clients are not cached\n- Configuration is reloaded on each request\n- Useful for serverless/Lambda environments\n- Useful when credentials may change frequently',
      params: [
        param('enabled', 'bool', undefined, 'True to enable stateless mode, False to disable'),
      ],
      annotations: fullW('Set Stateless Mode', true, true),
      write: true,
    },
    {
      name: 'node_logs',
      doc: "Get logs from a Kubernetes node via kubelet API proxy.\n\nThis tool retrieves logs from a node's kubelet service or system log files.\nCommon service names: kubelet, kube-proxy, containerd, docker.\nFor file paths, use the full path like /var/log/syslog or /var/log/messages.",
      params: [
        param('name', 'str', undefined, 'Node name'),
        param(
          'query',
          'str',
          'kubelet',
          'Service name (kubelet, kube-proxy) or log file path (/var/log/syslog)',
        ),
        param('tail_lines', 'int', 100, 'Number of lines from end (0 = all lines)'),
        ctx(),
      ],
      annotations: full('Get Node Logs'),
      run: (a) =>
        guarded(() => {
          const invalid = nodeName(a.name);
          if (invalid) return { success: false, error: invalid };
          const path = a.query.startsWith('/var/log') ? a.query.replace(/^\/+/, '') : a.query;
          const res = run([
            ...ctxArgs(a.context),
            'get',
            '--raw',
            `/api/v1/nodes/${a.name}/proxy/logs/${path}`,
          ]);
          if (res.returncode !== 0) {
            const msg = res.stderr.trim();
            if (msg.toLowerCase().includes('not found'))
              return {
                success: false,
                error: `Node '${a.name}' not found or log path '${a.query}' is invalid`,
                hint: 'Try: kubelet, kube-proxy, or /var/log/syslog',
              };
            return { success: false, error: msg };
          }
          return { success: true, logs: res.stdout };
        }),
    },
    {
      name: 'node_stats_summary',
      doc: "Get resource usage statistics from node via kubelet Summary API.\n\nReturns CPU, memory, filesystem, and network usage at node, pod, and\ncontainer levels. On systems with cgroup v2 and kernel 4.20+, may include\nPSI (Pressure Stall Information) metrics.\n\nThis provides more detailed metrics than 'kubectl top nodes' including:\n- Node-level: CPU, memory, filesystem, network, runtime stats\n- Pod-level: CPU, memory, network, volume stats for each pod\n- Container-level: CPU, memory, rootfs, logs usage for each container",
      params: [param('name', 'str', undefined, 'Node name'), ctx()],
      annotations: full('Get Node Stats Summary'),
      run: (a) =>
        guarded(() => {
          const invalid = nodeName(a.name);
          if (invalid) return { success: false, error: invalid };
          const res = run([
            ...ctxArgs(a.context),
            'get',
            '--raw',
            `/api/v1/nodes/${a.name}/proxy/stats/summary`,
          ]);
          if (res.returncode !== 0) {
            const msg = res.stderr.trim();
            if (msg.toLowerCase().includes('not found'))
              return { success: false, error: `Node '${a.name}' not found` };
            return { success: false, error: msg };
          }
          const stats = JSON.parse(res.stdout);
          const pick = (o: Py, keys: string[]) =>
            o && Object.keys(o).length
              ? Object.fromEntries(keys.map((k) => [k, o[k] ?? null]))
              : {};
          const cpuK = ['time', 'usageNanoCores', 'usageCoreNanoSeconds'];
          const memK = [
            'time',
            'availableBytes',
            'usageBytes',
            'workingSetBytes',
            'rssBytes',
            'pageFaults',
            'majorPageFaults',
          ];
          const netK = ['time', 'rxBytes', 'rxErrors', 'txBytes', 'txErrors'];
          const fsK = [
            'time',
            'availableBytes',
            'capacityBytes',
            'usedBytes',
            'inodesFree',
            'inodes',
            'inodesUsed',
          ];
          const n = stats.node ?? {};
          const pods: Py[] = stats.pods ?? [];
          return {
            success: true,
            context: ctxOf(a.context),
            nodeName: a.name,
            nodeStats: {
              nodeName: n.nodeName ?? null,
              startTime: n.startTime ?? null,
              cpu: pick(n.cpu, cpuK),
              memory: pick(n.memory, memK),
              network: pick(n.network, netK),
              fs: pick(n.fs, fsK),
              runtime: n.runtime ? { imageFs: pick(n.runtime.imageFs, fsK) } : {},
              rlimit: n.rlimit ?? {},
            },
            podCount: pods.length,
            pods: pods.slice(0, 50).map((p) => ({
              podRef: p.podRef ?? {},
              startTime: p.startTime ?? null,
              cpu: pick(p.cpu, cpuK),
              memory: pick(p.memory, memK),
              network: pick(p.network, netK),
              containers: ((p.containers ?? []) as Py[]).slice(0, 5).map((c) => ({
                name: c.name ?? null,
                cpu: pick(c.cpu, cpuK),
                memory: pick(c.memory, memK),
                rootfs: pick(c.rootfs, fsK),
              })),
              containersTruncated: (p.containers ?? []).length > 5,
            })),
            podLimit: 50,
            containerLimit: 5,
            podsTruncated: pods.length > 50,
            rawStatsAvailable: true,
          };
        }),
    },
    {
      name: 'node_top',
      doc: "Get resource consumption (CPU, memory) for nodes from Metrics Server.\n\nSimilar to 'kubectl top nodes' command. Requires metrics-server to be\ninstalled in the cluster.",
      params: [
        param('name', 'str', '', 'Specific node name (optional, all nodes if empty)'),
        param(
          'label_selector',
          'str',
          '',
          "Label selector to filter nodes (e.g., 'node-role.kubernetes.io/control-plane')",
        ),
        ctx(),
      ],
      annotations: full('Get Node Top'),
      run: (a) =>
        guarded(() => {
          let res = run([
            ...ctxArgs(a.context),
            'top',
            'nodes',
            '--no-headers',
            ...(a.name ? [a.name] : []),
          ]);
          if (res.returncode === 0 && a.label_selector) {
            const sel = parseLabelSelector(a.label_selector);
            const keep = new Set(
              world
                .list('Node')
                .filter((n) => matchesLabels(n.metadata?.labels, sel))
                .map((n) => n.metadata?.name),
            );
            res = {
              ...res,
              stdout: res.stdout
                .split('\n')
                .filter((l) => keep.has(l.split(/\s+/)[0]))
                .join('\n'),
            };
          }
          if (res.returncode !== 0) {
            const msg = res.stderr.trim();
            if (
              msg.toLowerCase().includes('metrics') ||
              msg.toLowerCase().includes('not available')
            )
              return {
                success: false,
                error: 'Metrics server not available or not ready',
                hint: 'Install metrics-server: kubectl apply -f https://github.com/kubernetes-sigs/metrics-server/releases/latest/download/components.yaml',
              };
            if (msg.toLowerCase().includes('not found') && a.name)
              return { success: false, error: `Node '${a.name}' not found` };
            return { success: false, error: msg };
          }
          const metrics: Py[] = [];
          for (const line of res.stdout.trim().split('\n')) {
            const p = line.split(/\s+/).filter(Boolean);
            if (p.length >= 5)
              metrics.push({
                node: p[0],
                cpuCores: p[1],
                cpuPercent: p[2]!.replace(/%+$/, ''),
                memoryBytes: p[3],
                memoryPercent: p[4]!.replace(/%+$/, ''),
              });
          }
          const cpus = metrics.map((m) => Number(m.cpuPercent)).filter((x) => !Number.isNaN(x));
          const mems = metrics.map((m) => Number(m.memoryPercent)).filter((x) => !Number.isNaN(x));
          const avg = (xs: number[]) =>
            xs.length ? pyRound(xs.reduce((s, x) => s + x, 0) / xs.length, 1) : null;
          return {
            success: true,
            context: ctxOf(a.context),
            filter: { name: a.name || null, labelSelector: a.label_selector || null },
            nodeCount: metrics.length,
            nodes: metrics,
            clusterAverage:
              cpus.length > 1 || mems.length > 1
                ? { cpuPercent: avg(cpus), memoryPercent: avg(mems) }
                : null,
          };
        }),
    },
  );

  // ---------------------------------------------------------------- multi-cluster (cluster.py)
  defs.push(
    {
      name: 'multi_cluster_query',
      doc: 'Query resources across multiple Kubernetes clusters simultaneously.\n\nThis tool allows you to query the same resource type across multiple clusters\nin a single request, returning aggregated results from all clusters.',
      params: [
        param(
          'contexts',
          'list[str]',
          undefined,
          'List of context names to query (e.g., ["prod-us", "prod-eu", "staging"])',
        ),
        param(
          'resource',
          'str',
          'pods',
          'Resource type to query (pods, deployments, services, nodes, namespaces)',
        ),
        param(
          'namespace',
          'str?',
          null,
          'Namespace to query (optional, all namespaces if not specified)',
        ),
        param(
          'label_selector',
          'str',
          '',
          'Label selector to filter resources (e.g., "app=nginx")',
        ),
        param(
          'field_selector',
          'str',
          '',
          'Field selector to filter resources (e.g., "status.phase=Running")',
        ),
      ],
      annotations: short('Multi-Cluster Query'),
      run: (a) => {
        if (!a.contexts.length)
          return { success: false, error: 'At least one context must be specified' };
        const valid = [
          'pods',
          'deployments',
          'services',
          'nodes',
          'namespaces',
          'configmaps',
          'secrets',
          'ingresses',
          'statefulsets',
          'daemonsets',
          'jobs',
          'cronjobs',
          'pvcs',
        ];
        if (!valid.includes(a.resource))
          return {
            success: false,
            error: `Invalid resource '${a.resource}'. Must be one of: ${pyRepr(valid)}`,
          };
        const results = (a.contexts as string[]).map((c: string) => {
          const res = run([
            ...ctxArgs(c),
            'get',
            a.resource,
            '-o',
            'json',
            ...(a.namespace ? ['-n', a.namespace] : ['--all-namespaces']),
            ...(a.label_selector ? ['-l', a.label_selector] : []),
            ...(a.field_selector ? ['--field-selector', a.field_selector] : []),
          ]);
          if (res.returncode !== 0) return { context: c, success: false, error: res.stderr.trim() };
          const items: Py[] = JSON.parse(res.stdout).items ?? [];
          return {
            context: c,
            success: true,
            count: items.length,
            items: items.map((i) => {
              const s: Py = {
                name: i.metadata?.name ?? null,
                namespace: i.metadata?.namespace ?? null,
              };
              if (a.resource === 'pods')
                Object.assign(s, {
                  phase: i.status?.phase ?? null,
                  podIP: i.status?.podIP ?? null,
                  nodeName: i.spec?.nodeName ?? null,
                });
              else if (a.resource === 'deployments')
                Object.assign(s, {
                  replicas: i.status?.replicas ?? 0,
                  readyReplicas: i.status?.readyReplicas ?? 0,
                  availableReplicas: i.status?.availableReplicas ?? 0,
                });
              else if (a.resource === 'services')
                Object.assign(s, {
                  type: i.spec?.type ?? null,
                  clusterIP: i.spec?.clusterIP ?? null,
                  ports: ((i.spec?.ports ?? []) as Py[])
                    .slice(0, 5)
                    .map((p) => ({ port: p.port ?? null, targetPort: p.targetPort ?? null })),
                });
              else if (a.resource === 'nodes') {
                s.namespace = null;
                for (const c2 of (i.status?.conditions ?? []) as Py[])
                  if (c2.type === 'Ready') s.ready = c2.status === 'True';
                s.kubeletVersion = i.status?.nodeInfo?.kubeletVersion ?? null;
              } else if (a.resource === 'namespaces')
                Object.assign(s, { namespace: null, phase: i.status?.phase ?? null });
              return s;
            }),
          };
        });
        results.sort((x, y) => (x.context < y.context ? -1 : x.context > y.context ? 1 : 0));
        const ok = results.filter((r) => r.success);
        return {
          success: ok.length > 0,
          query: {
            resource: a.resource,
            namespace: a.namespace || 'all',
            labelSelector: a.label_selector || null,
            fieldSelector: a.field_selector || null,
          },
          summary: {
            totalClusters: a.contexts.length,
            successfulClusters: ok.length,
            failedClusters: results.length - ok.length,
            totalItems: ok.reduce((s, r) => s + (r.count ?? 0), 0),
          },
          clusters: results,
        };
      },
    },
    {
      name: 'multi_cluster_health',
      doc: 'Check health status across multiple Kubernetes clusters.\n\nPerforms connectivity and version checks across specified clusters or all\navailable contexts if none specified.',
      params: [
        param(
          'contexts',
          'list[str]?',
          null,
          'List of context names to check (optional, uses all contexts if not specified)',
        ),
      ],
      annotations: short('Multi-Cluster Health Check'),
      run: (a) => {
        const names: string[] =
          a.contexts && a.contexts.length ? a.contexts : contexts.map((c) => c.name);
        const results = names.map((c) => {
          const h: Py = {
            context: c,
            reachable: false,
            version: null,
            nodeCount: null,
            readyNodes: null,
            error: null,
          };
          try {
            k8sClient(c);
            h.reachable = true;
            h.version = version.gitVersion;
            const nodes = world.list('Node');
            h.nodeCount = nodes.length;
            h.readyNodes = nodes.filter((n) =>
              conditionsOf(n).some((x) => x.type === 'Ready' && x.status === 'True'),
            ).length;
          } catch (err) {
            if (!(err instanceof PyError)) throw err;
            h.error = err.message;
          }
          return h;
        });
        results.sort((x, y) => (x.context < y.context ? -1 : x.context > y.context ? 1 : 0));
        const reachable = results.filter((r) => r.reachable).length;
        return {
          success: reachable > 0,
          summary: {
            totalClusters: names.length,
            reachableClusters: reachable,
            unreachableClusters: names.length - reachable,
            totalNodes: results.reduce((s, r) => s + (r.nodeCount ?? 0), 0),
            readyNodes: results.reduce((s, r) => s + (r.readyNodes ?? 0), 0),
          },
          clusters: results,
        };
      },
    },
    {
      name: 'multi_cluster_pod_count',
      doc: 'Get pod counts across multiple clusters grouped by status or namespace.\n\nQuickly see pod distribution across your clusters without fetching full pod details.',
      params: [
        param(
          'contexts',
          'list[str]?',
          null,
          'List of context names (optional, uses all contexts if not specified)',
        ),
        param(
          'namespace',
          'str?',
          null,
          'Filter by namespace (optional, all namespaces if not specified)',
        ),
        param(
          'group_by',
          'str',
          'status',
          'How to group results: "status" (Running/Pending/etc) or "namespace"',
        ),
      ],
      annotations: short('Multi-Cluster Pod Count'),
      run: (a) => {
        if (!['status', 'namespace'].includes(a.group_by))
          return { success: false, error: "group_by must be 'status' or 'namespace'" };
        const names: string[] =
          a.contexts && a.contexts.length ? a.contexts : contexts.map((c) => c.name);
        const results = names.map((c) => {
          try {
            k8sClient(c);
          } catch (err) {
            if (!(err instanceof PyError)) throw err;
            return { context: c, success: false, error: err.message };
          }
          const counts: Record<string, number> = {};
          const pods = list('Pod', a.namespace);
          for (const p of pods) {
            const key =
              a.group_by === 'status' ? (p.status?.phase ?? 'Unknown') : p.metadata?.namespace;
            counts[key] = (counts[key] ?? 0) + 1;
          }
          return { context: c, success: true, total: pods.length, breakdown: counts };
        });
        results.sort((x, y) => (x.context < y.context ? -1 : x.context > y.context ? 1 : 0));
        const aggregate: Record<string, number> = {};
        let total = 0;
        for (const r of results)
          if (r.success) {
            total += (r as Py).total;
            for (const [k, v] of Object.entries((r as Py).breakdown as Record<string, number>))
              aggregate[k] = (aggregate[k] ?? 0) + v;
          }
        return {
          success: results.some((r) => r.success),
          query: { namespace: a.namespace || 'all', groupBy: a.group_by },
          summary: { totalClusters: names.length, totalPods: total, aggregateBreakdown: aggregate },
          clusters: results,
        };
      },
    },
  );

  // ---------------------------------------------------------------- deployments.py
  defs.push(
    listTool(
      'get_deployments',
      'Get all deployments in the specified namespace.',
      'Get Deployments',
      'deployments',
      'deployments',
      'Deployment',
      (d) => ({
        name: d.metadata?.name,
        namespace: d.metadata?.namespace,
        replicas: d.spec?.replicas ?? null,
        ready: d.status?.readyReplicas || 0,
        available: d.status?.availableReplicas || 0,
      }),
    ),
    {
      name: 'create_deployment',
      doc: 'Create a new deployment.',
      params: [
        param('name', 'str', undefined, 'Name of the deployment'),
        param('image', 'str', undefined, 'Container image to deploy'),
        param('replicas', 'int', undefined, 'Number of replicas'),
        param(
          'namespace',
          'str?',
          'default',
          'Namespace to create deployment in (default: "default")',
        ),
        ctx(),
      ],
      annotations: fullW('Create Deployment', false, false),
      write: true,
    },
    {
      name: 'scale_deployment',
      doc: 'Scale a deployment to a specified number of replicas.',
      params: [
        param('name', 'str', undefined, 'Name of the deployment'),
        param('replicas', 'int', undefined, 'Target number of replicas'),
        param('namespace', 'str?', 'default', 'Namespace of the deployment (default: "default")'),
        ctx(),
      ],
      annotations: fullW('Scale Deployment', false, false),
      write: true,
    },
    {
      name: 'restart_deployment',
      doc: 'Restart a deployment by triggering a rolling update.',
      params: [
        param('name', 'str', undefined, 'Name of the deployment'),
        param('namespace', 'str', 'default', 'Namespace of the deployment (default: "default")'),
        ctx(),
      ],
      annotations: fullW('Restart Deployment', false, false),
      write: true,
    },
    listTool(
      'get_replicasets',
      'Get ReplicaSets in a namespace or cluster-wide.',
      'Get ReplicaSets',
      'ReplicaSets',
      'replicaSets',
      'ReplicaSet',
      (r) => ({
        name: r.metadata?.name,
        namespace: r.metadata?.namespace,
        desired: r.spec?.replicas ?? null,
        ready: r.status?.readyReplicas || 0,
        available: r.status?.availableReplicas || 0,
        ownerReferences: ((r.metadata?.ownerReferences ?? []) as Py[]).map((o) => ({
          kind: o.kind,
          name: o.name,
        })),
      }),
    ),
    listTool(
      'get_statefulsets',
      'Get StatefulSets in a namespace or cluster-wide.',
      'Get StatefulSets',
      'StatefulSets',
      'statefulSets',
      'StatefulSet',
      (s) => ({
        name: s.metadata?.name,
        namespace: s.metadata?.namespace,
        replicas: s.spec?.replicas ?? null,
        ready: s.status?.readyReplicas || 0,
        currentReplicas: s.status?.currentReplicas || 0,
        serviceName: s.spec?.serviceName ?? null,
        updateStrategy: s.spec?.updateStrategy ? (s.spec.updateStrategy.type ?? null) : null,
      }),
    ),
    listTool(
      'get_daemonsets',
      'Get DaemonSets in a namespace or cluster-wide.',
      'Get DaemonSets',
      'DaemonSets',
      'daemonSets',
      'DaemonSet',
      (d) => ({
        name: d.metadata?.name,
        namespace: d.metadata?.namespace,
        desired: d.status?.desiredNumberScheduled ?? null,
        current: d.status?.currentNumberScheduled ?? null,
        ready: d.status?.numberReady ?? null,
        available: d.status?.numberAvailable || 0,
        nodeSelector: d.spec?.template?.spec?.nodeSelector ?? null,
      }),
    ),
    {
      name: 'get_jobs',
      doc: 'Get Jobs and optionally CronJobs.',
      params: [
        param(
          'namespace',
          'str?',
          null,
          'Namespace to list Jobs from (all namespaces if not specified)',
        ),
        param('include_cronjobs', 'bool', true, 'Whether to include CronJobs in the result'),
        ctx(),
      ],
      annotations: full('Get Jobs and CronJobs'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          const out: Py = {
            success: true,
            context: ctxOf(a.context),
            jobs: list('Job', a.namespace).map((j) => ({
              name: j.metadata?.name,
              namespace: j.metadata?.namespace,
              completions: j.spec?.completions ?? null,
              succeeded: j.status?.succeeded || 0,
              failed: j.status?.failed || 0,
              active: j.status?.active || 0,
              startTime: pyDate(j.status?.startTime, true),
              completionTime: pyDate(j.status?.completionTime, true),
            })),
          };
          if (a.include_cronjobs)
            out.cronJobs = list('CronJob', a.namespace).map((c) => ({
              name: c.metadata?.name,
              namespace: c.metadata?.namespace,
              schedule: c.spec?.schedule ?? null,
              suspend: c.spec?.suspend ?? null,
              lastScheduleTime: pyDate(c.status?.lastScheduleTime, true),
              activeJobs: (c.status?.active ?? []).length,
            }));
          return out;
        }),
    },
    listTool(
      'get_hpa',
      'Get HorizontalPodAutoscalers in a namespace or cluster-wide.',
      'Get HorizontalPodAutoscalers',
      'HPAs',
      'hpas',
      'HorizontalPodAutoscaler',
      (h) => ({
        name: h.metadata?.name,
        namespace: h.metadata?.namespace,
        targetRef: {
          kind: h.spec?.scaleTargetRef?.kind ?? null,
          name: h.spec?.scaleTargetRef?.name ?? null,
        },
        minReplicas: h.spec?.minReplicas ?? null,
        maxReplicas: h.spec?.maxReplicas ?? null,
        currentReplicas: h.status?.currentReplicas ?? null,
        desiredReplicas: h.status?.desiredReplicas ?? null,
      }),
    ),
    listTool(
      'get_pdb',
      'Get PodDisruptionBudgets in a namespace or cluster-wide.',
      'Get PodDisruptionBudgets',
      'PDBs',
      'pdbs',
      'PodDisruptionBudget',
      (p) => ({
        name: p.metadata?.name,
        namespace: p.metadata?.namespace,
        minAvailable: p.spec?.minAvailable ? String(p.spec.minAvailable) : null,
        maxUnavailable: p.spec?.maxUnavailable ? String(p.spec.maxUnavailable) : null,
        currentHealthy: p.status?.currentHealthy ?? null,
        desiredHealthy: p.status?.desiredHealthy ?? null,
        disruptionsAllowed: p.status?.disruptionsAllowed ?? null,
        expectedPods: p.status?.expectedPods ?? null,
      }),
    ),
  );

  // ---------------------------------------------------------------- security.py
  const rules = (r: Py) =>
    ((r.rules ?? []) as Py[]).map((x) => ({
      apiGroups: x.apiGroups ?? null,
      resources: x.resources ?? null,
      verbs: x.verbs ?? null,
    }));
  const readNamespace = (name: string) => {
    const n = world.get('Namespace', name);
    if (!n) throw new PyError(notFound(world, 'namespaces', name));
    return n;
  };
  defs.push(
    listTool(
      'get_rbac_roles',
      'Get RBAC Roles in a namespace or cluster-wide.',
      'Get RBAC Roles',
      'roles',
      'roles',
      'Role',
      (r) => ({
        name: r.metadata?.name,
        namespace: r.metadata?.namespace,
        rules: rules(r),
      }),
    ),
    {
      name: 'get_cluster_roles',
      doc: 'Get ClusterRoles in the cluster.',
      params: [ctx()],
      annotations: full('Get Cluster Roles'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          return {
            success: true,
            context: ctxOf(a.context),
            clusterRoles: list('ClusterRole')
              .slice(0, 20)
              .map((r) => ({ name: r.metadata?.name, rules: rules(r).slice(0, 5) })),
          };
        }),
    },
    {
      name: 'analyze_pod_security',
      doc: 'Analyze pod security configurations.',
      params: [
        param(
          'namespace',
          'str?',
          null,
          'Namespace to analyze pods in (all namespaces if not specified)',
        ),
        ctx(),
      ],
      annotations: full('Analyze Pod Security'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          const pods = list('Pod', a.namespace);
          const issues: Py[] = [];
          for (const p of pods) {
            const found: string[] = [];
            if (p.spec?.hostNetwork) found.push('hostNetwork enabled');
            if (p.spec?.hostPID) found.push('hostPID enabled');
            if (p.spec?.hostIPC) found.push('hostIPC enabled');
            for (const c of (p.spec?.containers ?? []) as Py[]) {
              const sc = c.securityContext;
              if (sc) {
                if (sc.privileged) found.push(`Container ${c.name}: privileged mode`);
                // V1SecurityContext has no run_as_root: the server's check raises here
                throw new PyError("'V1SecurityContext' object has no attribute 'run_as_root'");
              }
            }
            if (found.length)
              issues.push({
                pod: p.metadata?.name,
                namespace: p.metadata?.namespace,
                issues: found,
              });
          }
          return {
            success: true,
            context: ctxOf(a.context),
            totalPods: pods.length,
            podsWithIssues: issues.length,
            issues: issues.slice(0, 50),
          };
        }),
    },
    {
      name: 'analyze_network_policies',
      doc: 'Analyze network policies in the cluster.',
      params: [
        param(
          'namespace',
          'str?',
          null,
          'Namespace to analyze policies in (all namespaces if not specified)',
        ),
        ctx(),
      ],
      annotations: full('Analyze Network Policies'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          const policies = list('NetworkPolicy', a.namespace);
          const namespaces = a.namespace ? [readNamespace(a.namespace)] : list('Namespace');
          const protectedNs = new Set(policies.map((p) => p.metadata?.namespace));
          return {
            success: true,
            context: ctxOf(a.context),
            totalPolicies: policies.length,
            protectedNamespaces: [...protectedNs].sort(),
            unprotectedNamespaces: namespaces
              .map((n) => n.metadata?.name)
              .filter(
                (n) =>
                  !protectedNs.has(n) &&
                  !['kube-system', 'kube-public', 'kube-node-lease'].includes(n ?? ''),
              )
              .sort(),
            policies: policies.map((p) => ({
              name: p.metadata?.name,
              namespace: p.metadata?.namespace,
              podSelector: p.spec?.podSelector ? (p.spec.podSelector.matchLabels ?? null) : {},
              policyTypes: p.spec?.policyTypes ?? null,
            })),
          };
        }),
    },
    {
      name: 'audit_rbac_permissions',
      doc: 'Audit RBAC permissions for subjects.',
      params: [
        param('namespace', 'str?', null, 'Namespace to audit (cluster-wide if not specified)'),
        param('subject', 'str?', null, 'Filter by subject name'),
        ctx(),
      ],
      annotations: full('Audit RBAC Permissions'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          const perms: Py[] = [];
          const add = (b: KubeObject, scope: string | null) => {
            for (const s of (b.subjects ?? []) as Py[]) {
              if (a.subject && s.name !== a.subject) continue;
              perms.push({
                subject: s.name,
                subjectKind: s.kind,
                roleRef: b.roleRef?.name ?? null,
                scope,
                bindingName: b.metadata?.name,
              });
            }
          };
          for (const b of list('ClusterRoleBinding')) add(b, 'cluster');
          for (const b of list('RoleBinding', a.namespace)) add(b, b.metadata?.namespace ?? null);
          return { success: true, context: ctxOf(a.context), permissions: perms.slice(0, 100) };
        }),
    },
    {
      name: 'check_secrets_security',
      doc: 'Check security posture of secrets.',
      params: [
        param(
          'namespace',
          'str?',
          null,
          'Namespace to check secrets in (all namespaces if not specified)',
        ),
        ctx(),
      ],
      annotations: full('Check Secrets Security'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          const secrets = list('Secret', a.namespace);
          const findings: Py[] = [];
          for (const s of secrets) {
            const issues: string[] = [];
            if (s.type === 'Opaque')
              issues.push('Generic secret type - consider using specific types');
            if (!s.metadata?.annotations || !Object.keys(s.metadata.annotations).length)
              issues.push('No annotations - consider adding metadata');
            if (issues.length)
              findings.push({
                name: s.metadata?.name,
                namespace: s.metadata?.namespace,
                type: s.type ?? null,
                issues,
              });
          }
          return {
            success: true,
            context: ctxOf(a.context),
            totalSecrets: secrets.length,
            secretsWithIssues: findings.length,
            findings: findings.slice(0, 50),
          };
        }),
    },
    {
      name: 'get_pod_security_info',
      doc: 'Get Pod Security Standards information for namespaces.',
      params: [
        param('namespace', 'str?', null, 'Namespace to check (all namespaces if not specified)'),
        ctx(),
      ],
      annotations: full('Get Pod Security Policies (Deprecated) / Pod Security Standards'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          const namespaces = a.namespace ? [readNamespace(a.namespace)] : list('Namespace');
          const result: Py[] = [];
          for (const n of namespaces) {
            const l = n.metadata?.labels ?? {};
            const k = (x: string) => l[`pod-security.kubernetes.io/${x}`] ?? null;
            const info = {
              namespace: n.metadata?.name,
              enforce: k('enforce'),
              enforceVersion: k('enforce-version'),
              audit: k('audit'),
              auditVersion: k('audit-version'),
              warn: k('warn'),
              warnVersion: k('warn-version'),
            };
            if (Object.entries(info).some(([key, v]) => key !== 'namespace' && v))
              result.push(info);
          }
          return {
            success: true,
            context: ctxOf(a.context),
            note: 'Pod Security Policies are deprecated. Using Pod Security Standards (PSS) labels.',
            namespacesWithPSS: result,
          };
        }),
    },
  );

  // ---------------------------------------------------------------- networking.py
  defs.push(
    {
      name: 'get_ingress',
      doc: 'Get Ingress resources in a namespace or cluster-wide.',
      params: [nsAll('ingresses'), ctx()],
      annotations: short('Get Ingress Resources'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          return {
            success: true,
            context: ctxOf(a.context),
            ingresses: list('Ingress', a.namespace).map((i) => ({
              name: i.metadata?.name,
              namespace: i.metadata?.namespace,
              ingressClassName: i.spec?.ingressClassName ?? null,
              rules: ((i.spec?.rules ?? []) as Py[]).map((r) => ({
                host: r.host ?? null,
                paths: ((r.http ? r.http.paths : []) as Py[]).map((p) => ({
                  path: p.path ?? null,
                  pathType: p.pathType ?? null,
                  backend: {
                    serviceName: p.backend?.service ? p.backend.service.name : null,
                    servicePort:
                      p.backend?.service && p.backend.service.port
                        ? (p.backend.service.port.number ?? null)
                        : null,
                  },
                })),
              })),
              tls:
                i.spec?.tls && i.spec.tls.length
                  ? (i.spec.tls as Py[]).map((t) => ({
                      hosts: t.hosts ?? null,
                      secretName: t.secretName ?? null,
                    }))
                  : null,
            })),
          };
        }),
    },
    {
      name: 'get_endpoints',
      doc: 'Get Endpoints for services.',
      params: [
        nsAll('endpoints'),
        param('service_name', 'str?', null, 'Filter by specific service name'),
        ctx(),
      ],
      annotations: short('Get Endpoints'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          return {
            success: true,
            context: ctxOf(a.context),
            endpoints: list('Endpoints', a.namespace)
              .filter((e) => !a.service_name || e.metadata?.name === a.service_name)
              .map((e) => {
                const addresses: Py[] = [];
                for (const s of (e.subsets ?? []) as Py[])
                  for (const ad of (s.addresses ?? []) as Py[])
                    for (const p of (s.ports ?? []) as Py[])
                      addresses.push({
                        ip: ad.ip ?? null,
                        port: p.port ?? null,
                        protocol: p.protocol ?? null,
                        targetRef: ad.targetRef
                          ? { kind: ad.targetRef.kind ?? null, name: ad.targetRef.name ?? null }
                          : null,
                      });
                return { name: e.metadata?.name, namespace: e.metadata?.namespace, addresses };
              }),
          };
        }),
    },
    {
      name: 'diagnose_network_connectivity',
      doc: 'Diagnose network connectivity between pods or to external endpoints.',
      params: [
        param('source_pod', 'str', undefined, 'Name of the pod to test from'),
        param('target', 'str', undefined, 'Target hostname or IP to test connectivity to'),
        param('source_namespace', 'str', 'default', 'Namespace of the source pod'),
        param('port', 'int?', null, 'Optional port number to test'),
        ctx(),
      ],
      annotations: short('Diagnose Network Connectivity'),
      // runs `kubectl exec <pod> -- nslookup/nc/ping`: an exec into the pod
      write: true,
    },
    {
      name: 'check_dns_resolution',
      doc: 'Check DNS resolution from within the cluster.',
      params: [
        param('hostname', 'str', undefined, 'Hostname to resolve'),
        param('namespace', 'str', 'default', 'Namespace to find a pod in'),
        param('pod_name', 'str?', null, 'Specific pod to use for testing (optional)'),
        ctx(),
      ],
      annotations: short('Check DNS Resolution'),
      // runs `kubectl exec <pod> -- nslookup <hostname>`: an exec into the pod
      write: true,
    },
    {
      name: 'trace_service_chain',
      doc: 'Trace the connection chain from service to pods.',
      params: [
        param('service_name', 'str', undefined, 'Name of the service to trace'),
        param('namespace', 'str', 'default', 'Namespace of the service'),
        ctx(),
      ],
      annotations: short('Trace Service to Pods'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          const svc = world.get('Service', a.service_name, a.namespace);
          if (!svc) throw new PyError(notFound(world, 'services', a.service_name));
          const ep = world.get('Endpoints', a.service_name, a.namespace);
          const selector: Record<string, string> | null = svc.spec?.selector ?? null;
          const out: Py = {
            success: true,
            context: ctxOf(a.context),
            service: {
              name: svc.metadata?.name,
              type: svc.spec?.type ?? null,
              clusterIP: svc.spec?.clusterIP ?? null,
              ports: ((svc.spec?.ports ?? []) as Py[]).map((p) => ({
                name: p.name ?? null,
                port: p.port ?? null,
                targetPort: pyStr(p.targetPort ?? null),
                protocol: p.protocol ?? null,
              })),
              selector,
            },
            endpoints: [],
            pods: [],
          };
          for (const s of (ep?.subsets ?? []) as Py[])
            for (const ad of (s.addresses ?? []) as Py[])
              for (const p of (s.ports ?? []) as Py[])
                out.endpoints.push({
                  ip: ad.ip ?? null,
                  port: p.port ?? null,
                  podName: ad.targetRef ? (ad.targetRef.name ?? null) : null,
                });
          if (selector && Object.keys(selector).length) {
            const sel = Object.entries(selector)
              .map(([k, v]) => `${k}=${v}`)
              .join(',');
            out.pods = world
              .list('Pod', { namespace: a.namespace, labelSelector: sel })
              .map((p) => ({
                name: p.metadata?.name,
                status: p.status?.phase ?? null,
                podIP: p.status?.podIP ?? null,
                ready: ((p.status?.containerStatuses ?? []) as Py[]).every((c) => c.ready),
              }));
          }
          return out;
        }),
    },
    {
      name: 'port_forward',
      doc: 'Start port forwarding to a pod (note: this starts a background process).',
      params: [
        param('pod_name', 'str', undefined, 'Name of the pod to forward to'),
        param('local_port', 'int', undefined, 'Local port to listen on'),
        param('pod_port', 'int', undefined, 'Pod port to forward to'),
        param('namespace', 'str?', 'default', 'Namespace of the pod'),
        ctx(),
      ],
      annotations: shortW('Port Forward'),
      write: true,
    },
  );

  // ---------------------------------------------------------------- storage.py
  const pvSource = (spec: Py) => {
    const attrs: [string, string][] = [
      ['nfs', 'nfs'],
      ['hostPath', 'hostPath'],
      ['gcePersistentDisk', 'gcePersistentDisk'],
      ['azureDisk', 'azureDisk'],
      ['csi', 'csi'],
      ['local', 'local'],
      ['fc', 'fc'],
      ['iscsi', 'iscsi'],
    ];
    for (const [type, key] of attrs)
      if (spec?.[key]) return { type, details: pyRepr(snake(spec[key])).slice(0, 100) };
    return { type: 'unknown' };
  };
  defs.push(
    {
      name: 'get_persistent_volumes',
      doc: 'Get Persistent Volumes in the cluster.',
      params: [
        param('name', 'str?', null, 'Specific PV name to get (all PVs if not specified)'),
        ctx(),
      ],
      annotations: short('Get Persistent Volumes'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          let pvs: KubeObject[];
          if (a.name) {
            const pv = world.get('PersistentVolume', a.name);
            if (!pv) throw new PyError(notFound(world, 'persistentvolumes', a.name));
            pvs = [pv];
          } else pvs = list('PersistentVolume');
          return {
            success: true,
            context: ctxOf(a.context),
            persistentVolumes: pvs.map((pv) => ({
              name: pv.metadata?.name,
              capacity: pv.spec?.capacity ? (pv.spec.capacity.storage ?? null) : null,
              accessModes: pv.spec?.accessModes ?? null,
              reclaimPolicy: pv.spec?.persistentVolumeReclaimPolicy ?? null,
              status: pv.status?.phase ?? null,
              storageClass: pv.spec?.storageClassName ?? null,
              claimRef: pv.spec?.claimRef
                ? {
                    name: pv.spec.claimRef.name ?? null,
                    namespace: pv.spec.claimRef.namespace ?? null,
                  }
                : null,
              source: pvSource(pv.spec),
            })),
          };
        }),
    },
    listTool(
      'get_pvcs',
      'Get Persistent Volume Claims in a namespace or cluster-wide.',
      'Get Persistent Volume Claims',
      'PVCs',
      'pvcs',
      'PersistentVolumeClaim',
      (c) => ({
        name: c.metadata?.name,
        namespace: c.metadata?.namespace,
        status: c.status?.phase ?? null,
        capacity: c.status?.capacity ? (c.status.capacity.storage ?? null) : null,
        accessModes: c.spec?.accessModes ?? null,
        storageClass: c.spec?.storageClassName ?? null,
        volumeName: c.spec?.volumeName ?? null,
      }),
      short('Get Persistent Volume Claims'),
    ),
    {
      name: 'get_storage_classes',
      doc: 'Get Storage Classes in the cluster.',
      params: [ctx()],
      annotations: short('Get Storage Classes'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          return {
            success: true,
            context: ctxOf(a.context),
            storageClasses: list('StorageClass').map((s) => ({
              name: s.metadata?.name,
              provisioner: s.provisioner ?? null,
              reclaimPolicy: s.reclaimPolicy ?? null,
              volumeBindingMode: s.volumeBindingMode ?? null,
              allowVolumeExpansion: s.allowVolumeExpansion ?? null,
              default: s.metadata?.annotations
                ? s.metadata.annotations['storageclass.kubernetes.io/is-default-class'] === 'true'
                : false,
            })),
          };
        }),
    },
  );

  // ---------------------------------------------------------------- operations.py
  const opsCtx = () => ctx(CTX_OPT);
  const plain = (a: Py, args: string[], ok: (out: string) => Py) =>
    guarded(() => {
      const res = run([...ctxArgs(a.context), ...args]);
      return res.returncode === 0 ? ok(res.stdout) : { success: false, error: res.stderr.trim() };
    });
  defs.push(
    {
      name: 'kubectl_apply',
      doc: 'Apply a YAML manifest to the cluster.',
      params: [
        param('manifest', 'str', undefined, 'YAML manifest content to apply'),
        param('namespace', 'str?', 'default', 'Target namespace'),
        opsCtx(),
      ],
      annotations: shortW('Kubectl Apply'),
      write: true,
    },
    {
      name: 'kubectl_describe',
      doc: 'Describe a Kubernetes resource in detail.',
      params: [
        param(
          'resource_type',
          'str',
          undefined,
          'Type of resource (e.g., pod, deployment, service)',
        ),
        param('name', 'str', undefined, 'Name of the resource'),
        param('namespace', 'str?', 'default', 'Target namespace'),
        opsCtx(),
      ],
      annotations: short('Kubectl Describe'),
      run: (a) => {
        try {
          noneArg(a.namespace);
        } catch (err) {
          return { success: false, error: (err as Error).message };
        }
        return plain(a, ['describe', a.resource_type, a.name, '-n', a.namespace], (out) => ({
          success: true,
          context: ctxOf(a.context),
          description: out,
        }));
      },
    },
    {
      name: 'kubectl_generic',
      doc: 'Execute any kubectl command. Use with caution.',
      params: [
        param('command', 'str', undefined, 'kubectl command to execute (without kubectl prefix)'),
        opsCtx(),
      ],
      annotations: short('Kubectl Generic'),
      writes: (args) => {
        const parts = shlexSplit(String(args['command'] ?? ''));
        if (parts[0] === 'kubectl') parts.shift();
        return parts[0] === 'config' && parts[1] === 'use-context';
      },
      run: (a) =>
        guarded(() => {
          const allowed = [
            'get',
            'describe',
            'logs',
            'top',
            'explain',
            'api-resources',
            'version',
            'cluster-info',
          ];
          const cfg = [
            'config view',
            'config current-context',
            'config get-contexts',
            'config get-clusters',
            'config use-context',
          ];
          let parts: string[];
          try {
            parts = shlexSplit(a.command);
          } catch (err) {
            return { success: false, error: (err as Error).message };
          }
          if (!parts.length) return { success: false, error: 'Empty command' };
          if (parts[0] === 'kubectl') parts = parts.slice(1);
          if (!parts.length) return { success: false, error: 'Empty command' };
          if (parts[0] === 'config') {
            if (!cfg.includes(parts.slice(0, 2).join(' ')))
              return {
                success: false,
                error: `Config subcommand not allowed. Allowed: ${cfg.join(', ')}`,
              };
            if (parts.includes('--raw'))
              return {
                success: false,
                error: 'config view --raw is not allowed (may expose secrets)',
              };
          } else if (parts[0] === 'auth') {
            if (parts.length < 2 || parts[1] !== 'can-i')
              return { success: false, error: 'Auth subcommand not allowed. Allowed: can-i' };
          } else if (!allowed.includes(parts[0]!))
            return {
              success: false,
              error: `Command not allowed. Allowed: ${[...allowed, 'config', 'auth can-i'].join(', ')}`,
            };
          const res = run([...ctxArgs(a.context), ...parts]);
          return {
            success: res.returncode === 0,
            context: ctxOf(a.context),
            output: res.stdout,
            error: res.returncode !== 0 ? res.stderr : null,
          };
        }),
    },
    {
      name: 'kubectl_patch',
      doc: 'Patch a Kubernetes resource.',
      params: [
        param('resource_type', 'str', undefined, 'Type of resource to patch'),
        param('name', 'str', undefined, 'Name of the resource'),
        param('patch', 'str', undefined, 'JSON patch content'),
        param('patch_type', 'str', 'strategic', 'Type of patch (strategic, merge, json)'),
        param('namespace', 'str?', 'default', 'Target namespace'),
        opsCtx(),
      ],
      annotations: shortW('Kubectl Patch'),
      write: true,
    },
    {
      name: 'kubectl_rollout',
      doc: 'Manage rollouts (restart, status, history, undo, pause, resume).',
      params: [
        param(
          'action',
          'str',
          undefined,
          'Rollout action (status, history, restart, undo, pause, resume)',
        ),
        param(
          'resource_type',
          'str',
          undefined,
          'Type of resource (deployment, statefulset, daemonset)',
        ),
        param('name', 'str', undefined, 'Name of the resource'),
        param('namespace', 'str?', 'default', 'Target namespace'),
        opsCtx(),
      ],
      annotations: shortW('Kubectl Rollout'),
      writes: (args) => ['restart', 'undo', 'pause', 'resume'].includes(String(args['action'])),
      run: (a) => {
        const allowed = ['status', 'history', 'restart', 'undo', 'pause', 'resume'];
        if (!allowed.includes(a.action))
          return { success: false, error: `Invalid action. Allowed: ${allowed.join(', ')}` };
        return plain(
          a,
          ['rollout', a.action, `${a.resource_type}/${a.name}`, '-n', pyStr(a.namespace)],
          (out) => ({ success: true, context: ctxOf(a.context), output: out.trim() }),
        );
      },
    },
    {
      name: 'kubectl_create',
      doc: 'Create a Kubernetes resource.',
      params: [
        param('resource_type', 'str', undefined, 'Type of resource to create'),
        param('name', 'str', undefined, 'Name of the resource'),
        param('namespace', 'str?', 'default', 'Target namespace'),
        param('image', 'str?', null, 'Container image (for deployment/pod)'),
        opsCtx(),
      ],
      annotations: shortW('Kubectl Create'),
      write: true,
    },
    {
      name: 'delete_resource',
      doc: 'Delete a Kubernetes resource.',
      params: [
        param('resource_type', 'str', undefined, 'Type of resource to delete'),
        param('name', 'str', undefined, 'Name of the resource'),
        param('namespace', 'str?', 'default', 'Target namespace'),
        opsCtx(),
      ],
      annotations: shortW('Delete Resource'),
      write: true,
    },
    {
      name: 'kubectl_cp',
      doc: 'Copy files between local filesystem and pods.\n\nUse pod:path format for pod paths, e.g.:\n- Local to pod: kubectl_cp("/tmp/file.txt", "mypod:/tmp/file.txt")\n- Pod to local: kubectl_cp("mypod:/tmp/file.txt", "/tmp/file.txt")',
      params: [
        param('source', 'str', undefined, 'Source path (local path or pod:path)'),
        param('destination', 'str', undefined, 'Destination path (local path or pod:path)'),
        param('namespace', 'str', 'default', 'Target namespace'),
        param('container', 'str?', null, 'Container name (optional)'),
        opsCtx(),
      ],
      annotations: shortW('Kubectl Copy'),
      write: true,
    },
    {
      name: 'backup_resource',
      doc: 'Export a resource as YAML for backup or migration.',
      params: [
        param('resource_type', 'str', undefined, 'Type of resource to export'),
        param('name', 'str', undefined, 'Name of the resource'),
        param('namespace', 'str?', null, 'Target namespace (optional)'),
        opsCtx(),
      ],
      annotations: short('Backup Resource as YAML'),
      run: (a) =>
        plain(
          a,
          [
            'get',
            a.resource_type,
            a.name,
            '-o',
            'yaml',
            ...(a.namespace ? ['-n', a.namespace] : []),
          ],
          (out) => ({
            success: true,
            context: ctxOf(a.context),
            resource: { type: a.resource_type, name: a.name, namespace: a.namespace },
            yaml: out,
            hint: "Save this YAML to a file and use 'kubectl apply -f' to restore",
          }),
        ),
    },
    {
      name: 'label_resource',
      doc: 'Add or update labels on a resource.',
      params: [
        param('resource_type', 'str', undefined, 'Type of resource to label'),
        param('name', 'str', undefined, 'Name of the resource'),
        param(
          'labels',
          'dict[str,str]',
          undefined,
          'Labels to apply (use None value to remove a label)',
        ),
        param('namespace', 'str?', null, 'Target namespace (optional)'),
        param('overwrite', 'bool', false, 'Overwrite existing labels'),
        opsCtx(),
      ],
      annotations: shortW('Label Resource'),
      write: true,
    },
    {
      name: 'annotate_resource',
      doc: 'Add or update annotations on a resource.',
      params: [
        param('resource_type', 'str', undefined, 'Type of resource to annotate'),
        param('name', 'str', undefined, 'Name of the resource'),
        param(
          'annotations',
          'dict[str,str]',
          undefined,
          'Annotations to apply (use None value to remove)',
        ),
        param('namespace', 'str?', null, 'Target namespace (optional)'),
        param('overwrite', 'bool', false, 'Overwrite existing annotations'),
        opsCtx(),
      ],
      annotations: shortW('Annotate Resource'),
      write: true,
    },
    {
      name: 'taint_node',
      doc: 'Add or remove taints on a node.',
      params: [
        param('node_name', 'str', undefined, 'Name of the node'),
        param('key', 'str', undefined, 'Taint key'),
        param('value', 'str?', null, 'Taint value (optional)'),
        param(
          'effect',
          'str',
          'NoSchedule',
          'Taint effect (NoSchedule, PreferNoSchedule, NoExecute)',
        ),
        param('remove', 'bool', false, 'Remove the taint instead of adding'),
        opsCtx(),
      ],
      annotations: shortW('Taint Node'),
      write: true,
    },
    {
      name: 'wait_for_condition',
      doc: 'Wait for a resource to reach a specific condition.',
      params: [
        param('resource_type', 'str', undefined, 'Type of resource to wait for'),
        param('name', 'str', undefined, 'Name of the resource'),
        param(
          'condition',
          'str',
          undefined,
          'Condition to wait for (e.g., condition=Ready, delete)',
        ),
        param('namespace', 'str?', null, 'Target namespace (optional)'),
        param('timeout', 'int', 60, 'Timeout in seconds'),
        opsCtx(),
      ],
      annotations: short('Wait for Condition'),
      run: (a) =>
        guarded(() => {
          const res = run([
            ...ctxArgs(a.context),
            'wait',
            `${a.resource_type}/${a.name}`,
            `--for=${a.condition}`,
            `--timeout=${a.timeout}s`,
            ...(a.namespace ? ['-n', a.namespace] : []),
          ]);
          const resource = { type: a.resource_type, name: a.name, namespace: a.namespace };
          if (res.returncode !== 0)
            return {
              success: false,
              conditionMet: false,
              error: res.stderr.trim(),
              context: ctxOf(a.context),
              resource,
              condition: a.condition,
            };
          return {
            success: true,
            conditionMet: true,
            context: ctxOf(a.context),
            message: res.stdout.trim(),
            resource,
            condition: a.condition,
          };
        }),
    },
    {
      name: 'node_management',
      doc: 'Manage nodes: cordon, uncordon, or drain.',
      params: [
        param('action', 'str', undefined, 'Action to perform (cordon, uncordon, drain)'),
        param('node_name', 'str', undefined, 'Name of the node'),
        param('force', 'bool', false, 'Force drain (for drain action)'),
        opsCtx(),
      ],
      annotations: shortW('Node Management'),
      write: true,
    },
  );

  // ---------------------------------------------------------------- diagnostics.py
  defs.push(
    {
      name: 'compare_namespaces',
      doc: 'Compare resources between two namespaces.',
      params: [
        param('namespace1', 'str', undefined, 'First namespace to compare'),
        param('namespace2', 'str', undefined, 'Second namespace to compare'),
        param(
          'resource_type',
          'str',
          'deployment',
          'Type of resource to compare (deployment, service, configmap, secret)',
        ),
        opsCtx(),
      ],
      annotations: short('Compare Namespaces'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          const get = (ns: string): Map<string, unknown> => {
            const m = new Map<string, unknown>();
            const kind = {
              deployment: 'Deployment',
              service: 'Service',
              configmap: 'ConfigMap',
              secret: 'Secret',
            }[a.resource_type as string];
            if (!kind) return m;
            for (const o of world.list(kind, { namespace: ns }))
              m.set(
                o.metadata?.name ?? '',
                kind === 'Deployment'
                  ? (o.spec?.replicas ?? null)
                  : kind === 'Service'
                    ? (o.spec?.type ?? null)
                    : kind === 'ConfigMap'
                      ? Object.keys(o.data ?? {}).length
                      : (o.type ?? null),
              );
            return m;
          };
          const r1 = get(a.namespace1);
          const r2 = get(a.namespace2);
          const only1 = [...r1.keys()].filter((k) => !r2.has(k));
          const only2 = [...r2.keys()].filter((k) => !r1.has(k));
          const both = [...r1.keys()].filter((k) => r2.has(k));
          const diffs = both
            .filter((k) => r1.get(k) !== r2.get(k))
            .map((k) => ({ name: k, [a.namespace1]: r1.get(k), [a.namespace2]: r2.get(k) }));
          return {
            success: true,
            context: ctxOf(a.context),
            resourceType: a.resource_type,
            namespaces: [a.namespace1, a.namespace2],
            summary: {
              [`onlyIn_${a.namespace1}`]: only1.length,
              [`onlyIn_${a.namespace2}`]: only2.length,
              inBoth: both.length,
              withDifferences: diffs.length,
            },
            [`onlyIn_${a.namespace1}`]: only1,
            [`onlyIn_${a.namespace2}`]: only2,
            differences: diffs,
          };
        }),
    },
    {
      name: 'get_pod_metrics',
      doc: 'Get pod resource usage metrics (requires metrics-server).',
      params: [
        param(
          'namespace',
          'str?',
          null,
          'Target namespace (optional, all namespaces if not specified)',
        ),
        param('pod_name', 'str?', null, 'Filter by specific pod name (optional)'),
        opsCtx(),
      ],
      annotations: short('Get Pod Metrics'),
      run: (a) =>
        guarded(() => {
          const res = topPods(a.context, a.namespace, '-A');
          if (res.returncode !== 0)
            return { success: false, error: res.stderr.trim() || 'Metrics server not available' };
          const metrics: Py[] = [];
          for (const line of res.stdout.trim().split('\n')) {
            if (!line.trim()) continue;
            const p = line.split(/\s+/).filter(Boolean);
            let ns: string, name: string, cpu: string, mem: string;
            if (a.namespace && p.length >= 3)
              [name, cpu, mem, ns] = [p[0]!, p[1]!, p[2]!, a.namespace];
            else if (p.length >= 4) [ns, name, cpu, mem] = [p[0]!, p[1]!, p[2]!, p[3]!];
            else continue;
            if (a.pod_name && name !== a.pod_name) continue;
            metrics.push({ namespace: ns, pod: name, cpuUsage: cpu, memoryUsage: mem });
          }
          return { success: true, context: ctxOf(a.context), count: metrics.length, metrics };
        }),
    },
    {
      name: 'get_node_metrics',
      doc: 'Get node resource usage metrics (requires metrics-server).',
      params: [opsCtx()],
      annotations: short('Get Node Metrics'),
      run: (a) =>
        guarded(() => {
          const res = run([...ctxArgs(a.context), 'top', 'nodes', '--no-headers']);
          if (res.returncode !== 0)
            return { success: false, error: res.stderr.trim() || 'Metrics server not available' };
          const metrics: Py[] = [];
          for (const line of res.stdout.trim().split('\n')) {
            const p = line.split(/\s+/).filter(Boolean);
            if (p.length >= 5)
              metrics.push({
                node: p[0],
                cpuUsage: p[1],
                cpuPercent: p[2],
                memoryUsage: p[3],
                memoryPercent: p[4],
              });
          }
          return { success: true, context: ctxOf(a.context), count: metrics.length, metrics };
        }),
    },
  );

  // ---------------------------------------------------------------- cost.py
  const usageLines = (a: Py, namespace: string | null) => {
    const res = topPods(a.context, namespace, '-A');
    return res;
  };
  const requestsOf = (containers: Py[]) => {
    let cpu = 0;
    let mem = 0;
    for (const c of containers)
      if (c.resources?.requests && Object.keys(c.resources.requests).length) {
        cpu += cpuMilli(c.resources.requests.cpu ?? '0');
        mem += memBytes(c.resources.requests.memory ?? '0');
      }
    return { cpu, mem };
  };
  const digits = (s: string) => {
    const d = s.replace(/[^\d]/g, '');
    return d ? Number(d) : 0;
  };
  defs.push(
    {
      name: 'get_resource_recommendations',
      doc: 'Analyze resource usage and provide optimization recommendations for pods/deployments.',
      params: [
        param(
          'namespace',
          'str?',
          null,
          'Target namespace (optional, all namespaces if not specified)',
        ),
        param('resource_type', 'str', 'all', 'Type of resource to analyze'),
        opsCtx(),
      ],
      annotations: short('Get Resource Recommendations'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          const pods = list('Pod', a.namespace);
          const recs: Py[] = [];
          for (const p of pods) {
            if (p.status?.phase !== 'Running') continue;
            for (const c of (p.spec?.containers ?? []) as Py[]) {
              const issues: string[] = [];
              const sugg: string[] = [];
              const req = c.resources?.requests ?? {};
              const lim = c.resources?.limits ?? {};
              const hasReq = Object.keys(req).length > 0;
              const hasLim = Object.keys(lim).length > 0;
              if (!hasReq) {
                issues.push('No resource requests defined');
                sugg.push('Set CPU/memory requests for better scheduling');
              }
              if (!hasLim) {
                issues.push('No resource limits defined');
                sugg.push('Set CPU/memory limits to prevent resource exhaustion');
              }
              if (
                hasReq &&
                hasLim &&
                (req.cpu ?? '0') === (lim.cpu ?? '0') &&
                (req.memory ?? '0') === (lim.memory ?? '0')
              ) {
                issues.push('Requests equal limits (Guaranteed QoS)');
                sugg.push('Consider Burstable QoS for non-critical workloads');
              }
              if (!c.livenessProbe) {
                issues.push('No liveness probe');
                sugg.push('Add liveness probe for automatic recovery');
              }
              if (!c.readinessProbe) {
                issues.push('No readiness probe');
                sugg.push('Add readiness probe for traffic management');
              }
              if (issues.length)
                recs.push({
                  pod: p.metadata?.name,
                  namespace: p.metadata?.namespace,
                  container: c.name,
                  issues,
                  suggestions: sugg,
                  currentResources: { requests: req, limits: lim },
                });
            }
          }
          return {
            success: true,
            context: ctxOf(a.context),
            totalAnalyzed: pods.length,
            issuesFound: recs.length,
            recommendations: recs.slice(0, 50),
          };
        }),
    },
    {
      name: 'get_idle_resources',
      doc: 'Find underutilized pods using less than threshold percentage of requested resources.',
      params: [
        param(
          'namespace',
          'str?',
          null,
          'Target namespace (optional, all namespaces if not specified)',
        ),
        param('cpu_threshold', 'float', 10.0, 'CPU usage threshold percentage'),
        param('memory_threshold', 'float', 10.0, 'Memory usage threshold percentage'),
        opsCtx(),
      ],
      annotations: short('Get Idle Resources'),
      run: (a) =>
        guarded(() => {
          const res = usageLines(a, a.namespace);
          if (res.returncode !== 0)
            return { success: false, error: res.stderr.trim() || 'Metrics server not available' };
          const idle: Py[] = [];
          for (const line of res.stdout.trim().split('\n')) {
            if (!line.trim()) continue;
            const p = line.split(/\s+/).filter(Boolean);
            if (p.length < 3) continue;
            let ns: string, pod: string, cpu: string, mem: string;
            if (a.namespace) [pod, cpu, mem, ns] = [p[0]!, p[1]!, p[2]!, a.namespace];
            else if (p.length >= 4) [ns, pod, cpu, mem] = [p[0]!, p[1]!, p[2]!, p[3]!];
            else continue;
            if (digits(cpu) < a.cpu_threshold || digits(mem) < a.memory_threshold)
              idle.push({
                namespace: ns,
                pod,
                cpuUsage: cpu,
                memoryUsage: mem,
                recommendation: 'Consider scaling down or consolidating',
              });
          }
          return {
            success: true,
            context: ctxOf(a.context),
            thresholds: {
              cpu: `${pyFloat(a.cpu_threshold)}%`,
              memory: `${pyFloat(a.memory_threshold)}%`,
            },
            idleCount: idle.length,
            idlePods: idle.slice(0, 50),
          };
        }),
    },
    {
      name: 'get_resource_quotas_usage',
      doc: 'Show resource quota usage and availability across namespaces.',
      params: [
        param(
          'namespace',
          'str?',
          null,
          'Target namespace (optional, all namespaces if not specified)',
        ),
        opsCtx(),
      ],
      annotations: short('Get Resource Quotas Usage'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          const quotas = list('ResourceQuota', a.namespace).map((q) => {
            const hard: Record<string, string> = q.status?.hard ?? {};
            const used: Record<string, string> = q.status?.used ?? {};
            return {
              name: q.metadata?.name,
              namespace: q.metadata?.namespace,
              resources: Object.entries(hard).map(([r, h]) => {
                const u = used[r] ?? '0';
                return {
                  resource: r,
                  hard: h,
                  used: u,
                  available: `${Math.max(0, digits(String(h)) - digits(String(u)))}${String(h).replace(/\d/g, '')}`,
                };
              }),
            };
          });
          return { success: true, context: ctxOf(a.context), count: quotas.length, quotas };
        }),
    },
    {
      name: 'get_cost_analysis',
      doc: 'Analyze resource costs by namespace and workload based on resource requests.',
      params: [
        param(
          'namespace',
          'str?',
          null,
          'Target namespace (optional, all namespaces if not specified)',
        ),
        opsCtx(),
      ],
      annotations: short('Get Cost Analysis'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          const byNs = new Map<string, { cpu: number; memory: number; pods: number }>();
          const workloads: Py[] = [];
          for (const p of list('Pod', a.namespace)) {
            if (p.status?.phase !== 'Running') continue;
            const ns = p.metadata?.namespace ?? '';
            const e = byNs.get(ns) ?? { cpu: 0, memory: 0, pods: 0 };
            const r = requestsOf(p.spec?.containers ?? []);
            e.cpu += r.cpu;
            e.memory += r.mem;
            e.pods += 1;
            byNs.set(ns, e);
            const owner = p.metadata?.ownerReferences?.[0]?.kind ?? 'standalone';
            workloads.push({
              namespace: ns,
              pod: p.metadata?.name,
              ownerKind: owner,
              cpuMillicores: r.cpu,
              memoryMi: pyRound(r.mem / (1024 * 1024), 2),
            });
          }
          const summary = [...byNs.entries()].map(([ns, c]) => ({
            namespace: ns,
            totalCpuMillicores: c.cpu,
            totalMemoryMi: pyRound(c.memory / (1024 * 1024), 2),
            podCount: c.pods,
          }));
          stableSortDesc(summary, (x) => x.totalCpuMillicores);
          stableSortDesc(workloads, (x) => x.cpuMillicores);
          return {
            success: true,
            context: ctxOf(a.context),
            note: 'Cost estimates based on resource requests. Integrate with cloud billing for actual costs.',
            byNamespace: summary,
            topWorkloads: workloads.slice(0, 20),
          };
        }),
    },
    {
      name: 'get_overprovisioned_resources',
      doc: 'Find pods using significantly less resources than requested (over-provisioned).',
      params: [
        param(
          'namespace',
          'str?',
          null,
          'Target namespace (optional, all namespaces if not specified)',
        ),
        param(
          'threshold',
          'float',
          50.0,
          'Utilization threshold percentage below which resources are considered over-provisioned',
        ),
        opsCtx(),
      ],
      annotations: short('Get Overprovisioned Resources'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          const res = usageLines(a, a.namespace);
          if (res.returncode !== 0)
            return { success: false, error: res.stderr.trim() || 'Metrics server not available' };
          const usage = new Map<string, { cpu: string; memory: string }>();
          for (const line of res.stdout.trim().split('\n')) {
            if (!line.trim()) continue;
            const p = line.split(/\s+/).filter(Boolean);
            if (a.namespace && p.length >= 3)
              usage.set(`${a.namespace}/${p[0]}`, { cpu: p[1]!, memory: p[2]! });
            else if (p.length >= 4) usage.set(`${p[0]}/${p[1]}`, { cpu: p[2]!, memory: p[3]! });
          }
          const over: Py[] = [];
          for (const p of list('Pod', a.namespace)) {
            if (p.status?.phase !== 'Running') continue;
            const u = usage.get(`${p.metadata?.namespace}/${p.metadata?.name}`);
            if (!u) continue;
            const r = requestsOf(p.spec?.containers ?? []);
            if (r.cpu === 0 && r.mem === 0) continue;
            const cpuUtil = r.cpu > 0 ? (cpuMilli(u.cpu) / r.cpu) * 100 : 0;
            const memUtil = r.mem > 0 ? (memBytes(u.memory) / r.mem) * 100 : 0;
            if (cpuUtil < a.threshold || memUtil < a.threshold)
              over.push({
                namespace: p.metadata?.namespace,
                pod: p.metadata?.name,
                cpuRequested: `${r.cpu}m`,
                cpuUsed: u.cpu,
                cpuUtilization: `${fmt1(cpuUtil)}%`,
                memoryRequested: `${Math.floor(r.mem / (1024 * 1024))}Mi`,
                memoryUsed: u.memory,
                memoryUtilization: `${fmt1(memUtil)}%`,
                recommendation: 'Consider reducing resource requests',
              });
          }
          over.sort(
            (x, y) => Number(x.cpuUtilization.slice(0, -1)) - Number(y.cpuUtilization.slice(0, -1)),
          );
          return {
            success: true,
            context: ctxOf(a.context),
            threshold: `${pyFloat(a.threshold)}%`,
            count: over.length,
            overprovisioned: over.slice(0, 50),
          };
        }),
    },
    {
      name: 'get_resource_trends',
      doc: 'Get current resource usage snapshot for trend analysis (requires metrics-server).',
      params: [
        param(
          'namespace',
          'str?',
          null,
          'Target namespace (optional, all namespaces if not specified)',
        ),
        param('resource_type', 'str', 'pods', 'Type of resource to analyze (pods or nodes)'),
        opsCtx(),
      ],
      annotations: short('Get Resource Trends'),
      run: (a) =>
        guarded(() => {
          const res =
            a.resource_type === 'nodes'
              ? run([...ctxArgs(a.context), 'top', 'nodes', '--no-headers'])
              : usageLines(a, a.namespace);
          if (res.returncode !== 0)
            return { success: false, error: res.stderr.trim() || 'Metrics server not available' };
          const metrics: Py[] = [];
          let cpu = 0;
          let mem = 0;
          for (const line of res.stdout.trim().split('\n')) {
            if (!line.trim()) continue;
            const p = line.split(/\s+/).filter(Boolean);
            if (a.resource_type === 'nodes' && p.length >= 5) {
              cpu += cpuMilli(p[1]);
              mem += memBytes(p[3]);
              metrics.push({
                node: p[0],
                cpuUsage: p[1],
                cpuPercent: p[2],
                memoryUsage: p[3],
                memoryPercent: p[4],
              });
            } else if (p.length >= 3) {
              if (a.namespace) {
                cpu += cpuMilli(p[1]);
                mem += memBytes(p[2]);
                metrics.push({
                  namespace: a.namespace,
                  pod: p[0],
                  cpuUsage: p[1],
                  memoryUsage: p[2],
                });
              } else if (p.length >= 4) {
                cpu += cpuMilli(p[2]);
                mem += memBytes(p[3]);
                metrics.push({ namespace: p[0], pod: p[1], cpuUsage: p[2], memoryUsage: p[3] });
              }
            }
          }
          return {
            success: true,
            context: ctxOf(a.context),
            timestamp: `${world.now
              .toISOString()
              .replace('Z', '')
              .replace(/\.(\d{3})$/, '.$1000')
              .replace(/\.000000$/, '')}Z`,
            resourceType: a.resource_type,
            summary: {
              totalCpuMillicores: cpu,
              totalMemoryMi: pyRound(mem / (1024 * 1024), 2),
              resourceCount: metrics.length,
            },
            metrics: metrics.slice(0, 100),
            note: 'Store snapshots over time for trend analysis',
          };
        }),
    },
    {
      name: 'get_namespace_cost_allocation',
      doc: 'Calculate resource allocation percentages across all namespaces.',
      params: [opsCtx()],
      annotations: short('Get Namespace Cost Allocation'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          const byNs = new Map<string, { cpu: number; memory: number; pods: number }>();
          let tc = 0;
          let tm = 0;
          for (const p of list('Pod')) {
            if (p.status?.phase !== 'Running') continue;
            const ns = p.metadata?.namespace ?? '';
            const e = byNs.get(ns) ?? { cpu: 0, memory: 0, pods: 0 };
            const r = requestsOf(p.spec?.containers ?? []);
            e.cpu += r.cpu;
            e.memory += r.mem;
            tc += r.cpu;
            tm += r.mem;
            e.pods += 1;
            byNs.set(ns, e);
          }
          const allocations = [...byNs.entries()].map(([ns, x]) => ({
            namespace: ns,
            cpuMillicores: x.cpu,
            cpuPercent: `${fmt1(tc > 0 ? (x.cpu / tc) * 100 : 0)}%`,
            memoryMi: pyRound(x.memory / (1024 * 1024), 2),
            memoryPercent: `${fmt1(tm > 0 ? (x.memory / tm) * 100 : 0)}%`,
            podCount: x.pods,
          }));
          stableSortDesc(allocations, (x) => x.cpuMillicores);
          return {
            success: true,
            context: ctxOf(a.context),
            clusterTotals: {
              totalCpuMillicores: tc,
              totalMemoryMi: pyRound(tm / (1024 * 1024), 2),
              namespaceCount: allocations.length,
            },
            allocations,
          };
        }),
    },
    {
      name: 'optimize_resource_requests',
      doc: 'Suggest optimal resource requests based on current usage patterns.',
      params: [
        param('namespace', 'str', undefined, 'Target namespace'),
        param(
          'deployment_name',
          'str?',
          null,
          'Specific deployment to analyze (optional, all deployments if not specified)',
        ),
        opsCtx(),
      ],
      annotations: short('Optimize Resource Requests'),
      run: (a) =>
        guarded(() => {
          k8sClient(a.context);
          let deps: KubeObject[];
          if (a.deployment_name) {
            const d = world.get('Deployment', a.deployment_name, a.namespace);
            if (!d) throw new PyError(notFound(world, 'deployments', a.deployment_name, 'apps'));
            deps = [d];
          } else deps = world.list('Deployment', { namespace: a.namespace });
          const res = run([
            ...ctxArgs(a.context),
            'top',
            'pods',
            '-n',
            a.namespace,
            '--no-headers',
          ]);
          const usage = new Map<string, { cpu: number; memory: number }>();
          if (res.returncode === 0)
            for (const line of res.stdout.trim().split('\n')) {
              const p = line.split(/\s+/).filter(Boolean);
              if (p.length >= 3) usage.set(p[0]!, { cpu: cpuMilli(p[1]), memory: memBytes(p[2]) });
            }
          const suggestions: Py[] = [];
          for (const d of deps) {
            const sel = Object.entries(d.spec?.selector?.matchLabels ?? {})
              .map(([k, v]) => `${k}=${v}`)
              .join(',');
            const pods = world.list('Pod', {
              namespace: a.namespace,
              ...(sel ? { labelSelector: sel } : {}),
            });
            for (const c of (d.spec?.template?.spec?.containers ?? []) as Py[]) {
              const req = c.resources?.requests;
              const cur =
                req && Object.keys(req).length
                  ? { cpu: cpuMilli(req.cpu ?? '0'), mem: memBytes(req.memory ?? '0') }
                  : { cpu: 0, mem: 0 };
              let maxCpu = 0;
              let maxMem = 0;
              for (const p of pods) {
                const u = usage.get(p.metadata?.name ?? '');
                if (u) {
                  maxCpu = Math.max(maxCpu, u.cpu);
                  maxMem = Math.max(maxMem, u.memory);
                }
              }
              if (maxCpu > 0 || maxMem > 0) {
                const sc = Math.trunc(maxCpu * 1.2);
                const sm = Math.trunc(maxMem * 1.2);
                const mi = (b: number) => Math.floor(b / (1024 * 1024));
                suggestions.push({
                  deployment: d.metadata?.name,
                  container: c.name,
                  current: { cpu: `${cur.cpu}m`, memory: `${mi(cur.mem)}Mi` },
                  observed: { maxCpu: `${maxCpu}m`, maxMemory: `${mi(maxMem)}Mi` },
                  suggested: { cpu: `${sc}m`, memory: `${mi(sm)}Mi` },
                  potentialSavings: {
                    cpu: `${Math.max(0, cur.cpu - sc)}m`,
                    memory: `${Math.max(0, mi(cur.mem - sm))}Mi`,
                  },
                });
              }
            }
          }
          return {
            success: true,
            context: ctxOf(a.context),
            namespace: a.namespace,
            note: 'Suggestions based on current usage + 20% buffer. Monitor over time for accuracy.',
            suggestions,
          };
        }),
    },
  );
  return defs;
}

/** Python's int() of a numeric string (raises on anything else). */
function pyInt(s: string): number {
  if (!/^\s*[-+]?\d+\s*$/.test(s)) throw new Error('invalid literal for int()');
  return Number(s.trim());
}

/** Python's str() of a float: 10.0 -> "10.0". */
const pyFloat = (x: number) => (Number.isInteger(x) ? `${x}.0` : String(x));

/** list.sort(key=..., reverse=True): stable, descending */
function stableSortDesc<T>(xs: T[], key: (x: T) => number): void {
  const indexed = xs.map((x, i) => ({ x, i }));
  indexed.sort((p, q) => key(q.x) - key(p.x) || p.i - q.i);
  indexed.forEach((v, i) => (xs[i] = v.x));
}

/** A camelCase API object's python client field names (for the str() of a volume source). */
function snake(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(snake);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).map(([k, x]) => [
        k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
        snake(x),
      ]),
    );
  return v;
}

/** Python's shlex.split (POSIX mode). */
export function shlexSplit(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && (s[i + 1] === '"' || s[i + 1] === '\\'))
        cur += s[++i];
      else cur += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\') {
      if (i + 1 < s.length) cur += s[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) out.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (quote) throw new Error('No closing quotation');
  if (inWord) out.push(cur);
  return out;
}

/** The tools of rohitg00/kubectl-mcp-server over a scenario world, in the server's order. */
export function kubectlMcpTools(world: WorldIndex): VocabularyTool[] {
  const run = runner(world, () => undefined);
  return toVocabulary([...helmTools(world), ...coreTools(world), ...ecosystemTools(world, run)]);
}
