import type { Vocabulary } from '../run';

/** The tool vocabularies a scenario is served in, in report order. */
export const VOCABULARIES: Vocabulary[] = [
  {
    name: 'inquest',
    unavailable: () => 'tool server not built yet',
    start: () => Promise.reject(new Error('inquest vocabulary: tool server not built yet')),
  },
];
