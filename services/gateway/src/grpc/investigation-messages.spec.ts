import { investigationV1 } from '@inquest/proto';
import { statusBody, listItem } from '../routes/agents.routes';
import { agentNameFields, listFilterFields, readInvestigation } from './investigation-messages';

const { InvestigationStatus: S, Agent: A, Priority: P } = investigationV1;

/** An Investigation as the runner answers it; `over` sets what a test looks at. */
const message = (
  over: Partial<investigationV1.Investigation> = {},
): investigationV1.Investigation => ({
  investigation_id: 'inv_1',
  team_id: 't1',
  status: 'completed',
  status_enum: S.INVESTIGATION_STATUS_COMPLETED,
  agent: 'k8s_agent',
  agent_enum: A.AGENT_K8S_AGENT,
  message: 'checkout restarts',
  tools_used: [],
  created_at: '2026-03-01T10:00:00.000Z',
  completed_at: '2026-03-01T10:00:05.000Z',
  attempt: 1,
  result: {
    summary: 'OOM',
    root_cause: { description: 'memory limit', confidence: 80, evidence: [] },
    timeline: [],
    affected_systems: [],
    recommendations: [{ priority: 'high', priority_enum: P.PRIORITY_HIGH, action: 'raise it' }],
  },
  ...over,
});

describe('readInvestigation', () => {
  it('names status, agent and priorities from the enums', () => {
    const v = readInvestigation(
      // the strings disagree on purpose: the enums win
      message({
        status: 'running',
        agent: 'planner',
        status_enum: S.INVESTIGATION_STATUS_FAILED,
        agent_enum: A.AGENT_CLOUD_AGENT,
      }),
    );
    expect(v).toMatchObject({ status: 'failed', agent: 'cloud_agent' });
    expect(v).not.toHaveProperty('status_enum');
    expect(v).not.toHaveProperty('agent_enum');
    expect(v.result?.recommendations).toEqual([{ priority: 'high', action: 'raise it' }]);
  });

  it('falls back to the strings of a runner built before the enums', () => {
    const old = message({
      status_enum: S.INVESTIGATION_STATUS_UNSPECIFIED,
      agent_enum: A.AGENT_UNSPECIFIED,
    });
    old.result!.recommendations[0]!.priority_enum = P.PRIORITY_UNSPECIFIED;
    old.result!.recommendations[0]!.priority = 'low';
    const v = readInvestigation(old);
    expect(v).toMatchObject({ status: 'completed', agent: 'k8s_agent' });
    expect(v.result?.recommendations[0]?.priority).toBe('low');
  });

  it('refuses an investigation whose status it cannot name', () => {
    expect(() =>
      readInvestigation(
        message({ status: 'paused', status_enum: S.INVESTIGATION_STATUS_UNSPECIFIED }),
      ),
    ).toThrow(/inv_1 with no known status/);
  });

  it('keeps the REST bodies strings, with no enum field', () => {
    const v = readInvestigation(message());
    const body = JSON.parse(JSON.stringify(statusBody(v))) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 'completed', agent: 'k8s_agent' });
    expect(JSON.stringify(body)).not.toMatch(/_enum/);
    expect((body['result'] as { recommendations: unknown[] }).recommendations).toEqual([
      { priority: 'high', action: 'raise it' },
    ]);
    expect(listItem(v)).toMatchObject({ status: 'completed', agent: 'k8s_agent' });
  });
});

describe('request fields', () => {
  it('writes the agent and the filters both as enums and as strings', () => {
    expect(agentNameFields('coding_agent')).toEqual({
      agent_name: 'coding_agent',
      agent_name_enum: A.AGENT_CODING_AGENT,
    });
    expect(listFilterFields({ status: 'cancelled', agent: 'planner' })).toEqual({
      status: 'cancelled',
      status_enum: S.INVESTIGATION_STATUS_CANCELLED,
      agent: 'planner',
      agent_enum: A.AGENT_PLANNER,
    });
    expect(listFilterFields({})).toEqual({
      status: undefined,
      status_enum: S.INVESTIGATION_STATUS_UNSPECIFIED,
      agent: undefined,
      agent_enum: A.AGENT_UNSPECIFIED,
    });
  });
});
