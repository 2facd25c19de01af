import type { BreakerState } from './circuit-breaker';

/** What the proxy measures (port; `adapters/prom-tool-proxy-metrics.ts` exports it to Prometheus). */
export interface ToolProxyMetrics {
  /** One finished tool call; `server` is empty when the tool name did not parse. */
  toolCall(server: string, outcome: string, durationSeconds: number): void;
  breakerState(server: string, state: BreakerState): void;
  /** The last health poll of a server. */
  serverHealth(server: string, healthy: boolean): void;
}

/** Measures nothing (a proxy built without metrics). */
export const NO_TOOL_PROXY_METRICS: ToolProxyMetrics = {
  toolCall: () => undefined,
  breakerState: () => undefined,
  serverHealth: () => undefined,
};
