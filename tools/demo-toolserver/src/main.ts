import { z } from 'zod';
import { envPort, parseEnv, runMain } from '@inquest/runtime';
import { startDemoToolServer } from './demo-tool-server';

export { startDemoToolServer } from './demo-tool-server';
export type { DemoToolServerOptions, RunningDemoToolServer } from './demo-tool-server';
export { SCENARIOS, DEFAULT_SCENARIO, buildEnvironment } from './environment';
export type { Scenario } from './environment';
export { TOOL_DEFINITIONS } from './tools';
export type { ToolDefinition } from './tools';

const EnvSchema = z.object({
  INQUEST_DEMO_TOOLSERVER_PORT: envPort(7070),
  INQUEST_DEMO_TOOLSERVER_HOST: z.string().default('127.0.0.1'),
  INQUEST_DEMO_SCENARIO: z.string().optional(),
  INQUEST_DEMO_TOOLSERVER_TOKEN: z.string().optional(),
});

if (require.main === module) {
  runMain('demo-toolserver', async () => {
    const env = parseEnv(EnvSchema, process.env);
    const running = await startDemoToolServer({
      port: env.INQUEST_DEMO_TOOLSERVER_PORT,
      host: env.INQUEST_DEMO_TOOLSERVER_HOST,
      ...(env.INQUEST_DEMO_SCENARIO ? { scenario: env.INQUEST_DEMO_SCENARIO } : {}),
      ...(env.INQUEST_DEMO_TOOLSERVER_TOKEN ? { token: env.INQUEST_DEMO_TOOLSERVER_TOKEN } : {}),
    });
    process.stdout.write(`demo-toolserver listening on ${running.url}\n`);
    return running;
  });
}
