export {
  KINDS,
  resolveKind,
  kindOf,
  builtinKindOf,
  isBuiltinKind,
  customKind,
  groupOf,
  guessPlural,
  parseKindQuery,
  resolveKindIn,
} from './kinds';
export type { KindInfo, KindQuery } from './kinds';
export { WorldIndex, loadWorld } from './world';
export type {
  Json,
  KubeObject,
  ObjectMeta,
  OwnerReference,
  ScenarioWorld,
  ScenarioLog,
  ScenarioMetrics,
  PodMetrics,
  NodeMetrics,
  ContainerUsage,
  ListOptions,
  LogOptions,
} from './world';
export {
  parseLabelSelector,
  matchesLabels,
  selectorRequirements,
  formatSelector,
  parseFieldSelector,
  matchesFields,
} from './selectors';
export type { LabelRequirement, FieldRequirement } from './selectors';
export { toDate, humanDuration, age } from './time';
export { toYaml } from './format/yaml';
export { describe, rfc1123z } from './format/describe';
export type { DescribeContext } from './format/describe';
export { getTable, tableRows, topTable, podStatus } from './format/table';
export type { TableOptions, TopOptions } from './format/table';
export { parseQuantity, formatCpu, formatMemory } from './format/quantity';
export { formatTabs } from './format/tabwriter';
