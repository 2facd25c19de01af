import type { RpcOptions } from '@inquest/grpc-kit';
import { CONFIG_READ_POLICY } from './config-read-policy';
import { grpcEffectiveConfigLoader, type EffectiveConfigRpc } from './grpc-effective-config-source';

describe('grpcEffectiveConfigLoader', () => {
  const rpc = (seen: RpcOptions[]): EffectiveConfigRpc => ({
    getEffectiveConfig: async (_req, opts) => {
      seen.push(opts ?? {});
      return {
        config: { team_node_id: 't1' },
        version: 4,
        secret_scopes: { 'a.b': { owner_node_id: 'org', prefixes: ['inquest/org/'] } },
      };
    },
  });

  it('maps the answer and sends the policy deadline with the caller request id', async () => {
    const seen: RpcOptions[] = [];
    const load = grpcEffectiveConfigLoader(rpc(seen), 'notifier');
    const ac = new AbortController();
    const eff = await load('t1', { requestId: 'req-9', signal: ac.signal });
    expect(eff).toEqual({
      teamId: 't1',
      config: { team_node_id: 't1' },
      version: 4,
      secretScopes: { 'a.b': { owner_node_id: 'org', prefixes: ['inquest/org/'] } },
    });
    expect(seen[0]).toEqual({
      ctx: { requestId: 'req-9', teamId: 't1', principal: 'notifier' },
      deadlineMs: CONFIG_READ_POLICY.deadlineMs,
      signal: ac.signal,
    });
  });

  it('names the service in the request id of its own reads', async () => {
    const seen: RpcOptions[] = [];
    await grpcEffectiveConfigLoader(rpc(seen), 'knowledge-raptor')('t1', {});
    expect(seen[0]!.ctx!.requestId).toMatch(/^knowledge-raptor-[0-9a-f-]{36}$/);
    expect(seen[0]!.signal).toBeUndefined();
  });
});
