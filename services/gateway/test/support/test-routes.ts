import { z } from 'zod';
import { defineRoute, type RouteDef } from '../../src/http/route';
import type { GatewayDeps } from '../../src/routes/index';

export const ItemBody = z.object({
  name: z.string().min(1).max(100),
  size: z.number().int().positive().optional(),
  tags: z.array(z.string()).max(10).optional(),
});

/** Small routes covering every auth mode and rate class, used by the gateway's own tests. */
export function testRoutes(deps: GatewayDeps): RouteDef[] {
  const items = new Map<string, z.infer<typeof ItemBody>>();
  return [
    defineRoute({
      method: 'get',
      path: '/test/items',
      summary: 'list items',
      tags: ['test'],
      auth: 'team',
      query: z.object({ limit: z.coerce.number().int().min(1).max(100).optional() }),
      responses: {
        200: {
          description: 'items',
          schema: z.object({ items: z.array(z.string()), who: z.string() }),
        },
      },
      handler: async (req) => ({
        status: 200,
        body: {
          items: [...items.keys()].slice(0, req.query.limit ?? 100),
          who: `${req.auth.identity}@${req.auth.teamId}`,
        },
      }),
    }),
    defineRoute({
      method: 'put',
      path: '/test/items/:item_id',
      summary: 'put item',
      tags: ['test'],
      auth: 'team',
      permission: 'write',
      params: z.object({ item_id: z.string().regex(/^[a-z0-9-]{1,20}$/) }),
      body: ItemBody,
      invalidCode: 'validation_error',
      responses: { 200: { description: 'stored', schema: ItemBody } },
      handler: async (req) => {
        items.set(req.params.item_id, req.body);
        return { status: 200, body: req.body };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/test/trigger',
      summary: 'trigger',
      tags: ['test'],
      auth: 'team',
      rateClass: 'trigger',
      body: z.object({ what: z.string() }),
      responses: { 200: { description: 'ok', schema: z.object({ ok: z.boolean() }) } },
      handler: async () => ({ status: 200, body: { ok: true } }),
    }),
    defineRoute({
      method: 'get',
      path: '/test/admin-only',
      summary: 'admin only',
      tags: ['test'],
      auth: 'admin',
      responses: { 200: { description: 'ok', schema: z.object({ ok: z.boolean() }) } },
      handler: async () => ({ status: 200, body: { ok: true } }),
    }),
    defineRoute({
      method: 'get',
      path: '/test/backing',
      summary: 'calls a backing service',
      tags: ['test'],
      auth: 'team',
      responses: { 200: { description: 'node', schema: z.object({ name: z.string() }) } },
      handler: async (req) => {
        const res = await deps.clients.investigation.getInvestigation(
          { investigation_id: 'inv_1' } as never,
          { ctx: req.ctx, signal: req.signal },
        );
        return { status: 200, body: { name: JSON.stringify(res).slice(0, 10) } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/test/boom',
      summary: 'fails unexpectedly',
      tags: ['test'],
      auth: 'team',
      responses: { 200: { description: 'never' } },
      handler: async () => {
        throw new Error('db password hunter2 at /srv/app/secret.ts:42');
      },
    }),
    defineRoute({
      method: 'get',
      path: '/test/slow',
      summary: 'never answers by itself',
      tags: ['test'],
      auth: 'team',
      responses: { 200: { description: 'never' } },
      handler: (req) =>
        new Promise((resolve) => {
          req.signal.addEventListener('abort', () =>
            resolve({ status: 200, body: { aborted: true } }),
          );
        }),
    }),
  ];
}
