import { z } from 'zod';
import { parseEnv } from './env';
import { envMongo, mongoFromEnv } from './mongo-env';

const Schema = z.object({ ...envMongo });
const settings = (env: Record<string, string>) => mongoFromEnv(parseEnv(Schema, env));

describe('envMongo / mongoFromEnv', () => {
  it('is off without a URL', () => {
    expect(settings({})).toBeUndefined();
    expect(settings({ INQUEST_MONGODB_DB: 'acme' })).toBeUndefined();
  });

  it('takes INQUEST_MONGODB_DB before the URL path', () => {
    expect(
      settings({ INQUEST_MONGODB_URL: 'mongodb://db:27017/fromurl', INQUEST_MONGODB_DB: 'acme' }),
    ).toEqual({ url: 'mongodb://db:27017/fromurl', dbName: 'acme' });
  });

  it('else the URL path (also for mongodb+srv and several hosts, before the options)', () => {
    expect(settings({ INQUEST_MONGODB_URL: 'mongodb://db:27017/prod?replicaSet=rs0' })).toEqual({
      url: 'mongodb://db:27017/prod?replicaSet=rs0',
      dbName: 'prod',
    });
    expect(
      settings({ INQUEST_MONGODB_URL: 'mongodb+srv://u:p@cluster.example.com/ops' })?.dbName,
    ).toBe('ops');
    expect(
      settings({ INQUEST_MONGODB_URL: 'mongodb://a:27017,b:27017/multi?replicaSet=rs0' })?.dbName,
    ).toBe('multi');
  });

  it("else `inquest`, never the driver's `test`", () => {
    for (const url of ['mongodb://db:27017', 'mongodb://db:27017/', 'mongodb://db/?replicaSet=rs0'])
      expect(settings({ INQUEST_MONGODB_URL: url })?.dbName).toBe('inquest');
  });

  it('refuses what is not a MongoDB URL or database name, naming the variable', () => {
    expect(() => settings({ INQUEST_MONGODB_URL: 'http://db' })).toThrow(/^INQUEST_MONGODB_URL: /);
    expect(() =>
      settings({ INQUEST_MONGODB_URL: 'mongodb://db', INQUEST_MONGODB_DB: 'a/b' }),
    ).toThrow(/^INQUEST_MONGODB_DB: expected a MongoDB database name/);
  });
});
