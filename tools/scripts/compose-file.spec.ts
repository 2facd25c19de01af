import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

/** deploy/compose.yaml parsed (not run: no container runtime here) and checked for consistency. */
const ROOT = resolve(__dirname, '../..');
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
// merge keys (`<<: *common-env`) resolved as compose resolves them
const compose = parse(readFileSync(join(ROOT, 'deploy/compose.yaml'), 'utf8'), {
  merge: true,
}) as Obj;
const services = compose.services as Record<string, Obj>;

describe('deploy/compose.yaml', () => {
  it('builds every Inquest image from a project the Dockerfile knows', () => {
    for (const [name, svc] of Object.entries(services)) {
      if (!svc.build) continue;
      const project = svc.build.args.SERVICE as string;
      expect([
        name,
        existsSync(join(ROOT, 'services', project)) || existsSync(join(ROOT, 'tools', project)),
      ]).toEqual([name, true]);
    }
  });

  it('depends only on services it defines', () => {
    for (const [name, svc] of Object.entries(services))
      for (const dep of Object.keys(svc.depends_on ?? {}))
        expect([name, dep, dep in services]).toEqual([name, dep, true]);
  });

  it('runs the demo tool server where the toolserver-proxy may reach it', () => {
    const demo = services['demo-toolserver']!;
    expect(demo.profiles).toBeUndefined(); // on by default: a fresh install has something to investigate
    expect(demo.environment).toMatchObject({
      INQUEST_DEMO_TOOLSERVER_HOST: '0.0.0.0',
      INQUEST_DEMO_TOOLSERVER_PORT: '7070',
    });
    expect(demo.healthcheck.test.join(' ')).toContain('127.0.0.1:7070/tools');
    const allow = String(services['toolserver-proxy']!.environment.INQUEST_EGRESS_ALLOW);
    expect(allow.split(',')).toContain('demo-toolserver');
  });

  it('sets no variable the services no longer read', () => {
    for (const [name, svc] of Object.entries(services))
      expect([name, Object.keys(svc.environment ?? {}).includes('INQUEST_PUBLIC_URL')]).toEqual([
        name,
        false,
      ]);
  });
});
