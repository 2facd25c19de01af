import { validateHeaderValue } from 'node:http';

/**
 * A body made once and sent as is to many requests (a cached answer), with its entity fields
 * (ETag, Content-Type, Content-Length) made with it: an answer carrying it is written with one
 * writeHead and one end, without express's send, which would look for an ETag, compute the length
 * and check the request's freshness again for every request. So the route answers conditional
 * requests itself: with status 304 the answer carries the ETag and no body.
 */
export class PreparedBody {
  /** ETag, Content-Type and Content-Length, as a flat `[name, value, ...]` list */
  readonly fields: readonly string[];
  /** the fields of a 304 answer: the ETag */
  readonly notModifiedFields: readonly string[];

  constructor(
    readonly body: Buffer,
    readonly contentType: string,
    readonly etag: string,
  ) {
    validateHeaderValue('ETag', etag);
    validateHeaderValue('Content-Type', contentType);
    this.fields = [
      'ETag',
      etag,
      'Content-Type',
      contentType,
      'Content-Length',
      String(body.length),
    ];
    this.notModifiedFields = ['ETag', etag];
  }
}
