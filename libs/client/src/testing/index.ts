export { startScriptedServer, scriptRoutes } from './scripted-server';
export type {
  ScriptedHandler,
  ScriptedReply,
  ScriptedRequest,
  ScriptedServer,
} from './scripted-server';
