import { formatTabs } from './tabwriter';

describe('formatTabs (Go text/tabwriter as kubectl uses it)', () => {
  it('aligns a column over consecutive lines and leaves the last cell unpadded', () => {
    expect(formatTabs('Name:\tweb\nNamespace:\tshop\nLabels:\tapp=web\n\ttier=front')).toBe(
      ['Name:       web', 'Namespace:  shop', 'Labels:     app=web', '            tier=front'].join(
        '\n',
      ),
    );
  });

  it('starts a new block after a line without tabs', () => {
    expect(formatTabs('A:\t1\nLonger label:\t2\nContainers:\n  x:\t3')).toBe(
      ['A:             1', 'Longer label:  2', 'Containers:', '  x:  3'].join('\n'),
    );
  });

  it('nests blocks: a second column aligns only where lines have it', () => {
    expect(
      formatTabs('  Type\tReason\tAge\n  ----\t------\t---\n  Warning\tBackOff\t5m', {
        padding: 2,
      }),
    ).toBe(
      ['  Type     Reason   Age', '  ----     ------   ---', '  Warning  BackOff  5m'].join('\n'),
    );
    expect(formatTabs('NAME\tAGE\na\t5m', { minWidth: 6, padding: 3 })).toBe(
      'NAME   AGE\na      5m',
    );
  });
});
