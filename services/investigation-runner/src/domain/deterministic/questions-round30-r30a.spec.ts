/**
 * The question of round30 (r30a, questions-r30a.ts): "is X still the primary? which pod and which
 * node?" about a replicated data store: the pod its operator labels primary now, its node, and
 * the failover recorded; an incident that speaks of a primary without asking which: not this.
 */
import {
  NOW,
  answerOf,
  apiTools,
  investigateAt,
  namespaceObj,
  podObj,
  warningEvent,
  type ApiWorld,
} from './spec-world';
import { primaryQuestion } from './questions-r30a';

type Obj = Record<string, unknown>;

describe('round30 question (r30a): which instance is the primary now', () => {
  const ns = 'ledger';
  const instance = (n: number, role: string, node: string): Obj => {
    const p = podObj({
      name: `ledger-db-${n}`,
      ns,
      labels: { 'cnpg.io/cluster': 'ledger-db', 'cnpg.io/instanceRole': role, role },
      owner: { kind: 'Cluster', name: 'ledger-db' },
      node,
      boxes: [{ name: 'postgres', image: 'ghcr.io/cloudnative-pg/postgresql:16.8' }],
    });
    return p;
  };
  const world: ApiWorld = {
    objects: [
      namespaceObj(ns),
      instance(1, 'replica', 'node-c'),
      instance(2, 'primary', 'node-b'),
      instance(3, 'replica', 'node-a'),
    ],
    events: [
      {
        ...warningEvent(
          ns,
          { kind: 'Cluster', name: 'ledger-db' },
          'FailingOver',
          'Current primary ledger-db-1 is not healthy, failing over to ledger-db-2',
          300,
          1,
          300,
        ),
        type: 'Normal',
      },
      {
        ...warningEvent(
          ns,
          { kind: 'Cluster', name: 'ledger-db' },
          'PrimaryInstance',
          'Instance ledger-db-2 is now the primary',
          298,
          1,
          298,
        ),
        type: 'Normal',
      },
    ],
  };

  it('"is ledger-db-1 still the primary? which pod and node?": the labelled primary, its node, the asked pod a replica', async () => {
    const ask =
      'Runbook says ledger-db-1 is the primary for the ledger postgres - is that still the primary? Which pod and which node?';
    const answer = answerOf((await investigateAt(apiTools(world), ask, NOW, ns)).result);
    expect(answer).toContain('The primary of ledger-db');
    expect(answer).toContain(
      'pod ledger-db-2 (label cnpg.io/instanceRole=primary), on node node-b',
    );
    expect(answer).toContain('ledger-db-1 is not the primary now');
    expect(answer).toContain('is now the primary');
  });

  it('an incident that names the primary without asking which: not this question', () => {
    expect(
      primaryQuestion('the primary of ledger-db is down since 02:00, why?', [ns], []),
    ).toBeUndefined();
    expect(
      primaryQuestion('ledger-db-1 (the primary) restarts every hour. what is going on?', [ns], []),
    ).toBeUndefined();
    expect(primaryQuestion('which pod is the primary of ledger-db?', [ns], [])).toBeDefined();
  });
});
