import { silentLogger } from '@inquest/observability';
import { secretScopeOf } from '@inquest/secrets';
import { SlackBot, type SlackBotOptions } from './slack-bot';
import type { SlackApp, SlackTeam } from './slack-directory';

const team = (teamId: string, channel?: string, workspaceId?: string): SlackTeam => ({
  teamId,
  ...(channel ? { channel } : {}),
  ...(workspaceId ? { workspaceId } : {}),
  botTokenScope: secretScopeOf(teamId),
});

/** teamOf reads only the Slack API (a channel's name) and the logger */
function bot(names: Record<string, string> = {}): SlackBot {
  const slack = {
    call: async (method: string, _token: string, args: { channel: string }) => {
      if (method !== 'conversations.info') throw new Error(`unexpected ${method}`);
      return { ok: true, channel: { name: names[args.channel] } };
    },
  };
  return new SlackBot({ slack, logger: silentLogger() } as unknown as SlackBotOptions);
}

const app = (...teams: SlackTeam[]): SlackApp => ({ nodeId: 'acme', signingSecret: 's', teams });

describe('SlackBot.teamOf', () => {
  it('maps a channel to the one team that set it, by id or by name', async () => {
    const a = app(team('payments', 'C0PAY'), team('checkout', 'checkout-oncall'));
    expect((await bot().teamOf(a, { channel: 'C0PAY' }))?.teamId).toBe('payments');
    const named = await bot({ C0CHK: 'checkout-oncall' }).teamOf(a, { channel: 'C0CHK' }, 'xoxb');
    expect(named?.teamId).toBe('checkout');
    expect(await bot().teamOf(a, { channel: 'C0OTHER', channelName: 'random' })).toBeUndefined();
  });

  it("gives nobody a channel two teams claim: a team cannot take over another team's channel", async () => {
    // attacker-team sorts first and names the victim's channel by id, or by name
    const byId = app(team('attacker', 'C0PAY'), team('payments', 'C0PAY'));
    expect(await bot().teamOf(byId, { channel: 'C0PAY' })).toBeUndefined();
    const byName = app(team('attacker', 'payments-oncall'), team('payments', 'C0PAY'));
    const b = bot({ C0PAY: 'payments-oncall' });
    expect(await b.teamOf(byName, { channel: 'C0PAY' }, 'xoxb')).toBeUndefined();
    expect(
      await bot().teamOf(byName, { channel: 'C0PAY', channelName: 'payments-oncall' }),
    ).toBeUndefined();
  });

  it('maps a direct message by workspace only when one team claims it', async () => {
    const one = app(team('payments', 'C0PAY', 'T0ACME'), team('checkout', 'C0CHK'));
    expect((await bot().teamOf(one, { channel: 'D0X', workspaceId: 'T0ACME' }))?.teamId).toBe(
      'payments',
    );
    const two = app(team('payments', 'C0PAY', 'T0ACME'), team('attacker', 'C0ATK', 'T0ACME'));
    expect(await bot().teamOf(two, { channel: 'D0X', workspaceId: 'T0ACME' })).toBeUndefined();
  });
});

describe('SlackBot.tokenFor', () => {
  /** resolves every reference to a token naming it, as the secret store would */
  const withDirectory = () =>
    new SlackBot({
      slack: { call: async () => ({ ok: true }) },
      directory: { botToken: async (ref: string) => `token-of:${ref}` },
      logger: silentLogger(),
    } as unknown as SlackBotOptions);
  const withToken = (t: SlackTeam, ref: string): SlackTeam => ({ ...t, botTokenRef: ref });

  it("answers a team with its own token, else the app node's", async () => {
    const payments = withToken(team('payments', 'C0PAY'), 'vault://inquest/payments/slack');
    const checkout = team('checkout', 'C0CHK');
    const a: SlackApp = {
      ...app(payments, checkout),
      botTokenRef: 'vault://inquest/acme/slack',
    };
    expect(await withDirectory().tokenFor(a, payments)).toBe(
      'token-of:vault://inquest/payments/slack',
    );
    expect(await withDirectory().tokenFor(a, checkout)).toBe('token-of:vault://inquest/acme/slack');
  });

  it("never answers with another team's token: a team's secret serves that team only", async () => {
    const payments = withToken(team('payments', 'C0PAY'), 'vault://inquest/payments/slack');
    const checkout = team('checkout', 'C0CHK');
    const a = app(payments, checkout);
    // checkout set no token and the app node none: payments' token is not lent to it
    expect(await withDirectory().tokenFor(a, checkout)).toBeUndefined();
    // nor to a channel no team claims
    expect(await withDirectory().tokenFor(a)).toBeUndefined();
  });
});
