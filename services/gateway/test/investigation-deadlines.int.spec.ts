import { Server, ServerCredentials, type ServerUnaryCall, type sendUnaryData } from '@grpc/grpc-js';
import { investigationV1 } from '@inquest/proto';
import { createServiceClients } from '../src/grpc/service-clients';
import { agentsRoutes } from '../src/routes/agents.routes';
import { createTestGateway, type TestGateway } from './support/test-gateway';

// Issue 19 item 6: the long deadline of a sync run (as long as the agent may take) belongs to
// that call only. Get, list and cancel, and the async run, keep the client's short default: a
// runner that stops answering them must fail the request in seconds, not hold it for an hour.
// The deadlines are read where they arrive, in the runner's gRPC server, with the gateway's own
// clients (createServiceClients, as main.ts builds them) and routes.

const { InvestigationStatus: S, Agent: A } = investigationV1;

const investigation = (status: string, statusEnum: investigationV1.InvestigationStatus) => ({
  investigation_id: 'inv_1',
  team_id: 'team-a',
  status,
  status_enum: statusEnum,
  agent: 'k8s_agent',
  agent_enum: A.AGENT_K8S_AGENT,
  message: 'checkout restarts',
  tools_used: [],
  created_at: new Date().toISOString(),
  attempt: 1,
  ...(status === 'cancelled' ? { cancelled_at: new Date().toISOString() } : {}),
});

/** An InvestigationService that records, per method, how long the caller's deadline leaves. */
async function startRecordingRunner() {
  const seen: { method: string; async?: boolean; remainingMs: number }[] = [];
  const record = (method: string, call: ServerUnaryCall<unknown, unknown>, async?: boolean) => {
    const deadline = call.getDeadline();
    const at = deadline instanceof Date ? deadline.getTime() : deadline;
    seen.push({ method, async, remainingMs: at - Date.now() });
  };
  const server = new Server();
  server.addService(investigationV1.InvestigationServiceService, {
    runInvestigation: (
      call: ServerUnaryCall<investigationV1.RunInvestigationRequest, unknown>,
      cb: sendUnaryData<investigationV1.RunInvestigationResponse>,
    ) => {
      record('run', call, call.request.async);
      cb(null, {
        investigation: call.request.async
          ? investigation('pending', S.INVESTIGATION_STATUS_PENDING)
          : investigation('completed', S.INVESTIGATION_STATUS_COMPLETED),
      });
    },
    getInvestigation: (
      call: ServerUnaryCall<unknown, unknown>,
      cb: sendUnaryData<investigationV1.GetInvestigationResponse>,
    ) => {
      record('get', call);
      cb(null, { investigation: investigation('running', S.INVESTIGATION_STATUS_RUNNING) });
    },
    listInvestigations: (
      call: ServerUnaryCall<unknown, unknown>,
      cb: sendUnaryData<investigationV1.ListInvestigationsResponse>,
    ) => {
      record('list', call);
      cb(null, { investigations: [], total: 0, limit: 20, offset: 0 });
    },
    cancelInvestigation: (
      call: ServerUnaryCall<unknown, unknown>,
      cb: sendUnaryData<investigationV1.CancelInvestigationResponse>,
    ) => {
      record('cancel', call);
      cb(null, { investigation: investigation('cancelled', S.INVESTIGATION_STATUS_CANCELLED) });
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  return {
    address: `127.0.0.1:${port}`,
    seen,
    stop: () => new Promise<void>((r) => server.tryShutdown(() => r())),
  };
}

describe('deadlines of the gateway investigation calls', () => {
  let runner: Awaited<ReturnType<typeof startRecordingRunner>>;
  let gw: TestGateway;
  let token: string;

  beforeAll(async () => {
    runner = await startRecordingRunner();
    gw = await createTestGateway({
      routes: agentsRoutes,
      addresses: { investigation: runner.address },
      clients: (a) => createServiceClients(a),
      rateLimited: false,
    });
    gw.config!.effective.set('team-a', {});
    token = gw.config!.issue('team-a', ['read']).token;
  });
  afterAll(async () => {
    await gw.stop();
    await runner.stop();
  });
  beforeEach(() => runner.seen.splice(0));

  const body = (async: boolean) => ({ agent_name: 'k8s_agent', message: 'checkout', async });
  const only = (method: string) => {
    expect(runner.seen.map((s) => s.method)).toEqual([method]);
    return runner.seen[0]!.remainingMs;
  };
  /** the client's default deadline, 10 s, with room for the time the call took to arrive */
  const SHORT = 10_000;
  const TEN_MINUTES = 600_000;

  it('gives a sync run a deadline longer than any agent timeout', async () => {
    const res = await gw.request('POST', '/api/v1/agents/run', { token, body: body(false) });
    expect(res.status).toBe(200);
    expect(only('run')).toBeGreaterThan(TEN_MINUTES);
  });

  it('keeps the short default for an async run', async () => {
    const res = await gw.request('POST', '/api/v1/agents/run', { token, body: body(true) });
    expect(res.status).toBe(202);
    const remaining = only('run');
    expect(remaining).toBeLessThanOrEqual(SHORT);
    expect(remaining).toBeGreaterThan(0);
  });

  it.each([
    ['get', 'GET', '/api/v1/agents/status/inv_1'],
    ['list', 'GET', '/api/v1/agents/investigations'],
    ['cancel', 'POST', '/api/v1/agents/status/inv_1/cancel'],
  ])('keeps the short default for %s', async (method, verb, path) => {
    const res = await gw.request(verb, path, { token });
    expect(res.status).toBe(200);
    const remaining = only(method);
    expect(remaining).toBeLessThanOrEqual(SHORT);
    expect(remaining).toBeGreaterThan(0);
  });
});
