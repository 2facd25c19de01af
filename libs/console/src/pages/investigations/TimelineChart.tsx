import { useEffect, useRef, useState } from 'react';
import { timelinePicture, type TimelineEntry } from './investigation-view';

const H = 120;
const PAD = 24;
const AXIS_Y = 70;

function hhmm(t: number): string {
  return new Date(t).toISOString().slice(11, 16);
}

/**
 * The timeline as a picture: an SVG time axis with one mark per event, the first error (red)
 * and the change before it (amber) called out; the list below it carries the same facts as text.
 */
export function TimelineChart(props: { entries: TimelineEntry[] }) {
  // drawn at the width it is shown at (text stays 13 px on a phone and on a wide screen)
  const box = useRef<HTMLElement>(null);
  const [W, setW] = useState(900);
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(([e]) => {
      if (e) setW(Math.max(300, Math.round(e.contentRect.width)));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const p = timelinePicture(props.entries);
  if (p.points.length === 0) return <p className="muted">No timeline events.</p>;
  const xOf = (x: number) => PAD + x * (W - 2 * PAD);
  const firstError = p.firstError !== undefined ? p.points[p.firstError] : undefined;
  const change = p.changeBefore !== undefined ? p.points[p.changeBefore] : undefined;
  const gapMin =
    firstError && change ? Math.round((firstError.at - change.at) / 60_000) : undefined;
  const desc = [
    `${p.points.length} events from ${new Date(p.from).toISOString()} to ${new Date(p.to).toISOString()}.`,
    firstError ? `First error at ${firstError.timestamp}: ${firstError.event}.` : 'No error event.',
    change ? `Change before it at ${change.timestamp}: ${change.event}.` : '',
  ].join(' ');
  return (
    <figure className="timeline" ref={box}>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-labelledby="timeline-title timeline-desc"
        className="timeline-svg"
      >
        <title id="timeline-title">Timeline</title>
        <desc id="timeline-desc">{desc}</desc>
        {change && firstError ? (
          <rect
            className="tl-gap"
            x={xOf(change.x)}
            y={AXIS_Y - 34}
            width={Math.max(2, xOf(firstError.x) - xOf(change.x))}
            height={44}
          />
        ) : null}
        <line className="tl-axis" x1={PAD} y1={AXIS_Y} x2={W - PAD} y2={AXIS_Y} />
        <text className="tl-tick" x={PAD} y={AXIS_Y + 26} textAnchor="start">
          {hhmm(p.from)}
        </text>
        <text className="tl-tick" x={W - PAD} y={AXIS_Y + 26} textAnchor="end">
          {hhmm(p.to)}
        </text>
        {p.points.map((pt, i) => {
          const special = i === p.firstError || i === p.changeBefore;
          return (
            <g key={i}>
              <line
                className={`tl-mark tl-${pt.kind}`}
                x1={xOf(pt.x)}
                x2={xOf(pt.x)}
                y1={AXIS_Y - (special ? 30 : 12)}
                y2={AXIS_Y + 8}
              />
              <circle
                className={`tl-dot tl-${pt.kind}`}
                cx={xOf(pt.x)}
                cy={AXIS_Y}
                r={special ? 6 : 4}
              >
                <title>{`${pt.timestamp}: ${pt.event}`}</title>
              </circle>
            </g>
          );
        })}
        {change ? (
          <text
            className="tl-label tl-change"
            x={xOf(change.x)}
            y={AXIS_Y - 38}
            textAnchor={xOf(change.x) > W - 110 ? 'end' : 'start'}
          >
            {`change ${hhmm(change.at)}`}
          </text>
        ) : null}
        {firstError ? (
          <text
            className="tl-label tl-error"
            x={xOf(firstError.x)}
            y={AXIS_Y - 38 + (change && Math.abs(xOf(change.x) - xOf(firstError.x)) < 110 ? 14 : 0)}
            textAnchor={xOf(firstError.x) > W - 190 ? 'end' : 'start'}
          >
            {`first error ${hhmm(firstError.at)}${gapMin !== undefined ? ` (+${gapMin} min)` : ''}`}
          </text>
        ) : null}
      </svg>
      <figcaption className="tl-legend">
        <span className="tl-key tl-change">change</span>
        <span className="tl-key tl-error">error</span>
        <span className="tl-key tl-other">other</span>
      </figcaption>
      <ol className="tl-list">
        {p.points.map((pt, i) => (
          <li key={i} className={`tl-item tl-${pt.kind}`}>
            <time dateTime={pt.timestamp}>
              {pt.timestamp.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z')}
            </time>{' '}
            {i === p.firstError ? <strong>First error: </strong> : null}
            {i === p.changeBefore ? <strong>Change before the first error: </strong> : null}
            {pt.event}
          </li>
        ))}
      </ol>
    </figure>
  );
}
