import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { tempDir } from '@inquest/testing';
import { MongoSeenEvents } from './mongo-seen-events';
import { InMemorySeenEvents, type SeenEvents } from './seen-events';
import { SqliteSeenEvents } from './sqlite-seen-events';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 25, 12);
const dir = tempDir();
const mongoUrl = process.env['INQUEST_TEST_MONGODB_URL'];
let n = 0;

/** Two stores as two gateway replicas would open them; `shared` when they see each other. */
interface Pair {
  a: SeenEvents;
  b: SeenEvents;
  shared: boolean;
  cleanup?: () => Promise<void>;
}

const adapters: [string, () => Promise<Pair>][] = [
  [
    'memory',
    async () => ({ a: new InMemorySeenEvents(), b: new InMemorySeenEvents(), shared: false }),
  ],
  [
    'sqlite',
    async () => {
      const file = join(dir, `seen-${++n}.db`);
      return { a: new SqliteSeenEvents(file), b: new SqliteSeenEvents(file), shared: true };
    },
  ],
];
if (mongoUrl)
  adapters.push([
    'mongo',
    async () => {
      const client = await MongoClient.connect(mongoUrl);
      const db = client.db(`inquest_gw_seen_${process.pid}_${++n}`);
      return {
        a: await MongoSeenEvents.open(db),
        b: await MongoSeenEvents.open(db),
        shared: true,
        cleanup: async () => {
          await db.dropDatabase();
          await client.close();
        },
      };
    },
  ]);

describe.each(adapters)('SeenEvents: %s', (_name, make) => {
  let p: Pair;
  beforeEach(async () => {
    p = await make();
  });
  afterEach(async () => {
    await p.a.close();
    await p.b.close();
    await p.cleanup?.();
  });

  it('answers true once per id within the hour, then true again after it', async () => {
    expect(await p.a.first('event:acme:Ev1', T0)).toBe(true);
    expect(await p.a.first('event:acme:Ev1', T0 + 1000)).toBe(false);
    expect(await p.a.first('event:acme:Ev2', T0 + 1000)).toBe(true);
    expect(await p.a.first('event:acme:Ev1', T0 + HOUR - 1)).toBe(false);
    expect(await p.a.first('event:acme:Ev1', T0 + HOUR + 1)).toBe(true);
    expect(await p.a.first('event:acme:Ev1', T0 + HOUR + 2)).toBe(false);
  });

  it('is shared by replicas when the store is', async () => {
    expect(await p.a.first('event:acme:Ev3', T0)).toBe(true);
    expect(await p.b.first('event:acme:Ev3', T0 + 500)).toBe(!p.shared);
    if (!p.shared) return;
    // the same retry reaching both replicas at once: exactly one wins
    const both = await Promise.all([
      p.a.first('event:acme:Ev4', T0),
      p.b.first('event:acme:Ev4', T0),
      p.a.first('event:acme:Ev4', T0),
      p.b.first('event:acme:Ev4', T0),
    ]);
    expect(both.filter(Boolean)).toHaveLength(1);
  });
});

it('SqliteSeenEvents creates its file on first use and keeps deciding across its sweeps', async () => {
  const file = join(dir, 'lazy', 'gateway.db');
  const s = new SqliteSeenEvents(file, 1000);
  expect(existsSync(file)).toBe(false);
  for (let i = 0; i < 500; i++) expect(await s.first(`e${i}`, T0)).toBe(true);
  expect(await s.first('late', T0 + 5000)).toBe(true);
  for (let i = 0; i < 499; i++) await s.first(`f${i}`, T0 + 5000);
  // the 1000th first sighting swept the expired ones: those are new again, live ones are not
  expect(await s.first('e1', T0 + 5001)).toBe(true);
  expect(await s.first('late', T0 + 5001)).toBe(false);
  expect(existsSync(file)).toBe(true);
  await s.close();
});
