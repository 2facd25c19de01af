/** A request to Prometheus or Alertmanager: path under the base URL and query/form parameters. */
export interface UpstreamRequest {
  method: 'GET' | 'POST';
  path: string;
  /** repeated keys (`match[]`) as arrays */
  params?: Record<string, string | string[] | undefined>;
  signal?: AbortSignal;
}

/**
 * The HTTP API of one upstream (Prometheus or Alertmanager). `call` answers the parsed JSON
 * body of a 2xx answer and throws a ToolError otherwise (bad input 4xx, unreachable 502,
 * deadline 504), so tools only deal with data.
 */
export interface UpstreamApi {
  /** `Prometheus` or `Alertmanager`, for messages */
  readonly name: string;
  readonly baseUrl: string;
  call(req: UpstreamRequest): Promise<unknown>;
  close(): Promise<void>;
}
