import {
  sendJson,
  startToolServer,
  toolRoutes,
  ToolError,
  type RunningToolServer,
  type ToolRoutes,
} from '@inquest/toolserver-kit';
import {
  buildEnvironment,
  DEFAULT_SCENARIO,
  isScenario,
  SCENARIOS,
  type Scenario,
} from './environment';
import { TOOL_DEFINITIONS, TOOLS } from './tools';

export interface DemoToolServerOptions {
  port?: number;
  host?: string;
  /** default scenario; a request may pick another with `/scenarios/<name>/...` or `x-demo-scenario` */
  scenario?: string;
  /** when set, every request must carry `Authorization: Bearer <token>` */
  token?: string;
}

export type RunningDemoToolServer = RunningToolServer;

/** The tools answering on one scenario's environment (built on first use). */
function scenarioRoutes(scenario: Scenario): ToolRoutes {
  const env = buildEnvironment(scenario);
  return toolRoutes({
    name: 'inquest-demo-toolserver',
    tools: TOOLS.map((tool, i) => ({
      definition: TOOL_DEFINITIONS[i]!,
      handler: (params) => tool.handler(env, params, Date.now()),
    })),
    health: () => ({ status: 200, body: { status: 'ok', scenario } }),
  });
}

/**
 * The demo tool server: the tool-server contract (GET /tools, POST /tools/{name}, GET /health)
 * plus the same tools over MCP Streamable HTTP at `/mcp`, on a synthetic environment.
 * `/scenarios/<name>/...` serves the same routes for another scenario.
 */
export async function startDemoToolServer(
  options: DemoToolServerOptions = {},
): Promise<RunningDemoToolServer> {
  const defaultScenario: Scenario =
    options.scenario === undefined ? DEFAULT_SCENARIO : validScenario(options.scenario);
  const routes = new Map<Scenario, ToolRoutes>();
  const routesFor = (s: Scenario) => {
    let r = routes.get(s);
    if (!r) {
      r = scenarioRoutes(s);
      routes.set(s, r);
    }
    return r;
  };

  return startToolServer({
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.token ? { token: options.token } : {}),
    handle: async (req, res, fullPath) => {
      let path = fullPath;
      let scenario = defaultScenario;
      const m = /^\/scenarios\/([^/]+)(\/.*)?$/.exec(path);
      if (m) {
        scenario = validScenario(decodeURIComponent(m[1] ?? ''));
        path = m[2] ?? '/';
      } else if (typeof req.headers['x-demo-scenario'] === 'string') {
        scenario = validScenario(req.headers['x-demo-scenario']);
      }
      if (path === '/scenarios' && req.method === 'GET') {
        return sendJson(res, 200, { default: defaultScenario, scenarios: SCENARIOS });
      }
      return routesFor(scenario).handle(req, res, path);
    },
  });
}

function validScenario(s: string): Scenario {
  if (!isScenario(s))
    throw new ToolError(404, `unknown scenario ${s} (scenarios: ${SCENARIOS.join(', ')})`);
  return s;
}
