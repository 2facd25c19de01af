import { conflict, type DomainError } from '@inquest/errors';
import { Subjects, type EventOf, type EventSubject } from '@inquest/events';
import { openSqliteConfigStores, type ConfigStores } from '@inquest/store';
import { changeRequestMessage } from '../grpc/config-messages';
import { ChangeRequests } from './change-requests';

let stores: ConfigStores;
let events: Array<{ subject: string; data: EventOf<EventSubject> }>;
let applied: Array<[string, unknown, string, string]>;
let applyFails: Error | undefined;
let requests: ChangeRequests;

beforeEach(() => {
  stores = openSqliteConfigStores(':memory:');
  events = [];
  applied = [];
  applyFails = undefined;
  requests = new ChangeRequests({
    store: stores.changeRequests,
    eventMessage: changeRequestMessage,
    publish: async (subject, data) => {
      events.push({ subject, data });
    },
    apply: async (teamId, patch, requestedBy, approvedBy) => {
      if (applyFails) throw applyFails;
      applied.push([teamId, patch, requestedBy, approvedBy]);
      return { version: 7 };
    },
  });
});

afterEach(() => stores.close());

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as DomainError,
  );
const open = (teamId = 'payments', approvers = ['Lead@Example.com']) =>
  requests.open({
    teamId,
    requestedBy: 'dev@example.com',
    approvers,
    changes: { 'feature_flags.x': { old: null, new: true } },
    patch: { feature_flags: { x: true } },
  });

describe('ChangeRequests', () => {
  it('holds a change as pending and announces it', async () => {
    const cr = await open();
    expect(cr).toMatchObject({
      team_id: 'payments',
      status: 'pending_approval',
      requested_by: 'dev@example.com',
      approvers: ['Lead@Example.com'],
    });
    expect(cr.change_request_id).toMatch(/^cr_[0-9a-f]{32}$/);
    expect(await stores.changeRequests.get(cr.change_request_id)).toMatchObject({
      patch: { feature_flags: { x: true } },
    });
    expect(events.map((e) => e.subject)).toEqual([Subjects.configChangeRequested]);
  });

  it('approves once: applies the patch as the requester, records the version, announces', async () => {
    const cr = await open();
    const done = await requests.approve(cr.change_request_id, 'lead@example.com', 'ok');
    expect(done).toMatchObject({
      status: 'approved',
      decided_by: 'lead@example.com',
      comment: 'ok',
      applied_version: 7,
    });
    expect(applied).toEqual([
      ['payments', { feature_flags: { x: true } }, 'dev@example.com', 'lead@example.com'],
    ]);
    expect(events.map((e) => e.subject)).toEqual([
      Subjects.configChangeRequested,
      Subjects.configChangeApproved,
    ]);
    expect((await failure(requests.approve(cr.change_request_id, 'x@example.com')))?.code).toBe(
      'conflict',
    );
    expect((await failure(requests.reject(cr.change_request_id, 'x@example.com')))?.code).toBe(
      'conflict',
    );
  });

  it('leaves the request pending when its patch no longer applies', async () => {
    const cr = await open();
    applyFails = conflict('the config moved on');
    expect((await failure(requests.approve(cr.change_request_id, '')))?.message).toBe(
      'the config moved on',
    );
    expect(await stores.changeRequests.get(cr.change_request_id)).toMatchObject({
      status: 'pending_approval',
    });
    expect((await stores.changeRequests.get(cr.change_request_id))?.decided_by).toBeUndefined();
    expect(events.map((e) => e.subject)).toEqual([Subjects.configChangeRequested]);
    applyFails = undefined;
    // the admin key decides as "admin"
    expect((await requests.approve(cr.change_request_id, '')).decided_by).toBe('admin');
  });

  it('rejects: nothing applied, announced', async () => {
    const cr = await open();
    const done = await requests.reject(cr.change_request_id, 'lead@example.com', 'no');
    expect(done).toMatchObject({
      status: 'rejected',
      decided_by: 'lead@example.com',
      comment: 'no',
    });
    expect(applied).toEqual([]);
    expect(events.map((e) => e.subject)).toContain(Subjects.configChangeRejected);
  });

  it('lets a listed approver of the team decide, not the requester, another approver or team', async () => {
    // the requester is listed too: still not theirs to decide
    const cr = await open('payments', ['Lead@Example.com', 'dev@example.com']);
    const id = cr.change_request_id;
    const as = { teamId: 'payments', asListedApprover: true };
    expect((await failure(requests.approve(id, 'DEV@example.com', undefined, as)))?.message).toBe(
      'the requester of a change cannot approve or reject it',
    );
    expect((await failure(requests.approve(id, 'other@example.com', undefined, as)))?.code).toBe(
      'forbidden',
    );
    expect(
      (await failure(requests.reject(id, 'lead@example.com', undefined, { teamId: 'search' })))
        ?.code,
    ).toBe('not_found');
    // listed approvers match without regard to case
    expect((await requests.approve(id, 'LEAD@example.com', undefined, as)).status).toBe('approved');
    expect((await failure(requests.approve('cr_missing', 'a@example.com')))?.code).toBe(
      'not_found',
    );
  });

  it('lists by status and team, and refuses an unknown status', async () => {
    const a = await open('payments');
    await open('search');
    await requests.reject(a.change_request_id, 'lead@example.com');
    expect((await requests.list({ status: 'pending_approval' })).map((c) => c.team_id)).toEqual([
      'search',
    ]);
    expect((await requests.list({ team_id: 'payments' })).map((c) => c.status)).toEqual([
      'rejected',
    ]);
    expect((await requests.list({})).length).toBe(2);
    expect((await failure(requests.list({ status: 'done' })))?.code).toBe('invalid_request');
  });
});
