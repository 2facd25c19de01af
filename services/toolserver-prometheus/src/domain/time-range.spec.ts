import { formatDuration, parseDurationMs, parseStepMs, parseTime } from './time-range';

const NOW = Date.parse('2026-11-25T12:00:00.000Z');

describe('time parameters', () => {
  it.each([
    ['now', NOW],
    ['now-1h', NOW - 3_600_000],
    ['now - 15m', NOW - 900_000],
    ['now+30s', NOW + 30_000],
    ['-2h', NOW - 7_200_000],
    ['1h30m', NOW - 5_400_000],
    ['2026-11-25T11:00:00Z', NOW - 3_600_000],
    ['2026-11-25T11:00:00.500+00:00', NOW - 3_599_500],
    ['1795608000', 1_795_608_000_000],
    [1795608000.5, 1_795_608_000_500],
  ])('%s', (input, expected) => {
    expect(parseTime(input, 'start', NOW)).toBe(expected);
  });

  it.each(['yesterday', 'now-', 'now-1x', '', '2026-13-45', -5, 'now*2'])(
    'refuses %p with a 400 naming the parameter',
    (input) => {
      expect(() => parseTime(input, 'end', NOW)).toThrow(
        expect.objectContaining({
          status: 400,
          message: expect.stringMatching(/^end: cannot read/),
        }),
      );
    },
  );

  it('durations and steps', () => {
    expect(parseDurationMs('1h30m')).toBe(5_400_000);
    expect(parseDurationMs('250ms')).toBe(250);
    expect(parseDurationMs('90')).toBe(90_000);
    expect(parseDurationMs('1 hour')).toBeUndefined();
    expect(parseStepMs('15s', 'step')).toBe(15_000);
    expect(parseStepMs(30, 'step')).toBe(30_000);
    expect(() => parseStepMs('0s', 'step')).toThrow(/step: cannot read "0s"/);
    expect(formatDuration(3_600_000)).toBe('1h');
    expect(formatDuration(551_000)).toBe('9m11s');
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(31 * 86_400_000)).toBe('31d');
  });
});
