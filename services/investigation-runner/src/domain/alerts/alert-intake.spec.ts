import { join } from 'node:path';
import { silentLogger } from '@inquest/observability';
import { SqliteAlertStore, type InvestigationRecord } from '@inquest/store';
import { tempDir } from '@inquest/testing';
import type { InvestigationService } from '../investigation-service';
import type { RunRequest } from '../investigation-request';
import { AlertIntake, type IngestRequest } from './alert-intake';

const dir = tempDir();
let n = 0;

/** Creates investigations idempotently by id, as InvestigationService does; can fail on demand. */
function fakeInvestigations() {
  const created = new Map<string, RunRequest>();
  const calls: string[] = [];
  let failNext = false;
  const svc = {
    created,
    calls,
    failOnce: () => (failNext = true),
    run: async (req: RunRequest) => {
      calls.push(req.investigationId!);
      if (failNext) {
        failNext = false;
        throw new Error('crash before the investigation was created');
      }
      if (!created.has(req.investigationId!)) created.set(req.investigationId!, req);
      return { investigation_id: req.investigationId } as InvestigationRecord;
    },
  };
  return svc;
}

function setup(effective: Record<string, unknown> = {}) {
  const store = SqliteAlertStore.open(join(dir, `intake-${++n}.db`));
  const investigations = fakeInvestigations();
  const intake = new AlertIntake({
    store,
    investigations: investigations as unknown as InvestigationService,
    config: { getEffectiveConfig: async () => effective },
    secrets: { resolve: async () => 'secret' },
    logger: silentLogger(),
  });
  return { store, investigations, intake };
}

const notification = (group: string, fingerprint = 'f1', status = 'firing'): IngestRequest => ({
  teamId: 'team-a',
  source: 'alertmanager',
  alerts: [
    {
      status: status as 'firing',
      group_key: group,
      fingerprint,
      alertname: 'HighErrorRate',
      labels: { alertname: 'HighErrorRate', service: 'checkout' },
      annotations: {},
    },
  ],
});

describe('AlertIntake', () => {
  it('a crash between opening the group and creating its investigation is completed by recovery, once', async () => {
    const { store, investigations, intake } = setup();
    investigations.failOnce();
    await expect(intake.ingest(notification('g1'))).rejects.toThrow('crash');
    expect(investigations.created.size).toBe(0);
    const [starting] = await store.listStartingGroups();
    expect(starting).toBeDefined();
    // the alert was recorded before anything else
    expect((await store.list({ teamId: 'team-a', limit: 10, offset: 0 })).total).toBe(1);

    await intake.recover();
    expect([...investigations.created.keys()]).toEqual([starting!.investigation_id]);
    expect(investigations.created.get(starting!.investigation_id)).toMatchObject({
      agentName: 'planner',
      async: true,
      alert: expect.objectContaining({ alertname: 'HighErrorRate', group_key: 'g1' }),
    });
    expect(await store.listStartingGroups()).toEqual([]);
    await intake.recover();
    const repeat = await intake.ingest(notification('g1'));
    expect(repeat.groups[0]).toMatchObject({
      outcome: 'existing',
      investigation_id: starting!.investigation_id,
    });
    expect(investigations.created.size).toBe(1);
    await store.close();
  });

  it('a repeat that finds the group still starting completes the start with the same id', async () => {
    const { store, investigations, intake } = setup();
    investigations.failOnce();
    await expect(intake.ingest(notification('g2'))).rejects.toThrow();
    const res = await intake.ingest(notification('g2'));
    expect(res.groups[0]!.outcome).toBe('existing');
    expect([...investigations.created.keys()]).toEqual([res.groups[0]!.investigation_id]);
    expect(await store.listStartingGroups()).toEqual([]);
    await store.close();
  });

  it('concurrent notifications of one group start one investigation', async () => {
    const { store, investigations, intake } = setup();
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => intake.ingest(notification('g3', `f${i % 5}`))),
    );
    const outcomes = results.map((r) => r.groups[0]!.outcome);
    expect(outcomes.filter((o) => o === 'started')).toHaveLength(1);
    expect(investigations.created.size).toBe(1);
    expect((await store.list({ teamId: 'team-a', limit: 100, offset: 0 })).total).toBe(5);
    await store.close();
  });

  it("alerts.group_by groups across the senders' own group keys", async () => {
    const { store, investigations, intake } = setup({ alerts: { group_by: ['service'] } });
    const a = await intake.ingest(notification('sender-group-1', 'f1'));
    const b = await intake.ingest({
      ...notification('sender-group-2', 'f2'),
      source: 'generic',
    });
    expect(a.groups[0]).toMatchObject({
      outcome: 'started',
      group_key: 'group_by:{service="checkout"}',
    });
    expect(b.groups[0]).toMatchObject({
      outcome: 'existing',
      investigation_id: a.groups[0]!.investigation_id,
    });
    expect(investigations.created.size).toBe(1);
    await store.close();
  });

  it('refuses a bad notification before storing anything', async () => {
    const { store, intake } = setup();
    const bad = notification('g4');
    bad.alerts[0]!.status = 'open' as 'firing';
    await expect(intake.ingest(bad)).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(intake.ingest({ ...bad, alerts: [] })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await expect(intake.ingest({ ...notification('g4'), source: 'nagios' })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    expect((await store.list({ teamId: 'team-a', limit: 10, offset: 0 })).total).toBe(0);
    await store.close();
  });

  it('verifies senders only with the secrets of the team config', async () => {
    const { store, intake } = setup({
      alerts: { intake_secret: 'vault://inquest/team-a/alerts#intake' },
    });
    const body = Buffer.from('{}');
    expect(await intake.verifySender({ teamId: 'team-a', intakeSecret: 'secret', body })).toBe(
      true,
    );
    expect(await intake.verifySender({ teamId: 'team-a', intakeSecret: 'other', body })).toBe(
      false,
    );
    expect(await intake.verifySender({ teamId: 'team-a', body })).toBe(false);
    // no PagerDuty secret configured: a signature cannot be valid
    expect(await intake.verifySender({ teamId: 'team-a', pagerdutySignature: 'v1=00', body })).toBe(
      false,
    );
    await store.close();
  });
});
