import { InProcessEventBus } from './in-process/in-process-event-bus';
import type { EventBus } from './event-bus';
import { eventEnvelope, Subjects } from './subjects';

/*
 * Type-level checks: `npx tsc -p tsconfig.json` fails when a `@ts-expect-error` below stops being
 * an error, i.e. when a wrong payload for a subject would be accepted. The jest part only runs
 * the same calls for real.
 */
async function typeChecks(bus: EventBus): Promise<void> {
  const changed = {
    ...eventEnvelope('t1'),
    node_id: 'g1',
    version: 3,
    changed_fields: ['chat_channel'],
    changed_by: 'dev@example.com',
  };
  await bus.publish(Subjects.configChanged, changed);

  // @ts-expect-error a renamed field (node_id -> node) no longer matches ConfigChanged
  await bus.publish(Subjects.configChanged, { ...eventEnvelope('t1'), node: 'g1', version: 3 });

  // @ts-expect-error a field of the wrong type (version is a number)
  await bus.publish(Subjects.configChanged, { ...changed, version: '3' });

  // @ts-expect-error the payload of another subject
  await bus.publish(Subjects.tokenRevoked, changed);

  await bus.publish(Subjects.investigationProgress('inv_1'), {
    ...eventEnvelope('t1'),
    investigation_id: 'inv_1',
    // @ts-expect-error progress is a Progress message, not a string
    progress: 'half way',
  });

  await bus.subscribe(Subjects.investigationCancelled, async (msg) => {
    const id: string | undefined = msg.data.investigation?.investigation_id;
    // @ts-expect-error InvestigationFinished has no investigation_id of its own
    void msg.data.investigation_id;
    void id;
  });

  // a union of subjects gives the union of their messages
  for (const s of [Subjects.configChangeApproved, Subjects.configChangeRejected] as const)
    await bus.subscribe(s, async (msg) => {
      const cr: string | undefined = msg.data.change_request?.change_request_id;
      void cr;
    });

  // a wildcard pattern (or a subject widened to string) carries unknown data
  await bus.subscribe('inquest.v1.config.>', async (msg) => {
    // @ts-expect-error unknown until narrowed
    void msg.data.team_id;
  });
}

describe('EventMap', () => {
  it('delivers what the typed publish sent to the typed subscriber', async () => {
    const bus = new InProcessEventBus();
    const got: string[] = [];
    await bus.subscribe(Subjects.tokenRevoked, async (msg) => {
      got.push(msg.data.token_id);
    });
    await typeChecks(bus).catch(() => undefined);
    await bus.publish(Subjects.tokenRevoked, { ...eventEnvelope('t1'), token_id: 'tok_1' });
    await new Promise((r) => setImmediate(r));
    expect(got).toContain('tok_1');
    await bus.close();
  });
});
