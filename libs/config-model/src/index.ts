export { isPlainObject, jsonEqual, cloneJson, FORBIDDEN_KEYS } from './json-value';
export type { JsonObject } from './json-value';
export { deepMerge, mergeLevels } from './deep-merge';
export { diffConfigs, applyDiff, diffToJson } from './config-diff';
export type { ConfigDiff, FieldChange } from './config-diff';
export {
  ConfigDocumentSchema,
  AgentConfigSchema,
  ToolConfigSchema,
  McpServerEntrySchema,
  KnowledgeBaseSchema,
  VaultRef,
  HttpUrl,
  Duration,
  isHttpUrl,
  CONFIG_LIMITS,
  BUILTIN_TOOLS,
  IMMUTABLE_FIELDS,
  NODE_ID_PATTERN,
} from './config.schema';
export type { ConfigDocument, McpServerEntry } from './config.schema';
export {
  jsonShapeProblems,
  schemaProblems,
  checkPatch,
  checkPatchShape,
  resolveMcpServers,
  referenceProblems,
} from './config-validation';
export type { ResolvedServers } from './config-validation';
export { effectiveConfig } from './effective-config';
export type { TeamIdentity } from './effective-config';
