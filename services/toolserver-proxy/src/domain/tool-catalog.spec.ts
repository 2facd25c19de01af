import { isDomainError, type DomainError } from '@inquest/errors';
import { ToolCatalog } from './tool-catalog';
import type { RawToolDefinition } from './tool-server-client';

const objectSchema = (properties: Record<string, unknown> = {}, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
});

describe('ToolCatalog.compile', () => {
  const catalog = new ToolCatalog();

  it('lists a well-formed tool under <server>:<name> with its schema and description', () => {
    const { tools, rejected } = catalog.compile('k8s', [
      {
        name: 'get_pods',
        description: 'Lists pods',
        parameters: objectSchema({ ns: { type: 'string' } }),
      },
    ]);
    expect(rejected.size).toBe(0);
    expect(tools.get('get_pods')?.def).toEqual({
      full_name: 'k8s:get_pods',
      server: 'k8s',
      name: 'get_pods',
      description: 'Lists pods',
      parameters: objectSchema({ ns: { type: 'string' } }),
    });
    expect(tools.get('get_pods')?.destructive).toBe(false);
  });

  it('gives a tool without parameters an empty object schema', () => {
    const { tools } = catalog.compile('s', [{ name: 'ping' }]);
    expect(tools.get('ping')?.def.parameters).toEqual({ type: 'object', properties: {} });
    expect(tools.get('ping')?.validate({})).toBe(true);
  });

  it('rejects bad names, non-object schemas, oversized and invalid schemas, with the reason', () => {
    const huge = objectSchema(
      Object.fromEntries(
        Array.from({ length: 2000 }, (_, i) => [
          `p${i}`,
          { type: 'string', description: 'x'.repeat(30) },
        ]),
      ),
    );
    const raw: RawToolDefinition[] = [
      { name: '' },
      { name: '../etc' },
      { name: 'arr', parameters: { type: 'array' } },
      { name: 'list', parameters: [] },
      { name: 'big', parameters: huge },
      {
        name: 'broken',
        parameters: { type: 'object', properties: { a: { type: 'no-such-type' } } },
      },
    ];
    const { tools, rejected } = catalog.compile('s', raw);
    expect(tools.size).toBe(0);
    expect(rejected.get('(unnamed)')).toMatch(/non-empty string/);
    expect(rejected.get('../etc')).toMatch(/may only hold/);
    expect(rejected.get('arr')).toBe('parameters must be a JSON schema of type object');
    expect(rejected.get('list')).toBe('parameters must be a JSON schema of type object');
    expect(rejected.get('big')).toBe('parameter schema is too large');
    expect(rejected.get('broken')).toMatch(/^invalid parameter schema: /);
  });

  it('keeps the first of two tools with the same name and at most 500 tools', () => {
    const { tools } = catalog.compile('s', [
      { name: 'a', description: 'first' },
      { name: 'a', description: 'second' },
    ]);
    expect(tools.get('a')?.def.description).toBe('first');
    const many = catalog.compile(
      's',
      Array.from({ length: 600 }, (_, i) => ({ name: `t${i}` })),
    );
    expect(many.tools.size).toBe(500);
  });

  it('carries the contract flags as MCP annotations and marks writers destructive', () => {
    const { tools } = catalog.compile('s', [
      { name: 'restart_pod', description: 'Restarts a pod' },
      { name: 'get_logs', read_only: true },
      { name: 'harmless', destructive: true },
      { name: 'peek', annotations: { readOnlyHint: false } },
      { name: 'look', annotations: { title: 'Look' } },
    ]);
    expect(tools.get('restart_pod')?.destructive).toBe(true);
    expect(tools.get('restart_pod')?.def.annotations).toBeUndefined();
    expect(tools.get('get_logs')?.def.annotations).toEqual({ readOnlyHint: true });
    expect(tools.get('get_logs')?.destructive).toBe(false);
    expect(tools.get('harmless')?.def.annotations).toEqual({ destructiveHint: true });
    expect(tools.get('harmless')?.destructive).toBe(true);
    expect(tools.get('peek')?.destructive).toBe(true);
    expect(tools.get('look')?.def.annotations).toEqual({ title: 'Look' });
    expect(tools.get('look')?.destructive).toBe(false);
  });

  it('cuts descriptions at 4000 characters', () => {
    const { tools } = catalog.compile('s', [{ name: 'a', description: 'd'.repeat(5000) }]);
    expect(tools.get('a')?.def.description).toHaveLength(4000);
  });

  it('compiles one validator for the same schema on two servers, whatever its $id', () => {
    const a = catalog.compile('s1', [{ name: 'x', parameters: { ...objectSchema(), $id: 'one' } }]);
    const b = catalog.compile('s2', [{ name: 'y', parameters: { ...objectSchema(), $id: 'two' } }]);
    expect(a.tools.get('x')?.validate).toBe(b.tools.get('y')?.validate);
  });
});

describe('ToolCatalog.checkParameters', () => {
  const catalog = new ToolCatalog();
  const tool = catalog
    .compile('k8s', [
      {
        name: 'get_logs',
        parameters: {
          ...objectSchema({ pod: { type: 'string' }, lines: { type: 'integer', maximum: 100 } }, [
            'pod',
          ]),
          additionalProperties: false,
        },
      },
    ])
    .tools.get('get_logs')!;

  it('accepts parameters that fit', () => {
    expect(() => catalog.checkParameters(tool, { pod: 'web-1', lines: 10 })).not.toThrow();
  });

  it('names each wrong field: missing, not allowed, out of range', () => {
    let err: unknown;
    try {
      catalog.checkParameters(tool, { lines: 500, extra: true });
    } catch (e) {
      err = e;
    }
    expect(isDomainError(err)).toBe(true);
    const e = err as DomainError;
    expect(e.code).toBe('validation_error');
    expect(e.message).toMatch(/^invalid parameters for k8s:get_logs: /);
    const fields = e.options.errors;
    expect(fields).toEqual(
      expect.arrayContaining([
        { field: 'parameters.pod', error: expect.stringContaining('required') },
        { field: 'parameters.extra', error: 'is not allowed' },
        { field: 'parameters.lines', error: expect.stringContaining('100') },
      ]),
    );
  });
});
