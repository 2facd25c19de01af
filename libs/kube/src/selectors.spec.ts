import {
  formatSelector,
  matchesFields,
  matchesLabels,
  parseFieldSelector,
  parseLabelSelector,
  selectorRequirements,
} from './selectors';

describe('label selectors', () => {
  const labels = { app: 'web', tier: 'front', env: 'prod' };
  it.each([
    ['app=web', true],
    ['app==web', true],
    ['app=db', false],
    ['app!=db', true],
    ['missing!=x', true],
    ['env in (prod,staging)', true],
    ['env in (dev)', false],
    ['env notin (dev, staging)', true],
    ['tier', true],
    ['!tier', false],
    ['!legacy', true],
    ['app=web,env in (prod),!legacy', true],
    ['app=web,tier=back', false],
  ])('%s matches: %s', (selector, expected) => {
    expect(matchesLabels(labels, parseLabelSelector(selector))).toBe(expected);
  });

  it.each(['app=we b', 'a b c', '=x', 'app in (x y)'])('refuses %j', (selector) => {
    expect(() => parseLabelSelector(selector)).toThrow(/unable to parse requirement/);
  });

  it('reads LabelSelector objects and Service maps', () => {
    const sel = {
      matchLabels: { app: 'web' },
      matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }],
    };
    expect(matchesLabels(labels, selectorRequirements(sel)!)).toBe(true);
    expect(formatSelector(sel)).toBe('app=web,env in (prod)');
    expect(formatSelector({ app: 'web' })).toBe('app=web');
    expect(formatSelector(undefined)).toBe('<none>');
  });
});

describe('field selectors', () => {
  const pod = {
    metadata: { name: 'a', namespace: 'x' },
    spec: { nodeName: 'n1' },
    status: { phase: 'Running' },
  };
  it('matches supported fields', () => {
    expect(
      matchesFields(pod, parseFieldSelector('status.phase=Running,spec.nodeName=n1', 'Pod')),
    ).toBe(true);
    expect(matchesFields(pod, parseFieldSelector('status.phase!=Running', 'Pod'))).toBe(false);
    expect(matchesFields(pod, parseFieldSelector('metadata.name==a', 'Pod'))).toBe(true);
    const ev = { involvedObject: { kind: 'Pod', name: 'a' }, type: 'Warning', reason: 'BackOff' };
    expect(
      matchesFields(
        ev,
        parseFieldSelector('involvedObject.name=a,type=Warning,reason=BackOff', 'Event'),
      ),
    ).toBe(true);
  });

  it('refuses fields the API server does not index, as a 400 would', () => {
    expect(() => parseFieldSelector('spec.nodeName=n1', 'Deployment')).toThrow(
      'field label not supported: spec.nodeName',
    );
    expect(() => parseFieldSelector('nonsense', 'Pod')).toThrow(/invalid selector/);
  });
});
