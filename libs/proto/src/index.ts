// Generated code lives in ./gen (built from proto/ by `npm run gen`, never committed or edited).
export * as configV1 from './gen/inquest/config/v1/config_service';
export * as toolsV1 from './gen/inquest/tools/v1/tool_service';
export * as knowledgeV1 from './gen/inquest/knowledge/v1/knowledge_service';
export * as investigationV1 from './gen/inquest/investigation/v1/investigation_service';
export * as notifierV1 from './gen/inquest/notifier/v1/notifier_service';
export * as eventsV1 from './gen/inquest/events/v1/events';
export * as alertsV1 from './gen/inquest/alerts/v1/alert_service';
export { IDEMPOTENCY_LEVELS } from './gen/method-options';
// The strings of the REST API and storage <-> the proto enums that replace string fields.
export { stringEnum, type StringEnum } from './enums/string-enum';
export { agentEnum, investigationStatusEnum, priorityEnum } from './enums/investigation-enums';
export { changeRequestStatusEnum, nodeLevelEnum } from './enums/config-enums';
export { documentStatusEnum, knowledgeLevelEnum } from './enums/knowledge-enums';
export { alertStatusEnum, deliveryStatusEnum } from './enums/alert-enums';
