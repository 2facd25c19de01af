import { fillFromRequest } from './param-filler';
import type { JsonSchemaObject, ToolDescriptor } from './ports';

const aTool = (parameters: JsonSchemaObject): ToolDescriptor => ({
  fullName: 's:t',
  server: 's',
  name: 't',
  description: '',
  parameters,
});

describe('fillFromRequest', () => {
  it('fills context fields under their aliases and message-like fields with the message', () => {
    const tool = aTool({
      type: 'object',
      properties: {
        NS: { type: 'string' },
        service_name: { type: 'string' },
        since: { type: 'string' },
        query: { type: 'string' },
        unrelated: { type: 'string' },
      },
    });
    const filled = fillFromRequest(tool, 'why 500s', {
      namespace: 'shop',
      service: 'checkout',
      time_window: '1h',
    });
    expect(filled).toEqual({
      params: { NS: 'shop', service_name: 'checkout', since: '1h', query: 'why 500s' },
      missing: [],
    });
  });

  it("uses the tool's default namespace only when the request names none", () => {
    const tool = aTool({ properties: { namespace: { type: 'string' } } });
    expect(fillFromRequest(tool, 'm', {}, 'default-ns').params).toEqual({
      namespace: 'default-ns',
    });
    expect(fillFromRequest(tool, 'm', { namespace: 'shop' }, 'default-ns').params).toEqual({
      namespace: 'shop',
    });
  });

  it('fits values to the schema: enum case, arrays; never a string where a number goes', () => {
    const tool = aTool({
      properties: {
        environment: { type: 'string', enum: ['Prod', 'Staging'] },
        severity: { type: 'string', enum: ['P1', 'P2'] },
        service: { type: 'array' },
        duration: { type: 'integer' },
      },
      required: ['severity', 'duration', 'service'],
    });
    const filled = fillFromRequest(tool, 'm', {
      environment: 'prod',
      severity: 'high',
      service: 'checkout',
      time_window: '30m',
    });
    expect(filled.params).toEqual({ environment: 'Prod', service: ['checkout'] });
    expect(filled.missing).toEqual(['severity', 'duration']);
  });

  it('reports required parameters it cannot fill', () => {
    const tool = aTool({ properties: { pod: { type: 'string' } }, required: ['pod'] });
    expect(fillFromRequest(tool, 'm', {})).toEqual({ params: {}, missing: ['pod'] });
  });
});
