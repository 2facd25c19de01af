#!/usr/bin/env node
// Standard gRPC health check (grpc.health.v1.Health/Check) for container HEALTHCHECKs.
// Usage: grpc-health-probe.js [host:port] [--service <name>] [--timeout <ms>]
// Without host:port it probes 127.0.0.1:$INQUEST_GRPC_PORT, or the default port of $SERVICE.
// Exit 0 when the server answers SERVING, 1 otherwise (one line on stderr says why).
'use strict';
const { credentials, Metadata, makeGenericClientConstructor } = require('@grpc/grpc-js');
const { service: healthService } = require('grpc-health-check');

const DEFAULT_PORTS = {
  'config-hierarchy': 50051,
  'investigation-runner': 50052,
  'knowledge-raptor': 50053,
  'toolserver-proxy': 50054,
  notifier: 50055,
};

function parseArgs(argv) {
  const out = { address: undefined, service: '', timeoutMs: 2000 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--service') out.service = argv[++i] ?? '';
    else if (a === '--timeout') out.timeoutMs = Number(argv[++i]);
    else if (a === '-h' || a === '--help') {
      process.stdout.write(
        'usage: grpc-health-probe.js [host:port] [--service <name>] [--timeout <ms>]\n',
      );
      process.exit(0);
    } else out.address = a;
  }
  if (!out.address) {
    const port = process.env.INQUEST_GRPC_PORT || DEFAULT_PORTS[process.env.SERVICE ?? ''];
    if (!port) fail('no address given and neither INQUEST_GRPC_PORT nor a known SERVICE is set');
    out.address = `127.0.0.1:${port}`;
  }
  if (!Number.isFinite(out.timeoutMs) || out.timeoutMs <= 0)
    fail('--timeout must be a positive number of ms');
  return out;
}

function fail(message) {
  process.stderr.write(`grpc-health-probe: ${message}\n`);
  process.exit(1);
}

const { address, service, timeoutMs } = parseArgs(process.argv.slice(2));
const HealthClient = makeGenericClientConstructor(healthService, 'grpc.health.v1.Health');
const client = new HealthClient(address, credentials.createInsecure());
client.check(
  { service },
  new Metadata(),
  { deadline: new Date(Date.now() + timeoutMs) },
  (err, res) => {
    client.close();
    if (err) fail(`${address}: ${err.details || err.message}`);
    const status = res && res.status;
    if (status === 'SERVING' || status === 1) process.exit(0);
    fail(`${address}${service ? ` (${service})` : ''}: ${status}`);
  },
);
