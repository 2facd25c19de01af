import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { tempDir } from '@inquest/testing';
import { alertStoreContract } from '../testing/alert-store.contract';
import { MongoAlertStore } from './mongo-alert-store';
import { SqliteAlertStore } from './sqlite-alert-store';

const dir = tempDir();
let n = 0;

describe('SqliteAlertStore', () => {
  alertStoreContract({ create: async () => SqliteAlertStore.open(join(dir, `alerts-${++n}.db`)) });
});

const mongoUrl = process.env['INQUEST_TEST_MONGODB_URL'];
(mongoUrl ? describe : describe.skip)('MongoAlertStore', () => {
  let client: MongoClient;
  beforeAll(async () => {
    client = await MongoClient.connect(mongoUrl!);
  });
  afterAll(async () => {
    await client?.close();
  });
  alertStoreContract({
    create: async () => MongoAlertStore.open(client.db(`inquest_alerts_${process.pid}_${++n}`)),
  });
});
