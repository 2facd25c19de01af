/**
 * All-in-one launcher (`npm start`): the six services in one process, each on its own loopback
 * gRPC port (the same gRPC code path as production), sharing an in-process event bus, with
 * embedded storage in INQUEST_DATA_DIR. Prints the URL and a first step; Ctrl-C stops cleanly.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InProcessEventBus } from '@inquest/events';
import { createClient } from '@inquest/grpc-kit';
import { createLogger } from '@inquest/observability';
import { configV1 } from '@inquest/proto';
import { ensurePrivateDir } from '@inquest/store';
import { listenOrExplain, parseEnv, runMain, StartupError, type Stoppable } from '@inquest/runtime';
import { start as startConfig } from '@inquest/config-hierarchy-service';
import { start as startGateway } from '@inquest/gateway-service';
import { start as startInvestigations } from '@inquest/investigation-runner-service';
import { start as startKnowledge } from '@inquest/knowledge-raptor-service';
import { start as startNotifier } from '@inquest/notifier-service';
import { start as startTools } from '@inquest/toolserver-proxy-service';
import { start as startPrometheusToolServer } from '@inquest/toolserver-prometheus-service';
import { startKubernetesToolServer } from '@inquest/toolserver-kubernetes-service';
import { startDemoToolServer, type RunningDemoToolServer } from '@inquest/tool-demo-toolserver';
import { resolveAdminToken } from './admin-token';
import { bootstrapDemo, repointDemoToolServer } from './bootstrap-demo';
import { LauncherEnvSchema } from './config';
import { lockDataDir } from './data-dir-lock';
import { assertPortFree, freePorts } from './free-ports';
import { allInOneEgressAllow, egressBanner, launcherOwnPorts } from './egress-defaults';
import {
  registerToolServer,
  teamUsesToolServer,
  turnOffStaleToolServer,
} from './register-tool-server';
import {
  putFileSecret,
  TOOLSERVER_SECRET_PATHS,
  TOOLSERVER_TOKENS_FILE,
  toolServerToken,
  toolServerTokenRef,
  type LauncherToolServer,
} from './toolserver-tokens';

export interface AllInOne extends Stoppable {
  url: string;
  port: number;
  adminToken?: string;
  demoTeamToken?: string;
}

export interface StartOptions {
  /** `--reset-admin-token`: a new admin token, printed once; the previous one stops working */
  resetAdminToken?: boolean;
}

/** Remembers the demo tool server's port so its registered URL stays put across restarts. */
const DEMO_PORT_FILE = 'demo-toolserver.port';

/**
 * The demo tool server on INQUEST_DEMO_TOOLSERVER_PORT when set (a conflict is one line naming
 * it), else on the port it had last time in this data dir, else on any free port.
 */
async function startDemo(
  dataDir: string,
  port: number | undefined,
): Promise<RunningDemoToolServer> {
  const host = '127.0.0.1';
  if (port !== undefined)
    return listenOrExplain('INQUEST_DEMO_TOOLSERVER_PORT', port, () =>
      startDemoToolServer({ host, port }),
    );
  const file = join(dataDir, DEMO_PORT_FILE);
  let remembered: number | undefined;
  try {
    remembered = Number(readFileSync(file, 'utf8').trim()) || undefined;
  } catch {
    // first start
  }
  const demo = await startDemoToolServer({ host, port: remembered }).catch((err: unknown) => {
    if (remembered === undefined || (err as { code?: unknown }).code !== 'EADDRINUSE') throw err;
    return startDemoToolServer({ host, port: 0 });
  });
  writeFileSync(file, `${new URL(demo.url).port}\n`, { mode: 0o600 });
  return demo;
}

/** Starts everything; `out` receives the human-readable banner. */
export async function startAllInOne(
  env: Record<string, string | undefined>,
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
  options: StartOptions = {},
): Promise<AllInOne> {
  const cfg = parseEnv(LauncherEnvSchema, env);
  const dataDir = resolve(cfg.INQUEST_DATA_DIR);
  // owner-only: configs, audit, investigations, the admin token hash and secrets live here
  ensurePrivateDir(dataDir, { tighten: true });
  const logger = createLogger({ name: 'inquest', level: cfg.INQUEST_LOG_LEVEL });
  // Ports named by the user are checked before anything starts: a conflict stops us at once.
  await assertPortFree('PORT', cfg.INQUEST_HTTP_HOST, cfg.PORT);
  if (cfg.INQUEST_DEMO && cfg.INQUEST_DEMO_TOOLSERVER_PORT)
    await assertPortFree(
      'INQUEST_DEMO_TOOLSERVER_PORT',
      '127.0.0.1',
      cfg.INQUEST_DEMO_TOOLSERVER_PORT,
    );
  if (cfg.INQUEST_PROMETHEUS_URL)
    await assertPortFree(
      'INQUEST_TOOLSERVER_PROMETHEUS_PORT',
      '127.0.0.1',
      cfg.INQUEST_TOOLSERVER_PROMETHEUS_PORT,
    );
  // INQUEST_KUBECONFIG asks for the Kubernetes tool server; a KUBECONFIG in the shell offers it
  const kubeconfig = cfg.INQUEST_KUBECONFIG ?? cfg.KUBECONFIG?.split(':')[0];
  if (kubeconfig)
    await assertPortFree(
      'INQUEST_K8S_TOOLSERVER_PORT',
      '127.0.0.1',
      cfg.INQUEST_K8S_TOOLSERVER_PORT,
    );
  const lock = lockDataDir(dataDir);
  let admin;
  try {
    admin = resolveAdminToken(dataDir, {
      token: cfg.INQUEST_ADMIN_TOKEN,
      sha256: cfg.INQUEST_ADMIN_TOKEN_SHA256,
      reset: options.resetAdminToken,
    });
  } catch (err) {
    lock.release();
    throw err;
  }
  // PORT=0 takes a free port now rather than at the bind, and INQUEST_METRICS_PORT=0 gives each
  // gRPC service its own: the egress rules name every port of this process before it starts
  const [pConfig, pInv, pKb, pTools, pNotifier, pSpare, ...spareMetrics] = await freePorts(
    cfg.INQUEST_METRICS_PORT === 0 ? 11 : 6,
  );
  const gatewayPort = cfg.PORT || pSpare!;
  const metricsPorts = cfg.INQUEST_METRICS_PORT === 0 ? spareMetrics : undefined;
  const metricsOf = (i: number): Record<string, string> =>
    metricsPorts ? { INQUEST_METRICS_PORT: String(metricsPorts[i]) } : {};
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
  };
  // The Kubernetes and Prometheus tool servers require a bearer token (kept in the data dir), put
  // in the embedded vault under demo-team's prefix: the egress allow list opens their ports to
  // every team's URLs, and only demo-team's config can name that secret.
  const vaultBacked = Boolean(env['INQUEST_VAULT_ADDR']);
  const secretsFile = resolve(env['INQUEST_SECRETS_FILE'] ?? join(dataDir, 'secrets.json'));
  const tokenFor = (server: LauncherToolServer): string => {
    const token = toolServerToken(dataDir, server);
    // Vault is the operator's to write: the banner says where the token goes
    if (!vaultBacked) putFileSecret(secretsFile, TOOLSERVER_SECRET_PATHS[server], token);
    return token;
  };
  const bus = new InProcessEventBus();
  const deps = { bus };
  const started: Stoppable[] = [];
  const stopAll = async () => {
    for (const s of started.reverse()) {
      await s.stop().catch((err: unknown) => logger.error({ err }, 'error while stopping'));
    }
    await bus.close();
    lock.release();
  };
  try {
    let demoToolServerUrl: string | undefined;
    if (cfg.INQUEST_DEMO) {
      const demo = await startDemo(dataDir, cfg.INQUEST_DEMO_TOOLSERVER_PORT);
      started.push(demo);
      demoToolServerUrl = demo.url;
    }
    let prometheusToolServerUrl: string | undefined;
    if (cfg.INQUEST_PROMETHEUS_URL) {
      tokenFor('prometheus');
      const prom = await listenOrExplain(
        'INQUEST_TOOLSERVER_PROMETHEUS_PORT',
        cfg.INQUEST_TOOLSERVER_PROMETHEUS_PORT,
        () =>
          startPrometheusToolServer(
            {
              ...shared,
              INQUEST_TOOLSERVER_PROMETHEUS_HOST: '127.0.0.1',
              INQUEST_TOOLSERVER_PROMETHEUS_PORT: String(cfg.INQUEST_TOOLSERVER_PROMETHEUS_PORT),
              // resolved by the tool server through the same secret store as the proxy
              INQUEST_TOOLSERVER_PROMETHEUS_TOKEN: toolServerTokenRef('prometheus'),
            },
            { logger },
          ),
      );
      started.push(prom);
      prometheusToolServerUrl = prom.url;
    }
    let kubernetesToolServerUrl: string | undefined;
    let kubernetesSkipped: string | undefined;
    if (kubeconfig) {
      try {
        const token = tokenFor('kubernetes');
        const k8s = await listenOrExplain(
          'INQUEST_K8S_TOOLSERVER_PORT',
          cfg.INQUEST_K8S_TOOLSERVER_PORT,
          () =>
            startKubernetesToolServer({
              kubeconfig,
              ...(cfg.INQUEST_KUBE_CONTEXT ? { context: cfg.INQUEST_KUBE_CONTEXT } : {}),
              host: '127.0.0.1',
              port: cfg.INQUEST_K8S_TOOLSERVER_PORT,
              namespaces: cfg.INQUEST_KUBE_NAMESPACES.split(',')
                .map((n) => n.trim())
                .filter(Boolean),
              secrets: cfg.INQUEST_KUBE_SECRETS,
              configMapValues: cfg.INQUEST_KUBE_CONFIGMAP_VALUES,
              token,
              logger,
            }),
        );
        started.push(k8s);
        kubernetesToolServerUrl = k8s.url;
      } catch (err) {
        // asked for explicitly: fail; merely present in the shell (KUBECONFIG): say why and go on
        if (cfg.INQUEST_KUBECONFIG || err instanceof StartupError) throw err;
        kubernetesSkipped = err instanceof Error ? err.message : String(err);
      }
    }
    // Loopback is where the demo tool server and a team's local receivers live (allowed, as the
    // contract says), and also Inquest's own listeners: those ports are refused, so a team's
    // webhook or tool-server URL cannot reach the gateway, a gRPC port or a metrics endpoint.
    const ownPorts = launcherOwnPorts({
      gateway: gatewayPort,
      grpc: {
        'config-hierarchy': pConfig!,
        'toolserver-proxy': pTools!,
        'knowledge-raptor': pKb!,
        'investigation-runner': pInv!,
        notifier: pNotifier!,
      },
      metrics: metricsPorts ?? (cfg.INQUEST_METRICS_PORT ? [cfg.INQUEST_METRICS_PORT] : []),
    });
    const egressAllow = allInOneEgressAllow(ownPorts, cfg.INQUEST_EGRESS_ALLOW);
    const services = { ...shared, INQUEST_EGRESS_ALLOW: egressAllow };
    started.push(
      await startConfig({ ...services, INQUEST_GRPC_PORT: String(pConfig), ...metricsOf(0) }, deps),
    );
    started.push(
      await startTools({ ...services, INQUEST_GRPC_PORT: String(pTools), ...metricsOf(1) }, deps),
    );
    started.push(
      await startKnowledge({ ...services, INQUEST_GRPC_PORT: String(pKb), ...metricsOf(2) }, deps),
    );
    started.push(
      await startInvestigations(
        { ...services, INQUEST_GRPC_PORT: String(pInv), ...metricsOf(3) },
        deps,
      ),
    );
    started.push(
      await startNotifier(
        { ...services, INQUEST_GRPC_PORT: String(pNotifier), ...metricsOf(4) },
        deps,
      ),
    );

    const gateway = await listenOrExplain('PORT', gatewayPort, () =>
      startGateway(
        {
          ...services,
          PORT: String(gatewayPort),
          INQUEST_HTTP_HOST: cfg.INQUEST_HTTP_HOST,
          INQUEST_ADMIN_TOKEN: undefined,
          INQUEST_ADMIN_TOKEN_SHA256: admin.sha256,
        },
        deps,
      ),
    );
    started.push(gateway);

    let demoTeamToken: string | undefined;
    let prometheusRegistered = false;
    let kubernetesRegistered = false;
    let demoAlongside = false;
    const turnedOff: string[] = [];
    if (cfg.INQUEST_DEMO || prometheusToolServerUrl || kubernetesToolServerUrl) {
      const config = createClient(configV1.ConfigServiceClient, addr(pConfig));
      try {
        if (cfg.INQUEST_DEMO)
          demoTeamToken = (await bootstrapDemo(config, { demoToolServerUrl, logger })).teamToken;
        // a hierarchy bootstrapped earlier still points at the port the demo had then
        if (cfg.INQUEST_DEMO && demoToolServerUrl && !demoTeamToken)
          await repointDemoToolServer(config, demoToolServerUrl, logger);
        if (prometheusToolServerUrl)
          prometheusRegistered = await registerToolServer(
            config,
            'demo-team',
            {
              name: 'prometheus',
              url: prometheusToolServerUrl,
              auth: { type: 'bearer', token: toolServerTokenRef('prometheus') },
            },
            logger,
          );
        if (kubernetesToolServerUrl)
          kubernetesRegistered = await registerToolServer(
            config,
            'demo-team',
            {
              name: 'kubernetes',
              url: kubernetesToolServerUrl,
              auth: { type: 'bearer', token: toolServerTokenRef('kubernetes') },
            },
            logger,
          );
        // an earlier start's Prometheus or Kubernetes tool server that this one does not run
        if (cfg.INQUEST_DEMO)
          for (const [name, running] of [
            ['prometheus', prometheusToolServerUrl],
            ['kubernetes', kubernetesToolServerUrl],
          ] as const)
            if (
              !running &&
              (await turnOffStaleToolServer(
                config,
                'demo-team',
                name,
                toolServerTokenRef(name),
                logger,
              ))
            )
              turnedOff.push(name);
        // investigations of demo-team then read the synthetic shop as well as the user's systems
        if (prometheusRegistered || kubernetesRegistered)
          demoAlongside = await teamUsesToolServer(config, 'demo-team', 'demo');
      } finally {
        config.close();
      }
    }

    // without the demo, a hierarchy with no node yet: the banner says how to make the first team
    let noNodes = false;
    if (!cfg.INQUEST_DEMO) {
      const config = createClient(configV1.ConfigServiceClient, addr(pConfig));
      try {
        noNodes = !(await config.listNodes({}, { ctx: LAUNCHER_CTX })).nodes.length;
      } finally {
        config.close();
      }
    }

    // Only a start that got this far keeps a new admin token's hash: one that died earlier
    // (a port in use) leaves nothing behind, so the next start shows a token again.
    admin.persist();
    const url = `http://localhost:${gateway.port}`;
    out('');
    out(`Inquest is running on ${url}  (API ${url}/api/v1, reference ${url}/api/v1/docs)`);
    out(`Data: ${dataDir}`);
    out(egressBanner(ownPorts, cfg.INQUEST_EGRESS_ALLOW));
    if (prometheusToolServerUrl) {
      out(
        `Prometheus tool server: ${prometheusToolServerUrl} (Prometheus ${cfg.INQUEST_PROMETHEUS_URL}` +
          `${cfg.INQUEST_ALERTMANAGER_URL ? `, Alertmanager ${cfg.INQUEST_ALERTMANAGER_URL}` : ''})` +
          (prometheusRegistered
            ? ', registered for demo-team as "prometheus"'
            : ', not registered (no demo-team)'),
      );
    }
    if (kubernetesToolServerUrl) {
      out(
        `Kubernetes tool server: ${kubernetesToolServerUrl} (kubeconfig ${kubeconfig}` +
          `${cfg.INQUEST_KUBE_CONTEXT ? `, context ${cfg.INQUEST_KUBE_CONTEXT}` : ''}; read-only)` +
          (kubernetesRegistered
            ? ', registered for demo-team as "kubernetes"'
            : ', not registered (no demo-team)'),
      );
    } else if (kubernetesSkipped) {
      out(`Kubernetes tool server not started (KUBECONFIG ${kubeconfig}): ${kubernetesSkipped}`);
    }
    for (const name of turnedOff)
      out(
        `demo-team's "${name}" tool server is turned off: this start does not run it ` +
          `(start with ${name === 'kubernetes' ? 'INQUEST_KUBECONFIG' : 'INQUEST_PROMETHEUS_URL'} again to turn it back on)`,
      );
    if (demoAlongside)
      out(
        'demo-team also reads the demo tool server (a synthetic shop), so its answers may mix it ' +
          'with your systems: remove "demo" from its mcp_servers (`inquest config edit`, or ' +
          'Configuration > Edit in the console) to investigate only yours',
      );
    if (vaultBacked && (prometheusToolServerUrl || kubernetesToolServerUrl)) {
      const servers = (['prometheus', 'kubernetes'] as const).filter((s) =>
        s === 'prometheus' ? prometheusToolServerUrl : kubernetesToolServerUrl,
      );
      out(
        `Tool server tokens: with INQUEST_VAULT_ADDR set, store each token of ` +
          `${join(dataDir, TOOLSERVER_TOKENS_FILE)} in Vault at ` +
          servers.map((s) => `${TOOLSERVER_SECRET_PATHS[s]} (${s})`).join(', ') +
          " (until then demo-team's calls to them fail)",
      );
    }
    if (admin.generated) {
      out(
        `Admin token (shown once, only its hash is kept; \`npm start -- --reset-admin-token\` ` +
          `prints a new one): ${admin.generated}`,
      );
    }
    if (demoTeamToken) {
      out(`Demo team "demo-team" read-write token (shown once): ${demoTeamToken}`);
      out('Next step: run a first investigation against the demo tool server:');
      out(
        `  curl -s -X POST ${url}/api/v1/agents/run -H "Authorization: Bearer ${demoTeamToken}" ` +
          `-H 'Content-Type: application/json' ` +
          `-d '{"agent_name":"planner","message":"checkout is returning 500s","context":{"service":"checkout","namespace":"shop"}}'`,
      );
    } else if (noNodes) {
      const cli = `npx inquest --url ${url} --token ${admin.generated ?? '<admin token>'}`;
      out(
        'Next step: no organization yet (INQUEST_DEMO is off): create one, a team and a token for ' +
          "it, then add your tool servers to the team's mcp_servers (docs/configuration.md):",
      );
      out(`  ${cli} admin nodes create my-org --kind org --name "My org"`);
      out(`  ${cli} admin nodes create my-team --kind team --name "My team" --parent my-org`);
      out(`  ${cli} admin tokens create my-team --owner you@example.com --write`);
    } else {
      out(`Next step: curl -s ${url}/readyz`);
    }
    out(`Web console: ${url}/ (sign in with a token above)`);
    out('Press Ctrl-C to stop.');
    return { url, port: gateway.port, adminToken: admin.generated, demoTeamToken, stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** the launcher's own calls to config-hierarchy */
const LAUNCHER_CTX = { requestId: 'launcher-start', principal: 'admin' };

const USAGE = `usage: npm start [-- --reset-admin-token]

  --reset-admin-token  print a new admin token (the previous one stops working)

Environment: PORT, INQUEST_HTTP_HOST, INQUEST_DATA_DIR, INQUEST_DEMO, INQUEST_DEMO_TOOLSERVER_PORT,
INQUEST_ADMIN_TOKEN, INQUEST_LOG_LEVEL, ... (tools/launcher/README.md)`;

/** The launcher's command line: `--reset-admin-token`, `--help`. */
export function parseArgs(args: string[]): StartOptions & { help?: boolean } {
  const opts: StartOptions & { help?: boolean } = {};
  for (const a of args) {
    if (a === '--reset-admin-token') opts.resetAdminToken = true;
    else if (a === '--help' || a === '-h') opts.help = true;
    else throw new StartupError(`unknown argument ${JSON.stringify(a)} (see --help)`);
  }
  return opts;
}

if (require.main === module) {
  runMain('inquest', async () => {
    const opts = parseArgs(process.argv.slice(2));
    if (opts.help) {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    }
    return startAllInOne(process.env, undefined, opts);
  });
}
