import {
  type KubeObject,
  type WorldIndex,
  matchesLabels,
  parseLabelSelector,
  toDate,
} from '@inquest/kube';
import { stringify } from 'yaml';
import {
  ann,
  crdsOf,
  ctxOf,
  param,
  PyError,
  pyJsonIndent,
  REQ,
  RO_FULL,
  type KubectlResult,
  type Param,
  type Py,
  type PyType,
  type ToolDef,
} from './kubectl-mcp-py';

/*
 * kubectl-mcp-server's helm.py (@ 3fe17b94: helm is on the server's PATH; releases are read from
 * the world's helm.sh/release.v1 Secrets by their labels, as `helm list` shows them; chart
 * repositories and Artifact Hub cannot be reached) and its ecosystem toolsets: gitops, certs,
 * policy (@ 4b6ac9f1), backup (@ 254e4a78), keda, cilium (@ 4b6ac9f1), rollouts (@ 254e4a78),
 * capi, kubevirt (@ 4b6ac9f1), kiali/istio (@ 254e4a78), vind, kind (@ 4b6ac9f1) and
 * custom_resources (@ 889b57d6). Each ecosystem tool returns json.dumps(result, indent=2); a
 * toolset whose CRDs the world does not serve answers its "not installed" result. The kind,
 * vcluster, cilium, hubble, istioctl, virtctl, clusterctl, velero and kubectl-argo-rollouts CLIs
 * and docker are not on the server's PATH. certs.py @ 4b6ac9f1 calls names it no longer imports
 * (`timezone`, `_run_kubectl`): where the real tool raises NameError, so does this one.
 */

type Run = (args: string[]) => KubectlResult;

const RO = ann(undefined, RO_FULL);
const W = (destructive: boolean, idempotent: boolean) =>
  ann(undefined, {
    readOnlyHint: false,
    destructiveHint: destructive,
    idempotentHint: idempotent,
    openWorldHint: true,
  });

/** A parameter list from `name:type=default` (no docs: the registered functions have none). */
function sig(spec: string): Param[] {
  if (!spec.trim()) return [];
  return spec.split(',').map((part) => {
    const [decl, dflt] = part.split('=');
    const [name, type] = decl!.trim().split(':') as [string, PyType];
    if (dflt === undefined) return param(name, type, REQ);
    const d = dflt.trim();
    const value =
      d === 'None'
        ? null
        : d === 'True'
          ? true
          : d === 'False'
            ? false
            : /^-?\d+(\.\d+)?$/.test(d)
              ? Number(d)
              : d.replace(/^"|"$/g, '');
    return param(name, type, value);
  });
}

/** A tool whose function returns `json.dumps(result, indent=2)`. */
function jsonTool(
  name: string,
  doc: string,
  spec: string,
  annotations: Record<string, unknown>,
  f?: (a: Record<string, Py>) => Py,
  write = false,
): ToolDef {
  return {
    name,
    doc,
    params: sig(spec),
    annotations,
    ...(write ? { write: true } : {}),
    ...(f && !write ? { run: (a: Record<string, Py>) => pyJsonIndent(f(a)) } : {}),
  };
}

// ------------------------------------------------------------------ helm

export function helmTools(world: WorldIndex): ToolDef[] {
  interface Rel {
    name: string;
    namespace: string;
    revision: number;
    status: string;
    updated: Date;
    created: Date;
  }
  const releases: Rel[] = world
    .list('Secret')
    .filter((s) => s.type === 'helm.sh/release.v1' && s.metadata?.labels?.owner === 'helm')
    .map((s) => {
      const l = s.metadata?.labels ?? {};
      const created = toDate(s.metadata?.creationTimestamp) ?? world.now;
      const mod = Number(l.modifiedAt);
      return {
        name: String(l.name ?? ''),
        namespace: s.metadata?.namespace ?? 'default',
        revision: Number(l.version ?? 0),
        status: String(l.status ?? 'unknown'),
        updated: Number.isFinite(mod) && mod > 0 ? new Date(mod * 1000) : created,
        created,
      };
    });
  const helmTime = (d: Date) =>
    `${d.toISOString().slice(0, 19).replace('T', ' ')}.000000000 +0000 UTC`;
  const rfc = (d: Date) => d.toISOString().replace(/\.\d+Z$/, 'Z');
  const revisionsOf = (name: string, ns: string) =>
    releases
      .filter((r) => r.name === name && r.namespace === ns)
      .sort((a, b) => a.revision - b.revision);
  const notFoundErr = { success: false, error: 'Error: release: not found' };
  const latest = (name: string, ns: string, revision: number | null) => {
    const revs = revisionsOf(name, ns);
    if (!revs.length) return undefined;
    return revision ? revs.find((r) => r.revision === revision) : revs[revs.length - 1];
  };
  const chartErr = (chart: string, repo: string | null) => {
    if (repo)
      return `Error: looks like "${repo}" is not a valid chart repository or cannot be reached: Get "${repo.replace(/\/$/, '')}/index.yaml": dial tcp: lookup ${repo.replace(/^\w+:\/\//, '').split('/')[0]}: no such host`;
    if (
      chart.includes('/') &&
      !chart.startsWith('/') &&
      !chart.startsWith('.') &&
      !chart.startsWith('oci://')
    )
      return `Error: repo ${chart.split('/')[0]} not found`;
    if (chart.startsWith('oci://'))
      return `Error: failed to do request: Head "https://${chart.slice(6).split('/')[0]}/v2/": dial tcp: lookup ${chart.slice(6).split('/')[0]}: no such host`;
    return `Error: non-absolute URLs should be in form of repo_name/path_to_chart, got: ${chart}`;
  };
  const c = (doc = 'Kubernetes context to use (optional, uses current context if not specified)') =>
    param('context', 'str', '', doc);
  const relTool = (
    name: string,
    doc: string,
    title: string,
    key: string,
    extra: Param[] = [],
  ): ToolDef => ({
    name,
    doc,
    params: [
      param('release_name', 'str', REQ, 'Name of the release'),
      param('namespace', 'str', 'default', 'Kubernetes namespace'),
      ...extra,
      c(),
    ],
    annotations: ann(title, { readOnlyHint: true }),
    run: (a) => {
      const r = latest(a.release_name, a.namespace, a.revision ?? null);
      if (!r) return notFoundErr;
      const content: Record<string, Py> = {
        values: {},
        raw: 'null\n',
        manifest: '',
        notes: '',
        hooks: '',
        release_info: `NAME: ${r.name}\nLAST DEPLOYED: ${r.updated.toUTCString()}\nNAMESPACE: ${r.namespace}\nSTATUS: ${r.status}\nREVISION: ${r.revision}\n`,
      };
      const out: Py = { success: true, context: ctxOf(a.context), [key]: content[key] };
      if (key === 'values') out.raw = 'null\n';
      return out;
    },
  });
  const rev = (what: string) =>
    param('revision', 'int?', null, `Get ${what} for a specific revision`);
  const chartTool = (name: string, doc: string, title: string, extra: Param[] = []): ToolDef => ({
    name,
    doc,
    params: [
      param(
        'chart',
        'str',
        REQ,
        name === 'helm_show_crds' || name === 'helm_show_all'
          ? 'Chart reference'
          : "Chart reference (e.g., 'nginx', 'bitnami/nginx', or local path)",
      ),
      param(
        'repo',
        'str?',
        null,
        name === 'helm_show_chart' ? 'Repository URL (for OCI or HTTP repos)' : 'Repository URL',
      ),
      param('version', 'str?', null, 'Specific chart version'),
      ...extra,
    ],
    annotations: ann(title, { readOnlyHint: true }),
    run: (a) => ({ success: false, error: chartErr(a.chart, a.repo) }),
  });
  const writeTool = (
    name: string,
    doc: string,
    params: Param[],
    annotations: Record<string, unknown>,
  ): ToolDef => ({
    name,
    doc,
    params,
    annotations,
    write: true,
  });
  return [
    writeTool(
      'install_helm_chart',
      'Install a Helm chart.',
      [
        param('name', 'str', REQ, 'Release name'),
        param('chart', 'str', REQ, 'Chart reference'),
        param('namespace', 'str', REQ, 'Target namespace'),
        param('repo', 'str?', null, "Repository in format 'repo_name=repo_url'"),
        param('values', 'dict?', null, 'Values to override'),
        c(),
      ],
      ann('Install Helm Chart', { destructiveHint: true }),
    ),
    writeTool(
      'upgrade_helm_chart',
      'Upgrade a Helm release.',
      [
        param('name', 'str', REQ, 'Release name'),
        param('chart', 'str', REQ, 'Chart reference'),
        param('namespace', 'str', REQ, 'Target namespace'),
        param('repo', 'str?', null, "Repository in format 'repo_name=repo_url'"),
        param('values', 'dict?', null, 'Values to override'),
        c(),
      ],
      ann('Upgrade Helm Chart', { destructiveHint: true }),
    ),
    writeTool(
      'uninstall_helm_chart',
      'Uninstall a Helm release.',
      [
        param('name', 'str', REQ, 'Release name to uninstall'),
        param('namespace', 'str', REQ, 'Target namespace'),
        c(),
      ],
      ann('Uninstall Helm Chart', { destructiveHint: true }),
    ),
    {
      name: 'helm_list',
      doc: 'List Helm releases with optional filtering.',
      params: [
        param('namespace', 'str?', null, 'Target namespace (default: current namespace)'),
        param('all_namespaces', 'bool', false, 'List releases across all namespaces'),
        param('filter', 'str?', null, 'Filter releases by name using regex'),
        param('deployed', 'bool', false, 'Show deployed releases only'),
        param('failed', 'bool', false, 'Show failed releases only'),
        param('pending', 'bool', false, 'Show pending releases only'),
        param(
          'uninstalled',
          'bool',
          false,
          'Show uninstalled releases (if kept with --keep-history)',
        ),
        param('superseded', 'bool', false, 'Show superseded releases only'),
        c(),
      ],
      annotations: ann('List Helm Releases', { readOnlyHint: true }),
      run: (a) => {
        const ns = a.all_namespaces ? undefined : (a.namespace ?? 'default');
        let re: RegExp | undefined;
        if (a.filter) {
          try {
            re = new RegExp(a.filter);
          } catch {
            return { success: false, error: `Error: error parsing regexp: ${a.filter}` };
          }
        }
        const wanted = [
          a.deployed && 'deployed',
          a.failed && 'failed',
          a.pending && 'pending',
          a.uninstalled && 'uninstalled',
          a.superseded && 'superseded',
        ].filter(Boolean) as string[];
        const names = new Map<string, Rel>();
        for (const r of releases) {
          if (ns && r.namespace !== ns) continue;
          const k = `${r.namespace}/${r.name}`;
          const cur = names.get(k);
          if (!cur || r.revision > cur.revision) names.set(k, r);
        }
        const list = [...names.values()]
          .filter((r) => !re || re.test(r.name))
          .filter(
            (r) =>
              !wanted.length ||
              wanted.some((w) =>
                w === 'pending' ? r.status.startsWith('pending') : r.status === w,
              ),
          )
          .sort((x, y) => x.name.localeCompare(y.name))
          .map((r) => ({
            name: r.name,
            namespace: r.namespace,
            revision: String(r.revision),
            updated: helmTime(r.updated),
            status: r.status,
            chart: '',
            app_version: '',
          }));
        return { success: true, context: ctxOf(a.context), releases: list, count: list.length };
      },
    },
    {
      name: 'helm_status',
      doc: 'Get the status of a Helm release.',
      params: [
        param('release_name', 'str', REQ, 'Name of the release'),
        param('namespace', 'str', 'default', 'Kubernetes namespace'),
        param('revision', 'int?', null, 'Show status for a specific revision (default: latest)'),
        param('show_desc', 'bool', false, 'Show description of the release'),
        param('show_resources', 'bool', false, 'Show resources created by the release'),
        c(),
      ],
      annotations: ann('Helm Release Status', { readOnlyHint: true }),
      run: (a) => {
        const r = latest(a.release_name, a.namespace, a.revision);
        if (!r) return notFoundErr;
        const first = revisionsOf(r.name, r.namespace)[0]!;
        return {
          success: true,
          context: ctxOf(a.context),
          status: {
            name: r.name,
            info: {
              first_deployed: rfc(first.created),
              last_deployed: rfc(r.updated),
              deleted: '',
              description: '',
              status: r.status,
            },
            config: {},
            version: r.revision,
            namespace: r.namespace,
          },
        };
      },
    },
    {
      name: 'helm_history',
      doc: 'Get the revision history of a Helm release.',
      params: [
        param('release_name', 'str', REQ, 'Name of the release'),
        param('namespace', 'str', 'default', 'Kubernetes namespace'),
        param('max_revisions', 'int', 256, 'Maximum number of revisions to return'),
        c(),
      ],
      annotations: ann('Helm Release History', { readOnlyHint: true }),
      run: (a) => {
        const revs = revisionsOf(a.release_name, a.namespace);
        if (!revs.length) return notFoundErr;
        const history = revs.slice(-Math.max(0, a.max_revisions)).map((r) => ({
          revision: r.revision,
          updated: rfc(r.updated),
          status: r.status,
          chart: '',
          app_version: '',
          description: '',
        }));
        return { success: true, context: ctxOf(a.context), history, revisions: history.length };
      },
    },
    relTool(
      'helm_get_values',
      'Get the values used for a Helm release.',
      'Helm Get Values',
      'values',
      [
        param('all_values', 'bool', false, 'Include computed (default + user) values'),
        param('revision', 'int?', null, 'Get values for a specific revision'),
      ],
    ),
    relTool(
      'helm_get_manifest',
      'Get the manifest (rendered templates) of a Helm release.',
      'Helm Get Manifest',
      'manifest',
      [rev('manifest')],
    ),
    relTool(
      'helm_get_notes',
      'Get the notes (post-install message) of a Helm release.',
      'Helm Get Notes',
      'notes',
      [rev('notes')],
    ),
    relTool('helm_get_hooks', 'Get the hooks of a Helm release.', 'Helm Get Hooks', 'hooks', [
      rev('hooks'),
    ]),
    relTool(
      'helm_get_all',
      'Get all information about a Helm release (values, manifest, hooks, notes).',
      'Helm Get All',
      'release_info',
      [rev('info')],
    ),
    chartTool('helm_show_chart', 'Show the chart definition (Chart.yaml).', 'Helm Show Chart'),
    chartTool('helm_show_values', "Show the chart's default values.yaml.", 'Helm Show Values', [
      param('jsonpath', 'str?', null, 'JSONPath expression to filter values'),
    ]),
    chartTool('helm_show_readme', "Show the chart's README file.", 'Helm Show Readme'),
    chartTool(
      'helm_show_crds',
      "Show the chart's Custom Resource Definitions (CRDs).",
      'Helm Show CRDs',
    ),
    chartTool(
      'helm_show_all',
      'Show all chart information (chart.yaml, values, readme, crds).',
      'Helm Show All',
    ),
    {
      name: 'helm_search_repo',
      doc: 'Search for charts in configured Helm repositories.',
      params: [
        param('keyword', 'str', REQ, 'Search keyword'),
        param('regexp', 'bool', false, 'Use regular expression for searching'),
        param('versions', 'bool', false, 'Show all chart versions (not just latest)'),
        param('version', 'str?', null, "Version constraint (e.g., '>1.0.0')"),
        param('max_results', 'int', 50, 'Maximum number of results'),
      ],
      annotations: ann('Helm Search Repo', { readOnlyHint: true }),
      run: () => ({ success: false, error: 'Error: no repositories configured' }),
    },
    {
      name: 'helm_search_hub',
      doc: 'Search for charts in Artifact Hub (https://artifacthub.io).',
      params: [
        param('keyword', 'str', REQ, 'Search keyword'),
        param('max_results', 'int', 50, 'Maximum number of results'),
        param('list_repo_url', 'bool', true, 'Show repository URL for each chart'),
      ],
      annotations: ann('Helm Search Hub', { readOnlyHint: true }),
      // the server reaches Artifact Hub; its charts are not part of the world: no chart matches
      run: () => ({
        success: true,
        charts: [],
        count: 0,
        source: 'Artifact Hub (artifacthub.io)',
      }),
    },
    {
      name: 'helm_repo_list',
      doc: 'List all configured Helm repositories.',
      params: [],
      annotations: ann('Helm Repo List', { readOnlyHint: true }),
      run: () => ({ success: true, repositories: [], count: 0 }),
    },
    writeTool(
      'helm_repo_add',
      'Add a Helm chart repository.',
      [
        param('name', 'str', REQ, 'Repository name (local alias)'),
        param('url', 'str', REQ, 'Repository URL'),
        param('username', 'str?', null, 'Username for basic auth'),
        param('password', 'str?', null, 'Password for basic auth'),
        param('force_update', 'bool', false, 'Replace existing repo with same name'),
        param('pass_credentials', 'bool', false, 'Pass credentials to all domains'),
      ],
      ann('Helm Repo Add', { destructiveHint: false }),
    ),
    writeTool(
      'helm_repo_remove',
      'Remove a Helm chart repository.',
      [param('name', 'str', REQ, 'Repository name to remove')],
      ann('Helm Repo Remove', { destructiveHint: true }),
    ),
    writeTool(
      'helm_repo_update',
      'Update Helm repository indexes.',
      [param('repos', 'list[str]?', null, 'Specific repositories to update (default: all)')],
      ann('Helm Repo Update', { readOnlyHint: false }),
    ),
    writeTool(
      'helm_rollback',
      'Rollback a Helm release to a previous revision.',
      [
        param('release_name', 'str', REQ, 'Name of the release'),
        param(
          'revision',
          'int',
          REQ,
          'Revision number to rollback to (use helm_history to see revisions)',
        ),
        param('namespace', 'str', 'default', 'Kubernetes namespace'),
        param('force', 'bool', false, 'Force resource updates through delete/recreate'),
        param('recreate_pods', 'bool', false, 'Force pod restarts'),
        param('cleanup_on_fail', 'bool', false, 'Delete newly created resources on failure'),
        param('wait', 'bool', false, 'Wait until all resources are ready'),
        param('timeout', 'str', '5m0s', 'Timeout for waiting'),
        c(),
      ],
      ann('Helm Rollback', { destructiveHint: true }),
    ),
    writeTool(
      'helm_test',
      'Run tests for a Helm release.',
      [
        param('release_name', 'str', REQ, 'Name of the release'),
        param('namespace', 'str', 'default', 'Kubernetes namespace'),
        param('timeout', 'str', '5m0s', 'Timeout for tests'),
        param('logs', 'bool', true, 'Show test pod logs'),
        param('filter', 'str?', null, 'Filter tests by name'),
        c(),
      ],
      ann('Helm Test', { readOnlyHint: false }),
    ),
    {
      name: 'helm_lint',
      doc: 'Lint a Helm chart for issues.',
      params: [
        param('chart_path', 'str', REQ, 'Path to the chart directory'),
        param('values', 'str?', null, 'Values file path or --set values'),
        param('strict', 'bool', false, 'Fail on lint warnings'),
        param('with_subcharts', 'bool', false, 'Lint dependent charts'),
      ],
      annotations: ann('Helm Lint', { readOnlyHint: true }),
      run: (a) => ({
        success: false,
        error: 'Chart linting failed',
        output: `==> Linting ${a.chart_path}\nError unable to check Chart.yaml file in chart: stat ${a.chart_path}/Chart.yaml: no such file or directory\n\nError: 1 chart(s) linted, 1 chart(s) failed`,
        stderr: '',
      }),
    },
    writeTool(
      'helm_package',
      'Package a Helm chart into a versioned archive.',
      [
        param('chart_path', 'str', REQ, 'Path to the chart directory'),
        param('destination', 'str?', null, 'Output directory for the package'),
        param('version', 'str?', null, 'Override the chart version'),
        param('app_version', 'str?', null, 'Override the app version'),
        param('dependency_update', 'bool', false, 'Update dependencies before packaging'),
      ],
      ann('Helm Package', { readOnlyHint: false }),
    ),
    writeTool(
      'helm_dependency_update',
      'Update chart dependencies (download from Chart.yaml).',
      [
        param('chart_path', 'str', REQ, 'Path to the chart directory'),
        param('skip_refresh', 'bool', false, "Don't refresh repo cache"),
      ],
      ann('Helm Dependency Update', { readOnlyHint: false }),
    ),
    {
      name: 'helm_dependency_list',
      doc: 'List chart dependencies.',
      params: [param('chart_path', 'str', REQ, 'Path to the chart directory')],
      annotations: ann('Helm Dependency List', { readOnlyHint: true }),
      run: (a) => ({
        success: false,
        error: `Error: stat ${a.chart_path}: no such file or directory`,
      }),
    },
    writeTool(
      'helm_dependency_build',
      'Build chart dependencies from Chart.lock.',
      [
        param('chart_path', 'str', REQ, 'Path to the chart directory'),
        param('skip_refresh', 'bool', false, "Don't refresh repo cache"),
      ],
      ann('Helm Dependency Build', { readOnlyHint: false }),
    ),
    writeTool(
      'helm_pull',
      'Download a chart from a repository.',
      [
        param('chart', 'str', REQ, "Chart reference (e.g., 'bitnami/nginx')"),
        param('repo', 'str?', null, 'Repository URL'),
        param('version', 'str?', null, 'Specific chart version'),
        param('destination', 'str?', null, 'Download directory'),
        param('untar', 'bool', true, 'Extract the chart archive'),
      ],
      ann('Helm Pull', { readOnlyHint: false }),
    ),
    writeTool(
      'helm_create',
      'Create a new Helm chart with the given name.',
      [
        param('name', 'str', REQ, 'Name of the chart to create'),
        param('starter', 'str?', null, 'Name of the starter chart to use'),
      ],
      ann('Helm Create', { readOnlyHint: false }),
    ),
    {
      name: 'helm_version',
      doc: 'Get the Helm client version information.',
      params: [],
      annotations: ann('Helm Version', { readOnlyHint: true }),
      run: () => ({ success: true, version: 'v3.16.3+gcfd0749' }),
    },
    {
      name: 'helm_env',
      doc: 'Get Helm environment information (paths, settings).',
      params: [],
      annotations: ann('Helm Environment', { readOnlyHint: true }),
      run: () => {
        const env: [string, string][] = [
          ['HELM_BIN', 'helm'],
          ['HELM_BURST_LIMIT', '100'],
          ['HELM_CACHE_HOME', '/root/.cache/helm'],
          ['HELM_CONFIG_HOME', '/root/.config/helm'],
          ['HELM_DATA_HOME', '/root/.local/share/helm'],
          ['HELM_DEBUG', 'false'],
          ['HELM_KUBEAPISERVER', ''],
          ['HELM_KUBECONTEXT', ''],
          ['HELM_MAX_HISTORY', '10'],
          ['HELM_NAMESPACE', 'default'],
          ['HELM_PLUGINS', '/root/.local/share/helm/plugins'],
          ['HELM_REGISTRY_CONFIG', '/root/.config/helm/registry/config.json'],
          ['HELM_REPOSITORY_CACHE', '/root/.cache/helm/repository'],
          ['HELM_REPOSITORY_CONFIG', '/root/.config/helm/repositories.yaml'],
        ];
        return {
          success: true,
          environment: Object.fromEntries(env),
          raw: env.map(([k, v]) => `${k}="${v}"`).join('\n'),
        };
      },
    },
    {
      name: 'helm_template',
      doc: 'Render Helm chart templates locally without installing.',
      params: [
        param('chart', 'str', REQ, 'Chart reference'),
        param('name', 'str', REQ, 'Release name for template'),
        param('namespace', 'str', 'default', 'Target namespace'),
        param('repo', 'str?', null, 'Repository URL'),
        param('values', 'str?', null, 'Set values on command line'),
        c(),
      ],
      annotations: ann('Helm Template', { readOnlyHint: true }),
      run: (a) => ({ success: false, error: chartErr(a.chart, a.repo) }),
    },
    writeTool(
      'helm_template_apply',
      'Render and apply Helm chart (bypasses Tiller/auth issues).',
      [
        param('chart', 'str', REQ, 'Chart reference'),
        param('name', 'str', REQ, 'Release name for template'),
        param('namespace', 'str', 'default', 'Target namespace'),
        param('repo', 'str?', null, 'Repository URL'),
        param('values', 'str?', null, 'Set values on command line'),
        c(),
      ],
      ann('Helm Template Apply', { destructiveHint: true }),
    ),
  ];
}

// ------------------------------------------------------------------ ecosystem toolsets

export function ecosystemTools(world: WorldIndex, run: Run): ToolDef[] {
  const crdNames = new Set(crdsOf(world).map((c) => c.metadata?.name));
  /** crd_detector.crd_exists: `kubectl [--context] get crd <name> -o name` succeeds */
  const crdExists = (name: string, context: string) =>
    (!context || context === 'bench') && crdNames.has(name);
  const ctxA = (context: string) =>
    context && context.trim() ? ['--context', context.trim()] : [];
  /** utils.run_kubectl */
  const kubectl = (
    args: string[],
    context: string,
  ): { success: boolean; output?: string; error?: string } => {
    const r = run([...ctxA(context), ...args]);
    return r.returncode === 0
      ? { success: true, output: r.stdout }
      : { success: false, error: r.stderr };
  };
  /** utils.get_resources: items, or [] when kubectl fails */
  const getResources = (
    kind: string,
    namespace: string,
    context: string,
    labelSelector = '',
  ): Py[] => {
    const r = kubectl(
      [
        'get',
        kind,
        '-o',
        'json',
        ...(namespace ? ['-n', namespace] : ['-A']),
        ...(labelSelector ? ['-l', labelSelector] : []),
      ],
      context,
    );
    if (!r.success) return [];
    try {
      return JSON.parse(r.output ?? '').items ?? [];
    } catch {
      return [];
    }
  };
  /** `kubectl get <crd> <name> [-n ns] -o json` into `{success, context, <key>: obj}` */
  const getOne = (
    crd: string,
    name: string,
    namespace: string | null,
    context: string,
    key: string,
  ) => {
    const r = kubectl(
      ['get', crd, name, ...(namespace !== null ? ['-n', namespace] : []), '-o', 'json'],
      context,
    );
    if (r.success) {
      try {
        return { success: true, context: ctxOf(context), [key]: JSON.parse(r.output ?? '') };
      } catch {
        return { success: false, error: 'Failed to parse response' };
      }
    }
    return { success: false, error: r.error || 'Unknown error' };
  };
  const cond = (o: Py, type: string): Py =>
    ((o?.status?.conditions ?? []) as Py[]).find((c) => c.type === type);
  const get = (o: Py, ...path: string[]): Py =>
    path.reduce((x, k) => (x && typeof x === 'object' ? x[k] : undefined), o);
  const or = (v: Py, d: Py): Py => (v === undefined ? d : v);
  const daysUntil = (ts: unknown): number | null => {
    const d = toDate(ts);
    return d ? Math.floor((d.getTime() - world.now.getTime()) / 86400000) : null;
  };
  const meta = (i: Py) => ({ name: i.metadata?.name, namespace: i.metadata?.namespace });
  const tools: ToolDef[] = [];

  // ---------------------------------------------------------------- gitops.py
  const FLUX_K = 'kustomizations.kustomize.toolkit.fluxcd.io';
  const FLUX_HR = 'helmreleases.helm.toolkit.fluxcd.io';
  const FLUX_GIT = 'gitrepositories.source.toolkit.fluxcd.io';
  const FLUX_HREPO = 'helmrepositories.source.toolkit.fluxcd.io';
  const ARGO_APP = 'applications.argoproj.io';
  const appGet = (a: Py) => {
    const map: Record<string, string> = {
      kustomization: FLUX_K,
      helmrelease: FLUX_HR,
      application: ARGO_APP,
    };
    const k = map[String(a.kind).toLowerCase()];
    if (!k) return { success: false, error: `Unknown kind: ${a.kind}` };
    return getOne(k, a.name, a.namespace, a.context, 'application');
  };
  tools.push(
    jsonTool(
      'gitops_apps_list',
      'List GitOps applications from Flux or Argo CD.',
      'namespace:str="",context:str="",kind:str="",label_selector:str=""',
      RO,
      (a) => {
        const apps: Py[] = [];
        const k = String(a.kind).toLowerCase();
        if ((!a.kind || k === 'kustomization') && crdExists(FLUX_K, a.context))
          for (const i of getResources(FLUX_K, a.namespace, a.context, a.label_selector)) {
            const r = cond(i, 'Ready') ?? {};
            apps.push({
              ...meta(i),
              kind: 'Kustomization',
              engine: 'flux',
              ready: r.status === 'True',
              status: or(r.reason, 'Unknown'),
              message: or(r.message, ''),
              source: or(get(i, 'spec', 'sourceRef'), {}),
              path: or(get(i, 'spec', 'path'), ''),
              last_applied: or(get(i, 'status', 'lastAppliedRevision'), ''),
            });
          }
        if ((!a.kind || k === 'helmrelease') && crdExists(FLUX_HR, a.context))
          for (const i of getResources(FLUX_HR, a.namespace, a.context, a.label_selector)) {
            const r = cond(i, 'Ready') ?? {};
            apps.push({
              ...meta(i),
              kind: 'HelmRelease',
              engine: 'flux',
              ready: r.status === 'True',
              status: or(r.reason, 'Unknown'),
              message: or(r.message, ''),
              chart: or(get(i, 'spec', 'chart'), {}),
              version: or(get(i, 'status', 'lastAppliedRevision'), ''),
            });
          }
        if ((!a.kind || k === 'application') && crdExists(ARGO_APP, a.context))
          for (const i of getResources(ARGO_APP, a.namespace, a.context, a.label_selector)) {
            const h = get(i, 'status', 'health') ?? {};
            const s = get(i, 'status', 'sync') ?? {};
            apps.push({
              ...meta(i),
              kind: 'Application',
              engine: 'argocd',
              ready: h.status === 'Healthy' && s.status === 'Synced',
              health: or(h.status, 'Unknown'),
              sync_status: or(s.status, 'Unknown'),
              message: or(h.message, ''),
              source: or(get(i, 'spec', 'source'), {}),
              destination: or(get(i, 'spec', 'destination'), {}),
            });
          }
        return { context: ctxOf(a.context), total: apps.length, applications: apps };
      },
    ),
    jsonTool(
      'gitops_app_get',
      'Get details of a specific GitOps application.',
      'name:str,namespace:str,kind:str,context:str=""',
      RO,
      appGet,
    ),
    jsonTool(
      'gitops_app_sync',
      'Trigger sync/reconciliation for a GitOps application.',
      'name:str,namespace:str,kind:str,context:str=""',
      W(true, true),
      undefined,
      true,
    ),
    jsonTool(
      'gitops_app_status',
      'Get sync status of a GitOps application.',
      'name:str,namespace:str,kind:str,context:str=""',
      RO,
      (a) => {
        const r: Py = appGet(a);
        if (!r.success) return r;
        const st = r.application.status ?? {};
        const k = String(a.kind).toLowerCase();
        if (k === 'kustomization' || k === 'helmrelease') {
          const rd = cond(r.application, 'Ready') ?? {};
          const rc = cond(r.application, 'Reconciling') ?? {};
          return {
            success: true,
            context: ctxOf(a.context),
            name: a.name,
            namespace: a.namespace,
            kind: a.kind,
            ready: rd.status === 'True',
            reason: or(rd.reason, 'Unknown'),
            message: or(rd.message, ''),
            reconciling: rc.status === 'True',
            last_applied_revision: or(st.lastAppliedRevision, ''),
            last_attempted_revision: or(st.lastAttemptedRevision, ''),
            observed_generation: or(st.observedGeneration, null),
          };
        }
        const h = st.health ?? {};
        const s = st.sync ?? {};
        const op = st.operationState ?? {};
        return {
          success: true,
          context: ctxOf(a.context),
          name: a.name,
          namespace: a.namespace,
          kind: a.kind,
          health_status: or(h.status, 'Unknown'),
          health_message: or(h.message, ''),
          sync_status: or(s.status, 'Unknown'),
          sync_revision: or(s.revision, ''),
          operation_phase: or(op.phase, ''),
          operation_message: or(op.message, ''),
        };
      },
    ),
    jsonTool(
      'gitops_sources_list',
      'List Flux source resources (GitRepositories, HelmRepositories).',
      'namespace:str="",context:str="",kind:str="",label_selector:str=""',
      RO,
      (a) => {
        const out: Py[] = [];
        const k = String(a.kind).toLowerCase();
        for (const [crd, kind] of [
          [FLUX_GIT, 'GitRepository'],
          [FLUX_HREPO, 'HelmRepository'],
        ] as const) {
          if (a.kind && k !== kind.toLowerCase()) continue;
          if (!crdExists(crd, a.context)) continue;
          for (const i of getResources(crd, a.namespace, a.context, a.label_selector)) {
            const r = cond(i, 'Ready') ?? {};
            const art = get(i, 'status', 'artifact') ?? {};
            out.push({
              ...meta(i),
              kind,
              ready: r.status === 'True',
              status: or(r.reason, 'Unknown'),
              url: or(get(i, 'spec', 'url'), ''),
              ...(kind === 'GitRepository'
                ? { branch: or(get(i, 'spec', 'ref', 'branch'), '') }
                : {}),
              revision: or(art.revision, ''),
              last_update: or(art.lastUpdateTime, ''),
            });
          }
        }
        return { context: ctxOf(a.context), total: out.length, sources: out };
      },
    ),
    jsonTool(
      'gitops_source_get',
      'Get details of a Flux source resource.',
      'name:str,namespace:str,kind:str,context:str=""',
      RO,
      (a) => {
        const map: Record<string, string> = { gitrepository: FLUX_GIT, helmrepository: FLUX_HREPO };
        const k = map[String(a.kind).toLowerCase()];
        if (!k) return { success: false, error: `Unknown kind: ${a.kind}` };
        return getOne(k, a.name, a.namespace, a.context, 'source');
      },
    ),
    jsonTool(
      'gitops_detect_engine',
      'Detect which GitOps engines are installed in the cluster.',
      'context:str=""',
      RO,
      (a) => ({
        context: ctxOf(a.context),
        flux: {
          installed: crdExists(FLUX_K, a.context) || crdExists(FLUX_HR, a.context),
          kustomizations: crdExists(FLUX_K, a.context),
          helmreleases: crdExists(FLUX_HR, a.context),
          gitrepositories: crdExists(FLUX_GIT, a.context),
          helmrepositories: crdExists(FLUX_HREPO, a.context),
        },
        argocd: {
          installed: crdExists(ARGO_APP, a.context),
          applications: crdExists(ARGO_APP, a.context),
          applicationsets: crdExists('applicationsets.argoproj.io', a.context),
        },
      }),
    ),
  );

  // ---------------------------------------------------------------- certs.py
  const CERT = 'certificates.cert-manager.io';
  const ISSUER = 'issuers.cert-manager.io';
  const CISSUER = 'clusterissuers.cert-manager.io';
  const CREQ = 'certificaterequests.cert-manager.io';
  const CHAL = 'challenges.acme.cert-manager.io';
  /** certs.py's _get_certs_resources (raises CertsResourceError when kubectl fails) */
  const certsResources = (kind: string, namespace: string, context: string, sel = '') => {
    const r = kubectl(
      [
        'get',
        kind,
        '-o',
        'json',
        ...(namespace ? ['-n', namespace] : ['-A']),
        ...(sel ? ['-l', sel] : []),
      ],
      context,
    );
    if (!r.success)
      throw new PyError(
        `Failed to get ${kind} (namespace=${namespace || 'all'}, context=${context || 'current'}, label_selector=${sel || 'none'}): ${r.error}`,
      );
    return (JSON.parse(r.output ?? '{}').items ?? []) as Py[];
  };
  const certsGet = (a: Py) => {
    if (!crdExists(CERT, a.context))
      return { success: false, error: 'cert-manager is not installed' };
    throw new PyError("name '_run_kubectl' is not defined");
  };
  const issuerType = (spec: Py) =>
    'acme' in spec
      ? 'ACME'
      : 'ca' in spec
        ? 'CA'
        : 'selfSigned' in spec
          ? 'SelfSigned'
          : 'vault' in spec
            ? 'Vault'
            : 'venafi' in spec
              ? 'Venafi'
              : 'Unknown';
  tools.push(
    jsonTool(
      'list_certs',
      'List cert-manager certificates with status.',
      'namespace:str="",context:str="",label_selector:str=""',
      RO,
      (a) => {
        if (!crdExists(CERT, a.context))
          return {
            success: false,
            error: 'cert-manager is not installed (certificates.cert-manager.io CRD not found)',
          };
        let items: Py[];
        try {
          items = certsResources(CERT, a.namespace, a.context, a.label_selector);
        } catch (err) {
          return { success: false, error: (err as Error).message };
        }
        const certs = items.map((i) => {
          const r = cond(i, 'Ready');
          const spec = i.spec ?? {};
          const st = i.status ?? {};
          if (toDate(st.notAfter)) throw new PyError("name 'timezone' is not defined");
          return {
            ...meta(i),
            ready: r ? r.status === 'True' : false,
            status: r ? or(r.reason, 'Unknown') : 'Unknown',
            message: r ? or(r.message, '') : '',
            issuer: or(get(spec, 'issuerRef', 'name'), ''),
            issuer_kind: or(get(spec, 'issuerRef', 'kind'), 'Issuer'),
            secret_name: or(spec.secretName, ''),
            dns_names: or(spec.dnsNames, []),
            common_name: or(spec.commonName, ''),
            not_before: or(st.notBefore, ''),
            not_after: or(st.notAfter, ''),
            renewal_time: or(st.renewalTime, ''),
            days_until_expiry: null,
            revision: or(st.revision, null),
          };
        });
        return {
          context: ctxOf(a.context),
          total: certs.length,
          expiring_soon: 0,
          certificates: certs,
        };
      },
    ),
    jsonTool(
      'get_cert',
      'Get detailed information about a certificate.',
      'name:str,namespace:str,context:str=""',
      RO,
      certsGet,
    ),
    jsonTool(
      'list_cert_issuers',
      'List cert-manager Issuers and ClusterIssuers.',
      'namespace:str="",context:str="",include_cluster_issuers:bool=True',
      RO,
      (a) => {
        const issuers: Py[] = [];
        for (const [crd, kind, namespaced] of [
          [ISSUER, 'Issuer', true],
          [CISSUER, 'ClusterIssuer', false],
        ] as const) {
          if (!namespaced && !a.include_cluster_issuers) continue;
          if (!crdExists(crd, a.context)) continue;
          let items: Py[];
          try {
            items = certsResources(crd, namespaced ? a.namespace : '', a.context);
          } catch (err) {
            return { success: false, error: (err as Error).message };
          }
          for (const i of items) {
            const r = cond(i, 'Ready');
            issuers.push({
              name: i.metadata?.name,
              namespace: namespaced ? i.metadata?.namespace : '',
              kind,
              type: issuerType(i.spec ?? {}),
              ready: r ? r.status === 'True' : false,
              status: r ? or(r.reason, 'Unknown') : 'Unknown',
              message: r ? or(r.message, '') : '',
            });
          }
        }
        return { context: ctxOf(a.context), total: issuers.length, issuers };
      },
    ),
    jsonTool(
      'get_cert_issuer',
      'Get detailed information about an Issuer or ClusterIssuer.',
      'name:str,namespace:str="",kind:str="Issuer",context:str=""',
      RO,
      (a) => {
        let crd: string;
        if (String(a.kind).toLowerCase() === 'clusterissuer') crd = CISSUER;
        else {
          if (!a.namespace || !String(a.namespace).trim())
            return { success: false, error: 'namespace is required for Issuer lookups' };
          crd = ISSUER;
        }
        if (!crdExists(crd, a.context)) return { success: false, error: `${crd} not found` };
        throw new PyError("name '_run_kubectl' is not defined");
      },
    ),
    jsonTool(
      'renew_cert',
      'Trigger certificate renewal.',
      'name:str,namespace:str,context:str=""',
      W(true, false),
      undefined,
      true,
    ),
    jsonTool(
      'explain_cert_status',
      'Explain certificate status with diagnosis and recommendations.',
      'name:str,namespace:str,context:str=""',
      RO,
      certsGet,
    ),
    jsonTool(
      'list_cert_challenges',
      'List ACME challenges for debugging certificate issuance.',
      'namespace:str="",context:str="",label_selector:str=""',
      RO,
      (a) => {
        if (!crdExists(CHAL, a.context))
          return {
            success: false,
            error: 'ACME challenges CRD not found (challenges.acme.cert-manager.io)',
          };
        const ch = certsResources(CHAL, a.namespace, a.context, a.label_selector).map((i) => {
          const st = i.status ?? {};
          const spec = i.spec ?? {};
          return {
            ...meta(i),
            state: or(st.state, 'Unknown'),
            reason: or(st.reason, ''),
            type: or(spec.type, ''),
            token: spec.token ? `${String(spec.token).slice(0, 20)}...` : '',
            dns_name: or(spec.dnsName, ''),
            presented: or(st.presented, false),
            processing: or(st.processing, false),
          };
        });
        return {
          context: ctxOf(a.context),
          total: ch.length,
          pending: ch.filter((c) => !['valid', 'ready'].includes(c.state)).length,
          challenges: ch,
        };
      },
    ),
    jsonTool(
      'list_cert_requests',
      'List CertificateRequests.',
      'namespace:str="",context:str="",label_selector:str=""',
      RO,
      (a) => {
        if (!crdExists(CREQ, a.context))
          return { success: false, error: 'CertificateRequest CRD not found' };
        const reqs = certsResources(CREQ, a.namespace, a.context, a.label_selector).map((i) => {
          const r = cond(i, 'Ready');
          const ap = cond(i, 'Approved');
          return {
            ...meta(i),
            ready: r ? r.status === 'True' : false,
            approved: ap ? ap.status === 'True' : false,
            status: r ? or(r.reason, 'Unknown') : 'Unknown',
            message: r ? or(r.message, '') : '',
            issuer: or(get(i, 'spec', 'issuerRef', 'name'), ''),
            issuer_kind: or(get(i, 'spec', 'issuerRef', 'kind'), ''),
            created: or(i.metadata?.creationTimestamp, ''),
          };
        });
        return { context: ctxOf(a.context), total: reqs.length, requests: reqs };
      },
    ),
    jsonTool(
      'detect_certs',
      'Detect if cert-manager is installed and its components.',
      'context:str=""',
      RO,
      (a) => ({
        context: ctxOf(a.context),
        installed: crdExists(CERT, a.context),
        crds: {
          certificates: crdExists(CERT, a.context),
          issuers: crdExists(ISSUER, a.context),
          clusterissuers: crdExists(CISSUER, a.context),
          certificaterequests: crdExists(CREQ, a.context),
          orders: crdExists('orders.acme.cert-manager.io', a.context),
          challenges: crdExists(CHAL, a.context),
        },
      }),
    ),
  );
  void daysUntil;

  // ---------------------------------------------------------------- policy.py
  const KCP = 'clusterpolicies.kyverno.io';
  const KP = 'policies.kyverno.io';
  const KPR = 'policyreports.wgpolicyk8s.io';
  const KCPR = 'clusterpolicyreports.wgpolicyk8s.io';
  const GCT = 'constrainttemplates.templates.gatekeeper.sh';
  const constraints = (context: string): Py[] => {
    const out: Py[] = [];
    for (const t of getResources(GCT, '', context)) {
      const kind = get(t, 'spec', 'crd', 'spec', 'names', 'kind');
      if (!kind) continue;
      for (const i of getResources(String(kind).toLowerCase(), '', context)) {
        const spec = i.spec ?? {};
        const m = spec.match ?? {};
        out.push({
          name: i.metadata?.name,
          namespace: '',
          kind: 'Constraint',
          constraint_kind: kind,
          engine: 'gatekeeper',
          ready: true,
          enforcement_action: or(spec.enforcementAction, 'deny'),
          total_violations: or(get(i, 'status', 'totalViolations'), 0),
          match_kinds: or(m.kinds, []),
          match_namespaces: or(m.namespaces, []),
          excluded_namespaces: or(m.excludedNamespaces, []),
        });
      }
    }
    return out;
  };
  const policyList = (a: Py) => {
    const ps: Py[] = [];
    if (a.engine === 'kyverno' || a.engine === 'all') {
      for (const [crd, kind, ns] of [
        [KCP, 'ClusterPolicy', ''],
        [KP, 'Policy', a.namespace],
      ] as const) {
        if (!crdExists(crd, a.context)) continue;
        for (const i of getResources(crd, ns, a.context, a.label_selector)) {
          const r = cond(i, 'Ready');
          const spec = i.spec ?? {};
          ps.push({
            name: i.metadata?.name,
            namespace: kind === 'Policy' ? i.metadata?.namespace : '',
            kind,
            engine: 'kyverno',
            ready: r ? r.status === 'True' : true,
            validation_failure_action: or(spec.validationFailureAction, 'Audit'),
            background: or(spec.background, true),
            rules_count: (spec.rules ?? []).length,
            message: r ? or(r.message, '') : '',
          });
        }
      }
    }
    if ((a.engine === 'gatekeeper' || a.engine === 'all') && crdExists(GCT, a.context)) {
      for (const i of getResources(GCT, '', a.context, a.label_selector))
        ps.push({
          name: i.metadata?.name,
          namespace: '',
          kind: 'ConstraintTemplate',
          engine: 'gatekeeper',
          ready: or(get(i, 'status', 'created'), false),
          crd_kind: or(get(i, 'spec', 'crd', 'spec', 'names', 'kind'), ''),
          targets: ((get(i, 'spec', 'targets') ?? []) as Py[]).map((t) => or(t.target, '')),
        });
      ps.push(...constraints(a.context));
    }
    return {
      context: ctxOf(a.context),
      total: ps.length,
      enforcing: ps.filter(
        (p) => p.validation_failure_action === 'Enforce' || p.kind === 'Constraint',
      ).length,
      policies: ps,
    };
  };
  const policyGet = (name: string, namespace: string, kind: string, context: string) => {
    const map: Record<string, string> = { clusterpolicy: KCP, policy: KP, constrainttemplate: GCT };
    const k = map[kind.toLowerCase()] ?? kind.toLowerCase();
    return getOne(k, name, namespace ? namespace : null, context, 'policy');
  };
  const violations = (a: Py) => {
    const vs: Py[] = [];
    if (a.engine === 'kyverno' || a.engine === 'all')
      for (const [crd, source, ns] of [
        [KPR, 'PolicyReport', a.namespace],
        [KCPR, 'ClusterPolicyReport', ''],
      ] as const) {
        if (!crdExists(crd, a.context)) continue;
        for (const rep of getResources(crd, ns, a.context))
          for (const r of (rep.results ?? []) as Py[]) {
            if (!['fail', 'error'].includes(r.result)) continue;
            if (
              a.severity &&
              String(r.severity ?? '').toLowerCase() !== String(a.severity).toLowerCase()
            )
              continue;
            vs.push({
              source,
              engine: 'kyverno',
              namespace: source === 'PolicyReport' ? rep.metadata?.namespace : '',
              policy: or(r.policy, ''),
              rule: or(r.rule, ''),
              result: or(r.result, ''),
              severity: or(r.severity, ''),
              message: or(r.message, ''),
              category: or(r.category, ''),
              resources: or(r.resources, []),
            });
          }
      }
    if (a.engine === 'gatekeeper' || a.engine === 'all')
      for (const c of constraints(a.context)) {
        if (!(c.total_violations > 0)) continue;
        const d: Py = policyGet(c.name, '', c.constraint_kind, a.context);
        if (d.success)
          for (const v of (get(d.policy, 'status', 'violations') ?? []) as Py[])
            vs.push({
              source: 'GatekeeperConstraint',
              engine: 'gatekeeper',
              constraint: c.name,
              constraint_kind: c.constraint_kind,
              enforcement_action: or(v.enforcementAction, 'deny'),
              kind: or(v.kind, ''),
              name: or(v.name, ''),
              namespace: or(v.namespace, ''),
              message: or(v.message, ''),
            });
      }
    return {
      context: ctxOf(a.context),
      total: vs.length,
      critical: vs.filter((v) => String(v.severity ?? '').toLowerCase() === 'high').length,
      violations: vs,
    };
  };
  tools.push(
    jsonTool(
      'get_policy_list',
      'List policies from Kyverno or Gatekeeper.',
      'namespace:str="",context:str="",engine:str="all",label_selector:str=""',
      RO,
      policyList,
    ),
    jsonTool(
      'get_policy',
      'Get detailed information about a policy.',
      'name:str,namespace:str="",kind:str="ClusterPolicy",context:str=""',
      RO,
      (a) => policyGet(a.name, a.namespace, a.kind, a.context),
    ),
    jsonTool(
      'get_policy_violations',
      'List policy violations from PolicyReports or Gatekeeper.',
      'namespace:str="",context:str="",engine:str="all",severity:str=""',
      RO,
      violations,
    ),
    jsonTool(
      'explain_policy_denial',
      'Explain an admission denial message by matching against policies.',
      'message:str,context:str=""',
      RO,
      (a) => {
        const matches: Py[] = [];
        const recs: string[] = [];
        const msg = String(a.message).toLowerCase();
        if (crdExists(KCP, a.context))
          for (const p of getResources(KCP, '', a.context)) {
            const n = p.metadata?.name;
            const spec = p.spec ?? {};
            if (msg.includes(String(n).toLowerCase()))
              matches.push({
                engine: 'kyverno',
                type: 'ClusterPolicy',
                name: n,
                confidence: 0.9,
                validation_failure_action: or(spec.validationFailureAction, 'Audit'),
                rules: ((spec.rules ?? []) as Py[]).map((r) => or(r.name, '')),
              });
            for (const r of (spec.rules ?? []) as Py[])
              if (msg.includes(String(r.name ?? '').toLowerCase()))
                matches.push({
                  engine: 'kyverno',
                  type: 'ClusterPolicy',
                  name: n,
                  rule: or(r.name, ''),
                  confidence: 0.85,
                });
          }
        if (crdExists(GCT, a.context))
          for (const c of constraints(a.context))
            if (msg.includes(String(c.name).toLowerCase()))
              matches.push({
                engine: 'gatekeeper',
                type: 'Constraint',
                name: c.name,
                constraint_kind: c.constraint_kind,
                confidence: 0.9,
                enforcement_action: c.enforcement_action,
              });
        if (msg.includes('kyverno'))
          recs.push(
            'This appears to be a Kyverno policy denial',
            'Check policy with: kubectl get clusterpolicy -o yaml',
            'View violations: kubectl get policyreport -A',
          );
        else if (msg.includes('gatekeeper') || msg.includes('admission webhook'))
          recs.push(
            'This appears to be a Gatekeeper/OPA policy denial',
            'Check constraints with: kubectl get constraints',
            'View constraint templates: kubectl get constrainttemplates',
          );
        if (!matches.length)
          recs.push(
            'No exact policy match found',
            'Try listing all policies: policy_list()',
            'Check admission webhooks: kubectl get validatingwebhookconfigurations',
          );
        return {
          context: ctxOf(a.context),
          original_message: a.message,
          matches,
          recommendations: recs,
        };
      },
    ),
    jsonTool(
      'audit_policies',
      'Audit resources against installed policies.',
      'namespace:str="",context:str="",resource_kind:str=""',
      RO,
      (a) => {
        const v = violations({ ...a, engine: 'all', severity: '' });
        const p = policyList({ ...a, engine: 'all', label_selector: '' });
        const byPolicy: Record<string, number> = {};
        const byNs: Record<string, number> = {};
        const byKind: Record<string, number> = {};
        for (const x of v.violations) {
          const pn = x.policy ?? x.constraint ?? 'unknown';
          byPolicy[pn] = (byPolicy[pn] ?? 0) + 1;
          const ns = x.namespace ?? 'cluster-scoped';
          byNs[ns] = (byNs[ns] ?? 0) + 1;
          const k = x.kind ?? 'unknown';
          if (a.resource_kind && k.toLowerCase() !== String(a.resource_kind).toLowerCase())
            continue;
          byKind[k] = (byKind[k] ?? 0) + 1;
        }
        const top = (o: Record<string, number>) =>
          Object.entries(o)
            .sort((x, y) => y[1] - x[1])
            .slice(0, 5);
        return {
          context: ctxOf(a.context),
          summary: {
            total_policies: p.total,
            enforcing_policies: p.enforcing,
            total_violations: v.total,
            critical_violations: v.critical,
          },
          violations_by_policy: byPolicy,
          violations_by_namespace: byNs,
          violations_by_kind: byKind,
          top_violating_policies: top(byPolicy),
          top_violating_namespaces: top(byNs),
        };
      },
    ),
    jsonTool(
      'detect_policy_engines',
      'Detect which policy engines are installed in the cluster.',
      'context:str=""',
      RO,
      (a) => ({
        context: ctxOf(a.context),
        kyverno: {
          installed: crdExists(KCP, a.context) || crdExists(KP, a.context),
          cluster_policies: crdExists(KCP, a.context),
          policies: crdExists(KP, a.context),
          policy_reports: crdExists(KPR, a.context),
          cluster_policy_reports: crdExists(KCPR, a.context),
        },
        gatekeeper: {
          installed: crdExists(GCT, a.context),
          constraint_templates: crdExists(GCT, a.context),
          config: crdExists('configs.config.gatekeeper.sh', a.context),
        },
      }),
    ),
  );

  // ---------------------------------------------------------------- backup.py
  const VB = 'backups.velero.io';
  const VR = 'restores.velero.io';
  const VS = 'schedules.velero.io';
  const VBSL = 'backupstoragelocations.velero.io';
  tools.push(
    jsonTool(
      'list_backups',
      'List Velero backups.',
      'namespace:str="velero",context:str="",label_selector:str=""',
      RO,
      (a) => {
        if (!crdExists(VB, a.context))
          return {
            success: false,
            error: 'Velero is not installed (backups.velero.io CRD not found)',
          };
        const bs = getResources(VB, a.namespace, a.context, a.label_selector).map((i) => {
          const st = i.status ?? {};
          const spec = i.spec ?? {};
          const pr = st.progress ?? {};
          return {
            ...meta(i),
            phase: or(st.phase, 'Unknown'),
            started: or(st.startTimestamp, ''),
            completed: or(st.completionTimestamp, ''),
            expiration: or(st.expiration, ''),
            errors: or(st.errors, 0),
            warnings: or(st.warnings, 0),
            items_backed_up: or(pr.itemsBackedUp, 0),
            total_items: or(pr.totalItems, 0),
            included_namespaces: or(spec.includedNamespaces, []),
            excluded_namespaces: or(spec.excludedNamespaces, []),
            storage_location: or(spec.storageLocation, ''),
            ttl: or(spec.ttl, ''),
          };
        });
        return {
          context: ctxOf(a.context),
          total: bs.length,
          completed: bs.filter((b) => b.phase === 'Completed').length,
          failed: bs.filter((b) => b.phase === 'Failed').length,
          backups: bs,
        };
      },
    ),
    jsonTool(
      'get_backup',
      'Get detailed information about a backup.',
      'name:str,namespace:str="velero",context:str=""',
      RO,
      (a) =>
        crdExists(VB, a.context)
          ? getOne(VB, a.name, a.namespace, a.context, 'backup')
          : { success: false, error: 'Velero is not installed' },
    ),
    jsonTool(
      'create_backup',
      'Create a new Velero backup.',
      'name:str="",namespace:str="velero",included_namespaces:str="",excluded_namespaces:str="",ttl:str="720h",snapshot_volumes:bool=True,context:str=""',
      W(false, false),
      undefined,
      true,
    ),
    jsonTool(
      'delete_backup',
      'Delete a Velero backup.',
      'name:str,namespace:str="velero",context:str=""',
      W(true, true),
      undefined,
      true,
    ),
    jsonTool(
      'list_restores',
      'List Velero restores.',
      'namespace:str="velero",context:str="",label_selector:str=""',
      RO,
      (a) => {
        if (!crdExists(VR, a.context))
          return {
            success: false,
            error: 'Velero is not installed (restores.velero.io CRD not found)',
          };
        const rs = getResources(VR, a.namespace, a.context, a.label_selector).map((i) => {
          const st = i.status ?? {};
          const spec = i.spec ?? {};
          const pr = st.progress ?? {};
          return {
            ...meta(i),
            phase: or(st.phase, 'Unknown'),
            backup_name: or(spec.backupName, ''),
            started: or(st.startTimestamp, ''),
            completed: or(st.completionTimestamp, ''),
            errors: or(st.errors, 0),
            warnings: or(st.warnings, 0),
            items_restored: or(pr.itemsRestored, 0),
            total_items: or(pr.totalItems, 0),
            included_namespaces: or(spec.includedNamespaces, []),
            excluded_namespaces: or(spec.excludedNamespaces, []),
          };
        });
        return {
          context: ctxOf(a.context),
          total: rs.length,
          completed: rs.filter((r) => r.phase === 'Completed').length,
          failed: rs.filter((r) => r.phase === 'Failed').length,
          restores: rs,
        };
      },
    ),
    jsonTool(
      'create_restore',
      'Create a restore from a backup.',
      'backup_name:str,name:str="",namespace:str="velero",included_namespaces:str="",excluded_namespaces:str="",restore_pvs:bool=True,context:str=""',
      W(true, false),
      undefined,
      true,
    ),
    jsonTool(
      'get_restore',
      'Get detailed information about a restore.',
      'name:str,namespace:str="velero",context:str=""',
      RO,
      (a) =>
        crdExists(VR, a.context)
          ? getOne(VR, a.name, a.namespace, a.context, 'restore')
          : { success: false, error: 'Velero is not installed' },
    ),
    jsonTool(
      'list_backup_locations',
      'List Velero backup storage locations.',
      'namespace:str="velero",context:str=""',
      RO,
      (a) => {
        if (!crdExists(VBSL, a.context))
          return { success: false, error: 'Velero is not installed' };
        const ls = getResources(VBSL, a.namespace, a.context).map((i) => ({
          ...meta(i),
          phase: or(get(i, 'status', 'phase'), 'Unknown'),
          last_sync: or(get(i, 'status', 'lastSyncedTime'), ''),
          provider: or(get(i, 'spec', 'provider'), ''),
          bucket: or(get(i, 'spec', 'objectStorage', 'bucket'), ''),
          prefix: or(get(i, 'spec', 'objectStorage', 'prefix'), ''),
          default: or(get(i, 'spec', 'default'), false),
          access_mode: or(get(i, 'status', 'accessMode'), ''),
        }));
        return { context: ctxOf(a.context), total: ls.length, locations: ls };
      },
    ),
    jsonTool(
      'list_backup_schedules',
      'List Velero backup schedules.',
      'namespace:str="velero",context:str=""',
      RO,
      (a) => {
        if (!crdExists(VS, a.context)) return { success: false, error: 'Velero is not installed' };
        const ss = getResources(VS, a.namespace, a.context).map((i) => {
          const t = get(i, 'spec', 'template') ?? {};
          return {
            ...meta(i),
            phase: or(get(i, 'status', 'phase'), 'Unknown'),
            schedule: or(get(i, 'spec', 'schedule'), ''),
            last_backup: or(get(i, 'status', 'lastBackup'), ''),
            paused: or(get(i, 'spec', 'paused'), false),
            included_namespaces: or(t.includedNamespaces, []),
            excluded_namespaces: or(t.excludedNamespaces, []),
            ttl: or(t.ttl, ''),
            storage_location: or(t.storageLocation, ''),
          };
        });
        return { context: ctxOf(a.context), total: ss.length, schedules: ss };
      },
    ),
    jsonTool(
      'create_backup_schedule',
      'Create a backup schedule.',
      'name:str,schedule:str,namespace:str="velero",included_namespaces:str="",excluded_namespaces:str="",ttl:str="720h",context:str=""',
      W(false, false),
      undefined,
      true,
    ),
    jsonTool(
      'detect_backup',
      'Detect if Velero is installed and its components.',
      'context:str=""',
      RO,
      (a) => ({
        context: ctxOf(a.context),
        installed: crdExists(VB, a.context),
        cli_available: false,
        crds: {
          backups: crdExists(VB, a.context),
          restores: crdExists(VR, a.context),
          schedules: crdExists(VS, a.context),
          backup_storage_locations: crdExists(VBSL, a.context),
          volume_snapshot_locations: crdExists('volumesnapshotlocations.velero.io', a.context),
        },
      }),
    ),
  );

  // ---------------------------------------------------------------- keda.py
  const SO = 'scaledobjects.keda.sh';
  const SJ = 'scaledjobs.keda.sh';
  const TA = 'triggerauthentications.keda.sh';
  const CTA = 'clustertriggerauthentications.keda.sh';
  tools.push(
    jsonTool(
      'keda_scaledobjects_list',
      'List KEDA ScaledObjects with their scaling status.',
      'namespace:str="",context:str="",label_selector:str=""',
      RO,
      (a) => {
        if (!crdExists(SO, a.context))
          return {
            success: false,
            error: 'KEDA is not installed (scaledobjects.keda.sh CRD not found)',
          };
        const os = getResources(SO, a.namespace, a.context, a.label_selector).map((i) => {
          const spec = i.spec ?? {};
          const st = i.status ?? {};
          const r = cond(i, 'Ready') ?? {};
          const ac = cond(i, 'Active') ?? {};
          const trig: Py[] = spec.triggers ?? [];
          return {
            ...meta(i),
            ready: r.status === 'True',
            active: ac.status === 'True',
            status: or(r.reason, 'Unknown'),
            message: or(r.message, ''),
            scale_target_ref: or(spec.scaleTargetRef, {}),
            min_replicas: or(spec.minReplicaCount, 0),
            max_replicas: or(spec.maxReplicaCount, 100),
            current_replicas: or(get(st, 'scaleTargetKind', 'replicas'), null),
            trigger_types: trig.map((t) => or(t.type, 'unknown')),
            triggers_count: trig.length,
            paused_replicas: or(spec.pausedReplicaCount, null),
            cooldown_period: or(spec.cooldownPeriod, 300),
            polling_interval: or(spec.pollingInterval, 30),
          };
        });
        return {
          context: ctxOf(a.context),
          total: os.length,
          active: os.filter((o) => o.active).length,
          scaledobjects: os,
        };
      },
    ),
    jsonTool(
      'keda_scaledobject_get',
      'Get detailed information about a ScaledObject.',
      'name:str,namespace:str,context:str=""',
      RO,
      (a) =>
        crdExists(SO, a.context)
          ? getOne(SO, a.name, a.namespace, a.context, 'scaledobject')
          : { success: false, error: 'KEDA is not installed' },
    ),
    jsonTool(
      'keda_scaledjobs_list',
      'List KEDA ScaledJobs with their status.',
      'namespace:str="",context:str="",label_selector:str=""',
      RO,
      (a) => {
        if (!crdExists(SJ, a.context))
          return { success: false, error: 'KEDA ScaledJobs CRD not found' };
        const js = getResources(SJ, a.namespace, a.context, a.label_selector).map((i) => {
          const spec = i.spec ?? {};
          const r = cond(i, 'Ready') ?? {};
          const trig: Py[] = spec.triggers ?? [];
          return {
            ...meta(i),
            ready: r.status === 'True',
            status: or(r.reason, 'Unknown'),
            message: or(r.message, ''),
            job_target_ref: or(spec.jobTargetRef, {}),
            min_replicas: or(spec.minReplicaCount, 0),
            max_replicas: or(spec.maxReplicaCount, 100),
            trigger_types: trig.map((t) => or(t.type, 'unknown')),
            triggers_count: trig.length,
            polling_interval: or(spec.pollingInterval, 30),
            successful_jobs_history: or(spec.successfulJobsHistoryLimit, 100),
            failed_jobs_history: or(spec.failedJobsHistoryLimit, 100),
          };
        });
        return { context: ctxOf(a.context), total: js.length, scaledjobs: js };
      },
    ),
    jsonTool(
      'keda_triggerauths_list',
      'List KEDA TriggerAuthentications and ClusterTriggerAuthentications.',
      'namespace:str="",context:str="",include_cluster:bool=True',
      RO,
      (a) => {
        const auths: Py[] = [];
        for (const [crd, kind, namespaced] of [
          [TA, 'TriggerAuthentication', true],
          [CTA, 'ClusterTriggerAuthentication', false],
        ] as const) {
          if (!namespaced && !a.include_cluster) continue;
          if (!crdExists(crd, a.context)) continue;
          for (const i of getResources(crd, namespaced ? a.namespace : '', a.context)) {
            const spec = i.spec ?? {};
            auths.push({
              name: i.metadata?.name,
              namespace: namespaced ? i.metadata?.namespace : '',
              kind,
              secret_refs_count: (spec.secretTargetRef ?? []).length,
              env_refs_count: (spec.env ?? []).length,
              has_pod_identity: 'podIdentity' in spec,
              has_azure_identity: 'azureKeyVault' in spec,
              has_hashicorp_vault: 'hashiCorpVault' in spec,
            });
          }
        }
        return { context: ctxOf(a.context), total: auths.length, authentications: auths };
      },
    ),
    jsonTool(
      'keda_triggerauth_get',
      'Get detailed information about a TriggerAuthentication.',
      'name:str,namespace:str="",kind:str="TriggerAuthentication",context:str=""',
      RO,
      (a) => {
        const cluster = String(a.kind).toLowerCase() === 'clustertriggerauthentication';
        const crd = cluster ? CTA : TA;
        if (!crdExists(crd, a.context)) return { success: false, error: `${crd} not found` };
        return getOne(crd, a.name, cluster ? null : a.namespace, a.context, 'authentication');
      },
    ),
    jsonTool(
      'keda_hpa_list',
      'List HPAs managed by KEDA.',
      'namespace:str="",context:str="",label_selector:str=""',
      RO,
      (a) => {
        const r = kubectl(
          [
            'get',
            'hpa',
            '-o',
            'json',
            ...(a.namespace ? ['-n', a.namespace] : ['-A']),
            ...(a.label_selector ? ['-l', a.label_selector] : []),
          ],
          a.context,
        );
        if (!r.success) return { success: false, error: r.error || 'Failed to list HPAs' };
        const hpas: Py[] = [];
        for (const i of (JSON.parse(r.output ?? '{}').items ?? []) as Py[]) {
          const l = i.metadata?.labels ?? {};
          const key = 'scaledobject.keda.sh/name';
          if (!(key in l) && !('app.kubernetes.io/managed-by' in l)) continue;
          if (l['app.kubernetes.io/managed-by'] !== 'keda-operator' && !(key in l)) continue;
          const spec = i.spec ?? {};
          const st = i.status ?? {};
          hpas.push({
            ...meta(i),
            scaledobject: or(l[key], ''),
            min_replicas: or(spec.minReplicas, 1),
            max_replicas: or(spec.maxReplicas, 10),
            current_replicas: or(st.currentReplicas, 0),
            desired_replicas: or(st.desiredReplicas, 0),
            current_metrics: or(st.currentMetrics, []),
            conditions: or(st.conditions, []),
          });
        }
        return { context: ctxOf(a.context), total: hpas.length, hpas };
      },
    ),
    jsonTool(
      'keda_detect',
      'Detect if KEDA is installed and its components.',
      'context:str=""',
      RO,
      (a) => ({
        context: ctxOf(a.context),
        installed: crdExists(SO, a.context),
        crds: {
          scaledobjects: crdExists(SO, a.context),
          scaledjobs: crdExists(SJ, a.context),
          triggerauthentications: crdExists(TA, a.context),
          clustertriggerauthentications: crdExists(CTA, a.context),
        },
      }),
    ),
  );

  // ---------------------------------------------------------------- cilium.py
  const CNP = 'ciliumnetworkpolicies.cilium.io';
  const CCNP = 'ciliumclusterwidenetworkpolicies.cilium.io';
  const CEP = 'ciliumendpoints.cilium.io';
  const CID = 'ciliumidentities.cilium.io';
  const CN = 'ciliumnodes.cilium.io';
  const rulesCount = (spec: Py) => {
    const n = (k: string) => (spec[k] ?? []).length;
    return {
      ingress_rules: n('ingress'),
      egress_rules: n('egress'),
      ingress_deny_rules: n('ingressDeny'),
      egress_deny_rules: n('egressDeny'),
      total_rules: n('ingress') + n('egress') + n('ingressDeny') + n('egressDeny'),
    };
  };
  tools.push(
    jsonTool(
      'cilium_list_policies',
      'List Cilium network policies.',
      'namespace:str="",context:str="",include_clusterwide:bool=True',
      RO,
      (a) => {
        const ps: Py[] = [];
        if (crdExists(CNP, a.context))
          for (const i of getResources(CNP, a.namespace, a.context)) {
            const spec = i.spec ?? {};
            ps.push({
              ...meta(i),
              kind: 'CiliumNetworkPolicy',
              endpoint_selector: or(get(spec, 'endpointSelector', 'matchLabels'), {}),
              ...rulesCount(spec),
              derivate_from_rules: or(get(i, 'status', 'derivativePolicies'), []),
            });
          }
        if (a.include_clusterwide && crdExists(CCNP, a.context))
          for (const i of getResources(CCNP, '', a.context)) {
            const spec = i.spec ?? {};
            ps.push({
              name: i.metadata?.name,
              namespace: '',
              kind: 'CiliumClusterwideNetworkPolicy',
              endpoint_selector: or(get(spec, 'endpointSelector', 'matchLabels'), {}),
              ...rulesCount(spec),
              node_selector: or(spec.nodeSelector, {}),
            });
          }
        return { context: ctxOf(a.context), total: ps.length, policies: ps };
      },
    ),
    jsonTool(
      'cilium_get_policy',
      'Get detailed information about a Cilium network policy.',
      'name:str,namespace:str="",kind:str="CiliumNetworkPolicy",context:str=""',
      RO,
      (a) => {
        const cluster = String(a.kind).toLowerCase() === 'ciliumclusterwidenetworkpolicy';
        const crd = cluster ? CCNP : CNP;
        if (!crdExists(crd, a.context)) return { success: false, error: `${crd} not found` };
        return getOne(crd, a.name, cluster ? null : a.namespace, a.context, 'policy');
      },
    ),
    jsonTool(
      'cilium_list_endpoints',
      'List Cilium endpoints with their status.',
      'namespace:str="",context:str="",label_selector:str=""',
      RO,
      (a) => {
        if (!crdExists(CEP, a.context))
          return {
            success: false,
            error: 'Cilium is not installed (ciliumendpoints.cilium.io CRD not found)',
          };
        const eps = getResources(CEP, a.namespace, a.context, a.label_selector).map((i) => {
          const st = i.status ?? {};
          const addr: Py[] = get(st, 'networking', 'addressing') ?? [];
          const pol = st.policy ?? {};
          const ing = or(get(pol, 'ingress', 'enforcing'), false);
          const egr = or(get(pol, 'egress', 'enforcing'), false);
          return {
            ...meta(i),
            identity_id: or(get(st, 'identity', 'id'), null),
            identity_labels: or(get(st, 'identity', 'labels'), []),
            ipv4: addr.find((x) => x.ipv4)?.ipv4 ?? null,
            ipv6: addr.find((x) => x.ipv6)?.ipv6 ?? null,
            state: or(st.state, null),
            health: or(st.health, {}),
            policy_enabled: ing || egr,
            ingress_enforcing: ing,
            egress_enforcing: egr,
          };
        });
        return {
          context: ctxOf(a.context),
          total: eps.length,
          ready: eps.filter((e) => e.state === 'ready').length,
          endpoints: eps,
        };
      },
    ),
    jsonTool(
      'cilium_list_identities',
      'List Cilium identities.',
      'context:str="",label_selector:str=""',
      RO,
      (a) => {
        if (!crdExists(CID, a.context))
          return { success: false, error: 'Cilium identities CRD not found' };
        const ids = getResources(CID, '', a.context, a.label_selector).map((i) => {
          const l = i['security-labels'] ?? {};
          return {
            name: i.metadata?.name,
            id: i.metadata?.name,
            labels: l,
            namespace: or(l['k8s:io.kubernetes.pod.namespace'], ''),
          };
        });
        return { context: ctxOf(a.context), total: ids.length, identities: ids };
      },
    ),
    jsonTool(
      'cilium_list_nodes',
      'List Cilium nodes with their status.',
      'context:str=""',
      RO,
      (a) => {
        if (!crdExists(CN, a.context))
          return { success: false, error: 'Cilium nodes CRD not found' };
        const ns = getResources(CN, '', a.context).map((i) => ({
          name: i.metadata?.name,
          ipv4_address:
            ((get(i, 'spec', 'addresses') ?? []) as Py[]).find((x) => x.type === 'InternalIP')
              ?.ip ?? null,
          ipv4_health: or(get(i, 'spec', 'ipam', 'podCIDRs'), []),
          encryption_key: or(get(i, 'spec', 'encryption', 'key'), null),
          boot_id: or(get(i, 'status', 'nodeIdentity'), null),
        }));
        return { context: ctxOf(a.context), total: ns.length, nodes: ns };
      },
    ),
    jsonTool('cilium_get_status', 'Get Cilium cluster status.', 'context:str=""', RO, (a) => {
      const r = kubectl(
        ['get', 'pods', '-n', 'kube-system', '-l', 'k8s-app=cilium', '-o', 'json'],
        a.context,
      );
      if (!r.success) return { success: false, error: r.error || 'Failed to get Cilium status' };
      const agents = ((JSON.parse(r.output ?? '{}').items ?? []) as Py[]).map((p) => ({
        name: p.metadata?.name,
        node: or(get(p, 'spec', 'nodeName'), ''),
        ready: (cond(p, 'Ready') ?? {}).status === 'True',
        phase: or(get(p, 'status', 'phase'), 'Unknown'),
        restarts: ((get(p, 'status', 'containerStatuses') ?? []) as Py[]).reduce(
          (s, c) => s + (c.restartCount ?? 0),
          0,
        ),
      }));
      return {
        success: true,
        context: ctxOf(a.context),
        source: 'kubectl',
        total_agents: agents.length,
        ready_agents: agents.filter((x) => x.ready).length,
        agents,
        hubble_cli_available: false,
        cilium_cli_available: false,
      };
    }),
    jsonTool(
      'get_hubble_flows',
      'Query Hubble flows for network observability.',
      'namespace:str="",pod:str="",label_selector:str="",verdict:str="",protocol:str="",last:int=100,context:str=""',
      RO,
      () => ({
        success: false,
        error: 'Hubble CLI not available. Install hubble CLI or use hubble-relay port-forward.',
      }),
    ),
    jsonTool(
      'detect_cilium',
      'Detect if Cilium is installed and its components.',
      'context:str=""',
      RO,
      (a) => ({
        context: ctxOf(a.context),
        installed: crdExists(CNP, a.context),
        crds: {
          ciliumnetworkpolicies: crdExists(CNP, a.context),
          ciliumclusterwidenetworkpolicies: crdExists(CCNP, a.context),
          ciliumendpoints: crdExists(CEP, a.context),
          ciliumidentities: crdExists(CID, a.context),
          ciliumnodes: crdExists(CN, a.context),
        },
        cli: { cilium_available: false, hubble_available: false },
      }),
    ),
  );

  // ---------------------------------------------------------------- rollouts.py
  const RO_CRD = 'rollouts.argoproj.io';
  const AR = 'analysisruns.argoproj.io';
  const FC = 'canaries.flagger.app';
  const rolloutGet = (a: Py) =>
    crdExists(RO_CRD, a.context)
      ? getOne(RO_CRD, a.name, a.namespace, a.context, 'rollout')
      : { success: false, error: 'Argo Rollouts is not installed' };
  tools.push(
    jsonTool(
      'get_rollouts_list',
      'List Argo Rollouts with their status.',
      'namespace:str="",context:str="",label_selector:str=""',
      RO,
      (a) => {
        if (!crdExists(RO_CRD, a.context))
          return {
            success: false,
            error: 'Argo Rollouts is not installed (rollouts.argoproj.io CRD not found)',
          };
        const rs = getResources(RO_CRD, a.namespace, a.context, a.label_selector).map((i) => {
          const st = i.status ?? {};
          const spec = i.spec ?? {};
          const strat = spec.strategy ?? {};
          const kind =
            'canary' in strat ? 'canary' : 'blueGreen' in strat ? 'blueGreen' : 'unknown';
          const det =
            kind === 'canary'
              ? (strat.canary ?? {})
              : kind === 'blueGreen'
                ? (strat.blueGreen ?? {})
                : {};
          return {
            ...meta(i),
            strategy: kind,
            phase: or(st.phase, 'Unknown'),
            message: or(st.message, ''),
            replicas: or(spec.replicas, 1),
            ready_replicas: or(st.readyReplicas, 0),
            available_replicas: or(st.availableReplicas, 0),
            current_step: or(st.currentStepIndex, null),
            total_steps: kind === 'canary' ? (det.steps ?? []).length : null,
            stable_rs: or(st.stableRS, ''),
            canary_rs: kind === 'canary' ? or(st.canaryRS, '') : null,
            active_rs: kind === 'blueGreen' ? or(get(st, 'blueGreen', 'activeSelector'), '') : null,
            preview_rs:
              kind === 'blueGreen' ? or(get(st, 'blueGreen', 'previewSelector'), '') : null,
            available: (cond(i, 'Available') ?? {}).status === 'True',
            progressing: (cond(i, 'Progressing') ?? {}).status === 'True',
            paused: st.pauseConditions !== undefined && st.pauseConditions !== null,
            aborted: or(st.abort, false),
          };
        });
        return {
          context: ctxOf(a.context),
          total: rs.length,
          healthy: rs.filter((r) => r.phase === 'Healthy').length,
          progressing: rs.filter((r) => r.phase === 'Progressing').length,
          paused: rs.filter((r) => r.paused).length,
          rollouts: rs,
        };
      },
    ),
    jsonTool(
      'get_rollout',
      'Get detailed information about an Argo Rollout.',
      'name:str,namespace:str,context:str=""',
      RO,
      rolloutGet,
    ),
    jsonTool(
      'get_rollout_status',
      'Get current status of an Argo Rollout with step details.',
      'name:str,namespace:str,context:str=""',
      RO,
      (a) => {
        const r: Py = rolloutGet(a);
        if (!r.success) return r;
        const st = r.rollout.status ?? {};
        const strat = get(r.rollout, 'spec', 'strategy') ?? {};
        const kind = 'canary' in strat ? 'canary' : 'blueGreen' in strat ? 'blueGreen' : 'unknown';
        const steps: Py[] = kind === 'canary' ? (get(strat, 'canary', 'steps') ?? []) : [];
        const cur = or(st.currentStepIndex, 0);
        return {
          success: true,
          context: ctxOf(a.context),
          name: a.name,
          namespace: a.namespace,
          strategy: kind,
          phase: or(st.phase, 'Unknown'),
          message: or(st.message, ''),
          current_step: cur,
          total_steps: steps.length,
          steps: steps.map((s, i) => {
            const t = Object.keys(s ?? {})[0] ?? 'unknown';
            return {
              index: i,
              type: t,
              value: s?.[t] ?? null,
              current: i === cur,
              completed: i < cur,
            };
          }),
          paused: st.pauseConditions !== undefined && st.pauseConditions !== null,
          pause_reasons: ((st.pauseConditions ?? []) as Py[]).map((p) => or(p.reason, null)),
          canary_weight: kind === 'canary' ? or(get(st, 'canary', 'weight'), 0) : null,
          stable_revision: or(st.stableRS, ''),
          canary_revision: or(st.canaryRS, ''),
        };
      },
    ),
    jsonTool(
      'promote_rollout',
      'Promote a paused Argo Rollout to the next step or full.',
      'name:str,namespace:str,full:bool=False,context:str=""',
      W(true, false),
      undefined,
      true,
    ),
    jsonTool(
      'abort_rollout',
      'Abort an Argo Rollout.',
      'name:str,namespace:str,context:str=""',
      W(true, false),
      undefined,
      true,
    ),
    jsonTool(
      'retry_rollout',
      'Retry an aborted Argo Rollout.',
      'name:str,namespace:str,context:str=""',
      W(true, false),
      undefined,
      true,
    ),
    jsonTool(
      'restart_rollout',
      'Restart an Argo Rollout.',
      'name:str,namespace:str,context:str=""',
      W(true, false),
      undefined,
      true,
    ),
    jsonTool(
      'get_analysis_runs',
      'List Argo Rollouts AnalysisRuns.',
      'namespace:str="",context:str="",label_selector:str=""',
      RO,
      (a) => {
        if (!crdExists(AR, a.context))
          return { success: false, error: 'AnalysisRuns CRD not found' };
        const runs = getResources(AR, a.namespace, a.context, a.label_selector).map((i) => {
          const st = i.status ?? {};
          return {
            ...meta(i),
            phase: or(st.phase, 'Unknown'),
            message: or(st.message, ''),
            metrics_count: (get(i, 'spec', 'metrics') ?? []).length,
            started_at: or(st.startedAt, ''),
            metric_results: ((st.metricResults ?? []) as Py[]).map((m) => ({
              name: or(m.name, null),
              phase: or(m.phase, null),
              count: or(m.count, 0),
              successful: or(m.successful, 0),
              failed: or(m.failed, 0),
            })),
          };
        });
        return { context: ctxOf(a.context), total: runs.length, analysis_runs: runs };
      },
    ),
    jsonTool(
      'get_flagger_canaries',
      'List Flagger Canary resources.',
      'namespace:str="",context:str="",label_selector:str=""',
      RO,
      (a) => {
        if (!crdExists(FC, a.context))
          return {
            success: false,
            error: 'Flagger is not installed (canaries.flagger.app CRD not found)',
          };
        const cs = getResources(FC, a.namespace, a.context, a.label_selector).map((i) => {
          const st = i.status ?? {};
          const spec = i.spec ?? {};
          const an = spec.analysis ?? {};
          return {
            ...meta(i),
            phase: or(st.phase, 'Unknown'),
            canary_weight: or(st.canaryWeight, 0),
            failed_checks: or(st.failedChecks, 0),
            iterations: or(st.iterations, 0),
            target_ref: or(spec.targetRef, {}),
            service: or(spec.service, {}),
            max_weight: or(an.maxWeight, 50),
            step_weight: or(an.stepWeight, 5),
            threshold: or(an.threshold, 5),
            interval: or(an.interval, '1m'),
            metrics_count: (an.metrics ?? []).length,
            last_transition_time: or(st.lastTransitionTime, ''),
          };
        });
        return {
          context: ctxOf(a.context),
          total: cs.length,
          progressing: cs.filter((c) => c.phase === 'Progressing').length,
          succeeded: cs.filter((c) => c.phase === 'Succeeded').length,
          failed: cs.filter((c) => c.phase === 'Failed').length,
          canaries: cs,
        };
      },
    ),
    jsonTool(
      'get_flagger_canary',
      'Get detailed information about a Flagger Canary.',
      'name:str,namespace:str,context:str=""',
      RO,
      (a) =>
        crdExists(FC, a.context)
          ? getOne(FC, a.name, a.namespace, a.context, 'canary')
          : { success: false, error: 'Flagger is not installed' },
    ),
    jsonTool(
      'detect_rollouts',
      'Detect which progressive delivery tools are installed.',
      'context:str=""',
      RO,
      (a) => ({
        context: ctxOf(a.context),
        argo_rollouts: {
          installed: crdExists(RO_CRD, a.context),
          cli_available: false,
          crds: {
            rollouts: crdExists(RO_CRD, a.context),
            analysistemplates: crdExists('analysistemplates.argoproj.io', a.context),
            clusteranalysistemplates: crdExists('clusteranalysistemplates.argoproj.io', a.context),
            analysisruns: crdExists(AR, a.context),
            experiments: crdExists('experiments.argoproj.io', a.context),
          },
        },
        flagger: {
          installed: crdExists(FC, a.context),
          crds: {
            canaries: crdExists(FC, a.context),
            metrictemplates: crdExists('metrictemplates.flagger.app', a.context),
            alertproviders: crdExists('alertproviders.flagger.app', a.context),
          },
        },
      }),
    ),
  );

  // ---------------------------------------------------------------- capi.py
  const CAPI = (p: string) => `${p}.cluster.x-k8s.io`;
  const capiList =
    (
      plural: string,
      missing: string,
      key: string,
      clusterFilter: boolean,
      shape: (i: Py) => Py,
      summary?: (xs: Py[]) => Py,
    ) =>
    (a: Py) => {
      if (!crdExists(CAPI(plural), a.context)) return { success: false, error: missing };
      let sel = a.label_selector;
      if (clusterFilter && a.cluster_name) {
        const cl = `cluster.x-k8s.io/cluster-name=${a.cluster_name}`;
        sel = sel ? `${sel},${cl}` : cl;
      }
      const xs = getResources(CAPI(plural), a.namespace, a.context, sel).map(shape);
      return {
        context: ctxOf(a.context),
        total: xs.length,
        ...(summary ? summary(xs) : {}),
        [key]: xs,
      };
    };
  const capiGet = (plural: string, key: string) => (a: Py) =>
    crdExists(CAPI(plural), a.context)
      ? getOne(CAPI(plural), a.name, a.namespace, a.context, key)
      : { success: false, error: 'Cluster API is not installed' };
  const ready = (i: Py, t = 'Ready') => (cond(i, t) ?? {}).status === 'True';
  tools.push(
    jsonTool(
      'capi_list_clusters',
      'List Cluster API managed clusters.',
      'namespace:str="",context:str="",label_selector:str=""',
      RO,
      capiList(
        'clusters',
        'Cluster API is not installed (clusters.cluster.x-k8s.io CRD not found)',
        'clusters',
        false,
        (i) => ({
          ...meta(i),
          phase: or(get(i, 'status', 'phase'), 'Unknown'),
          ready: ready(i),
          infrastructure_ready: ready(i, 'InfrastructureReady'),
          control_plane_ready: ready(i, 'ControlPlaneReady'),
          control_plane_endpoint: or(get(i, 'spec', 'controlPlaneEndpoint'), {}),
          infrastructure_ref: or(get(i, 'spec', 'infrastructureRef'), {}),
          control_plane_ref: or(get(i, 'spec', 'controlPlaneRef'), {}),
          cluster_network: or(get(i, 'spec', 'clusterNetwork'), {}),
          paused: or(get(i, 'spec', 'paused'), false),
          observed_generation: or(get(i, 'status', 'observedGeneration'), null),
          failure_reason: or(get(i, 'status', 'failureReason'), null),
          failure_message: or(get(i, 'status', 'failureMessage'), null),
        }),
        (xs) => ({
          ready: xs.filter((x) => x.ready).length,
          provisioning: xs.filter((x) => x.phase === 'Provisioning').length,
        }),
      ),
    ),
    jsonTool(
      'capi_get_cluster',
      'Get detailed information about a CAPI cluster.',
      'name:str,namespace:str,context:str=""',
      RO,
      capiGet('clusters', 'cluster'),
    ),
    jsonTool(
      'capi_list_machines',
      'List Cluster API machines.',
      'namespace:str="",cluster_name:str="",context:str="",label_selector:str=""',
      RO,
      capiList(
        'machines',
        'Cluster API is not installed (machines.cluster.x-k8s.io CRD not found)',
        'machines',
        true,
        (i) => ({
          ...meta(i),
          cluster: or(get(i, 'spec', 'clusterName'), ''),
          phase: or(get(i, 'status', 'phase'), 'Unknown'),
          ready: ready(i),
          infrastructure_ready: ready(i, 'InfrastructureReady'),
          provider_id: or(get(i, 'spec', 'providerID'), ''),
          version: or(get(i, 'spec', 'version'), ''),
          bootstrap_ref: or(get(i, 'spec', 'bootstrap', 'configRef'), {}),
          infrastructure_ref: or(get(i, 'spec', 'infrastructureRef'), {}),
          node_ref: or(get(i, 'status', 'nodeRef'), {}),
          addresses: or(get(i, 'status', 'addresses'), []),
          failure_reason: or(get(i, 'status', 'failureReason'), null),
          failure_message: or(get(i, 'status', 'failureMessage'), null),
        }),
        (xs) => ({
          ready: xs.filter((x) => x.ready).length,
          running: xs.filter((x) => x.phase === 'Running').length,
        }),
      ),
    ),
    jsonTool(
      'capi_get_machine',
      'Get detailed information about a CAPI machine.',
      'name:str,namespace:str,context:str=""',
      RO,
      capiGet('machines', 'machine'),
    ),
    jsonTool(
      'capi_list_machinedeployments',
      'List Cluster API MachineDeployments.',
      'namespace:str="",cluster_name:str="",context:str="",label_selector:str=""',
      RO,
      capiList(
        'machinedeployments',
        'MachineDeployments CRD not found',
        'deployments',
        true,
        (i) => ({
          ...meta(i),
          cluster: or(get(i, 'spec', 'clusterName'), ''),
          phase: or(get(i, 'status', 'phase'), 'Unknown'),
          ready: ready(i),
          available: ready(i, 'Available'),
          replicas: or(get(i, 'spec', 'replicas'), 0),
          ready_replicas: or(get(i, 'status', 'readyReplicas'), 0),
          available_replicas: or(get(i, 'status', 'availableReplicas'), 0),
          updated_replicas: or(get(i, 'status', 'updatedReplicas'), 0),
          unavailable_replicas: or(get(i, 'status', 'unavailableReplicas'), 0),
          version: or(get(i, 'spec', 'template', 'spec', 'version'), ''),
          strategy: or(get(i, 'spec', 'strategy'), {}),
          observed_generation: or(get(i, 'status', 'observedGeneration'), null),
        }),
      ),
    ),
    jsonTool(
      'capi_scale_machinedeployment',
      'Scale a CAPI MachineDeployment.',
      'name:str,namespace:str,replicas:int,context:str=""',
      W(true, false),
      undefined,
      true,
    ),
    jsonTool(
      'capi_list_machinesets',
      'List Cluster API MachineSets.',
      'namespace:str="",cluster_name:str="",context:str="",label_selector:str=""',
      RO,
      capiList('machinesets', 'MachineSets CRD not found', 'machinesets', true, (i) => ({
        ...meta(i),
        cluster: or(get(i, 'spec', 'clusterName'), ''),
        replicas: or(get(i, 'spec', 'replicas'), 0),
        ready_replicas: or(get(i, 'status', 'readyReplicas'), 0),
        available_replicas: or(get(i, 'status', 'availableReplicas'), 0),
        fully_labeled_replicas: or(get(i, 'status', 'fullyLabeledReplicas'), 0),
        version: or(get(i, 'spec', 'template', 'spec', 'version'), ''),
        selector: or(get(i, 'spec', 'selector'), {}),
        observed_generation: or(get(i, 'status', 'observedGeneration'), null),
        failure_reason: or(get(i, 'status', 'failureReason'), null),
        failure_message: or(get(i, 'status', 'failureMessage'), null),
      })),
    ),
    jsonTool(
      'capi_list_machinehealthchecks',
      'List Cluster API MachineHealthChecks.',
      'namespace:str="",cluster_name:str="",context:str="",label_selector:str=""',
      RO,
      capiList(
        'machinehealthchecks',
        'MachineHealthChecks CRD not found',
        'healthchecks',
        true,
        (i) => ({
          ...meta(i),
          cluster: or(get(i, 'spec', 'clusterName'), ''),
          expected_machines: or(get(i, 'status', 'expectedMachines'), 0),
          current_healthy: or(get(i, 'status', 'currentHealthy'), 0),
          remediation_allowed: ready(i, 'RemediationAllowed'),
          unhealthy_conditions: or(get(i, 'spec', 'unhealthyConditions'), []),
          max_unhealthy: or(get(i, 'spec', 'maxUnhealthy'), null),
          node_startup_timeout: or(get(i, 'spec', 'nodeStartupTimeout'), null),
          targets: or(get(i, 'status', 'targets'), []),
        }),
      ),
    ),
    jsonTool(
      'capi_list_clusterclasses',
      'List Cluster API ClusterClasses.',
      'namespace:str="",context:str="",label_selector:str=""',
      RO,
      capiList('clusterclasses', 'ClusterClasses CRD not found', 'clusterclasses', false, (i) => ({
        ...meta(i),
        ready: ready(i),
        variables_ready: ready(i, 'VariablesReady'),
        infrastructure_ref: or(get(i, 'spec', 'infrastructure', 'ref'), {}),
        control_plane_ref: or(get(i, 'spec', 'controlPlane', 'ref'), {}),
        machinedeployment_classes: (get(i, 'spec', 'workers', 'machineDeployments') ?? []).length,
        machinepool_classes: (get(i, 'spec', 'workers', 'machinePools') ?? []).length,
        variables_count: (get(i, 'spec', 'variables') ?? []).length,
        observed_generation: or(get(i, 'status', 'observedGeneration'), null),
      })),
    ),
    jsonTool(
      'capi_get_cluster_kubeconfig',
      'Get kubeconfig secret info for a CAPI cluster.',
      'name:str,namespace:str,context:str=""',
      RO,
      (a) => {
        if (!crdExists(CAPI('clusters'), a.context))
          return { success: false, error: 'Cluster API is not installed' };
        const s = world.get('Secret', `${a.name}-kubeconfig`, a.namespace);
        if (s)
          return {
            success: true,
            context: ctxOf(a.context),
            secret_name: `${a.name}-kubeconfig`,
            namespace: a.namespace,
            exists: true,
            data_keys: Object.keys(s.data ?? {}),
            note: "Use 'clusterctl get kubeconfig' or 'kubectl get secret -o jsonpath' to retrieve actual kubeconfig",
          };
        return {
          success: true,
          context: ctxOf(a.context),
          secret_name: `${a.name}-kubeconfig`,
          namespace: a.namespace,
          exists: false,
          note: 'Kubeconfig secret not found - cluster may still be provisioning',
        };
      },
    ),
    jsonTool(
      'detect_capi',
      'Detect if Cluster API is installed and its components.',
      'context:str=""',
      RO,
      (a) => ({
        context: ctxOf(a.context),
        installed: crdExists(CAPI('clusters'), a.context),
        cli_available: false,
        crds: Object.fromEntries(
          [
            'clusters',
            'machines',
            'machinedeployments',
            'machinesets',
            'machinepools',
            'machinehealthchecks',
            'clusterclasses',
          ].map((p) => [p, crdExists(CAPI(p), a.context)]),
        ),
      }),
    ),
  );

  // ---------------------------------------------------------------- kubevirt.py
  const VM = 'virtualmachines.kubevirt.io';
  const VMI = 'virtualmachineinstances.kubevirt.io';
  const kvWrite = (name: string, doc: string, spec = 'name:str,namespace:str,context:str=""') =>
    jsonTool(name, doc, spec, W(true, false), undefined, true);
  tools.push(
    jsonTool(
      'kubevirt_vms_list',
      'List KubeVirt VirtualMachines.',
      'namespace:str="",context:str="",label_selector:str=""',
      RO,
      (a) => {
        if (!crdExists(VM, a.context))
          return {
            success: false,
            error: 'KubeVirt is not installed (virtualmachines.kubevirt.io CRD not found)',
          };
        const vms = getResources(VM, a.namespace, a.context, a.label_selector).map((i) => {
          const t = get(i, 'spec', 'template', 'spec') ?? {};
          const cpu = get(t, 'domain', 'cpu') ?? {};
          return {
            ...meta(i),
            running: or(get(i, 'spec', 'running'), false),
            run_strategy: or(get(i, 'spec', 'runStrategy'), null),
            ready: ready(i),
            paused: ready(i, 'Paused'),
            print_status: or(get(i, 'status', 'printableStatus'), 'Unknown'),
            created: or(get(i, 'status', 'created'), false),
            cpu_cores: or(cpu.cores, 1),
            cpu_sockets: or(cpu.sockets, 1),
            cpu_threads: or(cpu.threads, 1),
            memory: or(get(t, 'domain', 'resources', 'requests', 'memory'), ''),
            volume_count: (t.volumes ?? []).length,
            network_count: (t.networks ?? []).length,
            state_change_requests: or(get(i, 'status', 'stateChangeRequests'), []),
          };
        });
        return {
          context: ctxOf(a.context),
          total: vms.length,
          running: vms.filter((v) => v.running).length,
          ready: vms.filter((v) => v.ready).length,
          vms,
        };
      },
    ),
    jsonTool(
      'kubevirt_vm_get',
      'Get detailed information about a VirtualMachine.',
      'name:str,namespace:str,context:str=""',
      RO,
      (a) =>
        crdExists(VM, a.context)
          ? getOne(VM, a.name, a.namespace, a.context, 'vm')
          : { success: false, error: 'KubeVirt is not installed' },
    ),
    jsonTool(
      'kubevirt_vmis_list',
      'List running VirtualMachineInstances.',
      'namespace:str="",context:str="",label_selector:str=""',
      RO,
      (a) => {
        if (!crdExists(VMI, a.context))
          return { success: false, error: 'KubeVirt is not installed' };
        const vs = getResources(VMI, a.namespace, a.context, a.label_selector).map((i) => {
          const st = i.status ?? {};
          return {
            ...meta(i),
            phase: or(st.phase, 'Unknown'),
            ready: ready(i),
            live_migratable: ready(i, 'LiveMigratable'),
            node: or(st.nodeName, ''),
            ip_addresses: ((st.interfaces ?? []) as Py[])
              .filter((x) => x.ipAddress)
              .map((x) => x.ipAddress),
            memory: or(get(i, 'spec', 'domain', 'resources', 'requests', 'memory'), ''),
            guest_os: or(get(st, 'guestOSInfo', 'name'), ''),
            guest_os_version: or(get(st, 'guestOSInfo', 'version'), ''),
            migration_state: or(st.migrationState, null),
            active_pods: or(st.activePods, {}),
          };
        });
        return {
          context: ctxOf(a.context),
          total: vs.length,
          running: vs.filter((v) => v.phase === 'Running').length,
          scheduled: vs.filter((v) => v.phase === 'Scheduled').length,
          vmis: vs,
        };
      },
    ),
    kvWrite('kubevirt_vm_start', 'Start a VirtualMachine.'),
    kvWrite(
      'kubevirt_vm_stop',
      'Stop a VirtualMachine.',
      'name:str,namespace:str,force:bool=False,context:str=""',
    ),
    kvWrite('kubevirt_vm_restart', 'Restart a VirtualMachine.'),
    kvWrite('kubevirt_vm_pause', 'Pause a VirtualMachine.'),
    kvWrite('kubevirt_vm_unpause', 'Unpause a VirtualMachine.'),
    kvWrite('kubevirt_vm_migrate', 'Trigger live migration of a VirtualMachine.'),
    jsonTool(
      'kubevirt_datasources_list',
      'List KubeVirt DataSources.',
      'namespace:str="",context:str="",label_selector:str=""',
      RO,
      (a) => {
        const crd = 'datasources.cdi.kubevirt.io';
        if (!crdExists(crd, a.context))
          return { success: false, error: 'CDI DataSources CRD not found' };
        const ds = getResources(crd, a.namespace, a.context, a.label_selector).map((i) => ({
          ...meta(i),
          ready: ready(i),
          source_pvc: or(get(i, 'spec', 'source', 'pvc'), {}),
          source_snapshot: or(get(i, 'spec', 'source', 'snapshot'), {}),
        }));
        return { context: ctxOf(a.context), total: ds.length, datasources: ds };
      },
    ),
    jsonTool(
      'kubevirt_instancetypes_list',
      'List KubeVirt InstanceTypes (VM sizing templates).',
      'namespace:str="",context:str="",include_cluster:bool=True',
      RO,
      (a) => {
        const its: Py[] = [];
        for (const [crd, kind, namespaced] of [
          [
            'virtualmachineinstancetypes.instancetype.kubevirt.io',
            'VirtualMachineInstancetype',
            true,
          ],
          [
            'virtualmachineclusterinstancetypes.instancetype.kubevirt.io',
            'VirtualMachineClusterInstancetype',
            false,
          ],
        ] as const) {
          if (!namespaced && !a.include_cluster) continue;
          if (!crdExists(crd, a.context)) continue;
          for (const i of getResources(crd, namespaced ? a.namespace : '', a.context))
            its.push({
              name: i.metadata?.name,
              namespace: namespaced ? i.metadata?.namespace : '',
              kind,
              cpu_guest: or(get(i, 'spec', 'cpu', 'guest'), 1),
              cpu_model: or(get(i, 'spec', 'cpu', 'model'), null),
              memory_guest: or(get(i, 'spec', 'memory', 'guest'), ''),
              memory_hugepages: or(get(i, 'spec', 'memory', 'hugepages'), {}),
            });
        }
        return { context: ctxOf(a.context), total: its.length, instancetypes: its };
      },
    ),
    jsonTool(
      'kubevirt_datavolumes_list',
      'List KubeVirt DataVolumes (disk images).',
      'namespace:str="",context:str="",label_selector:str=""',
      RO,
      (a) => {
        const crd = 'datavolumes.cdi.kubevirt.io';
        if (!crdExists(crd, a.context))
          return { success: false, error: 'CDI DataVolumes CRD not found' };
        const dv = getResources(crd, a.namespace, a.context, a.label_selector).map((i) => {
          const src = get(i, 'spec', 'source') ?? {};
          return {
            ...meta(i),
            phase: or(get(i, 'status', 'phase'), 'Unknown'),
            ready: ready(i),
            bound: ready(i, 'Bound'),
            progress: or(get(i, 'status', 'progress'), 'N/A'),
            source_type: Object.keys(src)[0] ?? 'unknown',
            storage_size: or(get(i, 'spec', 'pvc', 'resources', 'requests', 'storage'), ''),
            storage_class: or(get(i, 'spec', 'pvc', 'storageClassName'), ''),
          };
        });
        return { context: ctxOf(a.context), total: dv.length, datavolumes: dv };
      },
    ),
    jsonTool(
      'kubevirt_detect',
      'Detect if KubeVirt is installed and its components.',
      'context:str=""',
      RO,
      (a) => ({
        context: ctxOf(a.context),
        installed: crdExists(VM, a.context),
        cli_available: false,
        crds: {
          virtualmachines: crdExists(VM, a.context),
          virtualmachineinstances: crdExists(VMI, a.context),
          virtualmachineinstancepresets: crdExists(
            'virtualmachineinstancepresets.kubevirt.io',
            a.context,
          ),
          virtualmachineinstancereplicasets: crdExists(
            'virtualmachineinstancereplicasets.kubevirt.io',
            a.context,
          ),
          datasources: crdExists('datasources.cdi.kubevirt.io', a.context),
          datavolumes: crdExists('datavolumes.cdi.kubevirt.io', a.context),
          instancetypes: crdExists(
            'virtualmachineinstancetypes.instancetype.kubevirt.io',
            a.context,
          ),
          clusterinstancetypes: crdExists(
            'virtualmachineclusterinstancetypes.instancetype.kubevirt.io',
            a.context,
          ),
        },
      }),
    ),
  );

  // ---------------------------------------------------------------- kiali.py (istio)
  const VSVC = 'virtualservices.networking.istio.io';
  const DR = 'destinationrules.networking.istio.io';
  const GW = 'gateways.networking.istio.io';
  const PA = 'peerauthentications.security.istio.io';
  const AP = 'authorizationpolicies.security.istio.io';
  const istioList =
    (crd: string, missing: string, key: string, shape: (i: Py) => Py) => (a: Py) => {
      if (!crdExists(crd, a.context)) return { success: false, error: missing };
      const xs = getResources(crd, a.namespace, a.context, a.label_selector).map(shape);
      return { context: ctxOf(a.context), total: xs.length, [key]: xs };
    };
  const istioListSpec = 'namespace:str="",context:str="",label_selector:str=""';
  tools.push(
    jsonTool(
      'istio_virtualservices_list',
      'List Istio VirtualServices.',
      istioListSpec,
      RO,
      istioList(
        VSVC,
        'Istio is not installed (virtualservices.networking.istio.io CRD not found)',
        'virtualservices',
        (i) => {
          const s = i.spec ?? {};
          const n = (k: string) => (s[k] ?? []).length;
          return {
            ...meta(i),
            hosts: or(s.hosts, []),
            gateways: or(s.gateways, []),
            http_routes_count: n('http'),
            tcp_routes_count: n('tcp'),
            tls_routes_count: n('tls'),
            total_routes: n('http') + n('tcp') + n('tls'),
          };
        },
      ),
    ),
    jsonTool(
      'istio_virtualservice_get',
      'Get detailed information about a VirtualService.',
      'name:str,namespace:str,context:str=""',
      RO,
      (a) =>
        crdExists(VSVC, a.context)
          ? getOne(VSVC, a.name, a.namespace, a.context, 'virtualservice')
          : { success: false, error: 'Istio is not installed' },
    ),
    jsonTool(
      'istio_destinationrules_list',
      'List Istio DestinationRules.',
      istioListSpec,
      RO,
      istioList(DR, 'Istio DestinationRules CRD not found', 'destinationrules', (i) => {
        const tp = get(i, 'spec', 'trafficPolicy') ?? {};
        const subsets: Py[] = get(i, 'spec', 'subsets') ?? [];
        return {
          ...meta(i),
          host: or(get(i, 'spec', 'host'), ''),
          subsets_count: subsets.length,
          subsets: subsets.map((s) => or(s.name, null)),
          has_traffic_policy: Object.keys(tp).length > 0,
          load_balancer: or(get(tp, 'loadBalancer', 'simple'), null),
          connection_pool: Boolean(tp.connectionPool && Object.keys(tp.connectionPool).length),
          outlier_detection: Boolean(
            tp.outlierDetection && Object.keys(tp.outlierDetection).length,
          ),
          tls_mode: or(get(tp, 'tls', 'mode'), null),
        };
      }),
    ),
    jsonTool(
      'istio_gateways_list',
      'List Istio Gateways.',
      istioListSpec,
      RO,
      istioList(GW, 'Istio Gateways CRD not found', 'gateways', (i) => {
        const servers: Py[] = get(i, 'spec', 'servers') ?? [];
        return {
          ...meta(i),
          selector: or(get(i, 'spec', 'selector'), {}),
          servers_count: servers.length,
          hosts: [...new Set(servers.flatMap((s) => s.hosts ?? []))],
          ports: servers
            .filter((s) => s.port && Object.keys(s.port).length)
            .map((s) => ({
              number: or(s.port.number, null),
              name: or(s.port.name, null),
              protocol: or(s.port.protocol, null),
            })),
        };
      }),
    ),
    jsonTool(
      'istio_peerauthentications_list',
      'List Istio PeerAuthentication policies.',
      istioListSpec,
      RO,
      istioList(PA, 'Istio PeerAuthentication CRD not found', 'peerauthentications', (i) => ({
        ...meta(i),
        selector: or(get(i, 'spec', 'selector', 'matchLabels'), {}),
        mtls_mode: or(get(i, 'spec', 'mtls', 'mode'), 'UNSET'),
        port_level_mtls_count: Object.keys(get(i, 'spec', 'portLevelMtls') ?? {}).length,
      })),
    ),
    jsonTool(
      'istio_authorizationpolicies_list',
      'List Istio AuthorizationPolicies.',
      istioListSpec,
      RO,
      istioList(AP, 'Istio AuthorizationPolicy CRD not found', 'authorizationpolicies', (i) => ({
        ...meta(i),
        selector: or(get(i, 'spec', 'selector', 'matchLabels'), {}),
        action: or(get(i, 'spec', 'action'), 'ALLOW'),
        rules_count: (get(i, 'spec', 'rules') ?? []).length,
      })),
    ),
    jsonTool(
      'istio_proxy_status',
      'Get Istio proxy synchronization status.',
      'context:str=""',
      RO,
      () => ({ success: false, error: 'istioctl CLI not available' }),
    ),
    jsonTool(
      'istio_analyze',
      'Analyze Istio configuration for potential issues.',
      'namespace:str="",context:str=""',
      RO,
      () => ({ success: false, error: 'istioctl CLI not available' }),
    ),
    jsonTool(
      'istio_sidecar_status',
      'Get sidecar injection status for pods.',
      'namespace:str="",context:str=""',
      RO,
      (a) => {
        const r = kubectl(
          ['get', 'pods', '-o', 'json', ...(a.namespace ? ['-n', a.namespace] : ['-A'])],
          a.context,
        );
        if (!r.success) return { success: false, error: r.error || 'Failed to list pods' };
        const pods = ((JSON.parse(r.output ?? '{}').items ?? []) as Py[]).map((p) => {
          const names = ((get(p, 'spec', 'containers') ?? []) as Py[]).map((c) => c.name);
          const has = names.includes('istio-proxy');
          const an = p.metadata?.annotations ?? {};
          return {
            ...meta(p),
            has_sidecar: has,
            inject_annotation: or(an['sidecar.istio.io/inject'], null),
            sidecar_status: has ? 'injected' : 'not_injected',
          };
        });
        const inj = pods.filter((p) => p.has_sidecar).length;
        return {
          context: ctxOf(a.context),
          total: pods.length,
          injected: inj,
          not_injected: pods.length - inj,
          pods,
        };
      },
    ),
    jsonTool(
      'istio_detect',
      'Detect if Istio is installed and its components.',
      'context:str=""',
      RO,
      (a) => ({
        context: ctxOf(a.context),
        installed: crdExists(VSVC, a.context),
        cli_available: false,
        kiali_configured: false,
        crds: {
          virtualservices: crdExists(VSVC, a.context),
          destinationrules: crdExists(DR, a.context),
          gateways: crdExists(GW, a.context),
          serviceentries: crdExists('serviceentries.networking.istio.io', a.context),
          sidecars: crdExists('sidecars.networking.istio.io', a.context),
          peerauthentications: crdExists(PA, a.context),
          authorizationpolicies: crdExists(AP, a.context),
          requestauthentications: crdExists('requestauthentications.security.istio.io', a.context),
        },
      }),
    ),
  );

  // ---------------------------------------------------------------- vind.py (no vcluster CLI)
  const NO_VCLUSTER = {
    success: false,
    error:
      'vcluster CLI not available. Install from: https://www.vcluster.com/docs/getting-started/setup',
  };
  const vRead = (name: string, doc: string, spec: string) =>
    jsonTool(name, doc, spec, RO, () => NO_VCLUSTER);
  const vWrite = (
    name: string,
    doc: string,
    spec: string,
    destructive: boolean,
    idempotent: boolean,
  ) => jsonTool(name, doc, spec, W(destructive, idempotent), undefined, true);
  tools.push(
    jsonTool(
      'vind_detect',
      'Detect if vCluster CLI is installed and get version info.',
      '',
      RO,
      () => ({
        installed: false,
        cli_available: false,
        version: null,
        install_instructions: 'https://www.vcluster.com/docs/getting-started/setup',
      }),
    ),
    vRead('vind_list_clusters', 'List all vCluster instances.', ''),
    vRead(
      'vind_status',
      'Get detailed status of a vCluster instance.',
      'name:str,namespace:str="vcluster"',
    ),
    vRead(
      'vind_get_kubeconfig',
      'Get kubeconfig for a vCluster instance.',
      'name:str,namespace:str="vcluster"',
    ),
    vRead(
      'vind_logs',
      'Get logs from a vCluster instance.',
      'name:str,namespace:str="vcluster",tail:int=100',
    ),
    {
      ...vWrite(
        'vind_create_cluster',
        'Create a new vCluster instance.',
        'name:str,namespace:str="",kubernetes_version:str="",values_file:str="",set_values:str="",connect:bool=True,upgrade:bool=False',
        false,
        false,
      ),
      params: [
        param('name', 'str', REQ, 'Name for the new vCluster'),
        param('namespace', 'str', '', 'Namespace to create vCluster in'),
        param('kubernetes_version', 'str', '', 'Kubernetes version (e.g., "v1.29.0")'),
        param('values_file', 'str', '', 'Path to values.yaml file'),
        param('set_values', 'str', '', 'Comma-separated Helm-style value overrides'),
        param('connect', 'bool', true, 'Update kubeconfig after creation'),
        param('upgrade', 'bool', false, 'Upgrade existing vCluster instead of failing'),
      ],
    },
    vWrite(
      'vind_delete_cluster',
      'Delete a vCluster instance.',
      'name:str,namespace:str="",delete_namespace:bool=False,force:bool=False',
      true,
      true,
    ),
    vWrite(
      'vind_pause',
      'Pause/sleep a vCluster instance to save resources.',
      'name:str,namespace:str=""',
      true,
      false,
    ),
    vWrite(
      'vind_resume',
      'Resume/wake a sleeping vCluster instance.',
      'name:str,namespace:str=""',
      true,
      false,
    ),
    vWrite(
      'vind_connect',
      'Connect kubectl to a vCluster instance.',
      'name:str,namespace:str="",kube_config:str=""',
      false,
      false,
    ),
    vWrite('vind_disconnect', 'Disconnect from a vCluster instance.', '', true, true),
    {
      ...vWrite('vind_upgrade', 'Upgrade a vCluster instance.', 'name:str', true, false),
      params: [
        param('name', 'str', REQ, 'Name of the vCluster to upgrade'),
        param('namespace', 'str', '', 'Namespace of the vCluster'),
        param('kubernetes_version', 'str', '', 'New Kubernetes version'),
        param('values_file', 'str', '', 'Path to values.yaml file'),
        param('set_values', 'str', '', 'Comma-separated Helm-style value overrides'),
      ],
    },
    vRead(
      'vind_describe',
      'Describe a vCluster instance with detailed information.',
      'name:str,namespace:str=""',
    ),
    vWrite(
      'vind_platform_start',
      'Start the vCluster Platform UI.',
      'host:str="",port:int=0',
      true,
      false,
    ),
  );

  // ---------------------------------------------------------------- kind.py (no kind CLI, no docker)
  const NO_KIND = {
    success: false,
    error:
      'kind CLI not available. Install from: https://kind.sigs.k8s.io/docs/user/quick-start/#installation',
  };
  const NO_DOCKER = { success: false, error: 'Docker CLI not available' };
  const kDoc = (f: (a: Py) => Py) => f;
  const kindTool = (
    name: string,
    doc: string,
    params: Param[],
    annotations: Record<string, unknown>,
    f?: (a: Py) => Py,
  ): ToolDef => ({
    name,
    doc,
    params,
    annotations,
    ...(f ? { run: (a: Py) => pyJsonIndent(f(a)) } : { write: true }),
  });
  const kn = (doc = 'Name of the kind cluster', dflt = 'kind') => param('name', 'str', dflt, doc);
  tools.push(
    kindTool(
      'kind_detect',
      'Detect if kind CLI is installed and get version info.',
      [],
      RO,
      () => ({
        installed: false,
        cli_available: false,
        version: null,
        install_instructions: 'https://kind.sigs.k8s.io/docs/user/quick-start/#installation',
      }),
    ),
    kindTool('kind_version', 'Get kind CLI version information.', [], RO, () => NO_KIND),
    kindTool('kind_list_clusters', 'List all kind clusters.', [], RO, () => NO_KIND),
    kindTool(
      'kind_get_nodes',
      'List nodes in a kind cluster.',
      [kn('Name of the kind cluster (default: kind)')],
      RO,
      () => NO_KIND,
    ),
    kindTool(
      'kind_get_kubeconfig',
      'Get kubeconfig for a kind cluster.',
      [
        kn(),
        param(
          'internal',
          'bool',
          false,
          'Return internal (container) kubeconfig instead of external',
        ),
      ],
      RO,
      () => NO_KIND,
    ),
    kindTool(
      'kind_export_logs',
      'Export cluster logs for debugging.',
      [
        kn(),
        param('output_dir', 'str', '', 'Directory to export logs to (default: temp directory)'),
      ],
      RO,
      () => NO_KIND,
    ),
    kindTool(
      'kind_cluster_info',
      'Get cluster information including nodes and kubeconfig.',
      [kn()],
      RO,
      () => NO_KIND,
    ),
    kindTool(
      'kind_node_labels',
      'Get node labels for kind cluster nodes.',
      [kn()],
      RO,
      () => NO_KIND,
    ),
    kindTool(
      'kind_create_cluster',
      'Create a new kind cluster.',
      [
        kn('Name for the new cluster (default: kind)'),
        param(
          'image',
          'str',
          '',
          'Node image (determines K8s version, e.g., kindest/node:v1.29.0)',
        ),
        param('config', 'str', '', 'Path to kind config YAML file for multi-node or custom setup'),
        param('wait', 'str', '5m', 'Wait timeout for control plane (default: 5m)'),
        param('retain', 'bool', false, 'Retain nodes on creation failure for debugging'),
      ],
      W(false, false),
    ),
    kindTool(
      'kind_delete_cluster',
      'Delete a kind cluster.',
      [kn('Name of the cluster to delete')],
      W(true, true),
    ),
    kindTool('kind_delete_all_clusters', 'Delete all kind clusters.', [], W(true, true)),
    kindTool(
      'kind_load_image',
      'Load Docker images into kind cluster nodes.\n\nThis is a key feature for local development - load locally built\nimages directly into the cluster without pushing to a registry.',
      [param('images', 'str', REQ, 'Comma-separated list of Docker image names to load'), kn()],
      W(false, false),
    ),
    kindTool(
      'kind_load_image_archive',
      'Load Docker images from tar archive into kind cluster.',
      [param('archive', 'str', REQ, 'Path to image archive (tar file)'), kn()],
      W(false, false),
    ),
    kindTool(
      'kind_build_node_image',
      'Build a kind node image from Kubernetes source.\n\nThis is an advanced feature for testing custom Kubernetes builds.',
      [
        param('image', 'str', '', 'Name for the resulting image (default: kindest/node:latest)'),
        param('base_image', 'str', '', 'Base image to use'),
        param('kube_root', 'str', '', 'Path to Kubernetes source root'),
      ],
      W(false, false),
    ),
    kindTool(
      'kind_set_kubeconfig',
      'Export kubeconfig and set as current context.\n\nThis updates your KUBECONFIG to add the kind cluster context.',
      [kn()],
      W(false, false),
    ),
    kindTool(
      'kind_config_validate',
      'Validate kind configuration file before cluster creation.',
      [param('config_path', 'str', REQ, 'Path to kind config YAML file')],
      RO,
      (a) => ({ success: false, error: `Config file not found: ${a.config_path}` }),
    ),
    kindTool(
      'kind_config_generate',
      'Generate kind config YAML for common scenarios.',
      [
        param('name', 'str', 'kind', 'Cluster name (for reference)'),
        param('workers', 'int', 0, 'Number of worker nodes (default: 0)'),
        param('control_planes', 'int', 1, 'Number of control-plane nodes (1 for single, 3 for HA)'),
        param('registry', 'bool', false, 'Add local registry configuration'),
        param('ingress', 'bool', false, 'Add port mappings for ingress (80, 443)'),
      ],
      RO,
      kDoc((a) => {
        const nodes: Py[] = [];
        for (let i = 0; i < a.control_planes; i++) {
          const node: Py = { role: 'control-plane' };
          if (a.ingress && i === 0) {
            node.kubeadmConfigPatches = [
              'kind: InitConfiguration\nnodeRegistration:\n  kubeletExtraArgs:\n    node-labels: "ingress-ready=true"',
            ];
            node.extraPortMappings = [
              { containerPort: 80, hostPort: 80, protocol: 'TCP' },
              { containerPort: 443, hostPort: 443, protocol: 'TCP' },
            ];
          }
          nodes.push(node);
        }
        for (let i = 0; i < a.workers; i++) nodes.push({ role: 'worker' });
        const config: Py = { kind: 'Cluster', apiVersion: 'kind.x-k8s.io/v1alpha4', nodes };
        if (a.registry)
          config.containerdConfigPatches = [
            '[plugins."io.containerd.grpc.v1.cri".registry.mirrors."localhost:5001"]\n  endpoint = ["http://kind-registry:5001"]',
          ];
        return {
          success: true,
          config: stringify(config),
          summary: {
            name: a.name,
            control_planes: a.control_planes,
            workers: a.workers,
            total_nodes: a.control_planes + a.workers,
            features: { registry: a.registry, ingress: a.ingress, custom_ports: false },
          },
        };
      }),
    ),
    kindTool(
      'kind_config_show',
      'Show effective config for a running cluster.',
      [kn()],
      RO,
      () => NO_KIND,
    ),
    kindTool(
      'kind_available_images',
      'List available kindest/node images (K8s versions).',
      [],
      RO,
      () => {
        const images = [
          'v1.32.0',
          'v1.31.0',
          'v1.30.0',
          'v1.29.0',
          'v1.28.0',
          'v1.27.0',
          'v1.26.0',
          'v1.25.0',
        ].map((v) => `kindest/node:${v}`);
        return {
          success: true,
          images,
          latest: images[0],
          note: 'Use image parameter with kind_create_cluster_tool to specify K8s version',
        };
      },
    ),
    kindTool(
      'kind_registry_create',
      'Create local Docker registry for kind clusters.',
      [
        param('name', 'str', 'kind-registry', 'Name for the registry container'),
        param('port', 'int', 5001, 'Host port to expose registry on'),
      ],
      W(false, false),
    ),
    kindTool(
      'kind_registry_connect',
      'Connect kind cluster to local registry.',
      [
        param('cluster_name', 'str', 'kind', 'Name of the kind cluster'),
        param('registry_name', 'str', 'kind-registry', 'Name of the registry container'),
      ],
      W(false, false),
    ),
    kindTool(
      'kind_registry_status',
      'Check local registry status.',
      [param('name', 'str', 'kind-registry', 'Name of the registry container')],
      RO,
      (a) => ({ success: false, error: `Registry '${a.name}' not found`, installed: false }),
    ),
    kindTool(
      'kind_node_exec',
      'Execute command on kind node container.\n\nUseful for debugging with crictl, journalctl, systemctl.',
      [
        param('node', 'str', REQ, 'Node name (e.g., kind-control-plane)'),
        param('command', 'str', REQ, 'Command to execute'),
        param('cluster', 'str', 'kind', 'Cluster name (for validation)'),
      ],
      W(true, false),
    ),
    kindTool(
      'kind_node_logs',
      'Get logs from kind node container.',
      [
        param('node', 'str', REQ, 'Node name'),
        param('tail', 'int', 100, 'Number of lines to return'),
      ],
      RO,
      (a) => (a.node ? NO_DOCKER : { success: false, error: 'Node name is required' }),
    ),
    kindTool(
      'kind_node_inspect',
      'Inspect kind node container details.',
      [param('node', 'str', REQ, 'Node name')],
      RO,
      (a) => (a.node ? NO_DOCKER : { success: false, error: 'Node name is required' }),
    ),
    kindTool(
      'kind_node_restart',
      'Restart kind node container.',
      [param('node', 'str', REQ, 'Node name to restart')],
      W(true, false),
    ),
    kindTool(
      'kind_network_inspect',
      'Inspect kind Docker network.',
      [param('cluster', 'str', 'kind', 'Cluster name (kind network is shared)')],
      RO,
      () => ({ success: false, error: 'kind network not found. Is any cluster running?' }),
    ),
    kindTool(
      'kind_port_mappings',
      'List all port mappings for cluster.',
      [param('cluster', 'str', 'kind', 'Cluster name')],
      RO,
      () => NO_KIND,
    ),
    kindTool(
      'kind_ingress_setup',
      'Setup ingress controller on kind cluster.',
      [
        param('cluster', 'str', 'kind', 'Cluster name'),
        param('ingress_type', 'str', 'nginx', 'Type of ingress (nginx or contour)'),
      ],
      W(false, false),
    ),
    kindTool(
      'kind_cluster_status',
      'Get detailed cluster health status.',
      [param('name', 'str', 'kind', 'Cluster name')],
      RO,
      () => NO_KIND,
    ),
    kindTool(
      'kind_images_list',
      'List images on cluster nodes.',
      [
        param('cluster', 'str', 'kind', 'Cluster name'),
        param('node', 'str', '', 'Specific node (optional, defaults to control-plane)'),
      ],
      RO,
      () => NO_KIND,
    ),
    kindTool(
      'kind_provider_info',
      'Get container runtime provider info (Docker/Podman).',
      [],
      RO,
      () => NO_DOCKER,
    ),
  );

  // ---------------------------------------------------------------- custom_resources.py
  tools.push(...customResourceTools(world));
  return tools;
}

// ------------------------------------------------------------------ custom_resources.py

/** CRD_CATEGORIES: descriptions and patterns (known CRDs: the families a scenario may hold). */
const CATEGORIES: [string, string, string[], Record<string, string>][] = [
  [
    'databases',
    'Database operators and managed database instances',
    [
      'postgresql',
      'postgres',
      'cnpg',
      'mysql',
      'mariadb',
      'mongodb',
      'mongo',
      'redis',
      'memcached',
      'cassandra',
      'cockroachdb',
      'cockroach',
      'couchbase',
      'couchdb',
      'elasticsearch',
      'opensearch',
      'clickhouse',
      'timescaledb',
      'vitess',
      'tidb',
      'yugabyte',
      'percona',
      'rds',
      'database',
      'dbinstance',
      'dbcluster',
      'sql',
      'singlestore',
      'scylladb',
      'scylla',
      'foundationdb',
      'dragonfly',
    ],
    {},
  ],
  [
    'messaging',
    'Message queues, event streaming, and pub/sub systems',
    [
      'kafka',
      'rabbitmq',
      'nats',
      'pulsar',
      'activemq',
      'strimzi',
      'queue',
      'stream',
      'messaging',
      'pubsub',
      'eventbus',
      'amqp',
      'mqtt',
      'emqx',
    ],
    {},
  ],
  [
    'certificates',
    'TLS certificate management and PKI',
    ['cert-manager', 'certificate', 'issuer', 'tls', 'pki', 'acme', 'letsencrypt', 'certrequest'],
    {
      'certificates.cert-manager.io':
        "cert-manager Certificate — automates TLS certificate provisioning and renewal from CAs (Let's Encrypt, Vault, Venafi) with automatic secret creation",
      'issuers.cert-manager.io':
        'cert-manager Issuer (namespace-scoped) — configures a certificate authority source for issuing TLS certificates within a single namespace',
      'clusterissuers.cert-manager.io':
        'cert-manager ClusterIssuer — configures a cluster-wide certificate authority source available to all namespaces for TLS certificate issuance',
      'certificaterequests.cert-manager.io':
        'cert-manager CertificateRequest — represents an in-flight request for a signed TLS certificate from a configured issuer',
      'orders.acme.cert-manager.io':
        "cert-manager ACME Order — tracks the lifecycle of an ACME certificate order with Let's Encrypt or other ACME-compliant CAs",
      'challenges.acme.cert-manager.io':
        'cert-manager ACME Challenge — manages HTTP-01 or DNS-01 domain validation challenges required to prove domain ownership for certificate issuance',
    },
  ],
  [
    'networking',
    'Ingress controllers, Gateway API, and network policies',
    [
      'ingress',
      'httproute',
      'grpcroute',
      'tcproute',
      'tlsroute',
      'udproute',
      'ingressroute',
      'middleware',
      'traefik',
      'networkpolicy',
      'ipaddresspool',
      'l2advertisement',
      'bgppeer',
      'metallb',
    ],
    {},
  ],
  [
    'service_mesh',
    'Service mesh for traffic management, mTLS, and observability',
    [
      'virtualservice',
      'destinationrule',
      'sidecar',
      'peerauthentication',
      'authorizationpolicy',
      'envoyfilter',
      'serviceentry',
      'workloadentry',
      'telemetry',
      'linkerd',
      'consul',
      'servicemesh',
      'mesh',
    ],
    {},
  ],
  [
    'monitoring',
    'Metrics collection, alerting, and dashboards',
    [
      'prometheus',
      'servicemonitor',
      'podmonitor',
      'alertmanager',
      'thanosruler',
      'grafana',
      'alerting',
      'metrics',
      'thanos',
      'victoriametrics',
    ],
    {},
  ],
  [
    'logging',
    'Log collection, aggregation, and storage',
    [
      'loki',
      'fluentbit',
      'fluentd',
      'logging',
      'logpipeline',
      'clusterlogforwarder',
      'clusterlogging',
      'output',
      'clusteroutput',
    ],
    {},
  ],
  [
    'gitops',
    'GitOps controllers and continuous delivery from Git',
    [
      'flux',
      'argocd',
      'gitops',
      'kustomization',
      'helmrelease',
      'gitrepository',
      'helmrepository',
      'ocirepository',
      'applicationset',
      'appproject',
    ],
    {
      'applications.argoproj.io':
        'ArgoCD Application — deploys and syncs Kubernetes resources from Git repositories, Helm charts, or Kustomize overlays with drift detection and auto-remediation',
      'applicationsets.argoproj.io':
        'ArgoCD ApplicationSet — generates multiple ArgoCD Applications from templates for multi-cluster, multi-tenant, and monorepo deployment patterns',
      'appprojects.argoproj.io':
        'ArgoCD AppProject — defines RBAC boundaries for ArgoCD Applications restricting which Git repos, clusters, and namespaces they can target',
      'kustomizations.kustomize.toolkit.fluxcd.io':
        'Flux Kustomization — reconciles Kubernetes manifests from Git using Kustomize overlays with health checks, dependency ordering, and variable substitution',
      'helmreleases.helm.toolkit.fluxcd.io':
        'Flux HelmRelease — deploys Helm charts with automated upgrades, rollback on failure, drift detection, and values from ConfigMaps/Secrets',
      'gitrepositories.source.toolkit.fluxcd.io':
        'Flux GitRepository — tracks a Git repository branch/tag and makes its contents available as an artifact for Kustomizations and HelmReleases',
      'helmrepositories.source.toolkit.fluxcd.io':
        'Flux HelmRepository — indexes a Helm chart repository (HTTP or OCI) and makes charts available for HelmRelease installations',
    },
  ],
  [
    'progressive_delivery',
    'Canary deployments, blue-green, and progressive rollouts',
    ['rollout', 'analysistemplate', 'analysisrun', 'experiment', 'canary', 'flagger'],
    {
      'rollouts.argoproj.io':
        'Argo Rollouts — manages progressive deployment strategies (canary, blue-green, analysis-driven) with automated promotion and rollback based on metrics',
      'analysisruns.argoproj.io':
        'Argo Rollouts AnalysisRun — represents an in-progress or completed metric analysis that determines if a rollout should be promoted or rolled back',
      'canaries.flagger.app':
        'Flagger Canary — automates canary deployments with progressive traffic shifting, metric analysis, and automated rollback for Deployments, DaemonSets, and custom resources',
    },
  ],
  [
    'autoscaling',
    'Horizontal, vertical, and event-driven pod autoscaling',
    ['scaledobject', 'scaledjob', 'keda', 'triggerauth', 'verticalpodautoscaler', 'vpa'],
    {
      'scaledobjects.keda.sh':
        'KEDA ScaledObject — enables event-driven autoscaling of Deployments/StatefulSets based on external metrics (Kafka lag, RabbitMQ queue depth, Prometheus queries, cron schedules)',
      'scaledjobs.keda.sh':
        'KEDA ScaledJob — creates Kubernetes Jobs in response to events (queue messages, scheduled triggers) and scales them based on event volume',
      'triggerauthentications.keda.sh':
        'KEDA TriggerAuthentication — stores credentials for KEDA scalers to authenticate with external event sources (MSK, SQS, Azure Event Hubs)',
      'clustertriggerauthentications.keda.sh':
        'KEDA ClusterTriggerAuthentication — cluster-wide authentication configuration for KEDA scalers available across all namespaces',
    },
  ],
  [
    'storage',
    'Distributed storage, backup/restore, and data protection',
    [
      'ceph',
      'rook',
      'longhorn',
      'openebs',
      'volumesnapshot',
      'snapshot',
      'backup',
      'velero',
      'stash',
      'minio',
      'objectbucket',
      'restore',
      'schedule',
      'backupstorage',
    ],
    {},
  ],
  [
    'security',
    'Policy enforcement, admission control, and compliance',
    [
      'policy',
      'clusterpolicy',
      'constraint',
      'constrainttemplate',
      'kyverno',
      'gatekeeper',
      'policyreport',
      'falco',
      'vulnerability',
      'scan',
      'trivy',
      'aqua',
    ],
    {},
  ],
  [
    'secrets_management',
    'External secret management and secret synchronization',
    [
      'externalsecret',
      'secretstore',
      'vault',
      'sealedsecret',
      'passwordpolicy',
      'secretproviderclass',
    ],
    {},
  ],
  [
    'virtualization',
    'Virtual machines running on Kubernetes via KubeVirt',
    ['virtualmachine', 'kubevirt', 'vmi', 'datavolume', 'instancetype'],
    {},
  ],
  [
    'ai_ml',
    'ML training, model serving, notebooks, and AI pipelines',
    [
      'notebook',
      'inferenceservice',
      'kubeflow',
      'tfjob',
      'pytorchjob',
      'mpijob',
      'xgboostjob',
      'training',
      'serving',
      'seldon',
      'kserve',
      'mlflow',
      'ray',
      'rayjob',
      'rayservice',
    ],
    {},
  ],
  [
    'workflows',
    'Workflow engines, CI/CD pipelines, and job orchestration',
    ['workflow', 'cronworkflow', 'tekton', 'pipeline', 'taskrun', 'pipelinerun', 'task.tekton'],
    {},
  ],
  [
    'cluster_management',
    'Cluster lifecycle, multi-tenancy, and infrastructure provisioning',
    [
      'cluster.x-k8s',
      'machine.cluster',
      'machinedeployment',
      'machineset',
      'machinepool',
      'machinehealthcheck',
      'vcluster',
      'crossplane',
      'composition',
      'compositeresourcedefinition',
      'tenant',
      'karmada',
    ],
    {},
  ],
  [
    'serverless',
    'Serverless platforms and function-as-a-service on Kubernetes',
    [
      'knative',
      'kservice',
      'revision',
      'route.serving',
      'configuration.serving',
      'openfaas',
      'function',
      'nuclio',
    ],
    {},
  ],
  [
    'dns',
    'External DNS management and DNS record automation',
    ['dnsendpoint', 'externaldns', 'dnsrecord'],
    {},
  ],
  [
    'chaos_engineering',
    'Chaos engineering and resilience testing',
    [
      'chaos',
      'chaosexperiment',
      'chaosmesh',
      'litmus',
      'iochaos',
      'networkchaos',
      'podchaos',
      'stresschaos',
    ],
    {},
  ],
  [
    'api_gateway',
    'API gateways, rate limiting, and API management',
    ['kong', 'kongplugin', 'apisix', 'ambassador', 'mapping', 'ratelimit', 'apiproduct'],
    {},
  ],
  [
    'container_registry',
    'Container image registries and artifact management',
    ['harbor', 'registry', 'dragonfly'],
    {},
  ],
  [
    'identity',
    'Identity providers, SSO, and authentication services',
    ['keycloak', 'dex', 'oidc', 'oauth2proxy'],
    {},
  ],
];

function classify(
  name: string,
  group: string,
  kind: string,
): { categories: string[]; description: string | null } {
  const text = `${name.toLowerCase()} ${group.toLowerCase()} ${kind.toLowerCase()}`;
  const cats: string[] = [];
  let description: string | null = null;
  for (const [cat, , patterns, known] of CATEGORIES) {
    if (name in known) {
      if (!cats.includes(cat)) cats.push(cat);
      description ??= known[name]!;
      continue;
    }
    if (patterns.some((p) => text.includes(p)) && !cats.includes(cat)) cats.push(cat);
  }
  return { categories: cats.length ? cats : ['other'], description };
}

function customResourceTools(world: WorldIndex): ToolDef[] {
  const crds = crdsOf(world);
  const title = (t: string) => ann(t, { readOnlyHint: true });
  const ctxDoc = 'Kubernetes context (uses current if not specified)';
  const badContext = (context: string) =>
    context && context !== 'bench'
      ? `Invalid kube-config. Context: ${context}. Error: Invalid kube-config file. Expected object with name ${context} in /root/.kube/config/contexts list`
      : undefined;
  const kindOf = (group: string, version: string, plural: string) =>
    world.kinds().find((k) => k.group === group && k.plural === plural && k.version === version);
  const notFoundCr = (plural: string, group: string, version: string) =>
    `Resource type ${plural}.${group}/${version} not found`;
  return [
    {
      name: 'discover_crds',
      doc: 'Discover all CRDs in the cluster with semantic categorization.\n\nScans the cluster for every installed CRD and categorizes them into\nhuman-readable groups. Use this to answer questions like:\n- "What databases are in this cluster?"\n- "Is there a service mesh installed?"\n- "What monitoring stack is running?"\n\nCategories: databases, messaging, certificates, networking, service_mesh,\nmonitoring, logging, gitops, progressive_delivery, autoscaling, storage,\nsecurity, secrets_management, virtualization, ai_ml, workflows,\ncluster_management, serverless, dns, chaos_engineering, api_gateway,\ncontainer_registry, identity',
      params: [
        param('category', 'str', '', 'Filter by category (e.g., "databases"). Empty returns all.'),
        param('context', 'str', '', ctxDoc),
      ],
      annotations: title('Discover Cluster CRDs'),
      run: (a) => {
        const bad = badContext(a.context);
        if (bad) return { success: false, error: bad };
        const categorized = new Map<string, Py[]>();
        const other: Py[] = [];
        for (const c of crds) {
          const cl = classify(c.metadata?.name ?? '', c.spec.group, c.spec.names.kind);
          const info = {
            name: c.metadata?.name,
            group: c.spec.group,
            version: c.spec.versions[0]?.name ?? 'v1',
            kind: c.spec.names.kind,
            plural: c.spec.names.plural,
            scope: c.spec.scope,
            description: cl.description,
          };
          for (const cat of cl.categories) {
            if ((a.category && cat !== a.category) || cat === 'other') continue;
            (categorized.get(cat) ?? categorized.set(cat, []).get(cat)!).push(info);
          }
          if (!a.category && cl.categories[0] === 'other') other.push(info);
        }
        const categories: Py = {};
        for (const cat of [...categorized.keys()].sort())
          categories[cat] = {
            description: CATEGORIES.find((x) => x[0] === cat)?.[1] ?? cat,
            count: categorized.get(cat)!.length,
            crds: categorized.get(cat),
          };
        const out: Py = {
          success: true,
          context: a.context || 'current',
          totalCRDs: crds.length,
          categories,
        };
        if (!a.category && other.length)
          out.uncategorized = {
            count: other.length,
            crds: other.slice(0, 50),
            truncated: other.length > 50,
          };
        out.categorizedCount = [...categorized.values()].reduce((s, x) => s + x.length, 0);
        return out;
      },
    },
    {
      name: 'search_crds',
      doc: 'Search for CRDs by keyword, category, or concept.\n\nNatural language search across all CRDs in the cluster. Examples:\n- "databases"    -> CNPG, MySQL, MongoDB, Redis operators\n- "certificates" -> cert-manager CRDs\n- "monitoring"   -> Prometheus, Grafana, VictoriaMetrics\n- "kafka"        -> Strimzi Kafka CRDs\n- "chaos"        -> Chaos Mesh, Litmus experiments\n- "machine learning" -> Kubeflow, KServe, Ray',
      params: [
        param('query', 'str', REQ, 'Search keyword or concept'),
        param('context', 'str', '', ctxDoc),
      ],
      annotations: title('Search CRDs by Keyword'),
      run: (a) => {
        const q = String(a.query).toLowerCase().trim();
        const tokens = q.split(/\s+/).filter(Boolean);
        const matched: string[] = [];
        for (const [cat, desc, patterns] of CATEGORIES) {
          if (cat.includes(q) || q.includes(cat.replace(/_/g, ' '))) matched.push(cat);
          else if (tokens.some((t) => desc.toLowerCase().includes(t))) matched.push(cat);
          else if (patterns.some((p) => p.includes(q) || q.includes(p))) matched.push(cat);
        }
        const bad = badContext(a.context);
        if (bad) return { success: false, error: bad };
        const results = crds
          .map((c) => {
            const name = c.metadata?.name ?? '';
            const cl = classify(name, c.spec.group, c.spec.names.kind);
            const hit =
              cl.categories.some((x) => matched.includes(x)) ||
              tokens.some(
                (t) =>
                  name.toLowerCase().includes(t) ||
                  c.spec.names.kind.toLowerCase().includes(t) ||
                  c.spec.group.toLowerCase().includes(t),
              );
            if (!hit) return undefined;
            const version = c.spec.versions[0]?.name ?? 'v1';
            return {
              name,
              group: c.spec.group,
              version,
              kind: c.spec.names.kind,
              plural: c.spec.names.plural,
              scope: c.spec.scope,
              categories: cl.categories,
              description: cl.description,
              shortNames: c.spec.names.shortNames ?? [],
              listUsage: `list_custom_resources(group="${c.spec.group}", version="${version}", plural="${c.spec.names.plural}")`,
            };
          })
          .filter((x): x is NonNullable<typeof x> => Boolean(x))
          .sort(
            (x, y) =>
              (x.description ? 0 : 1) - (y.description ? 0 : 1) || x.name.localeCompare(y.name),
          );
        return {
          success: true,
          context: a.context || 'current',
          query: a.query,
          matchedCategories: matched,
          count: results.length,
          results,
        };
      },
    },
    {
      name: 'list_custom_resources',
      doc: 'List instances of any custom resource type.\n\nUse discover_crds or search_crds first to find the group/version/plural,\nthen call this to list actual instances.\n\nExample: to list CloudNativePG database clusters:\n  list_custom_resources(group="postgresql.cnpg.io", version="v1", plural="clusters")',
      params: [
        param('group', 'str', REQ, 'API group (e.g., "postgresql.cnpg.io")'),
        param('version', 'str', REQ, 'API version (e.g., "v1", "v1beta1")'),
        param('plural', 'str', REQ, 'Plural resource name (e.g., "clusters", "certificates")'),
        param('namespace', 'str', '', 'Namespace (empty = all namespaces / cluster-scoped)'),
        param('label_selector', 'str', '', 'Label selector to filter'),
        param('limit', 'int', 100, 'Maximum number of results'),
        param('context', 'str', '', ctxDoc),
      ],
      annotations: title('List Custom Resource Instances'),
      run: (a) => {
        const bad = badContext(a.context);
        if (bad) return { success: false, error: bad };
        const info = kindOf(a.group, a.version, a.plural);
        if (!info)
          return {
            success: false,
            error: notFoundCr(a.plural, a.group, a.version),
            hint: 'Use discover_crds or search_crds to find available types',
          };
        let items: KubeObject[];
        try {
          items = world.list(info, { ...(a.namespace ? { namespace: a.namespace } : {}) });
          if (a.label_selector) {
            const sel = parseLabelSelector(a.label_selector);
            items = items.filter((o) => matchesLabels(o.metadata?.labels, sel));
          }
        } catch (err) {
          return { success: false, error: (err as Error).message };
        }
        if (a.limit) items = items.slice(0, a.limit);
        const out = items.map((i) => {
          const st = i.status ?? {};
          const e: Py = {
            name: i.metadata?.name ?? null,
            namespace: i.metadata?.namespace ?? null,
            creationTimestamp: i.metadata?.creationTimestamp ?? null,
            labels: i.metadata?.labels ?? {},
          };
          const phase = st.phase || st.state;
          if (phase) e.phase = phase;
          const conds: Py[] = st.conditions ?? [];
          if (conds.length) {
            const r = conds.find((c) =>
              ['Ready', 'Available', 'Established', 'Healthy'].includes(c.type),
            );
            if (r) e.ready = r.status === 'True';
            e.conditions = conds.slice(0, 5).map((c) => ({
              type: c.type ?? null,
              status: c.status ?? null,
              reason: c.reason ?? null,
              message: String(c.message ?? '').slice(0, 200),
            }));
          }
          const replicas = st.replicas || st.readyReplicas || i.spec?.replicas || i.spec?.instances;
          if (replicas !== undefined && replicas !== null && replicas !== 0) e.replicas = replicas;
          else if (replicas === 0) e.replicas = 0;
          return e;
        });
        return {
          success: true,
          context: a.context || 'current',
          resource: `${a.plural}.${a.group}/${a.version}`,
          namespace: a.namespace || 'all',
          count: out.length,
          items: out,
        };
      },
    },
    {
      name: 'get_custom_resource',
      doc: 'Get full details of a specific custom resource instance.\n\nReturns the complete spec, status, and metadata of a single resource.\nUse list_custom_resources first to find the name and namespace.',
      params: [
        param('group', 'str', REQ, 'API group (e.g., "postgresql.cnpg.io")'),
        param('version', 'str', REQ, 'API version (e.g., "v1")'),
        param('plural', 'str', REQ, 'Plural resource name (e.g., "clusters")'),
        param('name', 'str', REQ, 'Resource instance name'),
        param('namespace', 'str', '', 'Namespace (required for namespaced resources)'),
        param('context', 'str', '', ctxDoc),
      ],
      annotations: title('Get Custom Resource'),
      run: (a) => {
        const bad = badContext(a.context);
        if (bad) return { success: false, error: bad };
        const info = kindOf(a.group, a.version, a.plural);
        const obj =
          info && (info.namespaced === Boolean(a.namespace) || !info.namespaced)
            ? world.get(info, a.name, info.namespaced ? a.namespace : undefined)
            : undefined;
        if (!obj)
          return {
            success: false,
            error: `Resource '${a.name}' not found in ${a.namespace || 'cluster'} (${a.plural}.${a.group}/${a.version})`,
          };
        const md = obj.metadata ?? {};
        const annotations = Object.fromEntries(
          Object.entries(md.annotations ?? {}).filter(
            ([k]) => !k.startsWith('kubectl.kubernetes.io/') && !k.startsWith('meta.helm.sh/'),
          ),
        );
        return {
          success: true,
          context: a.context || 'current',
          resource: `${a.plural}.${a.group}/${a.version}`,
          metadata: {
            name: md.name ?? null,
            namespace: md.namespace ?? null,
            uid: md.uid ?? null,
            creationTimestamp: md.creationTimestamp ?? null,
            labels: md.labels ?? {},
            annotations,
            ownerReferences: ((md.ownerReferences ?? []) as Py[]).map((r) => ({
              kind: r.kind ?? null,
              name: r.name ?? null,
            })),
          },
          spec: obj.spec ?? {},
          status: obj.status ?? {},
        };
      },
    },
    {
      name: 'describe_crd',
      doc: 'Get schema and documentation for a CRD.\n\nShows the OpenAPI schema so the LLM understands what fields a custom\nresource accepts. Useful for explaining what a resource type does\nand what configuration options are available.',
      params: [
        param('crd_name', 'str', REQ, 'Full CRD name (e.g., "clusters.postgresql.cnpg.io")'),
        param('context', 'str', '', ctxDoc),
      ],
      annotations: title('Describe CRD Schema'),
      run: (a) => {
        const bad = badContext(a.context);
        if (bad) return { success: false, error: bad };
        const c = crds.find((x) => x.metadata?.name === a.crd_name);
        if (!c)
          return {
            success: false,
            error: `CRD '${a.crd_name}' not found`,
            hint: 'Use discover_crds or search_crds to find available CRDs',
          };
        const cl = classify(a.crd_name, c.spec.group, c.spec.names.kind);
        return {
          success: true,
          context: a.context || 'current',
          crd: {
            name: a.crd_name,
            group: c.spec.group,
            kind: c.spec.names.kind,
            plural: c.spec.names.plural,
            singular: c.spec.names.singular,
            scope: c.spec.scope,
            shortNames: c.spec.names.shortNames ?? [],
            categories: cl.categories,
            description: cl.description,
          },
          versions: (c.spec.versions as Py[]).map((v) => ({
            name: v.name,
            served: v.served,
            storage: v.storage,
          })),
        };
      },
    },
    {
      name: 'detect_crds',
      doc: 'Detect if the CRD API is available in the cluster.\n\nLightweight check that verifies the apiextensions.k8s.io API group\nis accessible. Use before calling discover_crds or search_crds.',
      params: [param('context', 'str', '', ctxDoc)],
      annotations: title('Detect CRD API Availability'),
      run: (a) => {
        const bad = badContext(a.context);
        if (bad) return { installed: false, available: false, error: bad };
        return {
          installed: true,
          available: true,
          message: 'CRD API (apiextensions.k8s.io) is accessible',
          hasCRDs: crds.length > 0,
        };
      },
    },
  ];
}
