import type {
  EventBus,
  EventHandler,
  EventMessage,
  PublishOptions,
  SubscribeOptions,
  Subscription,
} from '../event-bus';
import type { EventOf } from '../event-map';
import { subjectMatches } from '../event-bus';

interface Stored {
  subject: string;
  data: unknown;
  msgId?: string;
}

interface Pending {
  event: Stored;
  deliveries: number;
  notBefore: number;
}

interface DurableGroup {
  name: string;
  pattern: string;
  options: Required<Omit<SubscribeOptions, 'durable'>>;
  queue: Pending[];
  handlers: EventHandler[];
  next: number;
  inFlight: number;
  timer?: NodeJS.Timeout;
}

/**
 * In-process adapter for all-in-one mode and tests: the same semantics as the NATS adapter
 * (durable groups shared by their handlers, redelivery with backoff, max deliveries, msgId
 * dedupe) without a server. Durable state lives in memory: all-in-one mode recovers its work
 * from the stores on start.
 */
export class InProcessEventBus implements EventBus {
  private readonly durables = new Map<string, DurableGroup>();
  private readonly plain = new Set<{ pattern: string; handler: EventHandler }>();
  private readonly seen = new Map<string, number>();
  private closed = false;

  constructor(private readonly dedupeWindowMs = 120_000) {}

  async publish<S extends string>(
    subject: S,
    data: EventOf<S>,
    options: PublishOptions = {},
  ): Promise<void> {
    if (this.closed) throw new Error('event bus closed');
    const msgId = options.msgId ?? eventIdOf(data);
    if (msgId && this.isDuplicate(msgId)) return;
    const event: Stored = { subject, data: structuredClone(data), msgId };
    for (const sub of this.plain) {
      if (!subjectMatches(sub.pattern, subject)) continue;
      const msg = makeMessage(event, 1);
      queueMicrotask(() => {
        sub.handler(msg).catch(() => undefined);
      });
    }
    for (const group of this.durables.values()) {
      if (!subjectMatches(group.pattern, subject)) continue;
      group.queue.push({ event, deliveries: 0, notBefore: 0 });
      this.pump(group);
    }
  }

  async subscribe<S extends string>(
    subject: S,
    typedHandler: EventHandler<EventOf<S>>,
    options: SubscribeOptions = {},
  ): Promise<Subscription> {
    // the wire carries JSON; EventMap states what each subject's producers send
    const handler = typedHandler as EventHandler;
    if (!options.durable) {
      const entry = { pattern: subject, handler };
      this.plain.add(entry);
      return { unsubscribe: async () => void this.plain.delete(entry) };
    }
    let group = this.durables.get(options.durable);
    if (!group) {
      group = {
        name: options.durable,
        pattern: subject,
        options: {
          maxDeliver: options.maxDeliver ?? 5,
          ackWaitMs: options.ackWaitMs ?? 30_000,
          backoffMs: options.backoffMs ?? [1000, 5000, 15000],
          concurrency: options.concurrency ?? 1,
        },
        queue: [],
        handlers: [],
        next: 0,
        inFlight: 0,
      };
      this.durables.set(options.durable, group);
    }
    const g = group;
    // Each handler brings its own concurrency, as each replica pulls its own batch from JetStream.
    for (let i = 0; i < (options.concurrency ?? 1); i++) g.handlers.push(handler);
    this.pump(g);
    return {
      unsubscribe: async () => {
        g.handlers = g.handlers.filter((h) => h !== handler);
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const g of this.durables.values()) if (g.timer) clearTimeout(g.timer);
    this.plain.clear();
    this.durables.clear();
  }

  private isDuplicate(msgId: string): boolean {
    const now = Date.now();
    const at = this.seen.get(msgId);
    if (at !== undefined && now - at < this.dedupeWindowMs) return true;
    // Delete before set so the Map's insertion order stays the order of the timestamps: expiry
    // then stops at the first entry still inside the window. (Scanning the whole map once it held
    // 10,000 ids cost O(window) per publish at a few hundred events/s: ~40k ids scanned each time.)
    this.seen.delete(msgId);
    this.seen.set(msgId, now);
    for (const [k, t] of this.seen) {
      if (now - t < this.dedupeWindowMs) break;
      this.seen.delete(k);
    }
    return false;
  }

  private pump(group: DurableGroup): void {
    if (this.closed || group.handlers.length === 0) return;
    const now = Date.now();
    let wakeAt = Infinity;
    for (let i = 0; i < group.queue.length && group.inFlight < group.handlers.length;) {
      const item = group.queue[i]!;
      if (item.notBefore > now) {
        wakeAt = Math.min(wakeAt, item.notBefore);
        i++;
        continue;
      }
      group.queue.splice(i, 1);
      item.deliveries++;
      const handler = group.handlers[group.next++ % group.handlers.length]!;
      this.deliver(group, item, handler);
    }
    if (wakeAt !== Infinity && !group.timer) {
      group.timer = setTimeout(() => {
        group.timer = undefined;
        this.pump(group);
      }, wakeAt - now);
      group.timer.unref();
    }
  }

  private deliver(group: DurableGroup, item: Pending, handler: EventHandler): void {
    group.inFlight++;
    let terminated = false;
    const msg = makeMessage(item.event, item.deliveries, () => {
      terminated = true;
    });
    Promise.resolve()
      .then(() => handler(msg))
      .then(
        () => undefined,
        () => {
          if (terminated || item.deliveries >= group.options.maxDeliver) return;
          const b = group.options.backoffMs;
          const delay = b[Math.min(item.deliveries - 1, b.length - 1)] ?? 0;
          item.notBefore = Date.now() + delay;
          group.queue.push(item);
        },
      )
      .finally(() => {
        group.inFlight--;
        this.pump(group);
      });
  }
}

function makeMessage(
  event: Stored,
  deliveryCount: number,
  onTerm: () => void = () => undefined,
): EventMessage {
  return {
    subject: event.subject,
    data: structuredClone(event.data),
    deliveryCount,
    msgId: event.msgId,
    term: onTerm,
    working: () => undefined,
  };
}

function eventIdOf(data: unknown): string | undefined {
  if (typeof data === 'object' && data !== null && 'event_id' in data) {
    const id = (data as { event_id: unknown }).event_id;
    return typeof id === 'string' && id ? id : undefined;
  }
  return undefined;
}
