import type { ReactNode } from 'react';

export type BadgeTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

/** The tone of an investigation (or delivery) status word. */
export function statusTone(status: string): BadgeTone {
  switch (status) {
    case 'completed':
    case 'delivered':
    case 'succeeded':
      return 'success';
    case 'running':
    case 'pending':
    case 'queued':
      return 'info';
    case 'failed':
    case 'dead':
      return 'danger';
    case 'cancelled':
      return 'warning';
    default:
      return 'neutral';
  }
}

export function Badge(props: { tone?: BadgeTone; children: ReactNode; title?: string }) {
  return (
    <span className={`badge badge-${props.tone ?? 'neutral'}`} title={props.title}>
      {props.children}
    </span>
  );
}
