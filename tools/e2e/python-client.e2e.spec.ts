import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { startInquest, type RunningInquest } from './support/start-inquest';

const ROOT = resolve(__dirname, '../..');
const TRIGGERS = 3;

/** Runs the Python client's unittest suite (unit + end-to-end) against a running all-in-one service. */
describe('Python client (python3 -m unittest)', () => {
  let inquest: RunningInquest;

  beforeAll(async () => {
    inquest = await startInquest({
      INQUEST_RATE_LIMITS: `read=1000,write=200,trigger=${TRIGGERS}`,
    });
  }, 90_000);

  afterAll(async () => {
    await inquest?.stop();
  });

  it('passes every test, none skipped', async () => {
    const { code, output } = await new Promise<{ code: number | null; output: string }>(
      (done, fail) => {
        const child = spawn(
          'python3',
          ['-m', 'unittest', 'discover', '-v', '-s', 'clients/python/tests'],
          {
            cwd: ROOT,
            env: {
              PATH: process.env.PATH ?? '',
              HOME: process.env.HOME ?? '',
              INQUEST_URL: inquest.url,
              INQUEST_ADMIN_TOKEN: inquest.adminToken,
              INQUEST_E2E_TRIGGER_LIMIT: String(TRIGGERS),
            },
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        child.on('error', fail);
        child.on('close', (c) => done({ code: c, output: out }));
      },
    );
    if (code !== 0) throw new Error(`python3 -m unittest failed (exit ${code}):\n${output}`);
    expect(output).toMatch(/\nOK\s*$/);
    expect(output).not.toMatch(/skipped/);
    expect(output).toContain('test_rate_limit_429_then_retry_succeeds');
  }, 240_000);
});
