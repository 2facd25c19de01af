import { parseCommand } from './slack-commands';

describe('parseCommand', () => {
  it('reads investigate with options', () => {
    expect(
      parseCommand('<@U0BOT> investigate checkout 5xx after deploy service=checkout ns=shop'),
    ).toEqual({
      kind: 'investigate',
      message: 'checkout 5xx after deploy',
      service: 'checkout',
      namespace: 'shop',
    });
  });

  it('reads the spec’s learn forms', () => {
    expect(parseCommand('<@U0BOT> learn checkout: the pool size is 50')).toEqual({
      kind: 'learn',
      content: 'the pool size is 50',
      type: 'fact',
      service: 'checkout',
    });
    expect(parseCommand('learn about checkout: runbook: restart the pods one by one')).toEqual({
      kind: 'learn',
      content: 'restart the pods one by one',
      type: 'runbook',
      service: 'checkout',
    });
    expect(parseCommand('learn runbook: see https://wiki.example/x')).toEqual({
      kind: 'learn',
      content: 'see https://wiki.example/x',
      type: 'runbook',
    });
  });

  it('answers help for empty or unknown text', () => {
    expect(parseCommand('learn checkout:')).toMatchObject({ kind: 'help' });
    expect(parseCommand('learn')).toMatchObject({
      kind: 'help',
      problem: expect.stringContaining('Nothing was stored'),
    });
    expect(parseCommand('<@U0BOT> dance')).toEqual({ kind: 'help' });
    expect(parseCommand('')).toEqual({ kind: 'help' });
    expect(parseCommand('status')).toMatchObject({ kind: 'help' });
  });

  it('reads ask, status and list', () => {
    expect(parseCommand('ask how do I restart checkout? service=checkout')).toEqual({
      kind: 'ask',
      question: 'how do I restart checkout?',
      service: 'checkout',
    });
    expect(parseCommand('STATUS inv_123')).toEqual({ kind: 'status', investigationId: 'inv_123' });
    expect(parseCommand('list')).toEqual({ kind: 'list' });
  });
});
