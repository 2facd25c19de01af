import { AGENT_NAMES, schemaProblems } from '@inquest/config-model';
import {
  AGENTS,
  AGENT_GROUPS,
  FORM_GROUPS,
  formInputPaths,
  fromInputText,
  toInputText,
  type FieldSpec,
} from './config-fields';
import { withValueAt } from './config-draft';

const sample = (f: FieldSpec): unknown => {
  if (f.path.endsWith('reranker')) return 'mmr';
  switch (f.kind) {
    case 'url':
      return 'https://hooks.example.test/x';
    case 'vault':
      return 'vault://inquest/team-a/x';
    case 'number':
      return 0.5;
    case 'integer':
      return 3;
    case 'flag':
      return true;
    case 'select':
      return f.options![0];
    case 'list':
      return ['lead@acme.test'];
    default:
      return 'x';
  }
};

describe('the form inputs', () => {
  it('name the agents config-model knows', () => {
    expect([...AGENTS]).toEqual([...AGENT_NAMES]);
  });

  it('are all fields of the schema, with values of the right type', () => {
    let doc: Record<string, unknown> = {};
    for (const f of [...FORM_GROUPS, ...AGENT_GROUPS].flatMap((g) => g.fields)) {
      doc = withValueAt(doc, f.path, sample(f));
    }
    expect(schemaProblems(doc)).toEqual([]);
  });

  it('list every input path once, servers included', () => {
    const paths = formInputPaths(2);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toContain('agents.planner.timeout');
    expect(paths).toContain('mcp_servers.1.url');
    expect(paths).not.toContain('mcp_servers.2.url');
  });
});

describe('input text <-> value', () => {
  it('round-trips each kind, empty text meaning "not set here"', () => {
    expect(fromInputText('list', ' a \n\n b ')).toEqual(['a', 'b']);
    expect(toInputText('list', ['a', 'b'])).toBe('a\nb');
    expect(fromInputText('flag', 'on')).toBe(true);
    expect(fromInputText('flag', 'off')).toBe(false);
    expect(toInputText('flag', false)).toBe('off');
    expect(fromInputText('integer', '30')).toBe(30);
    expect(fromInputText('number', '0.25')).toBe(0.25);
    expect(fromInputText('text', '  ')).toBeUndefined();
    expect(fromInputText('flag', '')).toBeUndefined();
    expect(toInputText('integer', undefined)).toBe('');
  });

  it('keeps a number that does not parse as text, so the API names the field', () => {
    expect(fromInputText('integer', '12x')).toBe('12x');
  });
});
