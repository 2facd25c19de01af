import { configV1 } from '@inquest/proto';
import {
  auditLevelOf,
  changeRequestFilterFields,
  changeRequestStatusOf,
  nodeKindFields,
  nodeLevelOf,
  requiredNodeLevel,
} from './config-messages';

const { NodeLevel: L, ChangeRequestStatus: S } = configV1;

describe('config messages', () => {
  it('reads levels and statuses from the enums first', () => {
    expect(nodeLevelOf({ kind: 'org', kind_enum: L.NODE_LEVEL_TEAM })).toBe('team');
    expect(auditLevelOf({ level: 'team', level_enum: L.NODE_LEVEL_GROUP })).toBe('group');
    expect(
      changeRequestStatusOf({
        status: 'pending_approval',
        status_enum: S.CHANGE_REQUEST_STATUS_APPROVED,
      }),
    ).toBe('approved');
  });

  it('falls back to the strings of a config-hierarchy built before the enums', () => {
    expect(nodeLevelOf({ kind: 'group', kind_enum: L.NODE_LEVEL_UNSPECIFIED })).toBe('group');
    expect(auditLevelOf({ level: 'org', level_enum: L.NODE_LEVEL_UNSPECIFIED })).toBe('org');
    expect(
      changeRequestStatusOf({
        status: 'rejected',
        status_enum: S.CHANGE_REQUEST_STATUS_UNSPECIFIED,
      }),
    ).toBe('rejected');
  });

  it('refuses what it cannot name where an answer must name it', () => {
    const unknown = { kind: 'division', kind_enum: L.NODE_LEVEL_UNSPECIFIED };
    expect(nodeLevelOf(unknown)).toBeUndefined();
    expect(() => requiredNodeLevel(unknown)).toThrow(/unknown node level/);
    expect(() => auditLevelOf({ level: '', level_enum: L.NODE_LEVEL_UNSPECIFIED })).toThrow(
      /unknown audit level/,
    );
    expect(() => changeRequestStatusOf({ status: 'open', status_enum: 0 })).toThrow(
      /unknown change request status/,
    );
  });

  it('writes requests in both forms', () => {
    expect(nodeKindFields('group')).toEqual({ kind: 'group', kind_enum: L.NODE_LEVEL_GROUP });
    expect(changeRequestFilterFields('approved')).toEqual({
      status: 'approved',
      status_enum: S.CHANGE_REQUEST_STATUS_APPROVED,
    });
    expect(changeRequestFilterFields(undefined)).toEqual({
      status_enum: S.CHANGE_REQUEST_STATUS_UNSPECIFIED,
    });
  });
});
