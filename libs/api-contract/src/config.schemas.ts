import { z } from 'zod';
import { ConfigDocumentSchema } from '@inquest/config-model';

/** A node's configuration document (also the effective config of a team). */
export const ConfigDocument = ConfigDocumentSchema.describe(
  "Configuration document. Every field is optional. Unknown keys anywhere are a validation_error naming the path (with a suggestion when a known key is close); top-level keys starting with `x-` hold custom data, kept as is. `agents.code_fix_agent` (the spec's name) configures `coding_agent` and is kept under the name given; `agents.coding_agent` wins where both set a key. A team's effective config also carries team_name, org_id and team_node_id.",
);
export type ConfigDocument = z.infer<typeof ConfigDocument>;

/** GET /config/me/effective: the merged document plus the team's config version. */
export const EffectiveConfig = ConfigDocument.and(
  z.object({
    version: z
      .number()
      .int()
      .describe("The team's config version (increases by 1 with each applied change)"),
  }),
).describe('Effective (merged) config of the team, with `version`');
export type EffectiveConfig = z.infer<typeof EffectiveConfig>;

/** Body of PUT /config/me and PUT /admin/nodes/{node_id}/config: only the fields to change. */
export const ConfigPatch = z
  .record(z.string(), z.unknown())
  .describe(
    "A JSON Merge Patch (RFC 7396) of the node's own config (fields as in ConfigDocument): objects merge, null removes the node's own key (the inherited value applies again), arrays and scalars replace. team_name, org_id and team_node_id are refused (400 invalid_field); every other problem is reported at once (400 validation_error).",
  );
export type ConfigPatch = z.infer<typeof ConfigPatch>;

export const FieldChange = z.object({
  old: z.unknown().describe('Value before (null when absent)'),
  new: z.unknown().describe('Value after (null when absent)'),
});

export const ConfigChanges = z
  .record(z.string(), FieldChange)
  .describe('Map from a dot-separated field path to its old and new value');

/** Something an accepted update should know about; never a reason to refuse it. */
export const ConfigWarning = z.object({
  field: z.string().describe('Dot path of the field'),
  message: z.string(),
});
export type ConfigWarning = z.infer<typeof ConfigWarning>;

const Warnings = z
  .array(ConfigWarning)
  .describe(
    'Accepted, but worth knowing: a `<server>:<tool>` name not checked because its server could not be asked now (checked again when an investigation runs), a reserved field that has no effect yet',
  );

/** 200 answer of an applied update. */
export const ConfigUpdateApplied = z.object({
  message: z.string(),
  version: z
    .number()
    .int()
    .describe("The team's config version after the update (unchanged when nothing changed)"),
  changed_fields: z.array(z.string()).describe('Dot paths of the fields that changed'),
  effective_config: ConfigDocument,
  warnings: Warnings,
});
export type ConfigUpdateApplied = z.infer<typeof ConfigUpdateApplied>;

/** 202 answer of an update that needs approval. */
export const ConfigChangeRequested = z.object({
  message: z.string(),
  change_request_id: z.string(),
  status: z.literal('pending_approval'),
  approvers: z.array(z.string()).describe('E-mails from the effective approval.approvers'),
  changes: ConfigChanges,
  warnings: Warnings,
});
export type ConfigChangeRequested = z.infer<typeof ConfigChangeRequested>;

export const ChangeRequestStatus = z.enum(['pending_approval', 'approved', 'rejected']);

/** A change request as listed by the admin API. */
export const ChangeRequest = z.object({
  change_request_id: z.string(),
  team_id: z.string(),
  status: ChangeRequestStatus,
  requested_by: z.string(),
  requested_at: z.string().describe('ISO 8601 UTC'),
  approvers: z.array(z.string()),
  changes: ConfigChanges,
  decided_by: z.string().optional(),
  decided_at: z.string().optional(),
  comment: z.string().optional(),
  applied_version: z.number().int().optional().describe('Version the approved change produced'),
});
export type ChangeRequest = z.infer<typeof ChangeRequest>;

/** GET /config/me/pending */
export const PendingChanges = z.object({
  change_requests: z.array(
    ChangeRequest.pick({
      change_request_id: true,
      status: true,
      requested_by: true,
      requested_at: true,
      approvers: true,
      changes: true,
    }),
  ),
});
export type PendingChanges = z.infer<typeof PendingChanges>;

/** GET /config/me/raw */
export const RawConfig = z.object({
  lineage: z.array(z.string()).describe('Node ids, organization root first, team last'),
  configs: z.record(z.string(), ConfigDocument).describe("Node id to that node's own config"),
  versions: z
    .record(z.string(), z.number().int())
    .describe("Node id to the version of that node's own config (0 before its first change)"),
});
export type RawConfig = z.infer<typeof RawConfig>;

export const AuditEntry = z.object({
  version: z.number().int(),
  changed_at: z.string().describe('ISO 8601 UTC'),
  changed_by: z.string(),
  approved_by: z
    .string()
    .optional()
    .describe('Set when the change was applied by approving a change request'),
  diff: ConfigChanges,
  full_config: ConfigDocument.optional().describe(
    'Effective config of the changed node after the change; only with include_full',
  ),
  node_id: z
    .string()
    .describe('The node whose own config changed: the team, or a group or the org above it'),
  level: z.enum(['org', 'group', 'team']).describe('Level of node_id'),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** GET /config/me/audit, GET /admin/nodes/{node_id}/audit */
export const AuditHistory = z.object({
  history: z
    .array(AuditEntry)
    .describe("Newest first: the node's changes and those made at every level above it"),
  pagination: z.object({
    total: z.number().int().describe('Entries in all'),
    limit: z.number().int(),
    offset: z.number().int(),
  }),
});
export type AuditHistory = z.infer<typeof AuditHistory>;

/**
 * A boolean query parameter: true/false, 1/0, yes/no, on/off in any case (Python's requests sends
 * `False` for `params={"include_full": False}`).
 */
const QueryBool = z.stringbool({
  error: 'must be true or false',
  truthy: ['true', '1', 'yes', 'on'],
  falsy: ['false', '0', 'no', 'off'],
  case: 'insensitive',
});

export const AuditQuery = z.object({
  limit: z.coerce
    .number({ message: 'limit must be an integer from 1 to 500' })
    .int('limit must be an integer from 1 to 500')
    .min(1, 'limit must be an integer from 1 to 500')
    .max(500, 'limit must be an integer from 1 to 500')
    .default(50)
    .describe('Entries to return, 1..500'),
  offset: z.coerce
    .number({ message: 'offset must be an integer from 0 to 1000000' })
    .int('offset must be an integer from 0 to 1000000')
    .min(0, 'offset must be an integer from 0 to 1000000')
    .max(1_000_000, 'offset must be an integer from 0 to 1000000')
    .default(0)
    .describe('Entries to skip, default 0'),
  include_full: QueryBool.default(true).describe(
    'Include the full config snapshot per entry (default true; true/false, 1/0, yes/no, on/off, any case)',
  ),
});
export type AuditQuery = z.infer<typeof AuditQuery>;
