import { slackSignature, verifySlackSignature } from './slack-signature';

describe('verifySlackSignature', () => {
  const secret = '8f742231b10e8888abcd99yyyzzz85a5';
  const body = Buffer.from('token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&text=list');
  const ts = '1531420618';
  const nowMs = 1531420618_000 + 10_000;
  const check = (o: Partial<Parameters<typeof verifySlackSignature>[0]>) =>
    verifySlackSignature({
      secret,
      timestamp: ts,
      signature: slackSignature(secret, ts, body),
      body,
      nowMs,
      ...o,
    });

  it('matches Slack’s documented example', () => {
    // https://api.slack.com/authentication/verifying-requests-from-slack
    const doc =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    expect(slackSignature(secret, ts, doc)).toBe(
      'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
    );
  });

  it('accepts a correct signature within five minutes', () => {
    expect(check({})).toBe('ok');
  });

  it('refuses a missing, wrong or stale one', () => {
    expect(check({ signature: undefined })).toBe('missing');
    expect(check({ timestamp: undefined })).toBe('missing');
    expect(check({ signature: slackSignature('other', ts, body) })).toBe('mismatch');
    expect(check({ signature: 'v0=abc' })).toBe('mismatch');
    expect(check({ body: Buffer.from('text=investigate') })).toBe('mismatch');
    expect(check({ nowMs: 1531420618_000 + 301_000 })).toBe('stale');
    expect(check({ nowMs: 1531420618_000 - 301_000 })).toBe('stale');
    expect(check({ timestamp: 'abc' })).toBe('stale');
  });
});
