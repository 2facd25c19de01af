import { formatCpu, formatMemory, parseQuantity } from './quantity';

describe('quantities', () => {
  it.each([
    ['250m', 0.25],
    ['2', 2],
    ['1.5', 1.5],
    ['128Mi', 128 * 2 ** 20],
    ['1G', 1e9],
    ['16331900Ki', 16331900 * 1024],
    ['1e3', 1000],
  ])('%s = %d', (q, n) => {
    expect(parseQuantity(q)).toBeCloseTo(n);
  });
  it('refuses malformed quantities', () => {
    expect(parseQuantity('12 apples')).toBeUndefined();
    expect(parseQuantity(undefined)).toBeUndefined();
  });
  it('formats sums as kubectl does', () => {
    expect(formatCpu(0.75)).toBe('750m');
    expect(formatCpu(2)).toBe('2');
    expect(formatMemory(256 * 2 ** 20)).toBe('256Mi');
    expect(formatMemory(2 ** 31)).toBe('2Gi');
    expect(formatMemory(0)).toBe('0');
  });
});
