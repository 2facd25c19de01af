import { z } from 'zod';
import { Permission } from './admin.schemas';

/** GET /whoami: the caller as the gateway authenticated it, for front ends (the web console). */
export const Caller = z.object({
  kind: z
    .enum(['team', 'admin', 'oidc'])
    .describe('team token, the admin token, or an OIDC identity'),
  identity: z
    .string()
    .describe(
      'Who the caller is in audit entries and change requests (`changed_by`, `requested_by`, approvers): the token owner e-mail, the OIDC e-mail, or `admin`',
    ),
  team_id: z
    .string()
    .describe('The team the request acts on (for the admin token: the X-Inquest-Team header)'),
  permissions: z
    .array(Permission)
    .describe('What the credential may do on team endpoints (the admin token may do everything)'),
  expires_at: z
    .string()
    .optional()
    .describe('ISO 8601 UTC: when the credential stops being valid, if it expires'),
});
export type Caller = z.infer<typeof Caller>;
