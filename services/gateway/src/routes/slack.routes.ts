import { invalidRequest, unauthenticated, unavailable } from '@inquest/errors';
import type { Logger } from '@inquest/observability';
import { z } from 'zod';
import { defineRoute, type ApiRequest, type RouteDef } from '../http/route';
import type { SlackBot } from '../slack/slack-bot';
import type { SlackApp, SlackDirectory } from '../slack/slack-directory';
import {
  SLACK_SIGNATURE_HEADER,
  SLACK_TIMESTAMP_HEADER,
  verifySlackSignature,
} from '../slack/slack-signature';
import { HELP_TEXT } from '../slack/slack-commands';
import { InMemorySeenEvents, type SeenEvents } from '../slack/seen-events';
import { err } from './route-helpers';

/** What the Slack routes need besides the gRPC clients. */
export interface SlackRouteDeps {
  directory: SlackDirectory;
  bot: SlackBot;
  /** deliveries already handled, shared by the gateway replicas (memory when absent) */
  seen?: SeenEvents;
  logger?: Logger;
  now?: () => number;
}

const NodeQuery = z.object({
  node: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'must be a node id')
    .describe('the node (usually the org root) whose config sets `slack.signing_secret`'),
});
type NodeQuery = z.infer<typeof NodeQuery>;

const RESPONSES_401 = {
  400: err('invalid_request: no ?node=, or not a Slack payload'),
  401: err('unauthorized: missing or wrong X-Slack-Signature, or a timestamp over 5 minutes old'),
  415: err('unsupported_media_type'),
};

const header = (req: ApiRequest<unknown, unknown, unknown>, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/**
 * The Slack app's request URLs (Events API, the `/inquest` slash command, interactivity). Each
 * request is authenticated by Slack's signature with the signing secret of the node `?node=`
 * names, acknowledged at once, and carried out afterwards by the SlackBot.
 */
export function slackRoutes(deps: SlackRouteDeps): RouteDef[] {
  const now = deps.now ?? Date.now;
  const memory = new InMemorySeenEvents();
  /**
   * True the first time a delivery is seen. When the shared store fails, this replica's memory
   * decides (a retry reaching another replica may then run twice) rather than failing the ack.
   */
  const firstTime = async (key: string): Promise<boolean> => {
    if (!deps.seen) return memory.first(key, now());
    try {
      return await deps.seen.first(key, now());
    } catch (err) {
      deps.logger?.warn({ err }, 'slack: the shared store of seen events failed; using memory');
      return memory.first(key, now());
    }
  };

  /** Verifies the signature; answers the app, or throws 401/503. */
  const verified = async (req: ApiRequest<unknown, NodeQuery, unknown>): Promise<SlackApp> => {
    let app: SlackApp | undefined;
    try {
      app = await deps.directory.app(req.query.node, req.requestId);
    } catch {
      throw unavailable('the Slack app settings cannot be read right now');
    }
    if (!app) throw unauthenticated();
    const check = verifySlackSignature({
      secret: app.signingSecret,
      timestamp: header(req, SLACK_TIMESTAMP_HEADER),
      signature: header(req, SLACK_SIGNATURE_HEADER),
      body: req.rawBody ?? Buffer.alloc(0),
      nowMs: now(),
    });
    if (check !== 'ok') throw unauthenticated();
    return app;
  };

  const common = {
    method: 'post' as const,
    tags: ['chat'],
    auth: 'public' as const,
    query: NodeQuery,
    rawBody: true,
    formBody: true,
  };

  return [
    defineRoute<undefined, NodeQuery>({
      ...common,
      path: '/chat/slack/events',
      summary: 'Slack Events API request URL',
      description:
        'Slack Events API: `url_verification` (answers the challenge), `event_callback` with `app_mention` and direct messages (`message` in an `im`, not from a bot). Signed by Slack (`X-Slack-Signature`, `X-Slack-Request-Timestamp`). Answered 200 at once; the work runs after. An event id seen before (Slack retries, `X-Slack-Retry-Num`) is acknowledged and ignored.',
      responses: {
        200: { description: 'Acknowledged (or the url_verification challenge)' },
        ...RESPONSES_401,
      },
      handler: async (req) => {
        const app = await verified(req);
        let body: Record<string, unknown>;
        try {
          body = obj(JSON.parse((req.rawBody ?? Buffer.alloc(0)).toString('utf8')));
        } catch {
          throw invalidRequest('not a Slack Events API payload');
        }
        if (body['type'] === 'url_verification')
          return { status: 200, body: { challenge: str(body['challenge']) ?? '' } };
        if (body['type'] !== 'event_callback') return { status: 200 };
        const eventId = str(body['event_id']);
        if (eventId && !(await firstTime(`event:${app.nodeId}:${eventId}`))) return { status: 200 };
        const ev = obj(body['event']);
        const type = str(ev['type']);
        const direct = type === 'message' && ev['channel_type'] === 'im';
        // the bot's own messages, edits and joins are not commands
        if (ev['bot_id'] !== undefined || ev['subtype'] !== undefined) return { status: 200 };
        if (type !== 'app_mention' && !direct) return { status: 200 };
        const channel = str(ev['channel']);
        const user = str(ev['user']);
        if (!channel || !user) return { status: 200 };
        const ts = str(ev['ts']);
        const threadTs = str(ev['thread_ts']) ?? ts;
        deps.bot.spawn('slack event', () =>
          deps.bot.handleMessage({
            app,
            workspaceId: str(body['team_id']),
            channel,
            channelType: str(ev['channel_type']),
            user,
            text: str(ev['text']) ?? '',
            ...(threadTs ? { threadTs } : {}),
            source: direct ? 'dm' : 'mention',
            requestId: req.requestId,
            baseUrl: req.baseUrl,
          }),
        );
        return { status: 200 };
      },
    }),
    defineRoute<undefined, NodeQuery>({
      ...common,
      path: '/chat/slack/commands',
      summary: 'Slack slash command request URL (/inquest)',
      description:
        '`/inquest <command>`: the answer goes to the channel in a thread; a channel no team claims or an unknown command gets an ephemeral answer at once.',
      responses: {
        200: { description: 'Acknowledged (possibly with an ephemeral answer)' },
        ...RESPONSES_401,
      },
      handler: async (req) => {
        const app = await verified(req);
        const form = new URLSearchParams((req.rawBody ?? Buffer.alloc(0)).toString('utf8'));
        const channel = form.get('channel_id');
        const user = form.get('user_id');
        if (!channel || !user) throw invalidRequest('not a Slack slash command payload');
        const text = form.get('text') ?? '';
        if (!text.trim())
          return { status: 200, body: { response_type: 'ephemeral', text: HELP_TEXT } };
        const workspaceId = form.get('team_id') ?? undefined;
        const channelName = form.get('channel_name') ?? undefined;
        const team = await deps.bot.teamOf(app, {
          channel,
          ...(channelName ? { channelName } : {}),
          ...(workspaceId ? { workspaceId } : {}),
          ...(channel.startsWith('D') ? { channelType: 'im' } : {}),
        });
        if (!team)
          return {
            status: 200,
            body: {
              response_type: 'ephemeral',
              text: 'This channel is not connected to an Inquest team, so I did nothing. An Inquest admin can connect it by setting the team’s `chat_channel` to this channel.',
            },
          };
        deps.bot.spawn('slack command', () =>
          deps.bot.handleMessage({
            app,
            ...(workspaceId ? { workspaceId } : {}),
            channel,
            ...(channelName ? { channelName } : {}),
            ...(channel.startsWith('D') ? { channelType: 'im' } : {}),
            user,
            text,
            source: 'command',
            requestId: req.requestId,
            baseUrl: req.baseUrl,
          }),
        );
        return { status: 200 };
      },
    }),
    defineRoute<undefined, NodeQuery>({
      ...common,
      path: '/chat/slack/interactions',
      summary: 'Slack interactivity request URL (buttons)',
      description:
        'Button presses on Inquest messages (`block_actions`): Cancel of a running investigation; Undo of a `learn` (deletes the document it taught, only in a channel of the same team); Approve / Reject of a pending change request (only for a Slack user whose e-mail is in `approval.approvers` and who did not request it; others get an ephemeral answer). Acknowledged at once; a press delivered twice runs once.',
      responses: { 200: { description: 'Acknowledged' }, ...RESPONSES_401 },
      handler: async (req) => {
        const app = await verified(req);
        const form = new URLSearchParams((req.rawBody ?? Buffer.alloc(0)).toString('utf8'));
        let payload: Record<string, unknown>;
        try {
          payload = obj(JSON.parse(form.get('payload') ?? ''));
        } catch {
          throw invalidRequest('not a Slack interactivity payload');
        }
        if (payload['type'] !== 'block_actions') return { status: 200 };
        const action = obj((payload['actions'] as unknown[] | undefined)?.[0]);
        const actionId = str(action['action_id']);
        const channel = str(obj(payload['channel'])['id']);
        const user = str(obj(payload['user'])['id']);
        if (!actionId || !channel || !user) return { status: 200 };
        const key = `action:${app.nodeId}:${user}:${str(action['action_ts']) ?? ''}:${actionId}`;
        if (!(await firstTime(key))) return { status: 200 };
        const message = obj(payload['message']);
        const workspaceId = str(obj(payload['team'])['id']);
        const messageTs = str(message['ts']);
        const threadTs = str(message['thread_ts']);
        const responseUrl = str(payload['response_url']);
        deps.bot.spawn('slack action', () =>
          deps.bot.handleAction({
            app,
            ...(workspaceId ? { workspaceId } : {}),
            channel,
            user,
            actionId,
            value: str(action['value']) ?? '',
            ...(messageTs ? { messageTs } : {}),
            ...(threadTs ? { threadTs } : {}),
            ...(responseUrl ? { responseUrl } : {}),
            requestId: req.requestId,
            baseUrl: req.baseUrl,
          }),
        );
        return { status: 200 };
      },
    }),
  ];
}
