import { z } from 'zod';

/** The error body of every non-2xx answer. */
export const ErrorBody = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      request_id: z.string().optional(),
      field: z.string().optional(),
      details: z.object({ field: z.string(), error: z.string() }).optional(),
      errors: z.array(z.object({ field: z.string(), error: z.string() })).optional(),
      retry_after: z.number().int().optional(),
    }),
  })
  // named component in the generated OpenAPI document
  .meta({ id: 'ErrorBody', description: 'The error body of every non-2xx answer.' });
export type ErrorBody = z.infer<typeof ErrorBody>;
