import { useMemo, useState } from 'react';
import type { JsonObject } from '@inquest/config-model/merge';
import { Badge } from '../../components/Badge';
import { ErrorView } from '../../components/ErrorView';
import { Loading } from '../../components/Loading';
import { Page } from '../../components/Page';
import { RequireTeam } from '../../components/RequireTeam';
import { ConfigNav } from './ConfigNav';
import { useEffectiveConfig, useRawConfig } from './config-data';
import { formatValue } from './config-draft';
import {
  explainEffective,
  levelsFromRaw,
  sideBySide,
  valueAt,
  type ConfigLevel,
  type ExplainedValue,
} from './merge-explain';
import './config.css';

/** "org acme", "group platform", "team payments" */
export function levelName(level: ConfigLevel): string {
  return `${level.kind} ${level.nodeId}`;
}

function OriginBadge(props: { row: ExplainedValue }) {
  const o = props.row.origin;
  if (o.kind === 'hierarchy') return <Badge tone="neutral">hierarchy</Badge>;
  if (o.kind === 'unknown')
    return (
      <Badge tone="warning" title="The levels do not explain this value (changed meanwhile?)">
        unknown
      </Badge>
    );
  const tone = o.level.kind === 'team' ? 'success' : o.level.kind === 'group' ? 'info' : 'neutral';
  return <Badge tone={tone}>{levelName(o.level)}</Badge>;
}

function Value(props: { value: unknown }) {
  return <pre className="cfg-value">{formatValue(props.value)}</pre>;
}

/** The effective config with, for each value, the level it comes from; the levels side by side. */
export default function ConfigurationPage() {
  return (
    <Page title="Configuration">
      <ConfigNav />
      <RequireTeam>
        <EffectiveView />
      </RequireTeam>
    </Page>
  );
}

function EffectiveView() {
  const effective = useEffectiveConfig();
  const raw = useRawConfig();
  const [filter, setFilter] = useState('');
  const levels = useMemo(() => (raw.data ? levelsFromRaw(raw.data) : []), [raw.data]);
  const rows = useMemo(
    () =>
      effective.data && raw.data ? explainEffective(levels, effective.data as JsonObject) : [],
    [effective.data, raw.data, levels],
  );
  const sides = useMemo(
    () => (effective.data && raw.data ? sideBySide(levels, effective.data as JsonObject) : []),
    [effective.data, raw.data, levels],
  );
  if (effective.isPending || raw.isPending) return <Loading label="Loading the configuration…" />;
  if (effective.isError)
    return <ErrorView error={effective.error} onRetry={() => void effective.refetch()} />;
  if (raw.isError) return <ErrorView error={raw.error} onRetry={() => void raw.refetch()} />;

  const f = filter.trim().toLowerCase();
  const shown = f ? rows.filter((r) => r.path.toLowerCase().includes(f)) : rows;
  const shownSides = f ? sides.filter((r) => r.path.toLowerCase().includes(f)) : sides;
  return (
    <>
      <p>
        Version <strong>{effective.data.version}</strong> of this team&apos;s configuration. The
        lineage is {levels.map((l) => levelName(l)).join(' → ')}: each level&apos;s own values are
        merged in that order (objects key by key, the nearer level wins, lists are replaced whole).
      </p>
      <div className="cfg-toolbar">
        <div className="field">
          <label htmlFor="cfg-filter">Filter fields</label>
          <input
            id="cfg-filter"
            type="search"
            value={filter}
            placeholder="e.g. agents or retrieval"
            onChange={(e) => setFilter(e.target.value)}
          />
        </div>
      </div>

      <section className="cfg-section" aria-labelledby="cfg-effective-h">
        <h2 id="cfg-effective-h">Effective values and where they come from</h2>
        {shown.length === 0 ? (
          <p className="muted">{f ? 'No field matches the filter.' : 'Nothing is configured.'}</p>
        ) : (
          <div className="table-wrap" role="region" aria-label="Effective values" tabIndex={0}>
            <table className="data-table cfg-stack">
              <caption className="sr-only">Effective configuration, one row per value</caption>
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">Value</th>
                  <th scope="col">Set at</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((r) => (
                  <tr key={r.path}>
                    <th scope="row" className="cfg-path">
                      {r.path}
                    </th>
                    <td data-label="Value">
                      <Value value={r.value} />
                      {r.servers && r.servers.length > 0 ? (
                        <ul className="muted">
                          {r.servers.map((s, i) => (
                            <li key={`${s.name}-${i}`}>
                              {s.name}: entry of{' '}
                              {s.definedAt ? levelName(s.definedAt) : 'no level (unresolved)'}
                            </li>
                          ))}
                        </ul>
                      ) : null}
                    </td>
                    <td className="cfg-nowrap" data-label="Set at">
                      <OriginBadge row={r} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="cfg-section" aria-labelledby="cfg-levels-h">
        <h2 id="cfg-levels-h">Levels side by side</h2>
        <p className="muted">
          What each level sets itself (its own version in the heading). The value that applies is
          outlined and marked &ldquo;applies&rdquo;; values a nearer level overrides are struck
          through.
        </p>
        {shownSides.length === 0 ? (
          <p className="muted">No level sets anything{f ? ' matching the filter' : ''}.</p>
        ) : (
          // scrolls sideways on a narrow screen: focusable, so a keyboard can scroll it
          <div
            className="table-wrap"
            role="region"
            aria-label="Own values of each level"
            tabIndex={0}
          >
            <table className="data-table cfg-wide">
              <caption className="sr-only">Own values of each level of the lineage</caption>
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  {levels.map((l) => (
                    <th scope="col" key={l.nodeId}>
                      {levelName(l)} <span className="muted">(v{l.version})</span>
                    </th>
                  ))}
                  <th scope="col">Effective</th>
                </tr>
              </thead>
              <tbody>
                {shownSides.map((r) => (
                  <tr key={r.path}>
                    <th scope="row" className="cfg-path">
                      {r.path}
                    </th>
                    {levels.map((l) => {
                      const own = valueAt(l.config, r.path);
                      if (!own.found)
                        return (
                          <td key={l.nodeId} className="muted">
                            <span aria-label="not set">—</span>
                          </td>
                        );
                      const wins = r.winner?.nodeId === l.nodeId;
                      return (
                        <td key={l.nodeId} className={wins ? 'cfg-winner' : undefined}>
                          <pre className={wins ? 'cfg-value' : 'cfg-value cfg-overridden'}>
                            {formatValue(own.value)}
                          </pre>
                          {wins ? (
                            <Badge tone="success">applies</Badge>
                          ) : (
                            <span className="sr-only"> (overridden)</span>
                          )}
                        </td>
                      );
                    })}
                    <td>
                      {r.effective.found ? (
                        <Value value={r.effective.value} />
                      ) : (
                        <span className="muted">not in effect (a nearer level replaced it)</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
