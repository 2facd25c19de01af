import { TYPE_LEVEL as CONTRACT_TYPE_LEVEL } from '@inquest/api-contract';

/** Knowledge types and their level: the contract's table, indexable by any string. */
export const TYPE_LEVEL: Readonly<Record<string, 'L1' | 'L2' | 'L3' | 'L4'>> = CONTRACT_TYPE_LEVEL;

export const KNOWLEDGE_TYPES: readonly string[] = Object.keys(TYPE_LEVEL);
