// Test helpers of @inquest/llm (never imported by production code).
export { startScriptedChatServer } from './scripted-chat-server';
export type {
  ScriptedChatServer,
  ScriptedTurn,
  ChatCompletionRequestSeen,
} from './scripted-chat-server';
