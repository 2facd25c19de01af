import { createEgress, type Egress, type EgressOptions } from '../egress';

/** An egress that allows loopback (tests talking to servers on 127.0.0.1 / ::1). */
export function loopbackEgress(options: Omit<EgressOptions, 'allow'> = {}): Egress {
  return createEgress({ ...options, allow: ['127.0.0.0/8', '::1'] });
}
