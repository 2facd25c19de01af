import { randomUUID } from 'node:crypto';
import { connect, headers as natsHeaders } from '@nats-io/transport-node';
import type {
  Msg,
  NatsConnection,
  Subscription as NatsSubscription,
} from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  jetstream,
  jetstreamManager,
} from '@nats-io/jetstream';
import type {
  Consumer,
  ConsumerConfig,
  ConsumerMessages,
  JetStreamClient,
  JetStreamManager,
  JsMsg,
} from '@nats-io/jetstream';
import { silentLogger, type Logger } from '@inquest/observability';
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
import { STREAM_NAME, STREAM_SUBJECTS } from '../subjects';

export interface NatsEventBusOptions {
  /** nats://host:port, or several comma-separated */
  url: string;
  logger?: Logger;
  /** connection name shown by the server (default inquest) */
  name?: string;
  /** how long the stream keeps events, ms (default 7 days) */
  streamMaxAgeMs?: number;
  /** Nats-Msg-Id dedupe window, ms (default 2 min) */
  duplicateWindowMs?: number;
  /** how long the first connection is retried before connect() fails, ms (default 30 s) */
  connectTimeoutMs?: number;
  /** how long publish() retries while the server is unreachable, ms (default 15 s) */
  publishTimeoutMs?: number;
  /** lifetime of one pull request, ms (default 5 s; bounds the pause after a reconnect) */
  pullExpiresMs?: number;
  /** how long unsubscribe()/close() wait for running handlers, ms (default 10 s) */
  drainGraceMs?: number;
}

interface DurableSub {
  durable: string;
  subject: string;
  handler: EventHandler;
  maxDeliver: number;
  backoffMs: number[];
  stopped: boolean;
  fetches: Set<ConsumerMessages>;
  slots: Promise<void>[];
}

const MSG_ID = 'Nats-Msg-Id';
const DURABLE_NAME = /^[A-Za-z0-9_-]{1,200}$/;
const encoder = new TextEncoder();
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const nanos = (ms: number) => ms * 1_000_000;

/**
 * NATS JetStream adapter of the EventBus port. Every `inquest.v1.>` event is stored in the
 * INQUEST stream (file storage, Nats-Msg-Id dedupe); a durable subscription is a durable pull
 * consumer on that stream, shared by every process subscribing with the same name. Each of the
 * `concurrency` slots pulls one message only when it is free, so a long-running job never sits
 * in a local buffer while its ack deadline runs. Plain subscriptions are core NATS subscriptions.
 */
export class NatsEventBus implements EventBus {
  private readonly durables = new Set<DurableSub>();
  private readonly plain = new Set<NatsSubscription>();
  private closed = false;
  private streamReady?: Promise<void>;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly logger: Logger,
    private readonly opts: Required<Omit<NatsEventBusOptions, 'logger' | 'name' | 'url'>>,
  ) {}

  /** Connects (retrying up to connectTimeoutMs), then creates or updates the INQUEST stream. */
  static async connect(options: NatsEventBusOptions): Promise<NatsEventBus> {
    const logger = options.logger ?? silentLogger();
    const servers = options.url
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const until = Date.now() + (options.connectTimeoutMs ?? 30_000);
    let nc: NatsConnection | undefined;
    for (let attempt = 1; !nc; attempt++) {
      try {
        nc = await connect({
          servers,
          name: options.name ?? 'inquest',
          // Once connected, never give up: a restarted or failed-over server is picked up again.
          maxReconnectAttempts: -1,
          reconnectTimeWait: 500,
          pingInterval: 10_000,
        });
      } catch (err) {
        if (Date.now() >= until)
          throw Object.assign(
            new Error(`cannot connect to NATS at ${options.url}: ${String(err)}`),
            // a start-up failure the user fixes (runMain prints it as one line)
            { name: 'NatsUnreachableError' },
          );
        logger.warn({ err: String(err), attempt }, 'NATS not reachable yet, retrying');
        await sleep(Math.min(250 * attempt, 2000));
      }
    }
    const jsm = await jetstreamManager(nc);
    const bus = new NatsEventBus(nc, jetstream(nc), jsm, logger, {
      streamMaxAgeMs: options.streamMaxAgeMs ?? 7 * 24 * 3600_000,
      duplicateWindowMs: options.duplicateWindowMs ?? 120_000,
      connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
      publishTimeoutMs: options.publishTimeoutMs ?? 15_000,
      pullExpiresMs: Math.max(1000, options.pullExpiresMs ?? 5000),
      drainGraceMs: options.drainGraceMs ?? 10_000,
    });
    bus.watchStatus();
    try {
      await bus.ensureStream();
    } catch (err) {
      await nc.close();
      throw err;
    }
    return bus;
  }

  async publish<S extends string>(
    subject: S,
    data: EventOf<S>,
    options: PublishOptions = {},
  ): Promise<void> {
    if (this.closed) throw new Error('event bus closed');
    // Always set a msg id: it makes the retry below safe against double storage.
    const msgId = options.msgId ?? eventIdOf(data) ?? `msg_${randomUUID()}`;
    const payload = encoder.encode(JSON.stringify(data ?? null));
    if (!inStream(subject)) {
      const h = natsHeaders();
      h.set(MSG_ID, msgId);
      this.nc.publish(subject, payload, { headers: h });
      return;
    }
    const until = Date.now() + this.opts.publishTimeoutMs;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.js.publish(subject, payload, { msgID: msgId, timeout: 5000 });
        return;
      } catch (err) {
        if (this.closed || Date.now() >= until) throw err;
        if (isApiError(err, JetStreamApiCodes.StreamNotFound))
          await this.ensureStream(true).catch(() => undefined);
        this.logger.debug({ err: String(err), subject, attempt }, 'NATS publish failed, retrying');
        await sleep(Math.min(100 * attempt, 1000));
      }
    }
  }

  async subscribe<S extends string>(
    subject: S,
    typedHandler: EventHandler<EventOf<S>>,
    options: SubscribeOptions = {},
  ): Promise<Subscription> {
    // the wire carries JSON; EventMap states what each subject's producers send
    const handler = typedHandler as EventHandler;
    if (this.closed) throw new Error('event bus closed');
    if (!options.durable) {
      const sub = this.subscribePlain(subject, handler);
      // the server knows the interest once flush returns: a publish from another connection reaches it
      await this.nc.flush();
      return sub;
    }

    const durable = options.durable;
    if (!DURABLE_NAME.test(durable))
      throw new Error(`invalid durable name "${durable}": use letters, digits, - and _`);
    if (!inStream(subject))
      throw new Error(`durable subscriptions need a subject under ${STREAM_SUBJECTS.join(', ')}`);
    const maxDeliver = options.maxDeliver ?? 5;
    const config: Partial<ConsumerConfig> = {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      // A durable sees what was published before it first subscribed (within the stream's max age).
      deliver_policy: DeliverPolicy.All,
      filter_subject: subject,
      max_deliver: maxDeliver,
      ack_wait: nanos(options.ackWaitMs ?? 30_000),
    };
    await this.ensureConsumer(config);
    const consumer = await this.js.consumers.get(STREAM_NAME, durable);
    const sub: DurableSub = {
      durable,
      subject,
      handler,
      maxDeliver,
      backoffMs: options.backoffMs ?? [1000, 5000, 15000],
      stopped: false,
      fetches: new Set(),
      slots: [],
    };
    this.durables.add(sub);
    for (let i = 0; i < Math.max(1, options.concurrency ?? 1); i++) {
      sub.slots.push(this.runSlot(sub, consumer, config));
    }
    return { unsubscribe: () => this.stopDurable(sub) };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const s of this.plain) s.unsubscribe();
    this.plain.clear();
    await Promise.all([...this.durables].map((s) => this.stopDurable(s)));
    // drain flushes pending acks; it cannot complete while the server is away.
    const drained = this.nc.drain().then(
      () => true,
      () => false,
    );
    const ok = await within(drained, this.opts.drainGraceMs, false);
    if (!ok && !this.nc.isClosed()) await this.nc.close().catch(() => undefined);
  }

  private subscribePlain(subject: string, handler: EventHandler): Subscription {
    const seen = new Map<string, number>();
    const sub = this.nc.subscribe(subject, {
      callback: (err, m) => {
        if (err) return;
        const msgId = m.headers?.get(MSG_ID) || undefined;
        // A JetStream publish retried after a lost ack reaches core subscribers twice.
        if (msgId && isRecent(seen, msgId, this.opts.duplicateWindowMs)) return;
        let data: unknown;
        try {
          data = decode(m);
        } catch {
          this.logger.warn({ subject: m.subject }, 'dropping event that is not JSON');
          return;
        }
        const msg: EventMessage = {
          subject: m.subject,
          data,
          deliveryCount: 1,
          msgId,
          term: () => undefined,
          working: () => undefined,
        };
        handler(msg).catch((e: unknown) =>
          this.logger.warn(
            { err: String(e), subject: m.subject },
            'event handler failed (plain subscription, not retried)',
          ),
        );
      },
    });
    this.plain.add(sub);
    return {
      unsubscribe: async () => {
        this.plain.delete(sub);
        if (!sub.isClosed()) sub.unsubscribe();
      },
    };
  }

  private async stopDurable(sub: DurableSub): Promise<void> {
    if (sub.stopped) return;
    sub.stopped = true;
    this.durables.delete(sub);
    for (const f of sub.fetches) await f.close().catch(() => undefined);
    await within(
      Promise.all(sub.slots).then(() => undefined),
      this.opts.drainGraceMs,
      undefined,
    );
  }

  /** One worker: pull one message when free, run the handler, ack/nak/term; retry on errors. */
  private async runSlot(
    sub: DurableSub,
    consumer: Consumer,
    config: Partial<ConsumerConfig>,
  ): Promise<void> {
    let failures = 0;
    while (!sub.stopped && !this.closed) {
      let fetch: ConsumerMessages | undefined;
      const startedAt = Date.now();
      let received = 0;
      try {
        fetch = await consumer.fetch({ max_messages: 1, expires: this.opts.pullExpiresMs });
        sub.fetches.add(fetch);
        if (sub.stopped) break;
        for await (const m of fetch) {
          received++;
          if (sub.stopped) {
            // arrived while unsubscribing: hand it back at once instead of waiting for ack_wait
            m.nak();
            continue;
          }
          await this.handle(sub, m);
        }
        failures = 0;
        // A pull that ends at once without messages (server restarting, limits) must not spin.
        if (received === 0 && Date.now() - startedAt < 200) await sleep(200);
      } catch (err) {
        if (sub.stopped || this.closed) break;
        failures++;
        this.logger.debug(
          { err: String(err), durable: sub.durable, failures },
          'NATS pull failed, retrying',
        );
        if (
          isApiError(err, JetStreamApiCodes.ConsumerNotFound) ||
          isApiError(err, JetStreamApiCodes.StreamNotFound) ||
          /not found/i.test(String(err))
        ) {
          await this.ensureConsumer(config, true).catch((e: unknown) =>
            this.logger.warn(
              { err: String(e), durable: sub.durable },
              'cannot recreate NATS consumer',
            ),
          );
        }
        await sleep(Math.min(100 * 2 ** Math.min(failures, 6), 3000));
      } finally {
        if (fetch) sub.fetches.delete(fetch);
      }
    }
  }

  private async handle(sub: DurableSub, m: JsMsg): Promise<void> {
    const deliveryCount = m.info.deliveryCount;
    let data: unknown;
    try {
      data = decode(m);
    } catch {
      this.logger.warn(
        { subject: m.subject, durable: sub.durable },
        'dropping event that is not JSON',
      );
      m.term('not JSON');
      return;
    }
    let terminated = false;
    const msg: EventMessage = {
      subject: m.subject,
      data,
      deliveryCount,
      msgId: m.headers?.get(MSG_ID) || undefined,
      term: () => {
        if (terminated) return;
        terminated = true;
        m.term();
      },
      working: () => {
        if (!terminated) m.working();
      },
    };
    try {
      await sub.handler(msg);
      if (!terminated) {
        // Wait for the server to record the ack: a lost ack would mean a duplicate delivery.
        await m.ackAck({ timeout: 5000 }).catch(() => false);
      }
    } catch (err) {
      if (terminated) return;
      if (deliveryCount >= sub.maxDeliver) {
        this.logger.warn(
          {
            err: String(err),
            subject: m.subject,
            durable: sub.durable,
            msg_id: msg.msgId,
            deliveries: deliveryCount,
          },
          'event dropped after max deliveries',
        );
        m.term('max deliveries');
        return;
      }
      const b = sub.backoffMs;
      const delay = b[Math.min(deliveryCount - 1, b.length - 1)] ?? 0;
      this.logger.debug(
        { err: String(err), subject: m.subject, durable: sub.durable, delay },
        'event handler failed, redelivering',
      );
      m.nak(delay);
    }
  }

  /** Creates the INQUEST stream, or updates it when its settings differ; safe to race. */
  private ensureStream(force = false): Promise<void> {
    if (!this.streamReady || force) {
      this.streamReady = this.createOrUpdateStream();
      this.streamReady.catch(() => {
        this.streamReady = undefined;
      });
    }
    return this.streamReady;
  }

  private async createOrUpdateStream(): Promise<void> {
    const wanted = {
      subjects: STREAM_SUBJECTS,
      max_age: nanos(this.opts.streamMaxAgeMs),
      duplicate_window: nanos(this.opts.duplicateWindowMs),
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const info = await this.jsm.streams.info(STREAM_NAME);
        const c = info.config;
        const same =
          c.subjects.length === wanted.subjects.length &&
          c.subjects.every((s, i) => s === wanted.subjects[i]) &&
          c.max_age === wanted.max_age &&
          c.duplicate_window === wanted.duplicate_window;
        if (!same) {
          await this.jsm.streams.update(STREAM_NAME, wanted);
          this.logger.info({ stream: STREAM_NAME }, 'NATS stream updated');
        }
        return;
      } catch (err) {
        if (!isApiError(err, JetStreamApiCodes.StreamNotFound)) throw err;
      }
      try {
        await this.jsm.streams.add({
          name: STREAM_NAME,
          ...wanted,
          storage: StorageType.File,
          retention: RetentionPolicy.Limits,
        });
        this.logger.info({ stream: STREAM_NAME }, 'NATS stream created');
        return;
      } catch (err) {
        // another process created it between our info and add: read it again
        this.logger.debug({ err: String(err) }, 'NATS stream create raced');
      }
    }
    throw new Error(`cannot create NATS stream ${STREAM_NAME}`);
  }

  /** Creates the durable consumer, or updates its settings when they differ; safe to race. */
  private async ensureConsumer(
    config: Partial<ConsumerConfig>,
    recheckStream = false,
  ): Promise<void> {
    await this.ensureStream(recheckStream);
    const name = config.durable_name!;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const info = await this.jsm.consumers.info(STREAM_NAME, name);
        const c = info.config;
        if (
          c.filter_subject !== config.filter_subject ||
          c.max_deliver !== config.max_deliver ||
          c.ack_wait !== config.ack_wait
        ) {
          await this.jsm.consumers.update(STREAM_NAME, name, {
            filter_subject: config.filter_subject,
            max_deliver: config.max_deliver,
            ack_wait: config.ack_wait,
          });
          this.logger.info({ durable: name }, 'NATS consumer updated');
        }
        return;
      } catch (err) {
        if (!isApiError(err, JetStreamApiCodes.ConsumerNotFound)) throw err;
      }
      try {
        await this.jsm.consumers.add(STREAM_NAME, config);
        return;
      } catch (err) {
        this.logger.debug({ err: String(err), durable: name }, 'NATS consumer create raced');
      }
    }
    throw new Error(`cannot create NATS consumer ${name}`);
  }

  private watchStatus(): void {
    void (async () => {
      for await (const s of this.nc.status()) {
        if (s.type === 'disconnect' || s.type === 'reconnect') {
          this.logger.info(
            { nats: s.type, server: 'server' in s ? s.server : undefined },
            `NATS ${s.type}`,
          );
        } else if (s.type === 'error') {
          this.logger.warn({ nats: s.type, err: String(s.error) }, 'NATS error');
        }
      }
    })().catch(() => undefined);
  }
}

/** The promise's value, or `fallback` after ms (without keeping the process alive). */
function within<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
    timer.unref();
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

function inStream(subject: string): boolean {
  return STREAM_SUBJECTS.some((p) => subjectMatches(p, subject));
}

function decode(m: Msg | JsMsg): unknown {
  return m.data.length === 0 ? null : m.json();
}

function isApiError(err: unknown, code: number): boolean {
  return err instanceof JetStreamApiError && err.code === code;
}

function isRecent(seen: Map<string, number>, id: string, windowMs: number): boolean {
  const now = Date.now();
  const at = seen.get(id);
  if (at !== undefined && now - at < windowMs) return true;
  // delete + set keeps the Map in timestamp order, so expiry stops at the first fresh id instead
  // of scanning the whole window on every message once it holds 10,000 ids
  seen.delete(id);
  seen.set(id, now);
  for (const [k, t] of seen) {
    if (now - t < windowMs) break;
    seen.delete(k);
  }
  return false;
}

function eventIdOf(data: unknown): string | undefined {
  if (typeof data === 'object' && data !== null && 'event_id' in data) {
    const id = (data as { event_id: unknown }).event_id;
    return typeof id === 'string' && id ? id : undefined;
  }
  return undefined;
}
