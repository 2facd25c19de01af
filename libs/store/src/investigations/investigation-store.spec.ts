import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { tempDir } from '@inquest/testing';
import {
  investigationStoreContract,
  type InvestigationStoreFactory,
} from '../testing/investigation-store.contract';
import { MongoInvestigationStore } from './mongo-investigation-store';
import { SqliteInvestigationStore } from './sqlite-investigation-store';

const dir = tempDir();
let n = 0;
const sqlite: InvestigationStoreFactory = {
  create: async () => SqliteInvestigationStore.open(join(dir, `inv-${++n}.db`)),
};

describe('SqliteInvestigationStore', () => {
  investigationStoreContract(sqlite);

  it('keeps data across reopen (same file)', async () => {
    const file = join(dir, 'reopen.db');
    const a = SqliteInvestigationStore.open(file);
    await a.create({
      investigation_id: 'inv_keep',
      team_id: 't',
      status: 'pending',
      agent: 'planner',
      message: 'm',
      context: {},
      async: true,
      tools_used: [],
      created_at: new Date().toISOString(),
      attempt: 0,
    });
    await a.close();
    const b = SqliteInvestigationStore.open(file);
    expect((await b.getById('inv_keep'))?.agent).toBe('planner');
    await b.close();
  });
});

const mongoUrl = process.env['INQUEST_TEST_MONGODB_URL'];
(mongoUrl ? describe : describe.skip)('MongoInvestigationStore', () => {
  let client: MongoClient;
  beforeAll(async () => {
    client = await MongoClient.connect(mongoUrl!);
  });
  afterAll(async () => {
    await client?.close();
  });
  investigationStoreContract({
    create: async () =>
      MongoInvestigationStore.open(client.db(`inquest_test_${process.pid}_${++n}`)),
  });
});
