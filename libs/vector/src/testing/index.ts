export { vectorIndexContract, aChunk, testVector } from './vector-index.contract';
