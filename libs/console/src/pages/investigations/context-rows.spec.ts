import { contextFromRows } from './context-rows';

describe('context rows', () => {
  it('builds the context from filled rows and drops blank ones', () => {
    expect(
      contextFromRows([
        { id: 1, key: 'service', value: ' checkout ' },
        { id: 2, key: '', value: '' },
        { id: 3, key: 'environment', value: 'prod' },
      ]),
    ).toEqual({ ok: true, context: { service: 'checkout', environment: 'prod' } });
    expect(contextFromRows([{ id: 1, key: '', value: ' ' }])).toEqual({
      ok: true,
      context: undefined,
    });
  });

  it('refuses what the API would refuse, naming the field', () => {
    const err = (r: ReturnType<typeof contextFromRows>) => (r.ok ? undefined : r.error);
    expect(err(contextFromRows([{ id: 1, key: 'severity', value: 'urgent' }]))).toBe(
      'severity must be one of high, medium, low.',
    );
    expect(
      err(
        contextFromRows([
          { id: 1, key: 'service', value: 'a' },
          { id: 2, key: 'service', value: 'b' },
        ]),
      ),
    ).toBe('service is given twice.');
    expect(err(contextFromRows([{ id: 1, key: '', value: 'x' }]))).toMatch(/Choose a field/);
    expect(err(contextFromRows([{ id: 1, key: 'hint', value: '' }]))).toMatch(
      /Give a value for hint/,
    );
  });
});
