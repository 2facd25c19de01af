import { tempDir } from '@inquest/testing';
import { join } from 'node:path';
import { QdrantVectorIndex } from './qdrant/qdrant-vector-index';
import { SqliteVectorIndex } from './sqlite/sqlite-vector-index';
import { vectorIndexContract } from './testing/vector-index.contract';
import type { VectorIndex } from './vector-index';

const qdrantUrl = process.env['INQUEST_TEST_QDRANT_URL'];
let n = 0;
const dir = tempDir();

const adapters: [string, () => Promise<VectorIndex>][] = [
  [
    'sqlite',
    async () =>
      SqliteVectorIndex.open({
        file: join(dir, `v${n++}.db`),
        space: { model: 'test-model', dimensions: 16 },
      }),
  ],
  [
    'sqlite, BM25 in a worker thread',
    async () =>
      SqliteVectorIndex.open({
        file: join(dir, `v${n++}.db`),
        space: { model: 'test-model', dimensions: 16 },
        sparseWorkerFrom: 0,
      }),
  ],
];
if (qdrantUrl) {
  adapters.push([
    'qdrant',
    async () =>
      new QdrantVectorIndex({
        url: qdrantUrl,
        prefix: `inquest_test_${process.pid}_${n++}`,
        space: { model: 'test-model', dimensions: 16 },
      }),
  ]);
}

describe.each(adapters)('VectorIndex contract: %s', (_name, make) => {
  vectorIndexContract(make);
});

if (!qdrantUrl) {
  describe('VectorIndex contract: qdrant', () => {
    it.skip('runs only when INQUEST_TEST_QDRANT_URL is set', () => undefined);
  });
}
