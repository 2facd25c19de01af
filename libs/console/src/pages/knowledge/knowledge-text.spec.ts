import { KNOWLEDGE_TYPES as API_TYPES } from '@inquest/api-contract';
import { InquestError } from '@inquest/client';
import {
  KNOWLEDGE_TYPES,
  citeAnswer,
  fieldProblems,
  markTerms,
  parseTags,
  percent,
  shownOnFields,
  snippet,
} from './knowledge-text';

describe('knowledge types', () => {
  it('offers exactly the types the API accepts', () => {
    expect([...KNOWLEDGE_TYPES].sort()).toEqual([...API_TYPES].sort());
  });
});

describe('citeAnswer', () => {
  it('turns [n] into citations of existing sources and keeps the text around them', () => {
    expect(citeAnswer('[1] Restart the pod. [2] Check the pool [3].', 2)).toEqual([
      { cite: 1 },
      { text: ' Restart the pod. ' },
      { cite: 2 },
      { text: ' Check the pool [3].' },
    ]);
    expect(citeAnswer('No sources.', 0)).toEqual([{ text: 'No sources.' }]);
    expect(citeAnswer('array[0] is [0]', 3)).toEqual([{ text: 'array[0] is [0]' }]);
  });
});

describe('snippet', () => {
  it('collapses whitespace and cuts long passages on a word boundary', () => {
    expect(snippet('a\n\n b   c')).toBe('a b c');
    const s = snippet('word '.repeat(100), 40);
    expect(s.length).toBeLessThanOrEqual(41);
    expect(s.endsWith('word…')).toBe(true);
  });
});

describe('markTerms', () => {
  it('marks the query words, longest first, case-insensitively', () => {
    expect(markTerms('Postgres pool exhausted on postgres-main', 'postgres POOL of')).toEqual([
      { text: 'Postgres', mark: true },
      { text: ' ', mark: false },
      { text: 'pool', mark: true },
      { text: ' exhausted on ', mark: false },
      { text: 'postgres', mark: true },
      { text: '-main', mark: false },
    ]);
    expect(markTerms('a (b) c', 'a')).toEqual([{ text: 'a (b) c', mark: false }]);
    expect(markTerms('x [y+z] w', '[y+z]').some((p) => p.mark)).toBe(false);
  });
});

describe('parseTags and percent', () => {
  it('splits tags and formats shares', () => {
    expect(parseTags(' db, pool ,\n,db\nsev1 ')).toEqual(['db', 'pool', 'sev1']);
    expect(parseTags('')).toEqual([]);
    expect(percent(0.834)).toBe('83%');
  });
});

describe('fieldProblems', () => {
  it('maps the API validation problems to their fields, first problem per field', () => {
    const e = new InquestError({
      code: 'validation_error',
      status: 400,
      message: 'invalid',
      details: { field: 'type', error: 'unknown type' },
      errors: [
        { field: 'type', error: 'unknown type' },
        { field: 'content', error: 'must not be empty' },
        { field: 'content', error: 'second' },
      ],
    });
    expect(fieldProblems(e)).toEqual({ type: 'unknown type', content: 'must not be empty' });
    expect(
      fieldProblems(new InquestError({ code: 'invalid_field', message: 'no', field: 'x' })),
    ).toEqual({ x: 'no' });
    expect(fieldProblems(new Error('plain'))).toEqual({});
    expect(fieldProblems(undefined)).toEqual({});
    expect(shownOnFields(e, ['type', 'content', 'title'])).toBe(true);
    expect(shownOnFields(e, ['content'])).toBe(false);
    expect(shownOnFields(new Error('x'), ['content'])).toBe(false);
  });
});
