export { startConfigServiceDouble } from './config-service-double';
export type {
  ConfigCall,
  ConfigMethod,
  ConfigServiceDouble,
  ConfigServiceDoubleOptions,
  DoubleToken,
  RawTeamConfig,
} from './config-service-double';
export { startToolServiceDouble } from './tool-service-double';
export type { ScriptedTool, ToolCall, ToolServiceDouble } from './tool-service-double';
export { startKnowledgeServiceDouble } from './knowledge-service-double';
export type { KnowledgeCall, KnowledgeServiceDouble } from './knowledge-service-double';
export { k8sTools } from './k8s-tools';
export type { DoubleSwitches } from './serve-double';
export { startJsonAnswerServer } from './json-answer-server';
export type { JsonAnswerServer } from './json-answer-server';
