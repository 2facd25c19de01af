import { randomUUID } from 'node:crypto';
import { isDomainError } from '@inquest/errors';
import type { CallContext } from '@inquest/grpc-kit';
import type { Logger } from '@inquest/observability';
import { secretScopeOf } from '@inquest/secrets';
import type { RateLimiter } from '../http/rate-limiter';
import type { RateClass } from '../http/route';
import {
  agentNameFields,
  listFilterFields,
  readInvestigation,
  type InvestigationView,
} from '../grpc/investigation-messages';
import { documentStatusOf, knowledgeLevelOf } from '../grpc/knowledge-messages';
import type { ServiceClients } from '../routes/gateway-deps';
import {
  ACTION_APPROVE,
  ACTION_CANCEL,
  ACTION_REJECT,
  ACTION_UNDO_LEARN,
  answerBlocks,
  endedText,
  escapeMrkdwn,
  learnedBlocks,
  progressBlocks,
  reportBlocks,
  type Block,
} from './slack-blocks';
import { HELP_TEXT, parseCommand, type ChatCommand } from './slack-commands';
import type { SlackApp, SlackDirectory, SlackTeam } from './slack-directory';
import type { SlackApi } from './slack-web-api';

/** Where a chat message came from and where the answer goes. */
export interface ChatMessage {
  app: SlackApp;
  /** Slack workspace id (T…) */
  workspaceId?: string;
  channel: string;
  /** known for slash commands; looked up for events when a team names its channel by name */
  channelName?: string;
  /** `im` for a direct message */
  channelType?: string;
  user: string;
  text: string;
  /** the message to answer in a thread of (an event's ts or thread_ts); absent for a slash command */
  threadTs?: string;
  source: 'mention' | 'dm' | 'command';
  requestId: string;
  /** scheme://host of the gateway, for console links */
  baseUrl: string;
}

/** A button press (interactivity) on one of the bot's messages. */
export interface ChatAction {
  app: SlackApp;
  workspaceId?: string;
  channel: string;
  user: string;
  actionId: string;
  value: string;
  /** the message carrying the button and its thread */
  messageTs?: string;
  threadTs?: string;
  responseUrl?: string;
  requestId: string;
  baseUrl: string;
}

export interface SlackBotOptions {
  clients: ServiceClients;
  slack: SlackApi;
  directory: SlackDirectory;
  rateLimiter: RateLimiter;
  logger: Logger;
  /** how often a running investigation's progress is read (default 1 s) */
  pollMs?: number;
  /** how long progress is followed before the thread is left to `status` (default 15 min) */
  followMs?: number;
  /** requests carried out at once (default 8); following a running investigation is not one */
  workers?: number;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/**
 * Carries out what Slack users ask, after the request was acknowledged: maps the channel to a
 * team and makes the same gRPC calls the REST API makes, as the team's bot credential
 * (principal `slack:<team>`, rate-limited like a token) with the Slack user as the audited actor.
 */
export class SlackBot {
  private readonly emails = new Map<string, { at: number; email: string | undefined }>();
  private readonly channelNames = new Map<string, string | undefined>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private stopped = false;
  private readonly queue: (() => Promise<void>)[] = [];
  private running = 0;

  constructor(private readonly o: SlackBotOptions) {}

  /**
   * Queues `work` to run after the acknowledgement was sent, at most `workers` at a time, so a
   * burst of events does not crowd the event loop that answers Slack; failures are logged.
   */
  spawn(what: string, work: () => Promise<void>): void {
    if (this.stopped) return;
    this.queue.push(() =>
      work().catch((err: unknown) =>
        this.o.logger.warn({ err, what }, 'slack: handling a request failed'),
      ),
    );
    this.pump();
  }

  private pump(): void {
    while (this.running < (this.o.workers ?? 8) && this.queue.length) {
      const job = this.queue.shift() as () => Promise<void>;
      this.running += 1;
      const p = new Promise<void>((r) => setImmediate(r)).then(job).finally(() => {
        this.running -= 1;
        this.pump();
      });
      this.track(p);
    }
  }

  private track(p: Promise<unknown>): void {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  /** Resolves when the background work started so far has ended (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size || this.queue.length) await Promise.allSettled([...this.inFlight]);
  }

  /** Stops following investigations and waits (at most 5 s) for the work in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.queue.length = 0;
    await Promise.race([this.idle(), sleep(5000)]);
  }

  /** The team a channel (or, for a direct message, the workspace) belongs to. */
  async teamOf(
    app: SlackApp,
    m: Pick<ChatMessage, 'channel' | 'channelName' | 'channelType' | 'workspaceId'>,
    token?: string,
  ): Promise<SlackTeam | undefined> {
    // Every team that claims the channel, by id or by name. A team sets its own chat_channel: one
    // naming another team's channel must not take over that channel's requests (its `learn`
    // would teach the claiming team), so a channel claimed twice belongs to nobody.
    const claims = new Set(app.teams.filter((t) => t.channel === m.channel));
    const named = app.teams.filter(
      (t) => t.channel && !/^[CGD][A-Z0-9]{6,}$/.test(t.channel) && !claims.has(t),
    );
    if (named.length) {
      const name = m.channelName ?? (await this.nameOf(app, m.channel, named, token));
      if (name) for (const t of named) if (t.channel === name) claims.add(t);
    }
    if (claims.size === 1) return [...claims][0];
    if (claims.size > 1) {
      this.o.logger.warn(
        { channel: m.channel, teams: [...claims].map((t) => t.teamId) },
        'slack: several teams set this channel as their chat_channel; none acts on it',
      );
      return undefined;
    }
    const direct = m.channelType === 'im' || m.channel.startsWith('D');
    if (direct) {
      const ws = app.teams.filter((t) => t.workspaceId && t.workspaceId === m.workspaceId);
      if (ws.length === 1) return ws[0];
      if (app.teams.length === 1) return app.teams[0];
    }
    return undefined;
  }

  /**
   * A channel's name, read with the app node's bot token, else with the token of a team that
   * names its channel by name (only to learn whether this channel is that team's: nothing is
   * posted with it).
   */
  private async nameOf(
    app: SlackApp,
    channel: string,
    named: SlackTeam[],
    token?: string,
  ): Promise<string | undefined> {
    if (token) return this.channelName(channel, token);
    for (const t of named) {
      if (!t.botTokenRef) continue;
      const own = await this.tokenFor(app, t);
      if (own) return this.channelName(channel, own);
    }
    return undefined;
  }

  /**
   * The bot token to answer with: the team's, else the app node's. Another team's token is never
   * used: a team's secret serves that team's requests only (a channel of a team without a token,
   * or of no team, is not answered with it).
   */
  async tokenFor(app: SlackApp, team?: SlackTeam): Promise<string | undefined> {
    const tries: [string, Parameters<SlackDirectory['botToken']>[1]][] = [];
    if (team?.botTokenRef) tries.push([team.botTokenRef, team.botTokenScope]);
    if (app.botTokenRef) tries.push([app.botTokenRef, secretScopeOf(app.nodeId)]);
    for (const [ref, scope] of tries) {
      try {
        return await this.o.directory.botToken(ref, scope);
      } catch (err) {
        this.o.logger.warn({ err, ref }, 'slack: bot token not resolvable');
      }
    }
    return undefined;
  }

  /** Handles one message: a mention, a direct message or `/inquest <text>`. */
  async handleMessage(m: ChatMessage): Promise<void> {
    const log = this.o.logger.child({ requestId: m.requestId, channel: m.channel });
    const appToken = await this.tokenFor(m.app);
    const team = await this.teamOf(m.app, m, appToken);
    const token = team ? await this.tokenFor(m.app, team) : appToken;
    if (!token) {
      log.warn('slack: no bot token configured (tokens_vault_path.slack_bot_token)');
      return;
    }
    const say = async (text: string, blocks?: Block[], thread = m.threadTs) =>
      this.post(token, { channel: m.channel, thread_ts: thread, text, blocks });
    if (!team) {
      await say(
        'This channel is not connected to an Inquest team, so I did nothing. An Inquest admin can connect it by setting the team’s `chat_channel` to this channel.',
      );
      return;
    }
    const cmd = parseCommand(m.text);
    if (cmd.kind === 'help') {
      await say(cmd.problem ? `${cmd.problem}\n\n${HELP_TEXT}` : HELP_TEXT);
      return;
    }
    // a slash command has no message to answer under: its own root message opens the thread
    let thread = m.threadTs;
    if (!thread) {
      const root = await this.post(token, {
        channel: m.channel,
        text: `<@${m.user}> ran \`/inquest ${escapeMrkdwn(m.text.trim())}\``,
      });
      thread = typeof root['ts'] === 'string' ? root['ts'] : undefined;
    }
    const reply = (text: string, blocks?: Block[]) => say(text, blocks, thread);
    const actor = await this.actorOf(m.user, token);
    try {
      await this.run(cmd, { m, team, token, thread, actor, reply });
    } catch (err) {
      await reply(this.explain(err, team.teamId));
    }
  }

  private async run(
    cmd: Exclude<ChatCommand, { kind: 'help' }>,
    c: {
      m: ChatMessage;
      team: SlackTeam;
      token: string;
      thread: string | undefined;
      actor: string;
      reply: (text: string, blocks?: Block[]) => Promise<Record<string, unknown>>;
    },
  ): Promise<void> {
    const teamId = c.team.teamId;
    const ctx = await this.ctxFor(teamId, c.m.requestId, rateClassOf(cmd));
    switch (cmd.kind) {
      case 'investigate': {
        const res = await this.o.clients.investigation.runInvestigation(
          {
            team_id: teamId,
            ...agentNameFields('planner'),
            message: cmd.message,
            context: {
              ...(cmd.service ? { service: cmd.service } : {}),
              ...(cmd.namespace ? { namespace: cmd.namespace } : {}),
            },
            async: true,
            requested_by: c.actor,
          },
          { ctx, deadlineMs: 10_000 },
        );
        if (!res.investigation)
          throw new Error('runInvestigation answered without an investigation');
        const inv = readInvestigation(res.investigation);
        const progress = await c.reply(
          `Investigating ${inv.investigation_id}`,
          progressBlocks(inv),
        );
        const ts = typeof progress['ts'] === 'string' ? progress['ts'] : undefined;
        // following progress lasts as long as the investigation: it does not hold a worker
        this.track(
          this.follow(inv, { ...c, ctx, progressTs: ts }).catch((err: unknown) =>
            this.o.logger.warn({ err }, 'slack: following an investigation failed'),
          ),
        );
        return;
      }
      case 'learn': {
        const r = await this.o.clients.knowledge.teach(
          {
            team_id: teamId,
            content: cmd.content,
            type: cmd.type,
            service: cmd.service,
            tags: ['slack'],
            author: c.actor,
            format: 'text',
          },
          { ctx },
        );
        const text = `:books: ${r.created ? 'Learned' : 'Already knew'} a ${cmd.type}${cmd.service ? ` about *${escapeMrkdwn(cmd.service)}*` : ''}: “${escapeMrkdwn(
          cmd.content.length > 300 ? `${cmd.content.slice(0, 299)}…` : cmd.content,
        )}” (document \`${r.document_id}\`, level ${knowledgeLevelOf(r)}, ${documentStatusOf(r)})`;
        // Undo only what this message taught: identical content taught before is not ours to delete
        await c.reply(
          text,
          learnedBlocks(text, r.created ? { teamId, documentId: r.document_id } : undefined),
        );
        return;
      }
      case 'ask': {
        const a = await this.o.clients.knowledge.answer(
          { team_id: teamId, question: cmd.question, include_sources: true, service: cmd.service },
          { ctx },
        );
        await c.reply(a.answer || 'No answer found.', answerBlocks(cmd.question, a));
        return;
      }
      case 'status': {
        const r = await this.o.clients.investigation.getInvestigation(
          { team_id: teamId, investigation_id: cmd.investigationId },
          { ctx },
        );
        if (!r.investigation) throw new Error('getInvestigation answered without an investigation');
        const inv = readInvestigation(r.investigation);
        if (TERMINAL.has(inv.status)) await c.reply(endedText(inv), reportBlocks(inv, c.m.baseUrl));
        else
          await c.reply(
            `Investigation ${inv.investigation_id} is ${inv.status}`,
            progressBlocks(inv),
          );
        return;
      }
      case 'list': {
        const r = await this.o.clients.investigation.listInvestigations(
          { team_id: teamId, limit: 10, offset: 0, ...listFilterFields({}) },
          { ctx },
        );
        const lines = r.investigations
          .map(readInvestigation)
          .map(
            (i) =>
              `• \`${i.investigation_id}\` ${i.status} · ${i.created_at} · ${escapeMrkdwn(
                i.message.length > 80 ? `${i.message.slice(0, 79)}…` : i.message,
              )}`,
          );
        await c.reply(
          lines.length
            ? `Latest investigations of *${teamId}* (${r.total} in all):\n${lines.join('\n')}`
            : `No investigations yet in *${teamId}*.`,
        );
        return;
      }
    }
  }

  /** Edits the progress message as steps finish, then posts the report in the thread. */
  private async follow(
    first: InvestigationView,
    c: {
      m: ChatMessage;
      team: SlackTeam;
      token: string;
      thread: string | undefined;
      ctx: CallContext;
      progressTs: string | undefined;
      reply: (text: string, blocks?: Block[]) => Promise<Record<string, unknown>>;
    },
  ): Promise<void> {
    const until = Date.now() + (this.o.followMs ?? 15 * 60_000);
    let inv = first;
    let shown = JSON.stringify([inv.status, inv.progress]);
    while (!TERMINAL.has(inv.status) && Date.now() < until && !this.stopped) {
      await sleep(this.o.pollMs ?? 1000);
      const r = await this.o.clients.investigation.getInvestigation(
        { team_id: c.team.teamId, investigation_id: inv.investigation_id },
        { ctx: c.ctx },
      );
      if (!r.investigation) break;
      inv = readInvestigation(r.investigation);
      const now = JSON.stringify([inv.status, inv.progress]);
      if (now !== shown && !TERMINAL.has(inv.status) && c.progressTs) {
        shown = now;
        await this.call('chat.update', c.token, {
          channel: c.m.channel,
          ts: c.progressTs,
          text: `Investigating ${inv.investigation_id}`,
          blocks: progressBlocks(inv),
        });
      }
    }
    if (!TERMINAL.has(inv.status)) return;
    if (c.progressTs)
      await this.call('chat.update', c.token, {
        channel: c.m.channel,
        ts: c.progressTs,
        text: endedText(inv),
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: endedText(inv) } }],
      });
    if (inv.status !== 'cancelled') await c.reply(endedText(inv), reportBlocks(inv, c.m.baseUrl));
  }

  /** Handles a button: Cancel of an investigation, Undo of a learn, Approve / Reject of a change. */
  async handleAction(a: ChatAction): Promise<void> {
    const appToken = await this.tokenFor(a.app);
    const team = await this.teamOf(
      a.app,
      { channel: a.channel, workspaceId: a.workspaceId },
      appToken,
    );
    const token = team ? await this.tokenFor(a.app, team) : appToken;
    if (!token) return;
    const thread = a.threadTs ?? a.messageTs;
    const say = (text: string) => this.post(token, { channel: a.channel, thread_ts: thread, text });
    if (!team) {
      await say('This channel is not connected to an Inquest team, so I did nothing.');
      return;
    }
    try {
      if (a.actionId === ACTION_CANCEL) {
        const ctx = await this.ctxFor(team.teamId, a.requestId, 'write');
        await this.o.clients.investigation.cancelInvestigation(
          { team_id: team.teamId, investigation_id: a.value },
          { ctx },
        );
        await say(`Investigation \`${a.value}\` cancelled by <@${a.user}>.`);
        return;
      }
      if (a.actionId === ACTION_UNDO_LEARN) {
        await this.undoLearn(a, team, token, say);
        return;
      }
      if (a.actionId === ACTION_APPROVE || a.actionId === ACTION_REJECT) {
        await this.decide(a, team, token, say);
        return;
      }
      await this.ephemeral(token, a, 'That button is not supported.');
    } catch (err) {
      if ((err as { code?: unknown }).code === 'forbidden') {
        await this.ephemeral(token, a, this.explain(err, team.teamId));
        return;
      }
      await say(this.explain(err, team.teamId));
    }
  }

  /**
   * Approve / Reject of a pending change request: only a listed approver (the Slack user's
   * e-mail in approval.approvers, not the requester) may; others are told so privately. The
   * buttons are removed from the message and the requester is told.
   */
  private async decide(
    a: ChatAction,
    team: SlackTeam,
    token: string,
    say: (text: string) => Promise<Record<string, unknown>>,
  ): Promise<void> {
    const sep = a.value.indexOf(':');
    const teamId = sep > 0 ? a.value.slice(0, sep) : '';
    const changeRequestId = sep > 0 ? a.value.slice(sep + 1) : '';
    if (teamId !== team.teamId || !changeRequestId) {
      await this.ephemeral(token, a, 'That change request does not belong to this channel’s team.');
      return;
    }
    const email = await this.actorOf(a.user, token);
    const approvers = await this.o.directory.approvers(team.teamId, a.requestId);
    if (!approvers.map((x) => x.toLowerCase()).includes(email)) {
      await this.ephemeral(
        token,
        a,
        `You are not an approver of team *${team.teamId}* (approval.approvers), so nothing was decided.`,
      );
      return;
    }
    const ctx = await this.ctxFor(team.teamId, a.requestId, 'write');
    const approve = a.actionId === ACTION_APPROVE;
    const req = {
      change_request_id: changeRequestId,
      approver: email,
      team_id: team.teamId,
      as_listed_approver: true,
      comment: 'decided in Slack',
    };
    const cr = approve
      ? (await this.o.clients.config.approveChangeRequest(req, { ctx })).change_request
      : (await this.o.clients.config.rejectChangeRequest(req, { ctx })).change_request;
    const verdict = approve ? 'approved' : 'rejected';
    const applied =
      approve && cr?.applied_version !== undefined
        ? ` (applied as version ${cr.applied_version})`
        : '';
    const text = `Change request \`${changeRequestId}\` ${verdict} by <@${a.user}>${applied}.`;
    if (a.messageTs)
      await this.call('chat.update', token, {
        channel: a.channel,
        ts: a.messageTs,
        text,
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
      });
    await say(text);
    // the requester is told directly when Slack knows their e-mail
    const requester = cr?.requested_by;
    if (requester && requester.includes('@')) {
      const found = await this.o.slack
        .call('users.lookupByEmail', token, { email: requester })
        .catch(() => undefined);
      const id = (found?.['user'] as { id?: unknown } | undefined)?.id;
      if (found?.ok && typeof id === 'string')
        await this.post(token, {
          channel: id,
          text: `Your configuration change \`${changeRequestId}\` for team *${team.teamId}* was ${verdict} by <@${a.user}>${applied}.`,
        });
    }
  }

  /**
   * Undo of a `learn`: deletes the document it taught, only when the button's team is the
   * channel's team (the value is `<team>:<document_id>`), and edits the reply to say so.
   */
  private async undoLearn(
    a: ChatAction,
    team: SlackTeam,
    token: string,
    say: (text: string) => Promise<Record<string, unknown>>,
  ): Promise<void> {
    const sep = a.value.indexOf(':');
    const teamId = sep > 0 ? a.value.slice(0, sep) : '';
    const documentId = sep > 0 ? a.value.slice(sep + 1) : '';
    if (teamId !== team.teamId || !documentId) {
      await this.ephemeral(token, a, 'That document does not belong to this channel’s team.');
      return;
    }
    const ctx = await this.ctxFor(team.teamId, a.requestId, 'write');
    const actor = await this.actorOf(a.user, token);
    await this.o.clients.knowledge.deleteDocument(
      { team_id: team.teamId, document_id: documentId },
      { ctx },
    );
    this.o.logger.info(
      { audit: 'kb.document.deleted', team: team.teamId, document_id: documentId, actor },
      'slack: learn undone',
    );
    const text = `:leftwards_arrow_with_hook: Undone by <@${a.user}>: document \`${documentId}\` was removed from the knowledge base of *${team.teamId}*.`;
    if (a.messageTs)
      await this.call('chat.update', token, {
        channel: a.channel,
        ts: a.messageTs,
        text,
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
      });
    else await say(text);
  }

  private async ephemeral(token: string, a: ChatAction, text: string): Promise<void> {
    await this.call('chat.postEphemeral', token, { channel: a.channel, user: a.user, text });
  }

  /** The call context of the team's bot credential, counted by the REST API's rate limiter. */
  private async ctxFor(
    teamId: string,
    requestId: string,
    rateClass: RateClass,
  ): Promise<CallContext> {
    const principal = `slack:${teamId}`;
    await this.o.rateLimiter.consume(`team:${principal}`, rateClass);
    return {
      requestId: requestId || randomUUID(),
      teamId,
      principal,
      permissions: ['read', 'write'],
    };
  }

  /** The Slack user's e-mail (users.info, scope users:read.email), else `slack:<user id>`. */
  async actorOf(user: string, token: string): Promise<string> {
    const hit = this.emails.get(user);
    if (hit && Date.now() - hit.at < 10 * 60_000) return hit.email ?? `slack:${user}`;
    let email: string | undefined;
    try {
      const r = await this.o.slack.call('users.info', token, { user });
      const profile = (r['user'] as { profile?: { email?: unknown } } | undefined)?.profile;
      if (r.ok && typeof profile?.email === 'string') email = profile.email.toLowerCase();
    } catch (err) {
      this.o.logger.debug({ err }, 'slack: users.info failed');
    }
    this.emails.set(user, { at: Date.now(), email });
    return email ?? `slack:${user}`;
  }

  private async channelName(channel: string, token: string): Promise<string | undefined> {
    if (this.channelNames.has(channel)) return this.channelNames.get(channel);
    let name: string | undefined;
    try {
      const r = await this.o.slack.call('conversations.info', token, { channel });
      const n = (r['channel'] as { name?: unknown } | undefined)?.name;
      if (r.ok && typeof n === 'string') name = n;
    } catch (err) {
      this.o.logger.debug({ err }, 'slack: conversations.info failed');
      return undefined;
    }
    this.channelNames.set(channel, name);
    return name;
  }

  private post(
    token: string,
    args: { channel: string; thread_ts?: string; text: string; blocks?: Block[] },
  ): Promise<Record<string, unknown>> {
    return this.call('chat.postMessage', token, args);
  }

  private async call(
    method: string,
    token: string,
    args: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const r = await this.o.slack.call(method, token, args);
    if (!r.ok) this.o.logger.warn({ method, error: r.error }, 'slack: Web API call refused');
    return r;
  }

  /** What the user reads when a call fails (never a stack trace). */
  private explain(err: unknown, teamId: string): string {
    if (isDomainError(err) || typeof (err as { code?: unknown }).code === 'string') {
      const e = err as { code: string; message: string; options?: { retryAfter?: number } };
      switch (e.code) {
        case 'rate_limited':
          return `Too many requests for team *${teamId}* right now; try again in ${e.options?.retryAfter ?? 60} s.`;
        case 'conflict':
          return `Too late: ${e.message}`;
        case 'not_found':
          return `Not found in team *${teamId}*: ${e.message}`;
        case 'forbidden':
          return `Not allowed: ${e.message}`;
        case 'validation_error':
        case 'invalid_request':
        case 'invalid_field':
          return `That did not work: ${e.message}`;
        case 'unavailable':
          return 'Inquest is unavailable right now; try again in a moment.';
        default:
          break;
      }
    }
    this.o.logger.warn({ err }, 'slack: command failed');
    return 'Something went wrong on the Inquest side; nothing was changed. Try again later.';
  }
}

function rateClassOf(cmd: Exclude<ChatCommand, { kind: 'help' }>): RateClass {
  if (cmd.kind === 'investigate') return 'trigger';
  if (cmd.kind === 'learn') return 'write';
  return 'read';
}
