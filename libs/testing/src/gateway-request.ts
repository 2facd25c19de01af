export interface GatewayResponse {
  status: number;
  headers: Headers;
  text: string;
  /** parsed JSON body (undefined when not JSON) */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface GatewayRequestOptions {
  /** sent as `Authorization: Bearer <token>` */
  token?: string;
  /** sent as `X-Inquest-Team` (admin acting for a team) */
  team?: string;
  /** sent as JSON */
  body?: unknown;
  /** sent as is (when the body must not be valid JSON) */
  rawBody?: string;
  headers?: Record<string, string>;
}

/** One HTTP request to a running gateway (`baseUrl` like http://127.0.0.1:8080), JSON parsed when it is JSON. */
export async function gatewayRequest(
  baseUrl: string,
  method: string,
  path: string,
  o: GatewayRequestOptions = {},
): Promise<GatewayResponse> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.token) headers['authorization'] = `Bearer ${o.token}`;
  if (o.team) headers['x-inquest-team'] = o.team;
  let body = o.rawBody;
  if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}
