import { ifNoneMatch } from './config.routes';

describe('ifNoneMatch', () => {
  const tag = '"abc123"';

  it('matches the tag, its weak form, a list containing it, and *', () => {
    expect(ifNoneMatch('"abc123"', tag)).toBe(true);
    expect(ifNoneMatch('W/"abc123"', tag)).toBe(true);
    expect(ifNoneMatch('"x", W/"abc123" , "y"', tag)).toBe(true);
    expect(ifNoneMatch(['"x"', '"abc123"'], tag)).toBe(true);
    expect(ifNoneMatch('*', tag)).toBe(true);
  });

  it('does not match another tag, an unquoted value or no header', () => {
    expect(ifNoneMatch('"abc1234"', tag)).toBe(false);
    expect(ifNoneMatch('abc123', tag)).toBe(false);
    expect(ifNoneMatch('', tag)).toBe(false);
    expect(ifNoneMatch(undefined, tag)).toBe(false);
  });
});
