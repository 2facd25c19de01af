export { ToolError, isToolError, toolFailure } from './tool-error';
export type { ToolFailure } from './tool-error';
export { sendJson } from './http-json';
export { toolRoutes } from './tool-routes';
export type {
  HealthReport,
  ServedTool,
  ToolAnnotations,
  ToolCall,
  ToolDefinition,
  ToolHandler,
  ToolRoutes,
  ToolRoutesOptions,
} from './tool-routes';
export { startToolServer } from './start-tool-server';
export type { RunningToolServer, ToolServerOptions } from './start-tool-server';
