import { randomUUID } from 'node:crypto';
import { conflict, invalidRequest, notFound } from '@inquest/errors';
import type { Delivery, DeliveryChannel, DeliveryStatus, DeliveryStore } from '@inquest/store';

const STATUSES: DeliveryStatus[] = ['pending', 'delivering', 'delivered', 'failed', 'stopped'];
const CHANNELS: DeliveryChannel[] = ['webhook', 'chat'];
const FINAL: DeliveryStatus[] = ['delivered', 'failed', 'stopped'];

/** The team-visible delivery log: listing and manual redelivery. */
export class DeliveryLog {
  constructor(
    private readonly store: DeliveryStore,
    private readonly onNewDelivery: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  async list(
    teamId: string,
    options: { limit?: number; status?: string; channel?: string },
  ): Promise<Delivery[]> {
    if (!teamId) throw invalidRequest('team_id is required');
    const limit = options.limit && options.limit > 0 ? Math.min(options.limit, 100) : 20;
    if (options.status && !STATUSES.includes(options.status as DeliveryStatus)) {
      throw invalidRequest(`status must be one of ${STATUSES.join(', ')}`);
    }
    if (options.channel && !CHANNELS.includes(options.channel as DeliveryChannel)) {
      throw invalidRequest(`channel must be one of ${CHANNELS.join(', ')}`);
    }
    return this.store.list(teamId, {
      limit,
      ...(options.status ? { status: options.status as DeliveryStatus } : {}),
      ...(options.channel ? { channel: options.channel as DeliveryChannel } : {}),
    });
  }

  /**
   * Sends a finished delivery again as a new delivery (same event, target, body and webhook-id,
   * so receivers can dedupe), with a fresh attempt budget. One still in progress is a conflict.
   */
  async redeliver(teamId: string, deliveryId: string): Promise<Delivery> {
    const orig = await this.store.get(deliveryId);
    if (!orig || orig.team_id !== teamId) throw notFound(`delivery ${deliveryId} not found`);
    if (!FINAL.includes(orig.status)) {
      throw conflict(
        `delivery ${deliveryId} is ${orig.status}; only a finished delivery can be redelivered`,
      );
    }
    const id = `dlv_${randomUUID().replace(/-/g, '')}`;
    const now = new Date(this.now()).toISOString();
    const { delivery } = await this.store.create({
      delivery_id: id,
      dedupe_key: `redeliver:${id}`,
      team_id: orig.team_id,
      event: orig.event,
      event_id: orig.event_id,
      channel: orig.channel,
      target: orig.target,
      payload: orig.payload,
      ...(orig.secret_ref ? { secret_ref: orig.secret_ref } : {}),
      ...(orig.secret_scope ? { secret_scope: orig.secret_scope } : {}),
      next_attempt_at: now,
      created_at: now,
      redelivery_of: orig.delivery_id,
    });
    this.onNewDelivery();
    return delivery;
  }
}
