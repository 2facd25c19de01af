import { type DomainError } from '@inquest/errors';
import { Subjects, type EventOf, type EventSubject } from '@inquest/events';
import { openSqliteConfigStores, type ConfigStores, type NodeRecord } from '@inquest/store';
import { notFound } from '@inquest/errors';
import { hashSecret } from './team-token';
import { TeamTokens } from './team-tokens';

const NODES: Record<string, NodeRecord> = {
  acme: {
    node_id: 'acme',
    parent_id: null,
    kind: 'org',
    name: 'Acme',
    org_id: 'acme',
    created_at: '',
  },
  payments: {
    node_id: 'payments',
    parent_id: 'acme',
    kind: 'team',
    name: 'Payments',
    org_id: 'acme',
    created_at: '',
  },
};

let stores: ConfigStores;
let events: Array<{ subject: string; data: EventOf<EventSubject> }>;
let tokens: TeamTokens;

beforeEach(() => {
  stores = openSqliteConfigStores(':memory:');
  events = [];
  tokens = new TeamTokens({
    tokens: stores.tokens,
    requireNode: async (id) => {
      const n = NODES[id];
      if (!n) throw notFound(`node ${id} not found`);
      return n;
    },
    publish: async (subject, data) => {
      events.push({ subject, data });
    },
  });
});

afterEach(() => stores.close());

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as DomainError,
  );
const issue = (over: Record<string, unknown> = {}) =>
  tokens.issue({ team_id: 'payments', permissions: ['read'], owner: 'dev@example.com', ...over });

describe('TeamTokens.issue', () => {
  it('issues <token_id>.<secret> and stores only a hash of the secret', async () => {
    const { token, info } = await issue({ permissions: ['write', 'read', 'read'], label: 'ci' });
    const [id, secret] = token.split('.');
    expect(id).toMatch(/^tok_[a-z2-7]{20}$/);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(info).toMatchObject({
      token_id: id,
      team_id: 'payments',
      permissions: ['read', 'write'],
      owner: 'dev@example.com',
      label: 'ci',
    });
    expect(info).not.toHaveProperty('secret_hash');
    const stored = await stores.tokens.get(id!);
    expect(stored?.secret_hash).toBe(hashSecret(secret!));
    expect(JSON.stringify(stored)).not.toContain(secret);
  });

  it('reports every problem at once', async () => {
    const err = await failure(
      issue({ permissions: ['write'], owner: 'nobody', expires_at: '2000-01-01T00:00:00Z' }),
    );
    expect(err?.code).toBe('validation_error');
    expect(err?.options.errors?.map((e) => e.field)).toEqual([
      'permissions',
      'owner',
      'expires_at',
    ]);
    expect((await failure(issue({ expires_at: 'soon' })))?.options.errors).toEqual([
      { field: 'expires_at', error: 'must be an ISO 8601 timestamp' },
    ]);
  });

  it('issues only for a team', async () => {
    expect((await failure(issue({ team_id: 'acme' })))?.code).toBe('invalid_request');
    expect((await failure(issue({ team_id: 'nope' })))?.code).toBe('not_found');
  });
});

describe('TeamTokens.verify', () => {
  it('knows a valid token, and nothing about a wrong, malformed or unknown one', async () => {
    const { token, info } = await issue();
    expect(await tokens.verify(token)).toEqual(info);
    const [id] = token.split('.');
    expect(await tokens.verify(`${id}.${'A'.repeat(43)}`)).toBeUndefined();
    expect(await tokens.verify('garbage')).toBeUndefined();
    expect(await tokens.verify(`tok_${'a'.repeat(20)}.${'A'.repeat(43)}`)).toBeUndefined();
  });

  it('refuses a revoked or an expired token', async () => {
    const { token, info } = await issue();
    await tokens.revoke(info.token_id);
    expect(await tokens.verify(token)).toBeUndefined();
    const secret = 'B'.repeat(43);
    await stores.tokens.insert({
      token_id: `tok_${'b'.repeat(20)}`,
      team_id: 'payments',
      permissions: ['read'],
      owner: 'old@example.com',
      created_at: '2020-01-01T00:00:00.000Z',
      expires_at: '2021-01-01T00:00:00.000Z',
      secret_hash: hashSecret(secret),
    });
    expect(await tokens.verify(`tok_${'b'.repeat(20)}.${secret}`)).toBeUndefined();
  });
});

describe('TeamTokens.revoke and list', () => {
  it('announces a revocation once', async () => {
    const { info } = await issue();
    const first = await tokens.revoke(info.token_id);
    expect(first.revoked_at).toBeTruthy();
    await tokens.revoke(info.token_id);
    expect(
      events.map((e) => [e.subject, 'token_id' in e.data && e.data.token_id, e.data.team_id]),
    ).toEqual([[Subjects.tokenRevoked, info.token_id, 'payments']]);
    expect((await failure(tokens.revoke(`tok_${'c'.repeat(20)}`)))?.code).toBe('not_found');
  });

  it("lists a team's tokens without their hashes", async () => {
    await issue({ owner: 'a@example.com' });
    await issue({ owner: 'b@example.com' });
    const listed = await tokens.list('payments');
    expect(listed.map((t) => t.owner)).toEqual(['a@example.com', 'b@example.com']);
    expect(listed.some((t) => 'secret_hash' in t)).toBe(false);
    expect((await failure(tokens.list('nope')))?.code).toBe('not_found');
  });
});
