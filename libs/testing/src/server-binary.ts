import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** A server binary the tests spawn: its name on PATH and the env variable that overrides it. */
export interface ServerBinary {
  /** executable name, for example `prometheus-alertmanager` */
  name: string;
  /** env variable naming the binary explicitly, for example `INQUEST_ALERTMANAGER_BIN` */
  env: string;
  /** Debian package that ships it (for the "install it" message) */
  debianPackage: string;
}

export const PROMETHEUS: ServerBinary = {
  name: 'prometheus',
  env: 'INQUEST_PROMETHEUS_BIN',
  debianPackage: 'prometheus',
};
export const PROMTOOL: ServerBinary = {
  name: 'promtool',
  env: 'INQUEST_PROMTOOL_BIN',
  debianPackage: 'prometheus',
};
export const ALERTMANAGER: ServerBinary = {
  name: 'prometheus-alertmanager',
  env: 'INQUEST_ALERTMANAGER_BIN',
  debianPackage: 'prometheus-alertmanager',
};
export const NODE_EXPORTER: ServerBinary = {
  name: 'prometheus-node-exporter',
  env: 'INQUEST_NODE_EXPORTER_BIN',
  debianPackage: 'prometheus-node-exporter',
};

const DIRS = ['/usr/sbin', '/usr/bin', '/usr/local/bin'];

/** The binary: its env override, then PATH, then the Debian locations; undefined when absent. */
export function findServerBinary(bin: ServerBinary): string | undefined {
  const fromEnv = process.env[bin.env];
  if (fromEnv) return fromEnv;
  const which = spawnSync('sh', ['-c', `command -v ${bin.name}`], { encoding: 'utf8' });
  const found = which.status === 0 ? which.stdout.trim() : '';
  if (found) return found;
  return DIRS.map((d) => `${d}/${bin.name}`).find((p) => existsSync(p));
}

/** Like findServerBinary, but throws one line saying what to install. */
export function requireServerBinary(bin: ServerBinary): string {
  const found = findServerBinary(bin);
  if (found) return found;
  throw new Error(
    `${bin.name} not found: install it (apt-get install -y ${bin.debianPackage}, or run npm test as root to let it do so) or set ${bin.env}`,
  );
}
