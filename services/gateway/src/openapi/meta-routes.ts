import { z } from 'zod';
import { defineRoute, type RouteDef } from '../http/route';
import { DOCS_CSP, docsHtml } from './docs-page';
import type { OpenApiDocument } from './openapi-document';

const OpenApiDocumentSchema = z
  .looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) })
  .describe('The OpenAPI 3.1 document of every endpoint.');

/** GET /openapi.json and GET /docs: public, and listed in the document like every other route. */
export function metaRoutes(document: () => OpenApiDocument): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/openapi.json',
      summary: 'OpenAPI 3.1 document',
      tags: ['meta'],
      auth: 'public',
      responses: {
        200: {
          description: 'The OpenAPI 3.1 document of this API.',
          schema: OpenApiDocumentSchema,
        },
      },
      handler: async () => ({
        status: 200,
        body: document(),
        headers: { 'Cache-Control': 'no-cache' },
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/docs',
      summary: 'API reference page',
      tags: ['meta'],
      auth: 'public',
      responses: {
        200: { description: 'A readable API reference (Redoc).', contentType: 'text/html' },
      },
      handler: async () => ({
        status: 200,
        body: docsHtml(),
        contentType: 'text/html; charset=utf-8',
        headers: { 'Content-Security-Policy': DOCS_CSP },
      }),
    }),
  ];
}
