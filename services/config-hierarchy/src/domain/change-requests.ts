import { randomUUID } from 'node:crypto';
import type { JsonObject } from '@inquest/config-model';
import { conflict, forbidden, invalidRequest, notFound } from '@inquest/errors';
import { Subjects, eventEnvelope, type ChangeRequestEvent } from '@inquest/events';
import type { ChangeRequestRecord, ChangeRequestStatus, ChangeRequestStore } from '@inquest/store';
import type { PublishEvent } from './publish-event';

/** Who decided when no identity was given (the admin key). */
export const ADMIN_IDENTITY = 'admin';

/** Who may decide a change request: any (admin), or a listed approver of one team. */
export interface DecisionScope {
  /** only a change request of this team */
  teamId?: string;
  /** the decider must be in the request's approvers and not its requester */
  asListedApprover?: boolean;
}

export interface ChangeRequestsDeps {
  store: ChangeRequestStore;
  publish: PublishEvent;
  /**
   * The event's form of a record (the gRPC edge's encoder: the proto message, with its enums and
   * the deprecated strings both set).
   */
  eventMessage: ChangeRequestMessage;
  /**
   * Applies an approved request's patch to its team's own config (validated again against the
   * config as it is now); throws when it no longer applies.
   */
  apply(
    teamId: string,
    patch: JsonObject,
    requestedBy: string,
    approvedBy: string,
  ): Promise<{ version: number }>;
}

/** Encodes a change request for the events. */
export type ChangeRequestMessage = (
  cr: ChangeRequestRecord,
) => NonNullable<ChangeRequestEvent['change_request']>;

const STATUSES: ChangeRequestStatus[] = ['pending_approval', 'approved', 'rejected'];

/**
 * Change requests: a team's update held for approval, then approved (and applied) or rejected,
 * exactly once even when two deciders race. Each step is announced.
 */
export class ChangeRequests {
  constructor(private readonly deps: ChangeRequestsDeps) {}

  /** Holds a team's checked patch for approval by `approvers`. */
  async open(input: {
    teamId: string;
    requestedBy: string;
    approvers: string[];
    /** the fields as the team sees them change (old: the inherited or own value) */
    changes: ChangeRequestRecord['changes'];
    patch: JsonObject;
  }): Promise<ChangeRequestRecord> {
    const cr: ChangeRequestRecord = {
      change_request_id: `cr_${randomUUID().replace(/-/g, '')}`,
      team_id: input.teamId,
      status: 'pending_approval',
      requested_by: input.requestedBy,
      requested_at: new Date().toISOString(),
      approvers: input.approvers,
      changes: input.changes,
      patch: input.patch,
    };
    await this.deps.store.create(cr);
    await this.deps.publish(Subjects.configChangeRequested, {
      ...eventEnvelope(input.teamId),
      change_request: this.deps.eventMessage(cr),
    });
    return cr;
  }

  async list(filter: { status?: string; team_id?: string }): Promise<ChangeRequestRecord[]> {
    const status = filter.status || undefined;
    if (status && !(STATUSES as string[]).includes(status)) {
      throw invalidRequest('status must be one of pending_approval, approved, rejected');
    }
    return this.deps.store.list({
      ...(status ? { status: status as ChangeRequestStatus } : {}),
      ...(filter.team_id ? { team_id: filter.team_id } : {}),
    });
  }

  /**
   * Claims the request, applies its patch and records the version it made. When the patch no
   * longer applies the request goes back to pending and the error is thrown.
   */
  async approve(
    id: string,
    approver: string,
    comment?: string,
    as?: DecisionScope,
  ): Promise<ChangeRequestRecord> {
    await this.requirePending(id, approver, as);
    const decidedBy = approver || ADMIN_IDENTITY;
    const claimed = await this.deps.store.transition(
      id,
      'pending_approval',
      decision('approved', decidedBy, comment),
    );
    if (!claimed) throw conflict(`change request ${id} was already decided`);
    let applied: { version: number };
    try {
      applied = await this.deps.apply(
        claimed.team_id,
        claimed.patch,
        claimed.requested_by,
        decidedBy,
      );
    } catch (err) {
      // The change no longer applies (the config moved on): the request stays pending.
      await this.deps.store.transition(id, 'approved', {
        status: 'pending_approval',
        decided_by: undefined,
        decided_at: undefined,
        comment: undefined,
      });
      throw err;
    }
    const done = (await this.deps.store.transition(id, 'approved', {
      applied_version: applied.version,
    })) ?? { ...claimed, applied_version: applied.version };
    await this.deps.publish(Subjects.configChangeApproved, {
      ...eventEnvelope(done.team_id),
      change_request: this.deps.eventMessage(done),
    });
    return done;
  }

  async reject(
    id: string,
    approver: string,
    comment?: string,
    as?: DecisionScope,
  ): Promise<ChangeRequestRecord> {
    await this.requirePending(id, approver, as);
    const done = await this.deps.store.transition(
      id,
      'pending_approval',
      decision('rejected', approver || ADMIN_IDENTITY, comment),
    );
    if (!done) throw conflict(`change request ${id} was already decided`);
    await this.deps.publish(Subjects.configChangeRejected, {
      ...eventEnvelope(done.team_id),
      change_request: this.deps.eventMessage(done),
    });
    return done;
  }

  /**
   * The pending change request, decidable by `decider` within `as`: of that team (another team's
   * is not found), and for a listed approver, one they are listed on and did not request.
   */
  private async requirePending(
    id: string,
    decider?: string,
    as?: DecisionScope,
  ): Promise<ChangeRequestRecord> {
    const cr = await this.deps.store.get(id);
    if (!cr || (as?.teamId && cr.team_id !== as.teamId))
      throw notFound(`change request ${id} not found`);
    if (as?.asListedApprover) {
      const who = (decider ?? '').toLowerCase();
      if (who === cr.requested_by.toLowerCase())
        throw forbidden('the requester of a change cannot approve or reject it');
      if (!cr.approvers.some((a) => a.toLowerCase() === who))
        throw forbidden(`${decider || 'this caller'} is not an approver of this change request`);
    }
    if (cr.status !== 'pending_approval')
      throw conflict(`change request ${id} is already ${cr.status}`);
    return cr;
  }
}

/** What a decision writes: who decided, when, and their comment if any. */
function decision(status: 'approved' | 'rejected', decidedBy: string, comment?: string) {
  return {
    status,
    decided_by: decidedBy,
    decided_at: new Date().toISOString(),
    ...(comment ? { comment } : {}),
  };
}
