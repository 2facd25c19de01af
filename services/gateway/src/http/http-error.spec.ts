import { Metadata, status as Status } from '@grpc/grpc-js';
import { fromGrpcError, MD_ERROR_CODE } from '@inquest/grpc-kit';
import { toHttpError } from './http-error';

/**
 * Expected answers, written out independently of the implementation: the machine code decides
 * when it is one the gateway knows; otherwise the gRPC status does.
 */
const BY_CODE: Record<string, [number, string]> = {
  invalid_request: [400, 'invalid_request'],
  invalid_field: [400, 'invalid_field'],
  validation_error: [400, 'validation_error'],
  unauthorized: [401, 'unauthorized'],
  forbidden: [403, 'forbidden'],
  not_found: [404, 'not_found'],
  method_not_allowed: [405, 'method_not_allowed'],
  conflict: [409, 'conflict'],
  payload_too_large: [413, 'payload_too_large'],
  unsupported_media_type: [415, 'unsupported_media_type'],
  rate_limited: [429, 'rate_limited'],
  internal: [500, 'internal'],
  unavailable: [503, 'unavailable'],
  timeout: [503, 'unavailable'],
};

const BY_STATUS: Record<number, [number, string]> = {
  [Status.OK]: [500, 'internal'],
  [Status.CANCELLED]: [503, 'unavailable'],
  [Status.UNKNOWN]: [500, 'internal'],
  [Status.INVALID_ARGUMENT]: [400, 'invalid_request'],
  [Status.DEADLINE_EXCEEDED]: [503, 'unavailable'],
  [Status.NOT_FOUND]: [404, 'not_found'],
  [Status.ALREADY_EXISTS]: [409, 'conflict'],
  [Status.PERMISSION_DENIED]: [403, 'forbidden'],
  [Status.RESOURCE_EXHAUSTED]: [429, 'rate_limited'],
  [Status.FAILED_PRECONDITION]: [409, 'conflict'],
  [Status.ABORTED]: [409, 'conflict'],
  [Status.OUT_OF_RANGE]: [400, 'invalid_request'],
  [Status.UNIMPLEMENTED]: [500, 'internal'],
  [Status.INTERNAL]: [500, 'internal'],
  [Status.UNAVAILABLE]: [503, 'unavailable'],
  [Status.DATA_LOSS]: [500, 'internal'],
  [Status.UNAUTHENTICATED]: [401, 'unauthorized'],
};

const statuses = Object.keys(BY_STATUS).map(Number);
/** undefined: no machine code in metadata; data_source_unavailable: a service's own code */
const codes: (string | undefined)[] = [
  undefined,
  ...Object.keys(BY_CODE),
  'data_source_unavailable',
  'Bad Code!',
];

function expected(status: number, code: string | undefined): [number, string] {
  if (code !== undefined && BY_CODE[code]) return BY_CODE[code]!;
  const [http, def] = BY_STATUS[status]!;
  if (http === 500) return [500, 'internal'];
  if (code === 'data_source_unavailable') return [http, code];
  return [http, def];
}

function grpcError(status: number, code: string | undefined, details = 'detail from the service') {
  const metadata = new Metadata();
  if (code !== undefined) metadata.set(MD_ERROR_CODE, code);
  return Object.assign(new Error(details), { code: status, details, metadata });
}

describe('gRPC status + machine code -> HTTP', () => {
  const pairs = statuses.flatMap((s) => codes.map((c) => [s, c] as const));
  it.each(pairs)('status %p with code %p', (status, code) => {
    const http = toHttpError(fromGrpcError(grpcError(status, code)), 'req_1');
    const [wantStatus, wantCode] = expected(status, code);
    expect([http.status, http.body.error.code]).toEqual([wantStatus, wantCode]);
    expect(http.body.error.request_id).toBe('req_1');
    if (wantStatus === 500) expect(http.body.error.message).toBe('internal error');
    if (wantStatus === 401)
      expect(http.body.error.message).toBe('missing, invalid or expired credentials');
    if (wantStatus === 429) {
      expect(http.body.error.retry_after).toBeGreaterThanOrEqual(1);
      expect(http.headers['Retry-After']).toBe(String(http.body.error.retry_after));
    } else {
      expect(http.body.error.retry_after).toBeUndefined();
    }
  });

  it('carries field, details/errors and retry_after across gRPC', () => {
    const md = new Metadata();
    md.set(MD_ERROR_CODE, 'validation_error');
    md.set(
      'x-inquest-error-details',
      JSON.stringify([
        { field: 'a.b', error: 'bad' },
        { field: 'c', error: 'worse' },
      ]),
    );
    const v = toHttpError(
      fromGrpcError({ code: Status.INVALID_ARGUMENT, details: 'a.b: bad', metadata: md }),
      'r',
    );
    expect(v.body.error.details).toEqual({ field: 'a.b', error: 'bad' });
    expect(v.body.error.errors).toHaveLength(2);
    const fmd = new Metadata();
    fmd.set(MD_ERROR_CODE, 'invalid_field');
    fmd.set('x-inquest-error-field', 'team_name');
    expect(
      toHttpError(
        fromGrpcError({ code: Status.INVALID_ARGUMENT, details: 'x', metadata: fmd }),
        'r',
      ).body.error.field,
    ).toBe('team_name');
    const rmd = new Metadata();
    rmd.set(MD_ERROR_CODE, 'rate_limited');
    rmd.set('x-inquest-retry-after', '2.2');
    const r = toHttpError(
      fromGrpcError({ code: Status.RESOURCE_EXHAUSTED, details: 'x', metadata: rmd }),
      'r',
    );
    expect(r.body.error.retry_after).toBe(3);
    expect(r.headers['Retry-After']).toBe('3');
  });

  it('never leaks what a non-domain error says', () => {
    const http = toHttpError(new Error('password=hunter2 at /srv/x.ts:1'), 'r');
    expect(http).toEqual({
      status: 500,
      body: { error: { code: 'internal', message: 'internal error', request_id: 'r' } },
      headers: {},
    });
  });
});
