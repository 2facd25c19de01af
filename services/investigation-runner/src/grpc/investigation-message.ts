import type { investigationV1 } from '@inquest/proto';
import type { InvestigationRecord } from '@inquest/store';
import { publicInvestigation } from '../domain/public-investigation';

/**
 * The proto Investigation (snake_case JSON form) of a stored record. Typed against the generated
 * message here, at the edge, so a proto change that the domain's shape no longer fits breaks the
 * build.
 */
export function toInvestigationMessage(r: InvestigationRecord): investigationV1.Investigation {
  return publicInvestigation(r);
}
