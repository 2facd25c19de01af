export { OpenAiChatModel } from './openai-chat-model';
export type { OpenAiChatModelOptions } from './openai-chat-model';
export type {
  ChatCallOptions,
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatResponse,
  ChatToolCall,
  ChatToolSpec,
} from './chat-model';
