import { InquestClient, isApplied, isInquestError, isPendingApproval } from '@inquest/client';
import type { InquestError } from '@inquest/client';
import { startInquest, type RunningInquest } from './support/start-inquest';

/**
 * The JavaScript client against the real all-in-one service, started as a user starts it.
 * Rate limits are per credential, so each concern gets its own token; triggers are limited to
 * TRIGGERS a minute to reach a real 429.
 */
const TRIGGERS = 3;

async function caught(p: Promise<unknown>): Promise<InquestError> {
  try {
    await p;
  } catch (err) {
    if (isInquestError(err)) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

describe('@inquest/client against the running service', () => {
  let inquest: RunningInquest;
  let admin: InquestClient;
  let team: InquestClient; // read-write token of our own team (config, kb)
  let demo: InquestClient; // read-write token of the demo team (investigations against the demo tool server)
  let teamTokenId: string;

  const clientFor = (
    token: string,
    extra: Partial<ConstructorParameters<typeof InquestClient>[0]> = {},
  ) => new InquestClient({ baseUrl: inquest.url, token, ...extra });

  beforeAll(async () => {
    inquest = await startInquest({
      INQUEST_RATE_LIMITS: `read=1000,write=200,trigger=${TRIGGERS}`,
    });
    admin = clientFor(inquest.adminToken);
  }, 90_000);

  afterAll(async () => {
    await inquest?.stop();
  });

  describe('health and documents', () => {
    it('answers health, readiness and the OpenAPI document without a token', async () => {
      const anonymous = new InquestClient({ baseUrl: `${inquest.url}/api/v1` });
      expect(await anonymous.health()).toEqual({ status: 'ok' });
      expect(await anonymous.ready()).toMatchObject({ services: expect.any(Object) });
      const doc = await anonymous.openapi();
      expect(String(doc.openapi)).toMatch(/^3\.1/);
    });
  });

  describe('admin API', () => {
    it('creates a hierarchy and reads it back', async () => {
      const org = await admin.admin.createNode({
        node_id: 'clients-org',
        parent_id: null,
        kind: 'org',
        name: 'Clients org',
      });
      expect(org).toMatchObject({
        node_id: 'clients-org',
        parent_id: null,
        kind: 'org',
        org_id: 'clients-org',
      });
      await admin.admin.createNode({
        node_id: 'clients-group',
        parent_id: 'clients-org',
        kind: 'group',
        name: 'Group',
      });
      const t = await admin.admin.createNode({
        node_id: 'clients-team',
        parent_id: 'clients-group',
        kind: 'team',
        name: 'Clients team',
      });
      expect(t.org_id).toBe('clients-org');
      const got = await admin.admin.getNode('clients-team');
      expect(got).toMatchObject({
        node_id: 'clients-team',
        kind: 'team',
        config: expect.any(Object),
      });
      const children = await admin.admin.listNodes({ parent_id: 'clients-org' });
      expect(children.nodes.map((n) => n.node_id)).toEqual(['clients-group']);
      const applied = await admin.admin.updateNodeConfig('clients-org', {
        chat_channel: '#org-wide',
      });
      expect(applied.changed_fields).toEqual(['chat_channel']);
    });

    it('maps duplicate and unknown-parent errors', async () => {
      const dup = await caught(
        admin.admin.createNode({
          node_id: 'clients-org',
          parent_id: null,
          kind: 'org',
          name: 'again',
        }),
      );
      expect(dup).toMatchObject({ code: 'conflict', status: 409 });
      expect(dup.requestId).toBeTruthy();
      const orphan = await caught(
        admin.admin.createNode({
          node_id: 'orphan',
          parent_id: 'nowhere',
          kind: 'team',
          name: 'x',
        }),
      );
      expect(orphan).toMatchObject({ code: 'not_found', status: 404 });
    });

    it('issues, lists and revokes tokens; a revoked token gets 401', async () => {
      const rw = await admin.admin.createToken('clients-team', {
        permissions: ['read', 'write'],
        owner: 'dev@clients.test',
        label: 'e2e',
      });
      expect(rw.token.startsWith(`${rw.token_id}.`)).toBe(true);
      teamTokenId = rw.token_id;
      team = clientFor(rw.token);
      const demoToken = await admin.admin.createToken('demo-team', {
        permissions: ['read', 'write'],
        owner: 'dev@clients.test',
      });
      demo = clientFor(demoToken.token);
      const doomed = await admin.admin.createToken('clients-team', {
        permissions: ['read'],
        owner: 'gone@clients.test',
      });
      const list = await admin.admin.listTokens('clients-team');
      expect(list.tokens.map((t) => t.token_id)).toEqual(
        expect.arrayContaining([rw.token_id, doomed.token_id]),
      );
      expect(JSON.stringify(list)).not.toContain(rw.token.split('.')[1]);
      expect(await clientFor(doomed.token).config.effective()).toMatchObject({
        team_node_id: 'clients-team',
      });
      await admin.admin.revokeToken(doomed.token_id);
      const e = await caught(clientFor(doomed.token).config.effective());
      expect(e).toMatchObject({ code: 'unauthorized', status: 401, name: 'UnauthorizedError' });
    });
  });

  describe('configuration', () => {
    it('reads effective and raw config with the inherited values', async () => {
      const eff = await team.config.effective();
      expect(eff).toMatchObject({
        team_name: 'Clients team',
        org_id: 'clients-org',
        team_node_id: 'clients-team',
        chat_channel: '#org-wide',
      });
      const raw = await team.config.raw();
      expect(raw.lineage).toEqual(['clients-org', 'clients-group', 'clients-team']);
      expect(raw.configs['clients-org']).toMatchObject({ chat_channel: '#org-wide' });
    });

    it('applies an update, records it in the audit, and answers a no-op with the same version', async () => {
      const res = await team.config.update({
        chat_channel: '#clients',
        agents: { investigation_agent: { timeout: 90 } },
      });
      expect(isApplied(res)).toBe(true);
      if (!isApplied(res)) return;
      expect(res.changed_fields.sort()).toEqual([
        'agents.investigation_agent.timeout',
        'chat_channel',
      ]);
      expect(res.effective_config).toMatchObject({ chat_channel: '#clients' });
      const again = await team.config.update({ chat_channel: '#clients' });
      expect(again).toMatchObject({ version: res.version, changed_fields: [] });
      const audit = await team.config.audit({ limit: 1, include_full: false });
      expect(audit.history).toHaveLength(1);
      expect(audit.history[0]).toMatchObject({
        version: res.version,
        changed_by: 'dev@clients.test',
      });
      expect(audit.history[0]!.full_config).toBeUndefined();
      // The diff is of the team's own overrides (the org's value was inherited, not overridden).
      expect(audit.history[0]!.diff.chat_channel).toMatchObject({ new: '#clients' });
      expect((await team.config.audit({ limit: 1 })).history[0]!.full_config).toMatchObject({
        chat_channel: '#clients',
      });
    });

    it('raises invalid_field with field, validation_error with details, forbidden for a read-only token', async () => {
      const immutable = await caught(team.config.update({ team_name: 'renamed' }));
      expect(immutable).toMatchObject({
        code: 'invalid_field',
        status: 400,
        field: 'team_name',
        name: 'InvalidFieldError',
      });
      const invalid = await caught(
        team.config.update({ agents: { investigation_agent: { timeout: -5 } } }),
      );
      expect(invalid).toMatchObject({
        code: 'validation_error',
        status: 400,
        name: 'ValidationError',
      });
      expect(invalid.details?.field).toBe('agents.investigation_agent.timeout');
      expect(invalid.errors?.length).toBeGreaterThanOrEqual(1);
      const ro = await admin.admin.createToken('clients-team', {
        permissions: ['read'],
        owner: 'ro@clients.test',
      });
      const forbidden = await caught(clientFor(ro.token).config.update({ chat_channel: '#nope' }));
      expect(forbidden).toMatchObject({ code: 'forbidden', status: 403 });
    });

    it('parks a change for approval (202), lists it as pending, and applies it on approval', async () => {
      await admin.admin.updateNodeConfig('clients-team', {
        feature_flags: { require_approval: true },
        approval: { approvers: ['lead@clients.test'] },
      });
      const res = await team.config.update({ chat_channel: '#needs-approval' });
      expect(isPendingApproval(res)).toBe(true);
      if (!isPendingApproval(res)) return;
      expect(res).toMatchObject({ status: 'pending_approval', approvers: ['lead@clients.test'] });
      const pending = await team.config.pending();
      expect(pending.change_requests.map((c) => c.change_request_id)).toContain(
        res.change_request_id,
      );
      const listed = await admin.admin.listChangeRequests({
        status: 'pending_approval',
        team: 'clients-team',
      });
      expect(listed.change_requests.map((c) => c.change_request_id)).toContain(
        res.change_request_id,
      );
      const approved = await admin.admin.approveChangeRequest(res.change_request_id, {
        comment: 'ok',
      });
      expect(approved.status).toBe('approved');
      expect((await team.config.effective()).chat_channel).toBe('#needs-approval');
      const second = await team.config.update({ chat_channel: '#rejected' });
      if (!isPendingApproval(second)) throw new Error('expected a change request');
      expect((await admin.admin.rejectChangeRequest(second.change_request_id)).status).toBe(
        'rejected',
      );
      expect((await team.config.effective()).chat_channel).toBe('#needs-approval');
    });

    it('needs X-Inquest-Team with an admin token on team endpoints', async () => {
      const e = await caught(admin.config.effective());
      expect(e).toMatchObject({ code: 'invalid_request', status: 400 });
      const asTeam = await admin.config.effective({ team: 'clients-team' });
      expect(asTeam.team_node_id).toBe('clients-team');
    });
  });

  describe('knowledge base', () => {
    it('teaches, reports status, retrieves, answers, takes feedback and shows stats', async () => {
      const taught = await team.kb.teach({
        content:
          '# Payments OOM\nWhen payments pods are OOMKilled, raise the memory limit to 512Mi and restart the deployment.',
        type: 'runbook',
        service: 'payments',
        tags: ['oom'],
        title: 'payments-oom.md',
      });
      expect(taught).toMatchObject({ level: 'L1', document_id: expect.any(String) });
      const indexed = await waitUntil(
        async () => (await team.kb.status(taught.document_id)).status === 'indexed',
      );
      expect(indexed).toBe(true);
      const found = await team.kb.retrieve({
        query: 'payments pods OOMKilled memory limit',
        top_k: 3,
      });
      expect(found.results.map((r) => r.document_id)).toContain(taught.document_id);
      const answer = await team.kb.answer({
        question: 'What to do when payments pods are OOMKilled?',
        include_sources: true,
      });
      expect(answer.answer.length).toBeGreaterThan(0);
      expect(answer.sources?.map((s) => s.document_id)).toContain(taught.document_id);
      await expect(
        team.kb.feedback({ query_id: found.query_id, helpful: true, comment: 'spot on' }),
      ).resolves.toBeUndefined();
      const stats = await team.kb.treeStats();
      expect(stats.total_documents).toBeGreaterThanOrEqual(1);
      const uploaded = await team.kb.uploadDocument({
        content: '# Escalation\nPage the payments on-call.',
        title: 'escalation.md',
        type: 'escalation',
      });
      expect(uploaded.level).toBe('L4');
      const patterns = await team.kb.patterns();
      expect(patterns).toEqual({ patterns: expect.any(Array) });
      for (const p of patterns.patterns)
        expect(p).toMatchObject({ pattern_id: expect.any(String), root_cause: expect.any(String) });
      // teaching a document of service payments recorded who owns it
      const graph = await team.kb.graph('payments');
      expect(graph.entity).toBe('payments');
      expect(graph.nodes).toContainEqual({ id: 'payments', kind: 'service' });
      expect(graph.edges).toContainEqual(
        expect.objectContaining({ from: 'payments', relation: 'owned_by' }),
      );
    });

    it('maps knowledge errors: unknown type, unknown query id, unknown document', async () => {
      expect(
        (await caught(team.kb.teach({ content: 'x', type: 'nonsense' as 'runbook' }))).code,
      ).toBe('validation_error');
      expect(
        (await caught(team.kb.feedback({ query_id: 'q_does_not_exist', helpful: false }))).code,
      ).toBe('not_found');
      expect((await caught(team.kb.status('doc_does_not_exist'))).code).toBe('not_found');
    });
  });

  describe('investigations', () => {
    it('runs synchronously to a completed result', async () => {
      const res = await demo.agents.run({
        agent_name: 'planner',
        message: 'checkout is returning 500s',
        context: { service: 'checkout', namespace: 'shop' },
      });
      expect(res.status).toBe('completed');
      expect(res.result?.root_cause.description.length).toBeGreaterThan(0);
      expect(res.tools_used?.length).toBeGreaterThan(0);
    }, 60_000);

    it('runs asynchronously and waitForInvestigation polls it to completion', async () => {
      const started = await demo.agents.run({
        agent_name: 'investigation_agent',
        message: 'checkout latency is high',
        context: { service: 'checkout', namespace: 'shop' },
        async: true,
      });
      expect(started.poll_url).toBe(`/api/v1/agents/status/${started.investigation_id}`);
      const seen: string[] = [];
      const done = await demo.waitForInvestigation(started.investigation_id, {
        onPoll: (i) => seen.push(i.status),
      });
      expect(done.status).toBe('completed');
      expect(done.result?.recommendations.length).toBeGreaterThan(0);
      expect(seen.at(-1)).toBe('completed');
      const again = await demo.agents.status(started.investigation_id);
      expect(again).toMatchObject({
        status: 'completed',
        agent: 'investigation_agent',
        message: 'checkout latency is high',
      });
      const conflict = await caught(demo.agents.cancel(started.investigation_id));
      expect(conflict).toMatchObject({ code: 'conflict', status: 409 });
    }, 60_000);

    it('lists investigations and pages through them', async () => {
      const page = await demo.agents.list({ limit: 1 });
      expect(page.pagination).toMatchObject({ limit: 1, offset: 0 });
      expect(page.pagination.total).toBeGreaterThanOrEqual(2);
      const all = [];
      for await (const i of demo.agents.listAll({ pageSize: 1 })) all.push(i.investigation_id);
      expect(all).toHaveLength(page.pagination.total);
      expect(new Set(all).size).toBe(all.length);
      expect((await caught(demo.agents.status('inv_does_not_exist'))).code).toBe('not_found');
    });
  });

  describe('cancellation and rate limiting (own tokens: triggers are limited)', () => {
    it('cancels an async investigation and waitForInvestigation stops on cancelled', async () => {
      const tok = await admin.admin.createToken('demo-team', {
        permissions: ['read', 'write'],
        owner: 'cancel@clients.test',
      });
      const c = clientFor(tok.token);
      const started = await c.agents.run({
        agent_name: 'planner',
        message: 'cancel me',
        context: { service: 'checkout' },
        async: true,
      });
      const cancelled = await c.agents
        .cancel(started.investigation_id)
        .catch((err: unknown) => err);
      // A deterministic run can beat the cancel; then the API must say so with 409.
      if (isInquestError(cancelled)) {
        expect(cancelled.code).toBe('conflict');
        return;
      }
      expect(cancelled).toMatchObject({
        investigation_id: started.investigation_id,
        status: 'cancelled',
      });
      const final = await c.waitForInvestigation(started.investigation_id, { timeoutMs: 30_000 });
      expect(final.status).toBe('cancelled');
    }, 60_000);

    it('gets a real 429 with retry_after, and a retrying client waits it out and succeeds', async () => {
      const tok = await admin.admin.createToken('demo-team', {
        permissions: ['read', 'write'],
        owner: 'limits@clients.test',
      });
      const noRetry = clientFor(tok.token, { retry: { maxRetries: 0 } });
      const body = {
        agent_name: 'planner' as const,
        message: 'rate limit probe',
        async: true as const,
      };
      for (let i = 0; i < TRIGGERS; i++) await noRetry.agents.run(body);
      const limited = await caught(noRetry.agents.run(body));
      expect(limited).toMatchObject({
        code: 'rate_limited',
        status: 429,
        name: 'RateLimitedError',
      });
      expect(limited.retryAfter).toBeGreaterThanOrEqual(1);
      expect(limited.retryAfter).toBeLessThanOrEqual(60);
      const waits: number[] = [];
      const retrying = clientFor(tok.token, {
        retry: { maxRetries: 2, maxRetryAfterMs: 61_000 },
        sleep: async (ms) => {
          waits.push(ms);
          await new Promise((r) => setTimeout(r, ms));
        },
      });
      const t0 = Date.now();
      const ok = await retrying.agents.run(body);
      expect(ok.status).toBe('running');
      expect(waits.length).toBeGreaterThanOrEqual(1);
      expect(waits[0]).toBeGreaterThanOrEqual(1000);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(waits[0]! - 50);
    }, 150_000);

    it('answers 401 for a malformed token', async () => {
      const e = await caught(clientFor('not-a-token').agents.list());
      expect(e).toMatchObject({ code: 'unauthorized', status: 401 });
      expect(teamTokenId).toMatch(/^tok_/);
    });
  });
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}
