import { agentConfigOf, planAgents, selectTools, toolSettingsOf } from './agents';
import type { ToolDescriptor } from './ports';
import { BUILTIN_TOOLS } from './tool-runner';

const tool = (server: string, name: string, description = ''): ToolDescriptor => ({
  fullName: `${server}:${name}`,
  server,
  name,
  description,
  parameters: { type: 'object', properties: {} },
});

describe('agentConfigOf', () => {
  it('reads agents.<name> with defaults for what is missing or wrong', () => {
    const effective = {
      agents: {
        k8s_agent: {
          prompt: 'Be brief.',
          enabled: false,
          timeout: 60,
          disable_default_tools: ['knowledge_search', 3],
          enable_extra_tools: ['prom:query'],
        },
        cloud_agent: { prompt: '  ', timeout: 1.5 },
      },
    };
    expect(agentConfigOf(effective, 'k8s_agent')).toEqual({
      prompt: 'Be brief.',
      enabled: false,
      timeoutSeconds: 60,
      disableDefaultTools: ['knowledge_search'],
      enableExtraTools: ['prom:query'],
    });
    expect(agentConfigOf(effective, 'cloud_agent')).toEqual({
      prompt: undefined,
      enabled: true,
      timeoutSeconds: 300,
      disableDefaultTools: [],
      enableExtraTools: [],
    });
  });
});

describe('agentConfigOf with the spec name code_fix_agent', () => {
  it('configures coding_agent through agents.code_fix_agent; coding_agent keys win', () => {
    const aliasOnly = {
      agents: { code_fix_agent: { enabled: false, timeout: 90, prompt: 'Diff.' } },
    };
    expect(agentConfigOf(aliasOnly, 'coding_agent')).toMatchObject({
      enabled: false,
      timeoutSeconds: 90,
      prompt: 'Diff.',
    });
    expect(agentConfigOf(aliasOnly, 'investigation_agent').enabled).toBe(true);
    const both = { agents: { code_fix_agent: { timeout: 90 }, coding_agent: { timeout: 20 } } };
    expect(agentConfigOf(both, 'coding_agent').timeoutSeconds).toBe(20);
  });
});

describe('toolSettingsOf', () => {
  it('finds tools.<name> by full name or by the bare tool name', () => {
    const effective = {
      tools: { 'k8s:get_logs': { enabled: false }, list_pods: { default_namespace: 'shop' } },
    };
    expect(toolSettingsOf(effective, 'k8s:get_logs')).toEqual({
      enabled: false,
      defaultNamespace: undefined,
    });
    expect(toolSettingsOf(effective, 'k8s:list_pods')).toEqual({
      enabled: true,
      defaultNamespace: 'shop',
    });
  });
});

describe('selectTools', () => {
  const available = [
    tool('k8s', 'list_pods', 'Lists Kubernetes pods'),
    tool('prom', 'query', 'Runs a PromQL query'),
  ];

  it('gives an agent the built-ins and the tools of its area, minus disabled, plus extras', () => {
    const cfg = {
      ...agentConfigOf({}, 'k8s_agent'),
      disableDefaultTools: ['knowledge_search'],
      enableExtraTools: ['prom:query', 'no:such'],
    };
    const names = selectTools('k8s_agent', cfg, {}, available, BUILTIN_TOOLS).map(
      (t) => t.fullName,
    );
    expect(names).toContain('k8s:list_pods');
    expect(names).toContain('prom:query');
    expect(names).not.toContain('knowledge_search');
    expect(names).not.toContain('no:such');
  });

  it('leaves out a tool turned off in tools.<name>, even as an extra', () => {
    const cfg = { ...agentConfigOf({}, 'investigation_agent'), enableExtraTools: ['prom:query'] };
    const effective = { tools: { 'prom:query': { enabled: false } } };
    const names = selectTools('investigation_agent', cfg, effective, available, BUILTIN_TOOLS).map(
      (t) => t.fullName,
    );
    expect(names).not.toContain('prom:query');
    expect(names).toContain('k8s:list_pods');
  });
});

describe('planAgents', () => {
  it('always runs investigation_agent, last', () => {
    expect(planAgents('something is slow', {})).toEqual(['investigation_agent']);
  });

  it('adds the k8s, cloud and coding agents from the words of the request', () => {
    expect(planAgents('pods in crashloop since the deploy of the new release', {})).toEqual([
      'k8s_agent',
      'coding_agent',
      'investigation_agent',
    ]);
    expect(planAgents('S3 bucket quota exceeded', {})).toEqual([
      'cloud_agent',
      'investigation_agent',
    ]);
    expect(planAgents('errors', { namespace: 'shop' })).toEqual([
      'k8s_agent',
      'investigation_agent',
    ]);
  });
});
