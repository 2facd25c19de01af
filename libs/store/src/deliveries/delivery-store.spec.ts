import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { tempDir } from '@inquest/testing';
import { deliveryStoreContract, aNewDelivery } from '../testing/delivery-store.contract';
import { MongoDeliveryStore } from './mongo-delivery-store';
import { SqliteDeliveryStore } from './sqlite-delivery-store';

const dir = tempDir();
let n = 0;
let file = '';

describe('SqliteDeliveryStore', () => {
  deliveryStoreContract({
    create: async () => SqliteDeliveryStore.open((file = join(dir, `dlv-${++n}.db`))),
    createPeer: async () => SqliteDeliveryStore.open(file),
  });

  it('keeps deliveries and claims across reopen (same file)', async () => {
    const f = join(dir, 'reopen.db');
    const a = SqliteDeliveryStore.open(f);
    const d = aNewDelivery();
    await a.create(d);
    await a.close();
    const b = SqliteDeliveryStore.open(f);
    expect((await b.get(d.delivery_id))?.status).toBe('pending');
    expect(
      await b.claimDue({ owner: 'x', now: new Date().toISOString(), leaseMs: 1000, limit: 5 }),
    ).toHaveLength(1);
    await b.close();
  });
});

const mongoUrl = process.env['INQUEST_TEST_MONGODB_URL'];
(mongoUrl ? describe : describe.skip)('MongoDeliveryStore', () => {
  let client: MongoClient;
  let db = '';
  beforeAll(async () => {
    client = await MongoClient.connect(mongoUrl!);
  });
  afterAll(async () => {
    await client?.close();
  });
  deliveryStoreContract({
    create: async () =>
      MongoDeliveryStore.open(client.db((db = `inquest_dlv_${process.pid}_${++n}`))),
    createPeer: async () => MongoDeliveryStore.open(client.db(db)),
    cleanup: async () => {
      await client.db(db).dropDatabase();
    },
  });
});
