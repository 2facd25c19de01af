import { useEffect, useMemo, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import {
  isApplied,
  isInquestError,
  isPendingApproval,
  type ConfigUpdateResponse,
} from '@inquest/client';
import { diffConfigs, isPlainObject, type JsonObject } from '@inquest/config-model/merge';
import { useClient } from '../../api/client';
import { ErrorView } from '../../components/ErrorView';
import { Field } from '../../components/Field';
import { Loading } from '../../components/Loading';
import { Page } from '../../components/Page';
import { RequireTeam } from '../../components/RequireTeam';
import { ConfigNav } from './ConfigNav';
import { DiffTable } from './DiffTable';
import { levelName } from './ConfigurationPage';
import { configKeys, useCaller, useEffectiveConfig, useRawConfig, useTeam } from './config-data';
import {
  assignProblems,
  diffRows,
  formatValue,
  jsonLines,
  lineOf,
  mergePatchBetween,
  problemsOf,
  withValueAt,
  type FieldProblem,
} from './config-draft';
import {
  AGENT_GROUPS,
  FORM_GROUPS,
  formInputPaths,
  fromInputText,
  toInputText,
  type FieldSpec,
} from './config-fields';
import { levelsFromRaw, valueAt, type ConfigLevel } from './merge-explain';
import './config.css';

type Outcome =
  | { kind: 'applied'; res: Extract<ConfigUpdateResponse, { version: number }> }
  | { kind: 'pending'; res: Extract<ConfigUpdateResponse, { change_request_id: string }> };

/** Edit the team's own overrides: a form for the main fields, JSON for all; diff before saving. */
export default function ConfigEditPage() {
  return (
    <Page title="Edit configuration">
      <ConfigNav />
      <RequireTeam>
        <Editor />
      </RequireTeam>
    </Page>
  );
}

function Editor() {
  const raw = useRawConfig();
  const effective = useEffectiveConfig();
  const caller = useCaller();
  const team = useTeam();
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  if (raw.isPending || effective.isPending) return <Loading label="Loading the configuration…" />;
  if (raw.isError) return <ErrorView error={raw.error} onRetry={() => void raw.refetch()} />;
  if (effective.isError)
    return <ErrorView error={effective.error} onRetry={() => void effective.refetch()} />;
  const levels = levelsFromRaw(raw.data);
  const own = levels[levels.length - 1];
  if (!own || own.kind !== 'team')
    return <ErrorView error={new Error('The lineage of this team has no team level.')} />;
  const approval = effective.data.feature_flags?.require_approval === true;
  const approvers = effective.data.approval?.approvers ?? [];
  const readOnly = caller.data ? !caller.data.permissions.includes('write') : false;
  return (
    <>
      <OutcomePanel outcome={outcome} onDismiss={() => setOutcome(undefined)} />
      {approval ? (
        <div className="cfg-notice warning">
          <p>
            <strong>Changes need approval.</strong> Saving creates a change request instead of
            applying it
            {approvers.length > 0 ? `; approvers: ${approvers.join(', ')}` : ' (an admin decides)'}.
          </p>
        </div>
      ) : null}
      {readOnly ? (
        <div className="cfg-notice danger">
          <p>Your token is read-only: you can prepare a change and see its diff, not save it.</p>
        </div>
      ) : null}
      <EditorLoaded
        // a new version of the team's own config starts a fresh draft
        key={`${team}:${own.version}`}
        levels={levels}
        own={own}
        approval={approval}
        readOnly={readOnly}
        onOutcome={setOutcome}
      />
    </>
  );
}

function OutcomePanel(props: { outcome: Outcome | undefined; onDismiss(): void }) {
  const o = props.outcome;
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (o) ref.current?.focus();
  }, [o]);
  if (!o) return null;
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="status"
      className={o.kind === 'applied' ? 'cfg-notice success' : 'cfg-notice warning'}
    >
      {o.kind === 'applied' ? (
        <>
          <p>
            <strong>Saved as version {o.res.version}.</strong>{' '}
            {o.res.changed_fields.length > 0
              ? `Changed: ${o.res.changed_fields.join(', ')}.`
              : 'Nothing changed.'}{' '}
            <Link href="/configuration/history">See the history</Link>.
          </p>
          {o.res.warnings.length > 0 ? (
            <ul>
              {o.res.warnings.map((w) => (
                <li key={w.field}>
                  <code>{w.field}</code>: {w.message}
                </li>
              ))}
            </ul>
          ) : null}
        </>
      ) : (
        <p>
          <strong>Pending approval.</strong> Change request <code>{o.res.change_request_id}</code>{' '}
          waits for {o.res.approvers.length > 0 ? o.res.approvers.join(', ') : 'an admin'}; it is
          applied once approved. <Link href="/configuration/pending">See pending changes</Link>.
        </p>
      )}
      <button type="button" className="ghost" onClick={props.onDismiss}>
        Dismiss
      </button>
    </div>
  );
}

/** The nearest level above the team that sets `path` (what applies when the team sets nothing). */
function inheritedAt(
  levels: ConfigLevel[],
  path: string,
): { value: unknown; level: ConfigLevel } | undefined {
  for (let i = levels.length - 2; i >= 0; i--) {
    const v = valueAt(levels[i]!.config, path);
    if (v.found) return { value: v.value, level: levels[i]! };
  }
  return undefined;
}

function EditorLoaded(props: {
  levels: ConfigLevel[];
  own: ConfigLevel;
  approval: boolean;
  readOnly: boolean;
  onOutcome(o: Outcome | undefined): void;
}) {
  const client = useClient();
  const queryClient = useQueryClient();
  const team = useTeam();
  const base = props.own.config;
  const [draft, setDraft] = useState<JsonObject>(base);
  const [mode, setMode] = useState<'form' | 'json'>('form');
  const [jsonText, setJsonText] = useState('');
  const [jsonError, setJsonError] = useState<string | undefined>();
  const [stage, setStage] = useState<'edit' | 'review'>('edit');
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  const [goLine, setGoLine] = useState<number | undefined>();
  const [goField, setGoField] = useState<string | undefined>();
  // inputs keep their own text while typing: a reset of the draft remounts them
  const [formKey, setFormKey] = useState(0);
  const jsonRef = useRef<HTMLTextAreaElement>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  const reviewRef = useRef<HTMLHeadingElement>(null);

  const servers = Array.isArray(draft['mcp_servers']) ? (draft['mcp_servers'] as unknown[]) : [];
  const { byInput, unplaced } = useMemo(
    () => assignProblems(problems, formInputPaths(servers.length)),
    [problems, servers.length],
  );
  const lines = useMemo(
    () => jsonLines(mode === 'json' ? jsonText : JSON.stringify(draft, null, 2)),
    [mode, jsonText, draft],
  );
  const patch = useMemo(() => mergePatchBetween(base, draft), [base, draft]);
  const rows = useMemo(() => diffRows(diffConfigs(base, draft)), [base, draft]);

  const save = useMutation({
    mutationFn: () => client.config.update(patch),
    onSuccess: async (res) => {
      setProblems([]);
      if (isPendingApproval(res)) {
        props.onOutcome({ kind: 'pending', res });
        setDraft(base);
        setStage('edit');
        await queryClient.invalidateQueries({ queryKey: configKeys.pending(team) });
      } else if (isApplied(res)) {
        props.onOutcome({ kind: 'applied', res });
        await queryClient.invalidateQueries({ queryKey: configKeys.all(team) });
      }
    },
    onError: (err) => {
      if (
        isInquestError(err) &&
        (err.code === 'validation_error' || err.code === 'invalid_field')
      ) {
        setProblems(problemsOf(err));
        setStage('edit');
      }
    },
  });
  const validationFailed = problems.length > 0;
  const otherError =
    save.isError &&
    !(
      isInquestError(save.error) &&
      (save.error.code === 'validation_error' || save.error.code === 'invalid_field')
    );

  // after a refusal, the summary gets focus so a screen reader hears it
  useEffect(() => {
    if (validationFailed) summaryRef.current?.focus();
  }, [problems, validationFailed]);
  useEffect(() => {
    if (stage === 'review') reviewRef.current?.focus();
  }, [stage]);
  // "show line N": select that line of the JSON once the textarea is there
  useEffect(() => {
    if (mode !== 'json' || goLine === undefined || !jsonRef.current) return;
    const ta = jsonRef.current;
    const all = ta.value.split('\n');
    const start = all.slice(0, goLine - 1).reduce((n, l) => n + l.length + 1, 0);
    ta.focus();
    ta.setSelectionRange(start, start + (all[goLine - 1]?.length ?? 0));
    const lineHeight = ta.scrollHeight / Math.max(all.length, 1);
    ta.scrollTop = Math.max(0, (goLine - 3) * lineHeight);
    setGoLine(undefined);
  }, [mode, goLine]);
  useEffect(() => {
    if (mode !== 'form' || !goField) return;
    const el = document.querySelector<HTMLElement>(`[data-path="${CSS.escape(goField)}"]`);
    el?.closest('details')?.setAttribute('open', '');
    el?.focus();
    setGoField(undefined);
  }, [mode, goField]);

  const toJson = () => {
    setJsonText(JSON.stringify(draft, null, 2));
    setJsonError(undefined);
    setMode('json');
  };
  const toForm = () => {
    if (jsonError) return;
    setMode('form');
  };
  const onJson = (text: string) => {
    setJsonText(text);
    try {
      const v = JSON.parse(text) as unknown;
      if (!isPlainObject(v)) {
        setJsonError('The configuration must be a JSON object ({ … }).');
        return;
      }
      setJsonError(undefined);
      setDraft(v);
    } catch (e) {
      setJsonError(`Not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const showInJson = (path: string) => {
    const text = mode === 'json' ? jsonText : JSON.stringify(draft, null, 2);
    if (mode !== 'json') {
      setJsonText(text);
      setJsonError(undefined);
      setMode('json');
    }
    setStage('edit');
    setGoLine(lineOf(jsonLines(text), path) ?? 1);
  };
  const showField = (path: string) => {
    setStage('edit');
    setMode('form');
    setGoField(path);
  };

  return (
    <>
      {validationFailed ? (
        <div
          ref={summaryRef}
          tabIndex={-1}
          className="cfg-notice danger"
          role="alert"
          aria-labelledby="cfg-problems-h"
        >
          <h2 id="cfg-problems-h">
            The service refused the change ({problems.length}{' '}
            {problems.length === 1 ? 'problem' : 'problems'})
          </h2>
          <ul className="cfg-problems" id="cfg-problem-list">
            {problems.map((p, i) => {
              const input = mode === 'form' ? formInputFor(p.field, byInput) : undefined;
              const line = lineOf(lines, p.field);
              return (
                <li key={`${p.field}-${i}`}>
                  <code>{p.field}</code>: {p.error}{' '}
                  {mode === 'json' && line !== undefined ? (
                    <button type="button" className="ghost" onClick={() => showInJson(p.field)}>
                      Go to line {line}
                    </button>
                  ) : input ? (
                    <button type="button" className="ghost" onClick={() => showField(input)}>
                      Go to field
                    </button>
                  ) : (
                    <button type="button" className="ghost" onClick={() => showInJson(p.field)}>
                      Show in JSON{line !== undefined ? ` (line ${line})` : ''}
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
      {otherError ? <ErrorView error={save.error} onRetry={() => save.mutate()} /> : null}

      {stage === 'edit' ? (
        <>
          <div className="cfg-toolbar" role="group" aria-label="Editor">
            <button
              type="button"
              aria-pressed={mode === 'form'}
              className={mode === 'form' ? 'primary' : undefined}
              onClick={toForm}
              disabled={mode === 'json' && jsonError !== undefined}
            >
              Form
            </button>
            <button
              type="button"
              aria-pressed={mode === 'json'}
              className={mode === 'json' ? 'primary' : undefined}
              onClick={toJson}
            >
              JSON
            </button>
            <span className="muted">
              You edit this team&apos;s own values ({levelName(props.own)}, version{' '}
              {props.own.version}); an empty input inherits from the levels above.
            </span>
          </div>
          {mode === 'form' ? (
            <ConfigForm
              key={formKey}
              levels={props.levels}
              draft={draft}
              setDraft={setDraft}
              errors={byInput}
              unplacedCount={unplaced.length}
            />
          ) : (
            <div className="field">
              <label htmlFor="cfg-json">Team overrides (JSON)</label>
              <textarea
                id="cfg-json"
                ref={jsonRef}
                className="cfg-json"
                spellCheck={false}
                rows={Math.min(40, Math.max(12, jsonText.split('\n').length + 2))}
                value={jsonText}
                onChange={(e) => onJson(e.target.value)}
                aria-invalid={jsonError !== undefined || validationFailed ? true : undefined}
                aria-describedby={
                  [
                    'cfg-json-hint',
                    jsonError ? 'cfg-json-error' : '',
                    validationFailed ? 'cfg-problem-list' : '',
                  ]
                    .filter(Boolean)
                    .join(' ') || undefined
                }
              />
              <div id="cfg-json-hint" className="field-hint">
                Every field of the team&apos;s own config, including those without a form input
                (tools, knowledge sources, tokens_vault_path, x-… custom data). Remove a key to
                inherit it again.
              </div>
              {jsonError ? (
                <div id="cfg-json-error" className="field-error" role="alert">
                  {jsonError}
                </div>
              ) : null}
            </div>
          )}
          <div className="cfg-actions">
            <button
              type="button"
              className="primary"
              disabled={mode === 'json' && jsonError !== undefined}
              onClick={() => {
                props.onOutcome(undefined);
                setStage('review');
              }}
            >
              Review changes
            </button>
            <button
              type="button"
              onClick={() => {
                setDraft(base);
                setFormKey((k) => k + 1);
                setProblems([]);
                if (mode === 'json') setJsonText(JSON.stringify(base, null, 2));
                setJsonError(undefined);
              }}
              disabled={rows.length === 0 && problems.length === 0}
            >
              Discard changes
            </button>
          </div>
        </>
      ) : (
        <section className="cfg-section" aria-labelledby="cfg-review-h">
          <h2 id="cfg-review-h" ref={reviewRef} tabIndex={-1}>
            Review changes
          </h2>
          {rows.length === 0 ? (
            <p>No changes: the draft equals the team&apos;s own configuration.</p>
          ) : (
            <>
              <DiffTable
                caption="Changes to the team's own configuration"
                rows={rows}
                removedNote={(path) => {
                  const inh = inheritedAt(props.levels, path);
                  return inh
                    ? `inherits ${formatValue(inh.value)} from ${levelName(inh.level)}`
                    : 'the default applies';
                }}
              />
              <details>
                <summary>The request body (JSON Merge Patch)</summary>
                <pre className="cfg-value">{JSON.stringify(patch, null, 2)}</pre>
              </details>
            </>
          )}
          <div className="cfg-actions">
            <button
              type="button"
              className="primary"
              disabled={rows.length === 0 || props.readOnly || save.isPending}
              onClick={() => save.mutate()}
            >
              {save.isPending ? 'Saving…' : props.approval ? 'Submit for approval' : 'Save changes'}
            </button>
            <button type="button" onClick={() => setStage('edit')}>
              Back to editing
            </button>
          </div>
        </section>
      )}
    </>
  );
}

/** The input a problem belongs to (the summary's "Go to field"). */
function formInputFor(field: string, byInput: Map<string, string[]>): string | undefined {
  for (const path of byInput.keys())
    if (field === path || field.startsWith(`${path}.`)) return path;
  return undefined;
}

function ConfigForm(props: {
  levels: ConfigLevel[];
  draft: JsonObject;
  setDraft(d: JsonObject): void;
  errors: Map<string, string[]>;
  unplacedCount: number;
}) {
  const { draft, setDraft } = props;
  const input = (f: FieldSpec) => (
    <FormInput
      key={f.path}
      spec={f}
      value={valueAt(draft, f.path).value}
      inherited={inheritedAt(props.levels, f.path)}
      error={props.errors.get(f.path)?.join('; ')}
      onChange={(v) => setDraft(withValueAt(draft, f.path, v))}
    />
  );
  return (
    <form className="cfg-form" aria-label="Configuration form" onSubmit={(e) => e.preventDefault()}>
      {props.unplacedCount > 0 ? (
        <p className="field-error">
          {props.unplacedCount} {props.unplacedCount === 1 ? 'problem is' : 'problems are'} in
          fields without a form input: see them in JSON.
        </p>
      ) : null}
      {FORM_GROUPS.map((g) => (
        <fieldset key={g.id}>
          <legend>{g.legend}</legend>
          <div className="cfg-grid">{g.fields.map(input)}</div>
        </fieldset>
      ))}
      <fieldset>
        <legend>Agents</legend>
        {AGENT_GROUPS.map((g) => {
          const hasError = g.fields.some((f) => props.errors.has(f.path));
          return (
            <details key={g.id} open={hasError || undefined}>
              <summary>{g.legend}</summary>
              <div className="cfg-grid">{g.fields.map(input)}</div>
            </details>
          );
        })}
      </fieldset>
      <ServersEditor
        levels={props.levels}
        draft={draft}
        setDraft={setDraft}
        errors={props.errors}
      />
    </form>
  );
}

function hintFor(
  spec: FieldSpec,
  setHere: boolean,
  inherited: { value: unknown; level: ConfigLevel } | undefined,
): string {
  const from = inherited
    ? `inherits ${formatValue(inherited.value)} from ${levelName(inherited.level)}`
    : spec.defaultText
      ? `the default applies (${spec.defaultText})`
      : 'not set at any level';
  const own = setHere ? `Set here; empty: ${from}.` : `${from[0]!.toUpperCase()}${from.slice(1)}.`;
  return spec.hint ? `${spec.hint}. ${own}` : own;
}

function FormInput(props: {
  spec: FieldSpec;
  value: unknown;
  inherited: { value: unknown; level: ConfigLevel } | undefined;
  error: string | undefined;
  onChange(v: unknown): void;
}) {
  const { spec } = props;
  const [text, setText] = useState(() => toInputText(spec.kind, props.value));
  const setHere = props.value !== undefined;
  const change = (t: string) => {
    setText(t);
    props.onChange(fromInputText(spec.kind, t));
  };
  const inheritedText = props.inherited
    ? toInputText(spec.kind, props.inherited.value)
    : spec.defaultText;
  const common = { 'data-path': spec.path, value: text };
  let control;
  if (spec.kind === 'flag' || spec.kind === 'select') {
    const options = spec.kind === 'flag' ? ['on', 'off'] : (spec.options ?? []);
    control = (
      <select {...common} onChange={(e) => change(e.target.value)}>
        <option value="">{inheritedText ? `Inherit (${inheritedText})` : 'Inherit'}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  } else if (spec.kind === 'list' || spec.kind === 'textarea') {
    control = (
      <textarea
        {...common}
        rows={spec.kind === 'textarea' ? 4 : 3}
        placeholder={inheritedText}
        spellCheck={spec.kind === 'textarea'}
        onChange={(e) => change(e.target.value)}
      />
    );
  } else {
    control = (
      <input
        {...common}
        type={spec.kind === 'url' ? 'url' : 'text'}
        inputMode={
          spec.kind === 'integer' ? 'numeric' : spec.kind === 'number' ? 'decimal' : undefined
        }
        spellCheck={false}
        autoComplete="off"
        placeholder={inheritedText}
        onChange={(e) => change(e.target.value)}
      />
    );
  }
  return (
    <Field label={spec.label} hint={hintFor(spec, setHere, props.inherited)} error={props.error}>
      {control}
    </Field>
  );
}

/** `mcp_servers`: the team's own list (it replaces the inherited one), entries or names. */
function ServersEditor(props: {
  levels: ConfigLevel[];
  draft: JsonObject;
  setDraft(d: JsonObject): void;
  errors: Map<string, string[]>;
}) {
  const own = props.draft['mcp_servers'];
  const list = Array.isArray(own) ? own : undefined;
  const inherited = inheritedAt(props.levels, 'mcp_servers');
  const inheritedNames = Array.isArray(inherited?.value)
    ? (inherited.value as unknown[]).map((e) =>
        isPlainObject(e) ? String(e['name'] ?? '') : String(e),
      )
    : [];
  const set = (next: unknown[] | undefined) =>
    props.setDraft(withValueAt(props.draft, 'mcp_servers', next));
  const setEntry = (i: number, entry: unknown) => {
    if (!list) return;
    set(list.map((e, j) => (j === i ? entry : e)));
  };
  return (
    <fieldset>
      <legend>Tool servers (mcp_servers)</legend>
      {list === undefined ? (
        <p>
          {inherited
            ? `Inherited from ${levelName(inherited.level)}: ${inheritedNames.join(', ') || 'none'}.`
            : 'No level configures tool servers.'}{' '}
          <button type="button" onClick={() => set(inheritedNames.filter(Boolean))}>
            Override the list for this team
          </button>
        </p>
      ) : (
        <>
          <p className="muted">
            This team&apos;s own list replaces the inherited one
            {inherited ? ` (${inheritedNames.join(', ')} from ${levelName(inherited.level)})` : ''}.
            A name uses the entry of that name defined above.
          </p>
          {list.map((e, i) =>
            isPlainObject(e) ? (
              <ServerEntry
                key={i}
                index={i}
                entry={e}
                errors={props.errors}
                onChange={(next) => setEntry(i, next)}
                onRemove={() => set(list.filter((_, j) => j !== i))}
              />
            ) : (
              <div className="cfg-server" key={i}>
                <p>
                  Uses server <code>{String(e)}</code> defined at a level above.{' '}
                  <button
                    type="button"
                    onClick={() => set(list.filter((_, j) => j !== i))}
                    aria-label={`Remove server ${String(e)}`}
                  >
                    Remove
                  </button>
                </p>
                {props.errors.get(`mcp_servers.${i}`) ? (
                  <p className="field-error" role="alert">
                    {props.errors.get(`mcp_servers.${i}`)!.join('; ')}
                  </p>
                ) : null}
              </div>
            ),
          )}
          <div className="cfg-actions">
            <button type="button" onClick={() => set([...list, { name: '', url: 'https://' }])}>
              Add a tool server
            </button>
            <button type="button" onClick={() => set(undefined)}>
              Inherit the list instead
            </button>
          </div>
        </>
      )}
    </fieldset>
  );
}

function ServerEntry(props: {
  index: number;
  entry: JsonObject;
  errors: Map<string, string[]>;
  onChange(e: JsonObject): void;
  onRemove(): void;
}) {
  const { index: i, entry } = props;
  const p = (k: string) => `mcp_servers.${i}.${k}`;
  const err = (k: string) => props.errors.get(p(k))?.join('; ');
  const auth = isPlainObject(entry['auth']) ? entry['auth'] : undefined;
  const authType = typeof auth?.['type'] === 'string' ? auth['type'] : '';
  const set = (k: string, v: unknown) => props.onChange(withValueAt(entry, k, v));
  const str = (v: unknown) => (v === undefined ? '' : typeof v === 'string' ? v : String(v));
  const name = str(entry['name']) || `server ${i + 1}`;
  return (
    <div className="cfg-server" role="group" aria-label={`Tool server ${name}`}>
      <div className="cfg-grid">
        <Field label="Name" error={err('name')}>
          <input
            data-path={p('name')}
            value={str(entry['name'])}
            autoComplete="off"
            onChange={(e) => set('name', e.target.value)}
          />
        </Field>
        <Field label="URL" error={err('url')}>
          <input
            data-path={p('url')}
            type="url"
            value={str(entry['url'])}
            onChange={(e) => set('url', e.target.value)}
          />
        </Field>
        <Field label="Timeout (seconds)" error={err('timeout')}>
          <input
            data-path={p('timeout')}
            inputMode="numeric"
            value={str(entry['timeout'])}
            onChange={(e) => set('timeout', fromInputText('integer', e.target.value))}
          />
        </Field>
        <Field label="Enabled" error={err('enabled')}>
          <select
            data-path={p('enabled')}
            value={entry['enabled'] === false ? 'off' : entry['enabled'] === true ? 'on' : ''}
            onChange={(e) => set('enabled', fromInputText('flag', e.target.value))}
          >
            <option value="">Default (on)</option>
            <option value="on">on</option>
            <option value="off">off</option>
          </select>
        </Field>
        <Field label="Authentication" error={err('auth')}>
          <select
            data-path={p('auth')}
            value={authType}
            onChange={(e) =>
              set('auth', e.target.value ? { ...(auth ?? {}), type: e.target.value } : undefined)
            }
          >
            <option value="">none</option>
            <option value="bearer">bearer</option>
            <option value="api_key">api_key</option>
          </select>
        </Field>
        {authType === 'bearer' ? (
          <Field label="Bearer token (vault:// reference)">
            <input
              data-path={p('auth.token')}
              value={str(auth?.['token'])}
              onChange={(e) => set('auth.token', e.target.value || undefined)}
            />
          </Field>
        ) : null}
        {authType === 'api_key' ? (
          <>
            <Field label="Header name">
              <input
                data-path={p('auth.header')}
                value={str(auth?.['header'])}
                onChange={(e) => set('auth.header', e.target.value || undefined)}
              />
            </Field>
            <Field label="API key (vault:// reference)">
              <input
                data-path={p('auth.key')}
                value={str(auth?.['key'])}
                onChange={(e) => set('auth.key', e.target.value || undefined)}
              />
            </Field>
          </>
        ) : null}
      </div>
      {props.errors.get(`mcp_servers.${i}`) ? (
        <p className="field-error" role="alert">
          {props.errors.get(`mcp_servers.${i}`)!.join('; ')}
        </p>
      ) : null}
      <button type="button" className="danger" onClick={props.onRemove}>
        Remove {name}
      </button>
    </div>
  );
}
