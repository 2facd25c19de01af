import type { ReactNode } from 'react';

export function Empty(props: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{props.title}</p>
      {props.children}
    </div>
  );
}
