import { DomainError, type DomainError as DomainErrorType } from '@inquest/errors';
import type { SecretScope } from '@inquest/secrets';
import { ServerAuth, type SecretLookup } from './server-auth';
import type { ServerEntry } from './server-entry';

const scope: SecretScope = { owner: 'team-a', prefixes: ['team-a/'] };

function anEntry(auth: ServerEntry['auth']): ServerEntry {
  return {
    name: 'k8s',
    url: 'http://k8s',
    transport: 'http',
    enabled: true,
    auth,
    authScope: scope,
  };
}

function secrets(
  values: Record<string, string>,
): SecretLookup & { seen: Array<[string, SecretScope]> } {
  const seen: Array<[string, SecretScope]> = [];
  return {
    seen,
    async resolve(ref, s) {
      seen.push([ref, s]);
      const v = values[ref];
      if (v === undefined) throw new DomainError('not_found', 'secret_not_found', `no ${ref}`);
      return v;
    },
  };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as DomainErrorType,
  );

describe('ServerAuth', () => {
  it('sends nothing for a server without auth', async () => {
    const s = secrets({});
    expect(await new ServerAuth(s).headers(anEntry(undefined))).toEqual({});
    expect(s.seen).toEqual([]);
  });

  it('resolves a bearer token in the scope of the node that set the entry', async () => {
    const s = secrets({ 'vault://team-a/k8s#token': 's3cret' });
    const auth = new ServerAuth(s);
    expect(
      await auth.headers(anEntry({ type: 'bearer', token: 'vault://team-a/k8s#token' })),
    ).toEqual({
      authorization: 'Bearer s3cret',
    });
    expect(s.seen).toEqual([['vault://team-a/k8s#token', scope]]);
  });

  it('sends an API key in the configured header', async () => {
    const auth = new ServerAuth(secrets({ ref: 'k' }));
    expect(
      await auth.headers(anEntry({ type: 'api_key', header: 'X-Api-Key', key: 'ref' })),
    ).toEqual({
      'X-Api-Key': 'k',
    });
  });

  it.each(['Host', 'content-length', 'Transfer-Encoding', 'bad header', 'x'.repeat(65)])(
    'refuses the header name %s without resolving the secret',
    async (header) => {
      const s = secrets({ ref: 'k' });
      const err = await failure(
        new ServerAuth(s).headers(anEntry({ type: 'api_key', header, key: 'ref' })),
      );
      expect(err?.code).toBe('data_source_unavailable');
      expect(err?.message).toMatch(/^tool server k8s: auth header name .* is not allowed$/);
      expect(s.seen).toEqual([]);
    },
  );

  it('says a reference did not resolve, with its code only', async () => {
    const err = await failure(
      new ServerAuth(secrets({})).headers(anEntry({ type: 'bearer', token: 'vault://x#y' })),
    );
    expect(err?.code).toBe('data_source_unavailable');
    expect(err?.message).toBe(
      'tool server k8s: credentials could not be resolved (secret_not_found)',
    );
  });

  it('never puts what a failing lookup said into the message', async () => {
    const leaky: SecretLookup = {
      resolve: () => Promise.reject(new Error('value hunter2 is malformed')),
    };
    const err = await failure(
      new ServerAuth(leaky).headers(anEntry({ type: 'bearer', token: 'ref' })),
    );
    expect(err?.message).toBe('tool server k8s: credentials could not be resolved (error)');
  });
});
