export { eventBusContract } from './event-bus.contract';
export type { EventBusAdapter, EventBusHarness } from './event-bus.contract';
