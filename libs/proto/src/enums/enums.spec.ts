import {
  Agent,
  InvestigationStatus,
  Priority,
} from '../gen/inquest/investigation/v1/investigation_service';
import { ChangeRequestStatus, NodeLevel } from '../gen/inquest/config/v1/config_service';
import { DocumentStatus, KnowledgeLevel } from '../gen/inquest/knowledge/v1/knowledge_service';
import { AlertStatus } from '../gen/inquest/alerts/v1/alert_service';
import { DeliveryStatus } from '../gen/inquest/notifier/v1/notifier_service';
import { alertStatusEnum, deliveryStatusEnum } from './alert-enums';
import { changeRequestStatusEnum, nodeLevelEnum } from './config-enums';
import { documentStatusEnum, knowledgeLevelEnum } from './knowledge-enums';
import { agentEnum, investigationStatusEnum, priorityEnum } from './investigation-enums';
import { stringEnum, type StringEnum } from './string-enum';

/** Every mapping with the generated enum object it covers and that enum's zero value. */
const MAPPINGS: [string, StringEnum<string, number>, Record<string, string | number>, number][] = [
  [
    'InvestigationStatus',
    investigationStatusEnum,
    InvestigationStatus,
    InvestigationStatus.INVESTIGATION_STATUS_UNSPECIFIED,
  ],
  ['Agent', agentEnum, Agent, Agent.AGENT_UNSPECIFIED],
  ['Priority', priorityEnum, Priority, Priority.PRIORITY_UNSPECIFIED],
  ['NodeLevel', nodeLevelEnum, NodeLevel, NodeLevel.NODE_LEVEL_UNSPECIFIED],
  [
    'ChangeRequestStatus',
    changeRequestStatusEnum,
    ChangeRequestStatus,
    ChangeRequestStatus.CHANGE_REQUEST_STATUS_UNSPECIFIED,
  ],
  [
    'DocumentStatus',
    documentStatusEnum,
    DocumentStatus,
    DocumentStatus.DOCUMENT_STATUS_UNSPECIFIED,
  ],
  [
    'KnowledgeLevel',
    knowledgeLevelEnum,
    KnowledgeLevel,
    KnowledgeLevel.KNOWLEDGE_LEVEL_UNSPECIFIED,
  ],
  ['AlertStatus', alertStatusEnum, AlertStatus, AlertStatus.ALERT_STATUS_UNSPECIFIED],
  [
    'DeliveryStatus',
    deliveryStatusEnum,
    DeliveryStatus,
    DeliveryStatus.DELIVERY_STATUS_UNSPECIFIED,
  ],
];

/** The numeric values of a generated (TypeScript) enum, without ts-proto's UNRECOGNIZED (-1). */
const valuesOf = (e: Record<string, string | number>) =>
  Object.values(e).filter((v): v is number => typeof v === 'number' && v >= 0);

describe.each(MAPPINGS)('%s', (_name, mapping, generated, unspecified) => {
  it('names every value of the proto enum but the zero value, each once', () => {
    const named = mapping.names.map((n) => mapping.toProto(n)).sort((a, b) => a - b);
    expect(named).toEqual(valuesOf(generated).filter((v) => v !== unspecified));
    expect(unspecified).toBe(0);
  });

  it('round-trips every name and every value', () => {
    for (const name of mapping.names) {
      expect(mapping.isName(name)).toBe(true);
      expect(mapping.fromProto(mapping.toProto(name))).toBe(name);
    }
    for (const value of valuesOf(generated).filter((v) => v !== unspecified))
      expect(mapping.toProto(mapping.fromProto(value))).toBe(value);
  });

  it('maps an unknown or missing name to UNSPECIFIED and an unknown value to undefined', () => {
    for (const s of ['', 'UNKNOWN', ' pending', `${mapping.names[0]!.toUpperCase()}x`, undefined])
      expect(mapping.toProto(s)).toBe(unspecified);
    expect(mapping.isName('toString')).toBe(false);
    expect(mapping.toProto('toString')).toBe(unspecified);
    expect(mapping.fromProto(unspecified)).toBeUndefined();
    expect(mapping.fromProto(-1)).toBeUndefined(); // ts-proto's UNRECOGNIZED
    expect(mapping.fromProto(999)).toBeUndefined(); // a value from a newer peer
    expect(mapping.fromProto(undefined)).toBeUndefined();
  });

  it('reads the enum first and the deprecated string only when the enum is unset', () => {
    const [a, b] = mapping.names as [string, string];
    expect(mapping.read(mapping.toProto(a), b)).toBe(a);
    expect(mapping.read(unspecified, b)).toBe(b); // an older peer: only the string
    expect(mapping.read(undefined, b)).toBe(b);
    expect(mapping.read(999, b)).toBe(b); // a newer peer's value: its string still tells
    expect(mapping.read(unspecified, 'not-a-name')).toBeUndefined();
    expect(mapping.read(unspecified, '')).toBeUndefined();
  });
});

describe('stringEnum', () => {
  it('refuses the zero value in the table and two names for one value', () => {
    expect(() => stringEnum({ a: 0, b: 1 }, 0)).toThrow(/zero value/);
    expect(() => stringEnum({ a: 1, b: 1 }, 0)).toThrow(/already names a/);
  });
});
