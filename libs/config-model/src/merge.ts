// `@inquest/config-model/merge`: the merge and diff rules without the schema, validation or
// secret scopes, so a browser (the web console) can import them: no zod, no Node built-ins.
export { isPlainObject, jsonEqual, FORBIDDEN_KEYS } from './json-value';
export type { JsonObject } from './json-value';
export { deepMerge, mergeLevels, mergePatch } from './deep-merge';
export { diffConfigs, applyDiff, diffToJson, effectiveDiff } from './config-diff';
export type { ConfigDiff, FieldChange } from './config-diff';
