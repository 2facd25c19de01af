import type { Db } from 'mongodb';
import { RateLimiterMemory, RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import ipaddr from 'ipaddr.js';
import { type DomainError, rateLimited } from '@inquest/errors';
import type { Logger } from '@inquest/observability';
import type { RateLimiter, RateState } from './rate-limiter';
import type { RateLimits } from './rate-limits';
import type { RateClass } from './route';

/** Fixed windows of one minute (API-DECISIONS "Rate limits"). */
export const WINDOW_SECONDS = 60;

export interface FlexibleRateLimiterOptions {
  limits: RateLimits;
  /** shared counters across gateway replicas; memory when absent */
  mongo?: Db;
  logger?: Logger;
}

type Limiters = Record<RateClass | 'auth_fail', RateLimiterAbstract>;

/**
 * rate-limiter-flexible behind the RateLimiter port: one limiter per class keyed by credential,
 * and one for failed authentications keyed by client address. With MongoDB the counters are
 * shared by every replica; if MongoDB fails, an in-memory limiter takes over (insurance) so the
 * gateway keeps limiting instead of failing every request.
 */
export class FlexibleRateLimiter implements RateLimiter {
  private readonly limiters: Limiters;

  private constructor(
    private readonly limits: RateLimits,
    limiters: Limiters,
  ) {
    this.limiters = limiters;
  }

  static async create(options: FlexibleRateLimiterOptions): Promise<FlexibleRateLimiter> {
    const { limits, mongo, logger } = options;
    const make = (name: keyof RateLimits): RateLimiterAbstract => {
      const base = { points: limits[name], duration: WINDOW_SECONDS, keyPrefix: `rl_${name}` };
      const memory = new RateLimiterMemory(base);
      if (!mongo) return memory;
      return new RateLimiterMongo({
        ...base,
        storeClient: mongo,
        tableName: 'gateway_rate_limits',
        disableIndexesCreation: true,
        insuranceLimiter: memory,
      });
    };
    if (mongo) {
      const coll = mongo.collection('gateway_rate_limits');
      await coll.createIndex({ expire: -1 }, { expireAfterSeconds: 0 });
      await coll.createIndex({ key: 1 }, { unique: true });
      logger?.info('rate limits: counters in MongoDB');
    }
    return new FlexibleRateLimiter(limits, {
      read: make('read'),
      write: make('write'),
      trigger: make('trigger'),
      alert: make('alert'),
      auth_fail: make('auth_fail'),
    });
  }

  async consume(key: string, rateClass: RateClass): Promise<RateState> {
    const limit = this.limits[rateClass];
    try {
      const res = await this.limiters[rateClass].consume(key, 1);
      return stateOf(rateClass, limit, res);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      const state = stateOf(rateClass, limit, err);
      throw Object.assign(
        rateLimited(
          retryAfterOf(err),
          `rate limit of ${limit} ${rateClass} requests a minute exceeded`,
        ),
        {
          state,
        },
      );
    }
  }

  async peek(key: string, rateClass: RateClass): Promise<RateState> {
    const limit = this.limits[rateClass];
    const res = await this.limiters[rateClass].get(key);
    if (!res)
      return {
        class: rateClass,
        limit,
        remaining: limit,
        resetAt: Math.ceil(Date.now() / 1000) + WINDOW_SECONDS,
      };
    return stateOf(rateClass, limit, res);
  }

  async checkAuthFailures(address: string): Promise<void> {
    const res = await this.limiters.auth_fail.get(addressKey(address));
    if (res && res.consumedPoints > this.limits.auth_fail) throw tooManyFailures(res);
  }

  async recordAuthFailure(address: string): Promise<void> {
    try {
      await this.limiters.auth_fail.consume(addressKey(address), 1);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw tooManyFailures(err);
      throw err;
    }
  }
}

function stateOf(rateClass: RateClass, limit: number, res: RateLimiterRes): RateState {
  return {
    class: rateClass,
    limit,
    remaining: Math.max(0, res.remainingPoints),
    resetAt: Math.ceil((Date.now() + Math.max(0, res.msBeforeNext)) / 1000),
  };
}

function retryAfterOf(res: RateLimiterRes): number {
  return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
}

function tooManyFailures(res: RateLimiterRes): DomainError {
  return rateLimited(retryAfterOf(res), 'too many failed authentications from this address');
}

const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
/** a canonical IPv4 address: four decimal octets, no leading zeros */
const DOTTED_QUAD = new RegExp(`^(?:${OCTET}\\.){3}${OCTET}$`);

/**
 * IPv4 (also IPv4-mapped IPv6) counts per address; IPv6 per /64, since one client usually holds
 * a whole /64 and could otherwise rotate addresses.
 */
export function addressKey(address: string): string {
  // the usual case, a dotted quad as the socket reports it, is its own key (as ipaddr would say)
  if (DOTTED_QUAD.test(address)) return address;
  if (!ipaddr.isValid(address)) return address;
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
}
