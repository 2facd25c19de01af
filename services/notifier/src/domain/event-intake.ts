import type { Logger } from '@inquest/observability';
import type { DeliveryStore } from '@inquest/store';
import {
  NotificationEvents,
  changeRequestPayload,
  envelopeOf,
  investigationCompletePayload,
  planDeliveries,
} from './notifications';
import type { TeamSettingsSource } from './team-settings';

export interface EventIntakeOptions {
  store: DeliveryStore;
  settings: TeamSettingsSource;
  /** INQUEST_CONSOLE_URL: chat messages link there when set */
  consoleUrl?: string;
  logger: Logger;
  /** called after new deliveries were recorded */
  onRecorded: () => void;
  now?: () => number;
}

/**
 * Turns events into recorded deliveries. It resolves only after every delivery is in the log,
 * so the bus acknowledges an event only once nothing can be lost; a failure (config service
 * down, store error) throws and the bus redelivers the event. Recording is idempotent.
 */
export class EventIntake {
  constructor(private readonly o: EventIntakeOptions) {}

  async investigationCompleted(data: unknown): Promise<number> {
    return this.record(
      data,
      NotificationEvents.investigationComplete,
      investigationCompletePayload(data),
      {
        webhook: true,
        chat: true,
      },
    );
  }

  /** change_requested: chat naming the approvers; approved/rejected: chat and webhook. */
  async changeRequest(
    event: 'requested' | 'approved' | 'rejected',
    data: unknown,
  ): Promise<number> {
    const name =
      event === 'requested'
        ? NotificationEvents.changeRequested
        : event === 'approved'
          ? NotificationEvents.changeApproved
          : NotificationEvents.changeRejected;
    return this.record(data, name, changeRequestPayload(name, data), {
      webhook: event !== 'requested',
      chat: true,
    });
  }

  private async record(
    data: unknown,
    event: string,
    payload: Record<string, unknown>,
    channels: { webhook: boolean; chat: boolean },
  ): Promise<number> {
    const envelope = envelopeOf(data);
    if (!envelope) {
      this.o.logger.warn({ event }, 'event without event_id or team_id dropped');
      return 0;
    }
    const settings = await this.o.settings.get(envelope.team_id);
    const planned = planDeliveries(
      envelope,
      event,
      payload,
      {
        settings,
        consoleUrl: this.o.consoleUrl,
        now: new Date((this.o.now ?? Date.now)()).toISOString(),
      },
      channels,
    );
    let created = 0;
    for (const d of planned) {
      const res = await this.o.store.create(d);
      if (res.created) created++;
    }
    if (created) this.o.onRecorded();
    this.o.logger.debug(
      { event, event_id: envelope.event_id, team_id: envelope.team_id, created },
      'event recorded',
    );
    return created;
  }
}
