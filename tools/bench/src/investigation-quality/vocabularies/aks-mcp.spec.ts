import { WorldIndex } from '@inquest/kube';
import { aScenarioWorld } from '@inquest/kube/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { aksMcpTools, shlexSplit } from './aks-mcp';
import { startVocabularyServer, type VocabularyTool } from './mcp-vocabulary-server';

const tools = aksMcpTools(new WorldIndex(aScenarioWorld()));
const byName = (name: string): VocabularyTool => tools.find((t) => t.name === name)!;
const call = (name: string, operation: string, resource: string, args: string) =>
  byName(name).run!({ operation, resource, args });
const failure = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('no error');
};

describe('aks-mcp (Azure/aks-mcp kubectl tools, readonly)', () => {
  it('lists the four readonly tools, three required strings each, mcp-go default annotations', () => {
    expect(tools.map((t) => t.name)).toEqual([
      'kubectl_resources',
      'kubectl_diagnostics',
      'kubectl_cluster',
      'kubectl_config',
    ]);
    for (const t of tools) {
      expect(t.inputSchema.required).toEqual(['operation', 'resource', 'args']);
      expect(Object.keys(t.inputSchema.properties!)).toEqual(['operation', 'resource', 'args']);
      expect(t.annotations).toEqual({
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: true,
      });
    }
    expect(byName('kubectl_resources').description).toMatch(
      /^View Kubernetes resources with read-only/,
    );
  });

  it('kubectl_resources get prints kubectl tables, describe its describe text', () => {
    expect(call('kubectl_resources', 'get', 'pods', '-n shop')).toMatch(
      /^NAME +READY +STATUS +RESTARTS +AGE\ncheckout-7d9f8b6c5-x2x4z +0\/1 +CrashLoopBackOff/,
    );
    expect(call('kubectl_resources', 'get', 'deployment', 'checkout -n shop -o yaml')).toMatch(
      /^apiVersion: apps\/v1\nkind: Deployment/,
    );
    expect(call('kubectl_resources', 'describe', 'deployment', 'checkout -n shop')).toMatch(
      /^Name: +checkout\nNamespace: +shop/,
    );
    // nothing found: kubectl says so on stderr, the tool returns the empty stdout
    expect(call('kubectl_resources', 'get', 'pods', '-n nowhere')).toBe('');
  });

  it('kubectl_diagnostics logs, events and top', () => {
    expect(
      call('kubectl_diagnostics', 'logs', '', 'checkout-7d9f8b6c5-x2x4z -n shop --previous'),
    ).toContain('ERROR missing required environment variable PAYMENT_API_KEY');
    // a selector keeps the last 10 lines of each pod; --prefix names pod and container
    expect(call('kubectl_diagnostics', 'logs', '', '-l app=checkout -n shop -p --prefix')).toMatch(
      /^\[pod\/checkout-7d9f8b6c5-x2x4z\/app\] 2026-03-12T10:27:41Z INFO starting/,
    );
    expect(call('kubectl_diagnostics', 'events', '', '-n shop')).toMatch(
      /^LAST SEEN +TYPE +REASON +OBJECT +MESSAGE\n/,
    );
    expect(call('kubectl_diagnostics', 'top', 'pod', '-A')).toMatch(
      /^NAMESPACE +NAME +CPU\(cores\) +MEMORY\(bytes\)/,
    );
  });

  it('kubectl_cluster and kubectl_config', () => {
    expect(call('kubectl_cluster', 'api-resources', '', '')).toMatch(/^NAME +SHORTNAMES/);
    expect(call('kubectl_cluster', 'cluster-info', '', '')).toMatch(
      /^Kubernetes control plane is running at https:\/\//,
    );
    expect(call('kubectl_config', 'config', 'current-context', '')).toBe('bench\n');
    expect(call('kubectl_config', 'auth', 'can-i', 'get pods -n shop')).toBe('yes\n');
  });

  it('an unknown object is kubectl exit status 1 and its stderr', () => {
    expect(failure(() => call('kubectl_resources', 'get', 'pods', 'nope -n shop'))).toBe(
      'exit status 1\nError from server (NotFound): pods "nope" not found\n',
    );
    expect(failure(() => call('kubectl_diagnostics', 'logs', '', 'nope -n shop'))).toBe(
      'exit status 1\nError from server (NotFound): pods "nope" not found\n',
    );
  });

  it('missing or wrong arguments get the executor own errors', () => {
    expect(
      failure(() => byName('kubectl_resources').run!({ operation: 'get', resource: 'pods' })),
    ).toBe('args parameter is required and must be a string');
    expect(
      failure(() => byName('kubectl_diagnostics').run!({ operation: 'logs', args: 'x' })),
    ).toBe('resource parameter is required and must be a string');
    expect(failure(() => call('kubectl_resources', 'logs', 'pods', 'x'))).toBe(
      "invalid operation 'logs' for resources tool. Valid operations: get, describe, create, delete, apply, patch, replace, cordon, uncordon, drain, taint",
    );
    expect(failure(() => call('kubectl_config', 'auth', 'whoami', ''))).toBe(
      "auth operation requires 'can-i' as resource",
    );
    expect(failure(() => call('kubectl_resources', 'get', 'pods', '-n shop --context=prod'))).toBe(
      "Error: Global flag '--context=' is not allowed; it can redirect API traffic or inject credentials",
    );
    expect(failure(() => call('kubectl_resources', 'get', 'pods', '-n shop -n default'))).toBe(
      'Error: Command contains multiple namespace flags which is not allowed',
    );
    expect(failure(() => call('kubectl_resources', 'get', 'pods', "-l 'app=x"))).toBe(
      'EOF found when expecting closing quote',
    );
  });

  it('a write operation is refused with the validator message and recorded as destructive', async () => {
    const server = await startVocabularyServer('aks-mcp-spec', tools);
    const client = new Client({ name: 'aks-mcp-spec', version: '0.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      const text = async (name: string, args: Record<string, unknown>) => {
        const res = await client.callTool({ name, arguments: args });
        return [res.isError === true, (res.content as { text: string }[])[0]!.text];
      };
      expect(
        await text('kubectl_resources', {
          operation: 'delete',
          resource: 'pod',
          args: 'x -n shop',
        }),
      ).toEqual([true, 'Error: Cannot execute write or admin operations in read-only mode']);
      expect(
        await text('kubectl_diagnostics', { operation: 'exec', resource: '', args: 'x -- date' }),
      ).toEqual([true, 'Error: Cannot execute write or admin operations in read-only mode']);
      expect(
        await text('kubectl_config', { operation: 'config', resource: 'use-context', args: 'x' }),
      ).toEqual([true, 'Error: Cannot execute config write operations in read-only mode']);
      expect(
        await text('kubectl_resources', { operation: 'get', resource: 'pods', args: '-n shop' }),
      ).toEqual([false, expect.stringContaining('checkout-7d9f8b6c5-x2x4z')]);
      expect(server.calls.map((c) => [c.tool, c.destructive])).toEqual([
        ['kubectl_resources', true],
        ['kubectl_diagnostics', true],
        ['kubectl_config', true],
        ['kubectl_resources', false],
      ]);
    } finally {
      await client.close();
      await server.stop();
    }
  });

  it("today's default, call_kubectl: one full command line, the same validator", () => {
    const [unified, ...more] = aksMcpTools(new WorldIndex(aScenarioWorld()), { tools: 'unified' });
    expect(more).toEqual([]);
    expect(unified!.name).toBe('call_kubectl');
    expect(unified!.inputSchema.required).toEqual(['command']);
    expect(unified!.run!({ command: 'kubectl get pods -n shop' })).toContain(
      'checkout-7d9f8b6c5-x2x4z',
    );
    expect(unified!.run!({ command: 'get deploy checkout -n shop -o name' })).toBe(
      'deployment.apps/checkout\n',
    );
    expect(failure(() => unified!.run!({ command: 'kubectl get pods nope -n shop' }))).toBe(
      'exit status 1\nError from server (NotFound): pods "nope" not found\n',
    );
    expect(failure(() => unified!.run!({}))).toBe(
      'command parameter is required and must be a string',
    );
    const del = { command: 'kubectl delete pod x -n shop' };
    expect([unified!.writes!(del), unified!.refusal!(del)]).toEqual([
      true,
      'Error: Cannot execute write or admin operations in read-only mode',
    ]);
    // the validator looks for `config` as the first word: with `kubectl` first it lets it through
    const use = { command: 'kubectl config use-context bench' };
    expect([unified!.writes!(use), unified!.run!(use)]).toEqual([
      false,
      'Switched to context "bench".\n',
    ]);
  });

  it('splits a command line as google/shlex does', () => {
    expect(shlexSplit(`get pods -o jsonpath='{.items[*].metadata.name}' -l "app=a b"`)).toEqual([
      'get',
      'pods',
      '-o',
      'jsonpath={.items[*].metadata.name}',
      '-l',
      'app=a b',
    ]);
  });
});
