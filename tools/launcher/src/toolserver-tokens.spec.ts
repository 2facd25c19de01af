import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StartupError } from '@inquest/runtime';
import { tempDir } from '@inquest/testing';
import {
  putFileSecret,
  TOOLSERVER_TOKENS_FILE,
  toolServerToken,
  toolServerTokenRef,
} from './toolserver-tokens';

describe('launcher tool server tokens', () => {
  it('generates a token per server once, kept owner-only in the data dir', () => {
    const dir = tempDir();
    const k8s = toolServerToken(dir, 'kubernetes');
    const prom = toolServerToken(dir, 'prometheus');
    expect(k8s).toMatch(/^ts\.[A-Za-z0-9_-]{43}$/);
    expect(prom).not.toBe(k8s);
    expect(toolServerToken(dir, 'kubernetes')).toBe(k8s);
    const file = join(dir, TOOLSERVER_TOKENS_FILE);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ kubernetes: k8s, prometheus: prom });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('names a path under demo-team', () => {
    expect(toolServerTokenRef('kubernetes')).toBe('vault://inquest/demo-team/k8s-toolserver');
    expect(toolServerTokenRef('prometheus')).toBe(
      'vault://inquest/demo-team/prometheus-toolserver',
    );
  });

  it("puts a secret in the secrets file, keeping the operator's other entries", () => {
    const file = join(tempDir(), 'secrets.json');
    putFileSecret(file, 'inquest/demo-team/k8s-toolserver', 'one');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    writeFileSync(
      file,
      JSON.stringify({
        'inquest/acme/slack': { bot_token: 'x' },
        'inquest/demo-team/k8s-toolserver': 'old',
      }),
    );
    putFileSecret(file, 'inquest/demo-team/k8s-toolserver', 'two');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      'inquest/acme/slack': { bot_token: 'x' },
      'inquest/demo-team/k8s-toolserver': 'two',
    });
  });

  it('stops the start with one line on a file that is not a JSON object', () => {
    const dir = tempDir();
    writeFileSync(join(dir, TOOLSERVER_TOKENS_FILE), '[1]');
    expect(() => toolServerToken(dir, 'kubernetes')).toThrow(StartupError);
    const secrets = join(dir, 'secrets.json');
    writeFileSync(secrets, '{oops');
    expect(() => putFileSecret(secrets, 'inquest/demo-team/x', 'v')).toThrow(
      `secrets file ${secrets} is not valid JSON: fix or remove it`,
    );
  });
});
