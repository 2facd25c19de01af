export { KINDS, resolveKind, kindOf } from './kinds';
export type { KindInfo } from './kinds';
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
