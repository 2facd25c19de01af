import { z } from 'zod';

export const DeliveryStatus = z
  .enum(['pending', 'delivering', 'delivered', 'failed', 'stopped'])
  .describe(
    'pending: waiting for its next attempt; delivering: an attempt is running; delivered: the receiver answered 2xx (Slack: ok); failed: every attempt was used; stopped: a permanent failure (410 Gone, refused address, unknown Slack channel)',
  );

export const DeliveryChannel = z
  .enum(['webhook', 'chat'])
  .describe('webhook: the team receiver; chat: the team chat channel');

/** One recorded attempt of a delivery. */
export const DeliveryAttempt = z
  .object({
    attempt: z.number().int().describe('1 for the first attempt'),
    at: z.string().describe('When the attempt ended, ISO 8601 UTC'),
    outcome: z
      .enum(['pending', 'delivered', 'failed', 'stopped'])
      .describe('The delivery status after it (pending: it will be retried)'),
    status_code: z.number().int().optional().describe('HTTP status the target answered'),
    error: z.string().optional().describe('Why the attempt did not succeed'),
  })
  .describe('One attempt: when, what the target answered, and the outcome');

/** One entry of the team's delivery log. */
export const WebhookDelivery = z
  .object({
    delivery_id: z.string().describe('Delivery identifier (dlv_...)'),
    event: z
      .string()
      .describe(
        'investigation_complete, config_change_requested, config_change_approved or config_change_rejected',
      ),
    event_id: z
      .string()
      .describe('Source event id; sent as the webhook-id header on every attempt'),
    channel: DeliveryChannel,
    target: z.string().describe('Receiver URL, or the chat channel'),
    status: DeliveryStatus,
    attempts: z.number().int().describe('Attempts made so far'),
    last_status_code: z.number().int().optional().describe('HTTP status of the last answer'),
    last_error: z.string().optional().describe('Why the last attempt did not succeed'),
    next_attempt_at: z
      .string()
      .optional()
      .describe('When the next attempt is due (pending only), ISO 8601 UTC'),
    created_at: z.string().describe('When the delivery was recorded, ISO 8601 UTC'),
    updated_at: z.string().optional(),
    delivered_at: z.string().optional(),
    redelivery_of: z.string().optional().describe('The delivery this one re-sends'),
    attempt_log: z
      .array(DeliveryAttempt)
      .optional()
      .describe(
        'Every recorded attempt, oldest first (an attempt cut off by a crash counts in `attempts` but records none)',
      ),
  })
  .describe('A webhook or chat delivery and its attempts');
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const ListWebhookDeliveriesQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(20)
    .describe('How many, newest first (1..100, default 20)'),
  status: DeliveryStatus.optional(),
  channel: DeliveryChannel.optional(),
});
export type ListWebhookDeliveriesQuery = z.infer<typeof ListWebhookDeliveriesQuery>;

export const ListWebhookDeliveriesResponse = z.object({
  deliveries: z.array(WebhookDelivery).describe('Recent deliveries of the team, newest first'),
});
export type ListWebhookDeliveriesResponse = z.infer<typeof ListWebhookDeliveriesResponse>;

export const RedeliverParams = z.object({
  delivery_id: z.string().min(1).max(100).describe('The finished delivery to send again'),
});
export type RedeliverParams = z.infer<typeof RedeliverParams>;

export const RedeliverResponse = z.object({
  delivery: WebhookDelivery.describe(
    'The new delivery (same event, body and webhook-id, fresh attempts)',
  ),
});
export type RedeliverResponse = z.infer<typeof RedeliverResponse>;

/** Body of the `investigation_complete` webhook (to `webhooks.investigation_complete`). */
export const InvestigationCompleteEvent = z
  .object({
    event: z.literal('investigation_complete'),
    investigation_id: z.string(),
    summary: z.string().describe('Empty when the investigation did not complete'),
    root_cause: z
      .record(z.string(), z.unknown())
      .describe('{description, confidence 0..100, evidence}; {} when it did not complete'),
    recommendations: z.array(z.record(z.string(), z.unknown())).describe('[{priority, action}]'),
    team_id: z.string(),
    status: z.enum(['completed', 'failed', 'cancelled']),
    agent: z.string(),
    completed_at: z
      .string()
      .describe('When it ended (completed, failed or cancelled), ISO 8601 UTC'),
    error: z
      .object({ code: z.string(), message: z.string() })
      .optional()
      .describe('Present when status is failed'),
    alert: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('The alert that started the investigation, when one did'),
  })
  .describe('Sent for every terminal investigation, failed and cancelled ones too');

/** Body of the `config_change_approved` / `config_change_rejected` webhooks (to `webhooks.config_change`). */
export const ConfigChangeDecidedEvent = z
  .object({
    event: z.enum(['config_change_approved', 'config_change_rejected']),
    team_id: z.string(),
    change_request_id: z.string(),
    status: z.enum(['approved', 'rejected']),
    requested_by: z.string(),
    requested_at: z.string(),
    approvers: z.array(z.string()),
    changes: z
      .record(z.string(), z.object({ old: z.unknown(), new: z.unknown() }))
      .describe(
        'Field path to its old (as the team saw it, inherited where it set none) and new value',
      ),
    occurred_at: z.string(),
    decided_by: z.string().optional(),
    decided_at: z.string().optional(),
    comment: z.string().optional(),
    applied_version: z.number().int().optional().describe('Only on approval'),
  })
  .describe('Tells the requester team the outcome of a change request');
