import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { makeGenericClientConstructor, status as Status, Metadata } from '@grpc/grpc-js';
import type {
  CallOptions,
  ChannelCredentials,
  Client,
  ClientUnaryCall,
  ServiceDefinition,
  ServiceError,
} from '@grpc/grpc-js';
import {
  DomainError,
  conflict,
  forbidden,
  internal,
  invalidField,
  invalidRequest,
  notFound,
  rateLimited,
  timeoutError,
  unauthenticated,
  unavailable,
  validationError,
} from '@inquest/errors';
import { createLogger, createMetricsRegistry, silentLogger } from '@inquest/observability';
import { configV1, IDEMPOTENCY_LEVELS } from '@inquest/proto';
import { checkHealth, createClient, type ClientOptions } from './client';
import { fromGrpcError, toGrpcStatus } from './status-mapping';
import { implement, startGrpcServer, type HandlerContext, type RunningGrpcServer } from './server';

// @inquest/testing builds its gRPC peer doubles on grpc-kit: importing it here would be a cycle.
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`waitFor: timed out after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

// A hand-written JSON service keeps these tests independent of the generated protos.
interface Req {
  id: string;
  waitMs?: number;
}
interface Res {
  id: string;
  ctx?: Omit<HandlerContext, 'signal'>;
}

const json = <T>() => ({
  serialize: (v: T) => Buffer.from(JSON.stringify(v)),
  deserialize: (b: Buffer) => JSON.parse(b.toString('utf8')) as T,
});
const method = (name: string) => ({
  path: `/inquest.test.v1.TestService/${name}`,
  requestStream: false as const,
  responseStream: false as const,
  requestSerialize: json<Req>().serialize,
  requestDeserialize: json<Req>().deserialize,
  responseSerialize: json<Res>().serialize,
  responseDeserialize: json<Res>().deserialize,
});
const TestServiceDefinition = {
  getThing: method('GetThing'),
  createThing: method('CreateThing'),
  slow: method('Slow'),
};
const SERVICE_NAME = 'inquest.test.v1.TestService';
/** what `option idempotency_level = NO_SIDE_EFFECTS;` on GetThing would generate */
const TEST_IDEMPOTENCY = { '/inquest.test.v1.TestService/GetThing': 'NO_SIDE_EFFECTS' } as const;

type Unary = (
  req: Req,
  md: Metadata,
  opts: Partial<CallOptions>,
  cb: (err: ServiceError | null, res: Res) => void,
) => ClientUnaryCall;
type TestClient = Client & { getThing: Unary; createThing: Unary; slow: Unary };
const TestClientCtor = makeGenericClientConstructor(
  TestServiceDefinition as unknown as ServiceDefinition,
  'TestService',
) as unknown as {
  new (address: string, creds: ChannelCredentials, options?: object): TestClient;
  service: Record<string, unknown>;
};

describe('grpc-kit over a real gRPC server on loopback', () => {
  let server: RunningGrpcServer;
  let nextError: unknown;
  let failuresLeft = 0;
  const calls: Record<string, number> = {};
  const aborted: string[] = [];
  const logLines: string[] = [];
  const metrics = createMetricsRegistry('grpc-kit-test', false);

  beforeAll(async () => {
    const logger = createLogger({
      name: 'grpc-kit-test',
      destination: new Writable({
        write(chunk: Buffer, _enc, cb) {
          logLines.push(chunk.toString('utf8'));
          cb();
        },
      }),
    });
    const handler =
      (name: string) =>
      async (req: Req, ctx: HandlerContext): Promise<Res> => {
        calls[name] = (calls[name] ?? 0) + 1;
        if (failuresLeft > 0) {
          failuresLeft--;
          throw unavailable('try again');
        }
        if (nextError !== undefined) {
          const e = nextError;
          nextError = undefined;
          throw e;
        }
        if (req.waitMs) {
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, req.waitMs);
            ctx.signal.addEventListener('abort', () => {
              clearTimeout(t);
              aborted.push(req.id);
              resolve();
            });
          });
        }
        const { signal: _signal, ...rest } = ctx;
        return { id: req.id, ctx: rest };
      };
    server = await startGrpcServer({
      port: 0,
      logger: silentLogger(),
      metrics,
      services: [
        {
          definition: TestServiceDefinition as unknown as ServiceDefinition,
          implementation: implement(
            TestServiceDefinition,
            {
              getThing: handler('getThing'),
              createThing: handler('createThing'),
              slow: handler('slow'),
            },
            logger,
          ),
          name: SERVICE_NAME,
        },
      ],
    });
  });

  afterAll(async () => {
    await server.shutdown(100);
  });

  beforeEach(() => {
    nextError = undefined;
    failuresLeft = 0;
    for (const k of Object.keys(calls)) delete calls[k];
  });

  const client = (opts: ClientOptions = {}) =>
    createClient(TestClientCtor, server.address, { idempotency: TEST_IDEMPOTENCY, ...opts });

  it('counts and times every call by its wire method name and status code', async () => {
    const count = async (method: string, code: string) =>
      (await metrics.getSingleMetric('inquest_grpc_server_handled_total')!.get()).values.find(
        (v) => v.labels['method'] === `${SERVICE_NAME}/${method}` && v.labels['code'] === code,
      )?.value ?? 0;
    const okBefore = await count('GetThing', 'OK');
    const missingBefore = await count('CreateThing', 'NOT_FOUND');
    const c = client({ retries: 0 });
    await c.getThing({ id: 'm1' });
    await c.getThing({ id: 'm2' });
    nextError = notFound('no such thing');
    await expect(c.createThing({ id: 'm3' })).rejects.toBeInstanceOf(DomainError);
    c.close();
    expect(await count('GetThing', 'OK')).toBe(okBefore + 2);
    expect(await count('CreateThing', 'NOT_FOUND')).toBe(missingBefore + 1);
    const timed = (await metrics.getSingleMetric('inquest_grpc_server_handling_seconds')!.get())
      .values;
    expect(
      timed.find(
        (v) =>
          (v as { metricName?: string }).metricName ===
            'inquest_grpc_server_handling_seconds_count' &&
          v.labels['method'] === `${SERVICE_NAME}/GetThing`,
      )?.value,
    ).toBeGreaterThanOrEqual(2);
  });

  it('answers a call and propagates the call context as metadata', async () => {
    const c = client();
    const res = await c.getThing(
      { id: 'a' },
      {
        ctx: {
          requestId: 'req_1',
          teamId: 'team_x',
          principal: 'tok_1',
          permissions: ['read', 'write'],
        },
      },
    );
    expect(res).toEqual({
      id: 'a',
      ctx: {
        requestId: 'req_1',
        teamId: 'team_x',
        principal: 'tok_1',
        permissions: ['read', 'write'],
      },
    });
    const bare = await c.getThing({ id: 'b' });
    expect(bare.ctx).toEqual({ requestId: 'internal' });
    c.close();
  });

  const cases: [string, DomainError][] = [
    ['invalid_request', invalidRequest('body is not valid')],
    ['invalid_field with field', invalidField('name', 'must not be empty')],
    [
      'validation_error with details',
      validationError([
        { field: 'a.b', error: 'too long' },
        { field: 'c', error: 'required' },
      ]),
    ],
    ['not_found', notFound('no such node')],
    ['conflict', conflict('already exists')],
    ['forbidden', forbidden('needs write')],
    ['unauthenticated', unauthenticated()],
    ['rate_limited with retry_after', rateLimited(17)],
    ['timeout', timeoutError('tool server did not answer')],
    ['unavailable with its own code', unavailable('tool server down', 'tool_unavailable')],
  ];

  it.each(cases)('carries a %s domain error across the wire', async (_label, err) => {
    const c = client({ retries: 0 });
    nextError = err;
    const got = await c.createThing({ id: 'x' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(got).toBeInstanceOf(DomainError);
    const d = got as DomainError;
    expect({ kind: d.kind, code: d.code, message: d.message }).toEqual({
      kind: err.kind,
      code: err.code,
      message: err.message,
    });
    expect(d.options.field).toEqual(err.options.field);
    expect(d.options.errors).toEqual(err.options.errors);
    expect(d.options.retryAfter).toEqual(err.options.retryAfter);
    c.close();
  });

  it('answers an unexpected error as internal without leaking its message, and logs it', async () => {
    const c = client();
    nextError = new Error('db password is hunter2');
    const got = (await c.createThing({ id: 'x' }).catch((e: unknown) => e)) as DomainError;
    expect(got.kind).toBe('internal');
    expect(got.code).toBe('internal');
    expect(got.message).toBe('internal error');
    expect(
      logLines.some(
        (l) => l.includes('unhandled error in gRPC handler') && l.includes('createThing'),
      ),
    ).toBe(true);

    nextError = internal('store broke');
    const got2 = (await c.createThing({ id: 'y' }).catch((e: unknown) => e)) as DomainError;
    expect(got2.kind).toBe('internal');
    expect(got2.message).toBe('internal error');
    c.close();
  });

  it('turns a passed deadline into a timeout error and aborts the handler signal', async () => {
    const c = client({ deadlineMs: 5000 });
    const started = Date.now();
    const got = (await c
      .slow({ id: 'deadline', waitMs: 5000 }, { deadlineMs: 150 })
      .catch((e: unknown) => e)) as DomainError;
    expect(got).toBeInstanceOf(DomainError);
    expect(got.kind).toBe('timeout');
    expect(got.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2000);
    await waitFor(() => aborted.includes('deadline'), 3000);
    c.close();
  });

  it('cancels the call when the caller aborts, and the handler sees ctx.signal aborted', async () => {
    const c = client();
    const ac = new AbortController();
    const pending = c
      .slow({ id: 'cancel', waitMs: 5000 }, { signal: ac.signal })
      .catch((e: unknown) => e);
    await waitFor(() => calls['slow'] === 1);
    ac.abort();
    const got = (await pending) as DomainError;
    expect(got).toBeInstanceOf(DomainError);
    await waitFor(() => aborted.includes('cancel'), 3000);
    // an already aborted signal does not even send the call
    const before = calls['slow'];
    await expect(c.slow({ id: 'never' }, { signal: ac.signal })).rejects.toBeInstanceOf(
      DomainError,
    );
    expect(calls['slow']).toBe(before);
    c.close();
  });

  it('retries idempotent methods on UNAVAILABLE, but not others', async () => {
    const c = client({ retries: 2 });
    failuresLeft = 2;
    await expect(c.getThing({ id: 'r' })).resolves.toMatchObject({ id: 'r' });
    expect(calls['getThing']).toBe(3);

    failuresLeft = 5;
    await expect(c.getThing({ id: 'r2' })).rejects.toMatchObject({ kind: 'unavailable' });
    expect(calls['getThing']).toBe(3 + 3);

    failuresLeft = 1;
    await expect(c.createThing({ id: 'w' })).rejects.toMatchObject({
      kind: 'unavailable',
      message: 'try again',
    });
    expect(calls['createThing']).toBe(1);
    c.close();
  });

  it('decides retries from the idempotency level, not from the method name', async () => {
    // getThing reads like a getter, but without a level it is not known to be safe to repeat
    const c = client({ retries: 2, idempotency: {} });
    failuresLeft = 1;
    await expect(c.getThing({ id: 'x' })).rejects.toMatchObject({ kind: 'unavailable' });
    expect(calls['getThing']).toBe(1);
    // and a level on a method whatever its name makes it retried
    const d = client({
      retries: 2,
      idempotency: { '/inquest.test.v1.TestService/CreateThing': 'IDEMPOTENT' },
    });
    failuresLeft = 1;
    await expect(d.createThing({ id: 'y' })).resolves.toMatchObject({ id: 'y' });
    expect(calls['createThing']).toBe(2);
    c.close();
    d.close();
  });

  it('does not retry a non-UNAVAILABLE error of an idempotent method', async () => {
    const c = client({ retries: 2 });
    nextError = notFound('gone');
    await expect(c.getThing({ id: 'n' })).rejects.toMatchObject({ kind: 'not_found' });
    expect(calls['getThing']).toBe(1);
    c.close();
  });

  it('retries an idempotent call while the server is not up yet', async () => {
    const port = await freePort();
    const c = createClient(TestClientCtor, `127.0.0.1:${port}`, {
      retries: 4,
      idempotency: TEST_IDEMPOTENCY,
    });
    const late = new Promise<RunningGrpcServer>((resolve) => {
      setTimeout(() => {
        void startGrpcServer({
          port,
          services: [
            {
              definition: TestServiceDefinition as unknown as ServiceDefinition,
              implementation: implement(TestServiceDefinition, {
                getThing: async (req) => ({ id: `late-${req.id}` }),
                createThing: async (req) => ({ id: req.id }),
                slow: async (req) => ({ id: req.id }),
              }),
              name: SERVICE_NAME,
            },
          ],
        }).then(resolve);
      }, 100);
    });
    await expect(c.getThing({ id: '1' })).resolves.toEqual({ id: 'late-1' });
    c.close();
    await (await late).shutdown(100);
  });

  it('reports health through the standard gRPC health service', async () => {
    expect(await checkHealth(server.address)).toBe(true);
    expect(await checkHealth(server.address, 1000, SERVICE_NAME)).toBe(true);
    expect(await checkHealth(server.address, 1000, 'inquest.nope.v1.Nope')).toBe(false);
    expect(await checkHealth(`127.0.0.1:${await freePort()}`, 300)).toBe(false);
  });

  it('shuts down gracefully: in-flight calls finish, health turns NOT_SERVING, new calls fail', async () => {
    const s = await startGrpcServer({
      port: 0,
      services: [
        {
          definition: TestServiceDefinition as unknown as ServiceDefinition,
          implementation: implement(TestServiceDefinition, {
            getThing: async (req) => ({ id: req.id }),
            createThing: async (req) => ({ id: req.id }),
            slow: async (req) => {
              await new Promise((r) => setTimeout(r, req.waitMs ?? 0));
              return { id: req.id };
            },
          }),
          name: SERVICE_NAME,
        },
      ],
    });
    const c = createClient(TestClientCtor, s.address, { retries: 0 });
    expect(await checkHealth(s.address)).toBe(true);
    const inFlight = c.slow({ id: 'inflight', waitMs: 300 });
    await new Promise((r) => setTimeout(r, 50));
    const stopped = s.shutdown(5000);
    await expect(inFlight).resolves.toEqual({ id: 'inflight' });
    await stopped;
    expect(await checkHealth(s.address, 300)).toBe(false);
    await expect(c.getThing({ id: 'after' }, { deadlineMs: 500 })).rejects.toBeInstanceOf(
      DomainError,
    );
    c.close();
  });
});

describe('status mapping', () => {
  it('round-trips every domain error kind through a gRPC status', () => {
    for (const err of [
      invalidField('f', 'bad'),
      rateLimited(3),
      conflict('x'),
      unavailable('down'),
    ]) {
      const st = toGrpcStatus(err);
      const back = fromGrpcError({ code: st.code, details: st.details, metadata: st.metadata });
      expect({ kind: back.kind, code: back.code, message: back.message }).toEqual({
        kind: err.kind,
        code: err.code,
        message: err.message,
      });
    }
  });

  it('maps statuses without Inquest metadata to a kind and its default code', () => {
    const md = new Metadata();
    expect(fromGrpcError({ code: Status.NOT_FOUND, details: 'nope', metadata: md })).toMatchObject({
      kind: 'not_found',
      code: 'not_found',
      message: 'nope',
    });
    expect(
      fromGrpcError({
        code: Status.UNAVAILABLE,
        details: 'No connection established',
        metadata: md,
      }),
    ).toMatchObject({
      kind: 'unavailable',
      message: 'a backing service is unavailable',
    });
    expect(fromGrpcError({ code: Status.UNKNOWN, details: 'stack trace here' })).toMatchObject({
      kind: 'internal',
      message: 'internal error',
    });
    expect(fromGrpcError({ code: Status.ALREADY_EXISTS, details: 'dup' })).toMatchObject({
      kind: 'conflict',
    });
  });

  it('ignores malformed details metadata instead of throwing', () => {
    const md = new Metadata();
    md.set('x-inquest-error-code', 'validation_error');
    md.set('x-inquest-error-details', '{not json');
    const e = fromGrpcError({ code: Status.INVALID_ARGUMENT, details: 'bad', metadata: md });
    expect(e).toMatchObject({ kind: 'invalid_input', code: 'validation_error' });
    expect(e.options.errors).toBeUndefined();
  });
});

describe('IDEMPOTENCY_LEVELS generated from proto/', () => {
  it('lists the read methods and none that writes', () => {
    expect(IDEMPOTENCY_LEVELS).toMatchObject({
      '/inquest.config.v1.ConfigService/GetEffectiveConfig': 'NO_SIDE_EFFECTS',
      '/inquest.config.v1.ConfigService/VerifyToken': 'NO_SIDE_EFFECTS',
      '/inquest.investigation.v1.InvestigationService/GetInvestigation': 'NO_SIDE_EFFECTS',
      '/inquest.tools.v1.ToolService/ListTools': 'NO_SIDE_EFFECTS',
    });
    for (const write of [
      '/inquest.investigation.v1.InvestigationService/RunInvestigation',
      '/inquest.investigation.v1.InvestigationService/CancelInvestigation',
      '/inquest.knowledge.v1.KnowledgeService/Retrieve',
      '/inquest.knowledge.v1.KnowledgeService/Teach',
      '/inquest.tools.v1.ToolService/CallTool',
      '/inquest.config.v1.ConfigService/UpdateTeamConfig',
    ])
      expect(IDEMPOTENCY_LEVELS[write]).toBeUndefined();
  });

  it('is what a generated client decides by (its methods carry their gRPC path)', () => {
    const def = configV1.ConfigServiceClient.service as unknown as Record<string, { path: string }>;
    expect(IDEMPOTENCY_LEVELS[def['getEffectiveConfig']!.path]).toBe('NO_SIDE_EFFECTS');
    expect(IDEMPOTENCY_LEVELS[def['updateTeamConfig']!.path]).toBeUndefined();
  });
});
