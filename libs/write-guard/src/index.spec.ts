import { classifyTool } from './index';

const ro = (name: string, description = '', extra: Record<string, unknown> = {}) =>
  classifyTool({ name, description, ...extra }).readOnly;

describe('classifyTool', () => {
  it('honours explicit MCP annotations over the name', () => {
    expect(ro('list_pods', 'List pods', { annotations: { destructiveHint: true } })).toBe(false);
    expect(ro('get_thing', 'Reads', { annotations: { readOnlyHint: false } })).toBe(false);
    expect(ro('kubectl_get', 'Get resources', { annotations: { readOnlyHint: true } })).toBe(true);
    expect(ro('x', '', { annotations: { readOnlyHint: true, destructiveHint: true } })).toBe(false);
  });

  it('honours the definition flags', () => {
    expect(ro('cache_entry_preview', '', { read_only: true })).toBe(true);
    expect(ro('list_pods', '', { destructive: true })).toBe(false);
    expect(ro('list_pods', '', { read_only: false })).toBe(false);
  });

  it.each([
    'restart_deployment',
    'pods_delete',
    'pods_exec',
    'pods_run',
    'resources_create_or_update',
    'resources_scale',
    'kubectl_run_image',
    'helm_install',
    'rollout_restart',
    'drainNode',
    'cordon-node',
    'kill_process',
    'patch_configmap',
    'apply_manifest',
    'rollback_release',
  ])('judges %s by its name as a write', (name) => {
    expect(ro(name, 'does a thing')).toBe(false);
  });

  it.each([
    'list_pods',
    'kubectl_describe',
    'kubectl_get_by_kind_in_namespace',
    'kubectl_find_resource',
    'fetch_pod_logs',
    'events_list',
    'pods_log',
    'nodes_top',
    'rollout_history',
    'get_restart_count',
    'http_check',
    'prometheus_query_range',
    'search_logs',
    'helm_list',
  ])('judges %s as read-only', (name) => {
    expect(
      ro(name, 'List pods with status, readiness, restarts and last termination reason.'),
    ).toBe(true);
  });

  it('judges an unannotated tool by its description', () => {
    expect(ro('deployment_tool', 'Restarts the deployment by patching its template.')).toBe(false);
    expect(ro('cache_tool', 'Clears the cache. This tool deletes every key.')).toBe(false);
    expect(ro('cache_tool', 'Shows cache statistics.')).toBe(true);
  });
});

describe('a read-looking name does not hide a write', () => {
  it.each([
    ['get_and_delete_pod', 'Gets a pod.'],
    ['show_then_restart_service', 'Shows a service.'],
    ['list_or_kill_processes', 'Processes of a host.'],
    ['get_pod', 'Deletes the pod of a service.'],
    ['query_cache', 'This tool deletes every cache key of a service.'],
    ['list_pods_cleanup', 'List pods and remove failed ones.'],
    ['check_service', 'Checks the service, then restart it when unhealthy.'],
    ['status_report', 'Reports status. Wipes all keys of the cache afterwards.'],
    ['nuke', 'Namespace tool.'],
    ['recycle_pods', 'Pods of a service.'],
    ['clear_cache', 'Cache tool.'],
    ['argocd_sync', 'Argo CD application.'],
    ['rotate_credentials', 'Credentials of a service.'],
  ])('judges %s (%s) as a write', (name, description) => {
    expect(ro(name, description)).toBe(false);
  });

  it.each([
    ['get_restart_count', 'Restarts per pod, with readiness and restart count.'],
    ['list_pods', 'List pods with status, readiness, restarts and last termination reason.'],
    ['get_events', 'Kubernetes events: scheduling, pulls and evictions of a namespace.'],
    ['prometheus_query', 'Run a PromQL instant query.'],
    ['search_logs', 'Search logs for errors and restarts per container.'],
    ['interface_stats', 'Packets, errors and drops per interface.'],
    ['rollout_history', 'Rollout history of a deployment: revisions, images and change causes.'],
  ])('still judges %s (%s) as a read', (name, description) => {
    expect(ro(name, description)).toBe(true);
  });

  it('an explicit read-only mark still decides where nothing says the tool destroys', () => {
    expect(ro('execute_query', 'Run a read-only SQL query.', { read_only: true })).toBe(true);
    expect(
      ro('run_promql', 'It runs a PromQL query.', { annotations: { readOnlyHint: true } }),
    ).toBe(true);
    expect(ro('send_report', 'Formats a report.', { annotations: { readOnlyHint: true } })).toBe(
      true,
    );
    expect(
      ro('get_restart_count', 'Restarts per pod.', { annotations: { readOnlyHint: true } }),
    ).toBe(true);
  });
});

describe('a read-only mark does not outweigh a tool that says it destroys', () => {
  const marks: Array<[string, Record<string, unknown>]> = [
    ['readOnlyHint', { annotations: { readOnlyHint: true } }],
    ['read_only', { read_only: true }],
    ['both', { read_only: true, annotations: { readOnlyHint: true, destructiveHint: false } }],
  ];
  it.each(
    marks.flatMap(([mark, extra]) =>
      (
        [
          ['delete_pod', 'Pod tool.'],
          ['restart_deployment', 'Restart'],
          ['purge_namespace', 'Namespace tool.'],
          ['drainNode', 'Node tool.'],
          ['get_and_delete_pod', 'Gets a pod.'],
          ['pod_tool', 'Deletes the pod.'],
          ['list_pods', 'List pods and remove failed ones.'],
        ] as const
      ).map(([name, description]) => [name, description, mark, extra] as const),
    ),
  )('judges %s (%s) marked %s as a write', (name, description, _mark, extra) => {
    const safety = classifyTool({ name, description, ...extra });
    expect(safety.readOnly).toBe(false);
    expect(safety.reason).toMatch(/outweighs its read-only mark/);
  });
});

describe('a name that claims to be read-only is judged by its verb', () => {
  it.each([
    ['read_only_restart_deployment', 'Deployment tool.'],
    ['readOnlyDeletePod', 'Pod tool.'],
    ['view_only_delete_pod', 'Pod tool.'],
    ['read_only_scale', 'Workload tool.'],
  ])('judges %s (%s) as a write', (name, description) => {
    expect(ro(name, description)).toBe(false);
  });

  it.each([
    ['read_only_query', 'Query metrics.'],
    ['read_file', 'Reads a file.'],
    ['read_pod_logs', 'Logs of a pod.'],
  ])('still judges %s (%s) as a read', (name, description) => {
    expect(ro(name, description)).toBe(true);
  });
});
