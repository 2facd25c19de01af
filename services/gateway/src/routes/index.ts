import type { RouteDef } from '../http/route';
import { adminRoutes } from './admin.routes';
import { agentsRoutes } from './agents.routes';
import { alertsRoutes } from './alerts.routes';
import { configRoutes } from './config.routes';
import type { GatewayDeps } from './gateway-deps';
import { kbRoutes } from './kb.routes';
import { slackRoutes } from './slack.routes';
import { toolsRoutes } from './tools.routes';
import { webhooksRoutes } from './webhooks.routes';
import { whoamiRoutes } from './whoami.routes';

/** Every REST route of /api/v1. The OpenAPI document is generated from this same list. */
export function allRoutes(deps: GatewayDeps): RouteDef[] {
  return [
    ...agentsRoutes(deps),
    ...configRoutes(deps),
    ...kbRoutes(deps),
    ...toolsRoutes(deps),
    ...webhooksRoutes(deps),
    ...alertsRoutes(deps),
    ...adminRoutes(deps),
    ...whoamiRoutes(),
    ...(deps.slack ? slackRoutes(deps.slack) : []),
  ];
}

export type { GatewayDeps, ServiceClients } from './gateway-deps';
