export { isPlainObject, jsonEqual, FORBIDDEN_KEYS } from './json-value';
export type { JsonObject } from './json-value';
export { deepMerge, mergeLevels, mergePatch } from './deep-merge';
export { diffConfigs, applyDiff, diffToJson, effectiveDiff } from './config-diff';
export type { ConfigDiff, FieldChange } from './config-diff';
export {
  ConfigDocumentSchema,
  AgentConfigSchema,
  ToolConfigSchema,
  McpServerEntrySchema,
  KnowledgeBaseSchema,
  VaultRef,
  SecretsSchema,
  HttpUrl,
  Duration,
  isHttpUrl,
  CONFIG_LIMITS,
  BUILTIN_TOOLS,
  AGENT_NAMES,
  AGENT_ALIASES,
  FEATURE_FLAGS,
  RANKING_SIGNALS,
  RERANKERS,
  CUSTOM_KEY_PREFIX,
  IMMUTABLE_FIELDS,
  NODE_ID_PATTERN,
} from './config.schema';
export type { ConfigDocument, McpServerEntry } from './config.schema';
export {
  jsonShapeProblems,
  schemaProblems,
  patchProblems,
  checkPatchShape,
  resolveMcpServers,
  referenceProblems,
} from './config-validation';
export type { ResolvedServers } from './config-validation';
export { closestName, editDistance } from './did-you-mean';
export { agentsByTool, AREA_WORDS, toolFitsAgent } from './agent-tools';
export { agentSettings } from './agent-settings';
export { RESERVED_FIELDS, reservedFieldWarnings } from './reserved-fields';
export type { AgentToolCandidate } from './agent-tools';
export { effectiveConfig } from './effective-config';
export {
  vaultRefsIn,
  orgSecretGrants,
  secretScopeProblems,
  effectiveSecretScopes,
} from './secret-scopes';
export type { FoundSecretRef } from './secret-scopes';
export { urlCredentialProblems } from './url-credentials';
export type { TeamIdentity } from './effective-config';
