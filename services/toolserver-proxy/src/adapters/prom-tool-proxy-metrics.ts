import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { BreakerState } from '../domain/circuit-breaker';
import type { ToolProxyMetrics } from '../domain/tool-proxy-metrics';

const BREAKER_VALUE: Record<BreakerState, number> = { closed: 0, half_open: 1, open: 2 };

/** The proxy's metrics as Prometheus series, registered in `registry` (none: kept unexported). */
export function promToolProxyMetrics(registry?: Registry): ToolProxyMetrics {
  const registers = registry ? [registry] : [];
  const calls = new Counter({
    name: 'inquest_tool_calls_total',
    help: 'Tool calls by server and outcome',
    labelNames: ['server', 'outcome'],
    registers,
  });
  const duration = new Histogram({
    name: 'inquest_tool_call_duration_seconds',
    help: 'Tool call duration',
    labelNames: ['server'],
    buckets: [0.005, 0.025, 0.1, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const breaker = new Gauge({
    name: 'inquest_tool_server_breaker_state',
    help: 'Circuit breaker per tool server: 0 closed, 1 half open, 2 open',
    labelNames: ['server'],
    registers,
  });
  const healthy = new Gauge({
    name: 'inquest_tool_server_healthy',
    help: 'Last health poll per tool server: 1 healthy, 0 not',
    labelNames: ['server'],
    registers,
  });
  return {
    toolCall(server, outcome, seconds) {
      calls.inc({ server: server || '-', outcome });
      if (server) duration.observe({ server }, seconds);
    },
    breakerState: (server, state) => breaker.set({ server }, BREAKER_VALUE[state]),
    serverHealth: (server, ok) => healthy.set({ server }, ok ? 1 : 0),
  };
}
