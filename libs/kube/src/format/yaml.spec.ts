import { parse } from 'yaml';
import { toYaml } from './yaml';

describe('toYaml', () => {
  it('prints an object as kubectl -o yaml would, without managedFields', () => {
    const text = toYaml({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'c',
        creationTimestamp: new Date('2026-03-12T10:00:00Z'),
        managedFields: [{ manager: 'kubectl' }],
        skipped: undefined,
      },
      data: { 'app.yaml': 'a: 1\nb: 2\n' },
    });
    expect(text).not.toContain('managedFields');
    expect(text).toContain('creationTimestamp: 2026-03-12T10:00:00.000Z');
    expect(parse(text)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', creationTimestamp: '2026-03-12T10:00:00.000Z' },
      data: { 'app.yaml': 'a: 1\nb: 2\n' },
    });
  });
});
