import fc from 'fast-check';
import { applyDiff, diffConfigs } from './config-diff';
import { deepMerge, mergeLevels, mergePatch } from './deep-merge';
import { isPlainObject, jsonEqual, type JsonObject } from './json-value';

// Keys without dots (dot paths) and never prototype names.
const key = fc
  .stringMatching(/^[a-z_][a-z0-9_]{0,6}$/)
  .filter((k) => k !== 'constructor' && k !== 'prototype');
const scalar = fc.oneof(fc.integer(), fc.boolean(), fc.string({ maxLength: 5 }), fc.constant(null));
const { doc } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, scalar, fc.array(scalar, { maxLength: 3 }), tie('doc')),
  doc: fc.dictionary(key, tie('value'), { maxKeys: 4 }),
})) as { doc: fc.Arbitrary<JsonObject> };

/** Does some key hold an object at one level and something else at another (at any depth)? */
function typeClash(levels: JsonObject[]): boolean {
  const keys = new Set(levels.flatMap((l) => Object.keys(l)));
  for (const k of keys) {
    const vals = levels.filter((l) => k in l).map((l) => l[k]);
    const objects = vals.filter(isPlainObject) as JsonObject[];
    if (objects.length && objects.length < vals.length) return true;
    if (objects.length > 1 && typeClash(objects)) return true;
  }
  return false;
}

describe('deepMerge', () => {
  it('combines objects key by key and lets later scalars win', () => {
    expect(deepMerge({ a: { b: 1, c: 2 }, d: 'x' }, { a: { c: 3, e: 4 }, d: 'y' })).toEqual({
      a: { b: 1, c: 3, e: 4 },
      d: 'y',
    });
  });

  it('replaces arrays instead of concatenating them', () => {
    expect(deepMerge({ l: [1, 2, 3] }, { l: [9] })).toEqual({ l: [9] });
  });

  it('never merges prototype keys', () => {
    const patch = JSON.parse(
      '{"__proto__": {"polluted": true}, "a": {"constructor": {"x": 1}}}',
    ) as JsonObject;
    const out = deepMerge({}, patch);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.keys(out)).toEqual(['a']);
    expect(out['a']).toEqual({});
  });

  it('property: merging the diff back reproduces the target', () => {
    fc.assert(
      fc.property(doc, doc, (a, b) => {
        expect(jsonEqual(applyDiff(a, diffConfigs(a, b)), b)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('a later non-object resets an object: the levels merge in their order, not associatively', () => {
    // the counterexample fast-check found: b resets "k" to a list, c brings an object again
    const a = { k: { x: [] } };
    const b = { k: [] };
    const c = { k: {} };
    expect(mergeLevels([a, b, c])).toEqual({ k: {} });
    expect(deepMerge(a, deepMerge(b, c))).toEqual({ k: { x: [] } });
  });

  it('property: merge is associative over levels whose keys keep their type', () => {
    fc.assert(
      fc.property(doc, doc, doc, (a, b, c) => {
        // real levels share one schema; a key that is an object at one level and not at another
        // makes a later level reset it, which only the left-to-right order (mergeLevels) expresses
        fc.pre(!typeClash([a, b, c]));
        const left = deepMerge(deepMerge(a, b), c);
        const right = deepMerge(a, deepMerge(b, c));
        expect(jsonEqual(left, right)).toBe(true);
        expect(jsonEqual(mergeLevels([a, b, c]), left)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('property: arrays are never concatenated (the later array wins whole)', () => {
    fc.assert(
      fc.property(doc, key, fc.array(scalar), fc.array(scalar), (base, k, arrA, arrB) => {
        const out = deepMerge({ ...base, [k]: arrA }, { [k]: arrB });
        expect(out[k]).toEqual(arrB);
      }),
    );
  });

  it('property: every key of the patch ends up with the patch value unless both sides are objects', () => {
    fc.assert(
      fc.property(doc, doc, (a, b) => {
        const out = deepMerge(a, b);
        for (const [k, v] of Object.entries(b)) {
          if (isPlainObject(v) && isPlainObject(a[k])) continue;
          expect(jsonEqual(out[k], v)).toBe(true);
        }
      }),
    );
  });

  it('property: the diff of a document with itself is empty', () => {
    fc.assert(fc.property(doc, (a) => expect(diffConfigs(a, structuredClone(a))).toEqual({})));
  });
});

describe('diffConfigs', () => {
  it('reports leaves as dot paths with old and new', () => {
    expect(
      diffConfigs(
        { agents: { investigation_agent: { timeout: 300, enabled: true } }, l: [1] },
        {
          agents: { investigation_agent: { timeout: 600, enabled: true } },
          l: [1, 2],
          n: { x: 1 },
        },
      ),
    ).toEqual({
      'agents.investigation_agent.timeout': { old: 300, new: 600 },
      l: { old: [1], new: [1, 2] },
      'n.x': { old: undefined, new: 1 },
    });
  });
});

describe('mergePatch (RFC 7396)', () => {
  it('merges objects, deletes on null, replaces arrays and scalars', () => {
    const target = { a: 1, b: { c: 2, d: [1, 2] }, e: { f: 1 } };
    expect(
      mergePatch(target, { a: null, b: { c: null, d: [3] }, e: null, g: { h: null } }),
    ).toEqual({ b: { d: [3] }, g: {} });
    expect(target).toEqual({ a: 1, b: { c: 2, d: [1, 2] }, e: { f: 1 } });
  });

  it('is deepMerge when the patch holds no null', () => {
    fc.assert(
      fc.property(doc, doc, (a, b) => {
        const noNull = (v: JsonObject): JsonObject =>
          Object.fromEntries(
            Object.entries(v)
              .filter(([, x]) => x !== null)
              .map(([k, x]) => [k, isPlainObject(x) ? noNull(x) : x]),
          );
        expect(mergePatch(a, noNull(b))).toEqual(deepMerge(a, noNull(b)));
      }),
    );
  });
});
