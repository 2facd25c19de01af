/**
 * The engine rules of round31 (r31b): rejections (FailedCreate: violates PodSecurity) of a
 * ReplicaSet its Deployment has since replaced by a revision whose pods all run and are ready are
 * history (diagnose-r31b.ts rolledPastReplicaSet, called from conclude.ts resolved()); the near
 * misses: a new revision rejected now while the old pods still serve, and a rejected revision
 * that is still the Deployment's current one although its last event is hours old.
 * runc_exec_operation_not_permitted (cause-catalog.data.ts "round31 (r31b)" block, variables in
 * finding-vars-r31b.ts): the runtime may not exec the entrypoint; the capabilities the spec drops
 * are quoted (near misses: an exec "permission denied" is not this rule, and a spec that drops no
 * capability does not get them blamed). The readonly_rootfs question (questions-r31b.ts): which
 * workloads do not run with readOnlyRootFilesystem: true (near miss: an EROFS error is an incident).
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

// ---------------------------------------------------------------- exec: operation not permitted

const EXEC_NS = 'gate';
const GW = 'front-proxy';

function execWorld(message: string, securityContext: Obj | undefined): ApiWorld {
  const p = podObj({
    name: `${GW}-6c7d8e9f4-q2w3e`,
    ns: EXEC_NS,
    labels: { app: GW, 'pod-template-hash': '6c7d8e9f4' },
    owner: { kind: 'ReplicaSet', name: `${GW}-6c7d8e9f4` },
    boxes: [
      {
        name: GW,
        image: `registry.example.com/${GW}:5.1.0`,
        restarts: 9,
        state: {
          waiting: {
            reason: 'CrashLoopBackOff',
            message: 'back-off 5m0s restarting failed container',
          },
        },
        lastState: { terminated: { exitCode: 128, reason: 'StartError', message } },
      },
    ],
    created: 50,
  });
  const spec = p['spec'] as { containers: Obj[] };
  if (securityContext) spec.containers[0]!['securityContext'] = securityContext;
  return {
    objects: [
      namespaceObj(EXEC_NS),
      deploymentObj(GW, EXEC_NS, [`registry.example.com/${GW}:5.1.0`], 1, 0),
      p,
    ],
  };
}

const RUNC = (tail: string) =>
  `failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "/usr/bin/${GW}": ${tail}: unknown`;
const DROP_ALL = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } };

describe('round31 r31b: the runtime may not exec the entrypoint (operation not permitted)', () => {
  it('names the exec refusal and the capabilities the spec drops', async () => {
    const text = await answer(
      execWorld(RUNC('operation not permitted'), DROP_ALL),
      `${GW} is crashlooping with StartError`,
      EXEC_NS,
    );
    expect(text).toMatch(/cannot exec its entrypoint \/usr\/bin\/front-proxy/);
    expect(text).toMatch(/drops ALL capabilities/);
    expect(text).toMatch(/file capability/);
  });

  it('near miss: a spec that drops no capability does not get them blamed', async () => {
    const text = await answer(
      execWorld(RUNC('operation not permitted'), undefined),
      `${GW} is crashlooping with StartError`,
      EXEC_NS,
    );
    expect(text).toMatch(/cannot exec its entrypoint/);
    expect(text).not.toMatch(/securityContext drops/);
    expect(text).toMatch(/noexec mount/);
  });

  it('near miss: exec "permission denied" (a file without the exec bit) is not this rule', async () => {
    const text = await answer(
      execWorld(RUNC('permission denied'), DROP_ALL),
      `${GW} is crashlooping with StartError`,
      EXEC_NS,
    );
    expect(text).not.toMatch(/cannot exec its entrypoint/);
  });
});

// ---------------------------------------------------------------- readOnlyRootFilesystem question

const RO_NS = 'reports';

function roWorld(): ApiWorld {
  const app = (name: string, sc: Obj, hash: string) => {
    const p = podObj({
      name: `${name}-${hash}-x1y2z`,
      ns: RO_NS,
      labels: { app: name, 'pod-template-hash': hash },
      owner: { kind: 'ReplicaSet', name: `${name}-${hash}` },
      boxes: [{ name, image: `registry.example.com/${name}:1.0.0` }],
    });
    (p['spec'] as { containers: Obj[] }).containers[0]!['securityContext'] = sc;
    return [deploymentObj(name, RO_NS, [`registry.example.com/${name}:1.0.0`], 1, 1), p];
  };
  return {
    objects: [
      namespaceObj(RO_NS),
      ...app('pdf-render', { readOnlyRootFilesystem: true, runAsNonRoot: true }, '7b8c9d6f5'),
      ...app('csv-export', { runAsNonRoot: true }, '5d6e7f8a9'),
      ...app('chart-cache', { readOnlyRootFilesystem: false }, '6f7a8b9c4'),
    ],
  };
}

describe('round31 r31b: which workloads do not run with readOnlyRootFilesystem', () => {
  it('lists the workloads whose containers leave it unset or false', async () => {
    const text = await answer(
      roWorld(),
      'which deployments in reports are not running with readOnlyRootFilesystem?',
      RO_NS,
    );
    expect(text).toMatch(
      /2 of 3 workloads in namespace reports do NOT run with a read-only root filesystem/,
    );
    expect(text).toMatch(
      /csv-export \(deployment\): container csv-export: readOnlyRootFilesystem not set/,
    );
    expect(text).toMatch(
      /chart-cache \(deployment\): container chart-cache: readOnlyRootFilesystem: false/,
    );
    expect(text).toMatch(/With readOnlyRootFilesystem: true: pdf-render/);
  });

  it('near miss: a write refused by a read-only root filesystem is an incident, not the audit', async () => {
    const text = await answer(
      roWorld(),
      'csv-export fails with a read-only root filesystem error, why?',
      RO_NS,
    );
    expect(text).not.toMatch(/do NOT run with a read-only root filesystem/);
  });
});
