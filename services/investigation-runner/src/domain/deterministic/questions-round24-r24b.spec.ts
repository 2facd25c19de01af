/**
 * The question of round24 (r24b) (questions-r24b.ts): "which deployments in payments are not
 * managed by Argo CD?": the Deployments without a tracking marker, with their image; near misses:
 * a question about why an Argo CD app fails is not this question, and a namespace where every
 * Deployment is tracked answers so.
 */
import { scopeIncident } from './scope';
import { NOW, ago, apiTools, deploymentObj, investigateAt, namespaceObj } from './spec-world';

type Obj = Record<string, unknown>;

const annotate = (o: Obj, ann: Record<string, string>, labels?: Record<string, string>): Obj => {
  const meta = o['metadata'] as Obj;
  meta['annotations'] = { ...((meta['annotations'] as Obj) ?? {}), ...ann };
  if (labels) meta['labels'] = { ...((meta['labels'] as Obj) ?? {}), ...labels };
  meta['creationTimestamp'] = ago(60 * 24 * 3);
  return o;
};

describe('round24 question (r24b): workloads not managed by GitOps', () => {
  it('is asked as a GitOps question; a question about a failing Argo CD sync is not', () => {
    const asked = scopeIncident(
      'before the audit: which deployments in the payments namespace are NOT managed by Argo CD, i.e. someone kubectl-applied them by hand? list them with their image.',
      {},
      NOW,
    ).question;
    expect(asked?.type).toBe('gitops_unmanaged');
    expect(
      scopeIncident('why is the argo cd app payments-prod stuck in Progressing?', {}, NOW).question
        ?.type,
    ).not.toBe('gitops_unmanaged');
    expect(
      scopeIncident(
        'why does payout-debug crash? it is not managed by argo cd, someone kubectl-applied it',
        {},
        NOW,
      ).question?.type,
    ).not.toBe('gitops_unmanaged');
  });

  it('names the Deployments without a tracking id, with their image; a namespace all tracked: says so', async () => {
    const ns = 'ledger';
    const tracked = (name: string) =>
      annotate(deploymentObj(name, ns, [`registry.example.com/${name}:1.2.0`], 2, 2), {
        'argocd.argoproj.io/tracking-id': `ledger-prod:apps/Deployment:${ns}/${name}`,
      });
    const byHand = annotate(
      deploymentObj('ledger-debug', ns, ['registry.example.com/ledger-api:1.2.0-debug'], 1, 1),
      { 'kubectl.kubernetes.io/last-applied-configuration': '{"kind":"Deployment"}' },
    );
    const ask = `which deployments in namespace ${ns} are not managed by Argo CD? list them with their image`;
    const mixed = await investigateAt(
      apiTools({
        objects: [namespaceObj(ns), tracked('ledger-api'), tracked('ledger-worker'), byHand],
      }),
      ask,
      NOW,
      ns,
    );
    expect(mixed.text).toMatch(
      /1 of the 3 deployments in namespace ledger is not managed by Argo CD/,
    );
    expect(mixed.text).toContain(
      'ledger-debug (image registry.example.com/ledger-api:1.2.0-debug; kubectl last-applied-configuration',
    );
    expect(mixed.text).toContain('Application ledger-prod');
    const all = await investigateAt(
      apiTools({ objects: [namespaceObj(ns), tracked('ledger-api'), tracked('ledger-worker')] }),
      ask,
      NOW,
      ns,
    );
    expect(all.text).toContain(
      'Every one of the 2 deployments in namespace ledger is managed by Argo CD',
    );
  });
});
