import { scopeIncident } from './scope';

describe('scopeIncident: namespaces named in the message', () => {
  it.each([
    ['pods failing in the namespace shop', ['shop']],
    ['a crashing pod in mail ns after this mornings change', ['mail']],
    ['check ns payments', ['payments']],
    ['errors in the billing namespace', ['billing']],
    ['kubectl -n web get pods', ['web']],
  ])('%s', (message, namespaces) => {
    expect(scopeIncident(message, {}, Date.parse('2026-03-10T12:00:00Z')).namespaces).toEqual(
      namespaces,
    );
  });
});

describe('scopeIncident: questions', () => {
  it('a quoted phrase someone logged is a log question with that pattern', () => {
    const q = scopeIncident(
      "which api-gateway pods logged 'connection reset by peer' since 13:00 UTC?",
      {},
      Date.parse('2026-03-10T14:00:00Z'),
    ).question;
    expect(q).toMatchObject({
      type: 'log_errors',
      pattern: 'connection reset by peer',
      since: Date.parse('2026-03-10T13:00:00Z'),
    });
  });
});

describe('scopeIncident: kind/name', () => {
  const at = Date.parse('2026-03-10T12:00:00Z');
  it('deployment/checkout names the Deployment checkout', () => {
    expect(scopeIncident('deployment/checkout keeps restarting', {}, at).subjects).toEqual([
      expect.objectContaining({ kind: 'deployment', name: 'checkout' }),
    ]);
  });
  it('"no deployment/job/statefulset" lists kinds: no subject named job', () => {
    const { subjects } = scopeIncident(
      "which pods in tools aren't owned by anything (no deployment/job/statefulset)?",
      {},
      at,
    );
    expect(subjects.map((s) => s.name)).not.toContain('job');
  });
});
