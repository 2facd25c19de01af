/**
 * All-in-one launcher (`npm start`): the six services in one process, each on its own loopback
 * gRPC port (the same gRPC code path as production), sharing an in-process event bus, with
 * embedded storage in INQUEST_DATA_DIR. Prints the URL and a first step; Ctrl-C stops cleanly.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { InProcessEventBus } from '@inquest/events';
import { createClient } from '@inquest/grpc-kit';
import { createLogger } from '@inquest/observability';
import { configV1 } from '@inquest/proto';
import { parseEnv, runMain, type Stoppable } from '@inquest/runtime';
import { start as startConfig } from '@inquest/config-hierarchy-service';
import { start as startGateway } from '@inquest/gateway-service';
import { start as startInvestigations } from '@inquest/investigation-runner-service';
import { start as startKnowledge } from '@inquest/knowledge-raptor-service';
import { start as startNotifier } from '@inquest/notifier-service';
import { start as startTools } from '@inquest/toolserver-proxy-service';
import { start as startPrometheusToolServer } from '@inquest/toolserver-prometheus-service';
import { startDemoToolServer } from '@inquest/tool-demo-toolserver';
import { resolveAdminToken } from './admin-token';
import { bootstrapDemo } from './bootstrap-demo';
import { LauncherEnvSchema } from './config';
import { freePorts } from './free-ports';
import { registerToolServer } from './register-tool-server';

export interface AllInOne extends Stoppable {
  url: string;
  port: number;
  adminToken?: string;
  demoTeamToken?: string;
}

/** Starts everything; `out` receives the human-readable banner. */
export async function startAllInOne(
  env: Record<string, string | undefined>,
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): Promise<AllInOne> {
  const cfg = parseEnv(LauncherEnvSchema, env);
  const dataDir = resolve(cfg.INQUEST_DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const logger = createLogger({ name: 'inquest', level: cfg.INQUEST_LOG_LEVEL });
  const admin = resolveAdminToken(dataDir, cfg.INQUEST_ADMIN_TOKEN, cfg.INQUEST_ADMIN_TOKEN_SHA256);
  const egressAllow = cfg.INQUEST_EGRESS_ALLOW ?? '127.0.0.0/8,::1';
  const [pConfig, pInv, pKb, pTools, pNotifier] = await freePorts(5);
  const addr = (p: number | undefined) => `127.0.0.1:${p}`;
  const shared: Record<string, string | undefined> = {
    ...env,
    INQUEST_DATA_DIR: dataDir,
    INQUEST_LOG_LEVEL: cfg.INQUEST_LOG_LEVEL,
    INQUEST_GRPC_HOST: '127.0.0.1',
    INQUEST_CONFIG_ADDR: addr(pConfig),
    INQUEST_INVESTIGATION_ADDR: addr(pInv),
    INQUEST_KNOWLEDGE_ADDR: addr(pKb),
    INQUEST_TOOLS_ADDR: addr(pTools),
    INQUEST_NOTIFIER_ADDR: addr(pNotifier),
    INQUEST_EGRESS_ALLOW: egressAllow,
  };
  const bus = new InProcessEventBus();
  const deps = { bus };
  const started: Stoppable[] = [];
  const stopAll = async () => {
    for (const s of started.reverse()) {
      await s.stop().catch((err: unknown) => logger.error({ err }, 'error while stopping'));
    }
    await bus.close();
  };
  try {
    started.push(await startConfig({ ...shared, INQUEST_GRPC_PORT: String(pConfig) }, deps));
    started.push(await startTools({ ...shared, INQUEST_GRPC_PORT: String(pTools) }, deps));
    started.push(await startKnowledge({ ...shared, INQUEST_GRPC_PORT: String(pKb) }, deps));
    started.push(await startInvestigations({ ...shared, INQUEST_GRPC_PORT: String(pInv) }, deps));
    started.push(await startNotifier({ ...shared, INQUEST_GRPC_PORT: String(pNotifier) }, deps));

    let demoToolServerUrl: string | undefined;
    if (cfg.INQUEST_DEMO) {
      const demo = await startDemoToolServer({
        host: '127.0.0.1',
        port: cfg.INQUEST_DEMO_TOOLSERVER_PORT,
      });
      started.push(demo);
      demoToolServerUrl = demo.url;
    }
    let prometheusToolServerUrl: string | undefined;
    if (cfg.INQUEST_PROMETHEUS_URL) {
      const prom = await startPrometheusToolServer(
        {
          ...shared,
          INQUEST_TOOLSERVER_PROMETHEUS_HOST: '127.0.0.1',
          INQUEST_TOOLSERVER_PROMETHEUS_PORT: String(cfg.INQUEST_TOOLSERVER_PROMETHEUS_PORT),
        },
        { logger },
      );
      started.push(prom);
      prometheusToolServerUrl = prom.url;
    }
    const gateway = await startGateway(
      {
        ...shared,
        PORT: String(cfg.PORT),
        INQUEST_HTTP_HOST: cfg.INQUEST_HTTP_HOST,
        INQUEST_ADMIN_TOKEN: undefined,
        INQUEST_ADMIN_TOKEN_SHA256: admin.sha256,
      },
      deps,
    );
    started.push(gateway);

    let demoTeamToken: string | undefined;
    let prometheusRegistered = false;
    if (cfg.INQUEST_DEMO || prometheusToolServerUrl) {
      const config = createClient(configV1.ConfigServiceClient, addr(pConfig));
      try {
        if (cfg.INQUEST_DEMO)
          demoTeamToken = (await bootstrapDemo(config, { demoToolServerUrl, logger })).teamToken;
        if (prometheusToolServerUrl)
          prometheusRegistered = await registerToolServer(
            config,
            'demo-team',
            { name: 'prometheus', url: prometheusToolServerUrl },
            logger,
          );
      } finally {
        config.close();
      }
    }

    const url = `http://localhost:${gateway.port}`;
    out('');
    out(`Inquest is running on ${url}  (API ${url}/api/v1, reference ${url}/api/v1/docs)`);
    out(
      `Data: ${dataDir}   Egress allowed to ${egressAllow} (all-in-one default, for the demo tool server)`,
    );
    if (prometheusToolServerUrl) {
      out(
        `Prometheus tool server: ${prometheusToolServerUrl} (Prometheus ${cfg.INQUEST_PROMETHEUS_URL}` +
          `${cfg.INQUEST_ALERTMANAGER_URL ? `, Alertmanager ${cfg.INQUEST_ALERTMANAGER_URL}` : ''})` +
          (prometheusRegistered
            ? ', registered for demo-team as "prometheus"'
            : ', not registered (no demo-team)'),
      );
    }
    if (admin.generated) {
      out(`Admin token (shown once, only its hash is kept): ${admin.generated}`);
    }
    if (demoTeamToken) {
      out(`Demo team "demo-team" read-write token (shown once): ${demoTeamToken}`);
      out('Next step: run a first investigation against the demo tool server:');
      out(
        `  curl -s -X POST ${url}/api/v1/agents/run -H "Authorization: Bearer ${demoTeamToken}" ` +
          `-H 'Content-Type: application/json' ` +
          `-d '{"agent_name":"planner","message":"checkout is returning 500s","context":{"service":"checkout","namespace":"shop"}}'`,
      );
    } else {
      out(`Next step: curl -s ${url}/readyz`);
    }
    out('Press Ctrl-C to stop.');
    return { url, port: gateway.port, adminToken: admin.generated, demoTeamToken, stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

if (require.main === module) runMain('inquest', () => startAllInOne(process.env));
