import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { tempDir } from '@inquest/testing';
import { configStoresContract, type ConfigStoresFactory } from '../testing/config-store.contract';
import { connectMongoConfigStores } from './mongo-config-stores';
import { openSqliteConfigStores } from './sqlite-config-stores';

const dir = tempDir();
let n = 0;

describe('SQLite config stores', () => {
  const factory: ConfigStoresFactory = {
    create: async () => openSqliteConfigStores(join(dir, `config-${++n}.db`)),
  };
  configStoresContract(factory);

  it('keeps configs and versions across reopen', async () => {
    const file = join(dir, 'reopen.db');
    const a = openSqliteConfigStores(file);
    await a.nodes.createNode({
      node_id: 'acme',
      parent_id: null,
      kind: 'org',
      name: 'Acme',
      org_id: 'acme',
      created_at: new Date().toISOString(),
    });
    await a.nodes.writeConfig({
      node_id: 'acme',
      expected_version: 0,
      config: { chat_channel: '#ops' },
      audit: {
        changed_at: new Date().toISOString(),
        changed_by: 'admin',
        diff: {},
        full_config: {},
      },
    });
    await a.close();
    const b = openSqliteConfigStores(file);
    expect(await b.nodes.getConfig('acme')).toEqual({
      node_id: 'acme',
      config: { chat_channel: '#ops' },
      version: 1,
    });
    await b.close();
  });
});

const mongoUrl = process.env['INQUEST_TEST_MONGODB_URL'];
(mongoUrl ? describe : describe.skip)('MongoDB config stores', () => {
  let client: MongoClient;
  let dbName = '';
  beforeAll(async () => {
    client = await MongoClient.connect(mongoUrl!);
  });
  afterAll(async () => {
    await client?.close();
  });
  configStoresContract({
    create: () => {
      dbName = `inquest_test_cfg_${process.pid}_${++n}`;
      return connectMongoConfigStores(mongoUrl!, { dbName });
    },
    cleanup: async () => {
      await client.db(dbName).dropDatabase();
    },
  });
});
