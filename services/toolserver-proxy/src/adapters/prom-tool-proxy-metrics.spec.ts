import { Registry } from 'prom-client';
import { promToolProxyMetrics } from './prom-tool-proxy-metrics';

describe('promToolProxyMetrics', () => {
  it('exports calls, durations, breaker states and health per server', async () => {
    const registry = new Registry();
    const m = promToolProxyMetrics(registry);
    m.toolCall('k8s', 'ok', 0.2);
    m.toolCall('k8s', 'timeout', 3);
    m.toolCall('', 'invalid_field', 0.001);
    m.breakerState('k8s', 'half_open');
    m.breakerState('prom', 'open');
    m.serverHealth('k8s', false);
    const text = await registry.metrics();
    expect(text).toContain('inquest_tool_calls_total{server="k8s",outcome="ok"} 1');
    expect(text).toContain('inquest_tool_calls_total{server="k8s",outcome="timeout"} 1');
    // an unparsable tool name has no server: counted under "-", no duration
    expect(text).toContain('inquest_tool_calls_total{server="-",outcome="invalid_field"} 1');
    expect(text).toContain('inquest_tool_call_duration_seconds_count{server="k8s"} 2');
    expect(text).not.toContain('inquest_tool_call_duration_seconds_count{server="-"}');
    expect(text).toContain('inquest_tool_server_breaker_state{server="k8s"} 1');
    expect(text).toContain('inquest_tool_server_breaker_state{server="prom"} 2');
    expect(text).toContain('inquest_tool_server_healthy{server="k8s"} 0');
  });
});
