export { createEgress } from './egress';
export type {
  Egress,
  EgressOptions,
  EgressRequestInit,
  EgressResponse,
  HostLookup,
} from './egress';
export { EgressError, isEgressError } from './egress-error';
export type { EgressErrorCode } from './egress-error';
export {
  parseEgressAllow,
  buildAddressPolicy,
  refusalReason,
  deniedReason,
  isHostAllowed,
} from './address-policy';
export type { AddressPolicy } from './address-policy';
