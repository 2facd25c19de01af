import type { Request } from 'express';
import type { CallContext } from '@inquest/grpc-kit';
import type { ApiRequest, AuthContext } from './route';
import type { RequestAbort } from './request-abort';

/**
 * What a route handler receives. The parts most handlers never read are made on first read, once:
 * the abort signal (an AbortController is among the costliest allocations of a request), the query
 * (express parses the query string again at every read of req.query) and the base URL.
 */
export class HttpApiRequest implements ApiRequest<unknown, unknown, unknown> {
  ctx: CallContext;
  headers: Request['headers'];
  #query: unknown;
  #queryRead: boolean;
  #baseUrl: string | undefined;
  readonly #req: Request;
  readonly #abort: RequestAbort;

  constructor(
    req: Request,
    abort: RequestAbort,
    public requestId: string,
    public auth: AuthContext,
    public body: unknown,
    /** the query as validated by the route's schema; read from the request when it has none */
    parsedQuery: { value: unknown } | undefined,
    public params: unknown,
    public rawBody: Buffer | undefined,
  ) {
    this.#req = req;
    this.headers = req.headers;
    this.#abort = abort;
    this.#queryRead = parsedQuery !== undefined;
    this.#query = parsedQuery?.value;
    this.ctx = {
      requestId,
      teamId: auth.teamId,
      principal: auth.principal,
      permissions: auth.permissions,
    };
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  get query(): unknown {
    if (!this.#queryRead) {
      this.#query = this.#req.query;
      this.#queryRead = true;
    }
    return this.#query;
  }

  set query(value: unknown) {
    this.#query = value;
    this.#queryRead = true;
  }

  get baseUrl(): string {
    return (this.#baseUrl ??= `${this.#req.protocol}://${this.#req.get('host') ?? 'localhost'}`);
  }
}
