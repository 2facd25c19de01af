/**
 * The engine rules of round31 (r31b): rejections (FailedCreate: violates PodSecurity) of a
 * ReplicaSet its Deployment has since replaced by a revision whose pods all run and are ready are
 * history (diagnose-r31b.ts rolledPastReplicaSet, called from conclude.ts resolved()); the near
 * misses: a new revision rejected now while the old pods still serve, and a rejected revision
 * that is still the Deployment's current one although its last event is hours old.
 */
import {
  answerOf,
  apiTools,
  deploymentObj,
  investigateAt,
  namespaceObj,
  NOW,
  podObj,
  warningEvent,
  type ApiWorld,
} from './spec-world';

type Obj = Record<string, unknown>;

const answer = async (world: ApiWorld, ask: string, ns: string) =>
  answerOf((await investigateAt(apiTools(world), ask, NOW, ns)).result);

const NS = 'ledger';
const APP = 'settle-worker';
const OLD = `${APP}-5f6d7c8b9`;
const NEW = `${APP}-7a8b9c6d5`;
const REJECTED =
  'Error creating: pods "{pod}" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "settle-worker" must set securityContext.allowPrivilegeEscalation=false), runAsNonRoot != true (pod or container "settle-worker" must set securityContext.runAsNonRoot=true)';

const rsObj = (name: string, replicas: number, revision: number): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: {
    name,
    namespace: NS,
    labels: { app: APP },
    annotations: { 'deployment.kubernetes.io/revision': String(revision) },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: APP, controller: true }],
  },
  spec: { replicas },
  status: { replicas, readyReplicas: replicas, availableReplicas: replicas },
});

const pod = (rs: string, suffix: string, created: number) =>
  podObj({
    name: `${rs}-${suffix}`,
    ns: NS,
    labels: { app: APP, 'pod-template-hash': rs.slice(APP.length + 1) },
    owner: { kind: 'ReplicaSet', name: rs },
    boxes: [{ name: APP, image: `registry.example.com/${APP}:4.2.0` }],
    created,
  });

/**
 * `rejected` is the ReplicaSet the FailedCreate events are about, `running` the one whose pods run;
 * `progressing` the Deployment's Progressing condition.
 */
function world(
  rejected: string,
  running: string,
  lastMin: number,
  podsCreated: number,
  progressing: Obj,
): ApiWorld {
  return {
    objects: [
      namespaceObj(NS),
      deploymentObj(APP, NS, [`registry.example.com/${APP}:4.2.0`], 2, 2, [], {
        conditions: [
          { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' },
          progressing,
        ],
      }),
      rsObj(running, 2, running === NEW ? 9 : 8),
      rsObj(
        rejected,
        rejected === running ? 2 : rejected === OLD ? 0 : 1,
        rejected === NEW ? 9 : 8,
      ),
      pod(running, 'k2x9p', podsCreated),
      pod(running, 'w7m4q', podsCreated),
    ],
    events: [
      warningEvent(
        NS,
        { kind: 'ReplicaSet', name: rejected },
        'FailedCreate',
        REJECTED.replace('{pod}', `${rejected}-abcde`),
        lastMin + 45,
        lastMin,
        14,
        'replicaset-controller',
      ),
    ],
  };
}

const ASK = `are the 'violates PodSecurity' FailedCreate warnings of ${APP} a real problem right now?`;

describe('round31 r31b: PodSecurity rejections of a ReplicaSet the Deployment rolled past', () => {
  it('calls rejections of a replaced revision history when the new revision runs and is ready', async () => {
    const text = await answer(
      world(OLD, NEW, 60 * 24 * 3, 60 * 24 * 3 - 2, {
        type: 'Progressing',
        status: 'True',
        reason: 'NewReplicaSetAvailable',
        message: `ReplicaSet "${NEW}" has successfully progressed.`,
      }),
      ASK,
      NS,
    );
    expect(text).toMatch(/No problem found/);
    expect(text).not.toMatch(/PodSecurity/);
  });

  it('near miss: a new revision rejected now while the old pods still serve is a failure', async () => {
    const text = await answer(
      world(NEW, OLD, 2, 60 * 24 * 5, {
        type: 'Progressing',
        status: 'True',
        reason: 'ReplicaSetUpdated',
        message: `ReplicaSet "${NEW}" is progressing.`,
      }),
      ASK,
      NS,
    );
    expect(text).toMatch(/PodSecurity "restricted:latest"/);
    expect(text).not.toMatch(/No problem found/);
  });

  it('near miss: a rejected revision that is still current stays a failure though its events are hours old', async () => {
    const text = await answer(
      world(NEW, OLD, 180, 60 * 24 * 5, {
        type: 'Progressing',
        status: 'False',
        reason: 'ProgressDeadlineExceeded',
        message: `ReplicaSet "${NEW}" has timed out progressing.`,
      }),
      ASK,
      NS,
    );
    expect(text).toMatch(/PodSecurity "restricted:latest"/);
    expect(text).not.toMatch(/No problem found/);
  });
});
