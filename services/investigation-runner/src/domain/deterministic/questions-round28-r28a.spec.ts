/**
 * The question of round28 (r28a, questions-r28a.ts): before scaling StatefulSets down, which of
 * them delete the PVC of a removed pod (persistentVolumeClaimRetentionPolicy whenScaled: Delete),
 * and which keep it (Retain, or no policy: Retain by default).
 */
import {
  NOW,
  answerOf,
  apiTools,
  investigateAt,
  namespaceObj,
  statefulSetObj,
  ago,
  type ApiWorld,
} from './spec-world';
import { pvcRetentionQuestion } from './questions-r28a';

type Obj = Record<string, unknown>;

const withPolicy = (objs: Obj[], policy?: { whenScaled: string; whenDeleted: string }): Obj[] =>
  objs.map((o) =>
    o['kind'] === 'StatefulSet' && policy
      ? {
          ...o,
          spec: { ...(o['spec'] as Obj), persistentVolumeClaimRetentionPolicy: policy },
        }
      : o,
  );

const claim = (name: string, ns: string): Obj => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name, namespace: ns, creationTimestamp: ago(60 * 24 * 40) },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '50Gi' } } },
  status: { phase: 'Bound', capacity: { storage: '50Gi' } },
});

describe('round28 question (r28a): which StatefulSets delete their PVCs on scale-down', () => {
  it('names the StatefulSets with whenScaled Delete and those that keep their claims; a request about a failure is no such question', async () => {
    const ns = 'logging';
    const world: ApiWorld = {
      objects: [
        namespaceObj(ns),
        ...withPolicy(statefulSetObj('log-ingester', ns, 'grafana/loki:3.1.0', 3), {
          whenScaled: 'Delete',
          whenDeleted: 'Retain',
        }),
        ...withPolicy(
          statefulSetObj('metrics-store', ns, 'victoriametrics/vmstorage:v1.102.0', 3),
          {
            whenScaled: 'Retain',
            whenDeleted: 'Retain',
          },
        ),
        ...statefulSetObj('alerts', ns, 'prom/alertmanager:v0.27.0', 3),
        ...[0, 1, 2].flatMap((i) => [
          claim(`data-log-ingester-${i}`, ns),
          claim(`data-metrics-store-${i}`, ns),
        ]),
      ],
      events: [],
    };
    const ask =
      "we're scaling the logging statefulsets down from 3 to 2 replicas tonight. which of them will delete the PVC of the removed pod? I don't want to lose the metrics-store data";
    const answer = answerOf((await investigateAt(apiTools(world), ask, NOW, ns)).result);
    expect(answer).toContain('log-ingester (whenScaled Delete, whenDeleted Retain');
    expect(answer).toContain('data-log-ingester-2');
    expect(answer).toMatch(/keep their PVCs[^.]*metrics-store/);
    expect(answer).toMatch(/keep their PVCs[^.]*alerts \(no policy set\)/);
    expect(answer).not.toMatch(/Delete, so [^.]*metrics-store/);

    expect(
      pvcRetentionQuestion('the loki statefulset pods crash after we deleted a node, why?', [ns]),
    ).toBeUndefined();
  });
});
