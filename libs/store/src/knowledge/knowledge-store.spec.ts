import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { tempDir } from '@inquest/testing';
import { knowledgeStoreContract } from '../testing/knowledge-store.contract';
import { MongoKnowledgeStore } from './mongo-knowledge-store';
import { SqliteKnowledgeStore } from './sqlite-knowledge-store';

const dir = tempDir();
let n = 0;

describe('SqliteKnowledgeStore', () => {
  let file = '';
  knowledgeStoreContract({
    create: async () => {
      file = join(dir, `kb-${++n}.db`);
      return SqliteKnowledgeStore.open(file);
    },
    createPeer: async () => SqliteKnowledgeStore.open(file),
  });
});

const mongoUrl = process.env['INQUEST_TEST_MONGODB_URL'];
(mongoUrl ? describe : describe.skip)('MongoKnowledgeStore', () => {
  let client: MongoClient;
  let db = '';
  beforeAll(async () => {
    client = await MongoClient.connect(mongoUrl!);
  });
  afterAll(async () => {
    await client?.close();
  });
  knowledgeStoreContract({
    create: async () => {
      db = `inquest_kb_test_${process.pid}_${++n}`;
      return MongoKnowledgeStore.open(client.db(db));
    },
    createPeer: async () => MongoKnowledgeStore.open(client.db(db)),
    cleanup: async () => {
      await client.db(db).dropDatabase();
    },
  });

  it('finishes a learning that a crash interrupted after its journal entry, counting it once', async () => {
    const name = `inquest_kb_test_${process.pid}_crash`;
    const store = await MongoKnowledgeStore.open(client.db(name));
    try {
      const pattern = {
        pattern_id: 'pat_crash',
        team_id: 'team-a',
        symptoms: ['oom'],
        root_cause: 'leak',
        solution: 'restart',
        confidence: 0.45,
        base_confidence: 0.45,
        occurrences: 1,
        first_seen_at: '2026-01-01T00:00:00.000Z',
        last_seen_at: '2026-01-01T00:00:00.000Z',
        version: 0,
      };
      const edges = [
        {
          from: 'a',
          from_kind: 'service',
          to: 'b',
          to_kind: 'service',
          relation: 'depends_on',
          weight: 1,
        },
      ];
      // what a replica that died after writing the journal and the pattern left behind
      await client
        .db(name)
        .collection('kb_learning_events')
        .insertOne({
          _id: 'evt_crash' as never,
          team_id: 'team-a',
          state: 'applying',
          pattern,
          expected_version: 0,
          edges,
          at: new Date().toISOString(),
        });
      await client
        .db(name)
        .collection('kb_patterns')
        .insertOne({
          ...pattern,
          _id: 'pat_crash' as never,
          version: 1,
          events: ['evt_crash'],
        });
      expect(await store.isEventProcessed('evt_crash')).toBe(false);
      // the redelivery computes a different pattern id; the recorded change is finished instead
      const outcome = await store.applyLearning({
        eventId: 'evt_crash',
        teamId: 'team-a',
        pattern: { ...pattern, pattern_id: 'pat_other' },
        expectedVersion: 0,
        edges,
      });
      expect(outcome).toBe('applied');
      const patterns = await store.listPatterns('team-a');
      expect(patterns.map((p) => [p.pattern_id, p.version])).toEqual([['pat_crash', 1]]);
      expect((await store.edgesAround('team-a', 'a'))[0]?.weight).toBe(1);
      expect(await store.isEventProcessed('evt_crash')).toBe(true);
    } finally {
      await client.db(name).dropDatabase();
    }
  });
});
