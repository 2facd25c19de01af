import { useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isInquestError, type AgentName } from '@inquest/client';
import { useLocation } from 'wouter';
import { useClient, useSession } from '../../api/client';
import { ErrorView } from '../../components/ErrorView';
import { Field } from '../../components/Field';
import { Page } from '../../components/Page';
import { RequireTeam } from '../../components/RequireTeam';
import { AGENTS } from './agents';
import { CONTEXT_FIELDS, contextFromRows, type ContextKey, type ContextRow } from './context-rows';
import './investigations.css';

/** Agents the team's effective config turns off (`agents.<name>.enabled: false`). */
function disabledAgents(effective: unknown): Set<string> {
  const agents = (effective as { agents?: Record<string, { enabled?: unknown }> } | undefined)
    ?.agents;
  const out = new Set<string>();
  for (const [name, cfg] of Object.entries(agents ?? {})) if (cfg?.enabled === false) out.add(name);
  return out;
}

function NewInvestigationForm() {
  const client = useClient();
  const { session } = useSession();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const nextId = useRef(2);
  const [agent, setAgent] = useState<AgentName>('planner');
  const [message, setMessage] = useState('');
  const [mode, setMode] = useState<'async' | 'sync'>('async');
  const [rows, setRows] = useState<ContextRow[]>([{ id: 1, key: 'service', value: '' }]);
  const [formError, setFormError] = useState<string | undefined>();
  const [messageError, setMessageError] = useState<string | undefined>();

  // which agents the team has switched off (a read of the effective config; optional)
  const effective = useQuery({
    queryKey: ['config', 'effective', session.team ?? ''],
    queryFn: ({ signal }) => client.config.effective({ signal }),
    retry: false,
  });
  const off = disabledAgents(effective.data);

  const run = useMutation({
    mutationFn: async (body: Parameters<typeof client.agents.run>[0]) =>
      // a synchronous run answers when the investigation ends: no client-side timeout
      client.agents.run(body, mode === 'sync' ? { timeoutMs: 0 } : {}),
    onSuccess: (res) => {
      void queryClient.invalidateQueries({ queryKey: ['investigations', 'list'] });
      navigate(`/investigations/${encodeURIComponent(res.investigation_id)}`);
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    setFormError(undefined);
    if (!message.trim()) {
      setMessageError('Describe what is wrong.');
      return;
    }
    setMessageError(undefined);
    const ctx = contextFromRows(rows);
    if (!ctx.ok) {
      setFormError(ctx.error);
      return;
    }
    run.mutate({
      agent_name: agent,
      message: message.trim(),
      ...(ctx.context ? { context: ctx.context } : {}),
      async: mode === 'async',
    });
  }

  const fieldErrors =
    run.error && isInquestError(run.error) && run.error.status === 400
      ? [
          ...(run.error.errors ?? []).map((p) => `${p.field}: ${p.error}`),
          ...(!run.error.errors?.length ? [run.error.message] : []),
        ]
      : undefined;

  return (
    <form className="new-investigation" onSubmit={submit} noValidate>
      <Field
        label="Agent"
        hint={off.size ? `Turned off for this team: ${[...off].join(', ')}` : undefined}
      >
        <select value={agent} onChange={(e) => setAgent(e.target.value as AgentName)}>
          {AGENTS.map((a) => (
            <option key={a.name} value={a.name} disabled={off.has(a.name)}>
              {a.label}
              {off.has(a.name) ? ' (turned off)' : ''}
            </option>
          ))}
        </select>
      </Field>
      <Field
        label="What is wrong?"
        error={messageError}
        hint="For example: checkout is returning 500s since 10:00"
      >
        <textarea
          rows={4}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          maxLength={32768}
        />
      </Field>

      <fieldset className="context-rows">
        <legend>Context</legend>
        {rows.map((row, i) => {
          const field = CONTEXT_FIELDS.find((f) => f.key === row.key);
          const update = (patch: Partial<ContextRow>) =>
            setRows((rs) => rs.map((r) => (r.id === row.id ? { ...r, ...patch } : r)));
          return (
            <div key={row.id} className="context-row">
              <label>
                <span className="sr-only">Field {i + 1}</span>
                <select
                  value={row.key}
                  onChange={(e) => update({ key: e.target.value as ContextKey | '', value: '' })}
                >
                  <option value="">— field —</option>
                  {CONTEXT_FIELDS.map((f) => (
                    <option key={f.key} value={f.key}>
                      {f.label}
                    </option>
                  ))}
                </select>
              </label>
              <label className="context-value">
                <span className="sr-only">Value {i + 1}</span>
                {field?.options ? (
                  <select value={row.value} onChange={(e) => update({ value: e.target.value })}>
                    <option value="">— value —</option>
                    {field.options.map((o) => (
                      <option key={o} value={o}>
                        {o}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input
                    value={row.value}
                    maxLength={1024}
                    onChange={(e) => update({ value: e.target.value })}
                  />
                )}
              </label>
              <button
                type="button"
                className="ghost"
                aria-label={`Remove context row ${i + 1}`}
                onClick={() => setRows((rs) => rs.filter((r) => r.id !== row.id))}
              >
                Remove
              </button>
            </div>
          );
        })}
        <button
          type="button"
          disabled={rows.length >= CONTEXT_FIELDS.length}
          onClick={() => setRows((rs) => [...rs, { id: nextId.current++, key: '', value: '' }])}
        >
          Add context field
        </button>
      </fieldset>

      <fieldset className="mode">
        <legend>How to run</legend>
        <label>
          <input
            type="radio"
            name="mode"
            value="async"
            checked={mode === 'async'}
            onChange={() => setMode('async')}
          />{' '}
          In the background: open the investigation at once and follow its progress
        </label>
        <label>
          <input
            type="radio"
            name="mode"
            value="sync"
            checked={mode === 'sync'}
            onChange={() => setMode('sync')}
          />{' '}
          Wait here for the result
        </label>
      </fieldset>

      {formError ? (
        <p className="field-error" role="alert">
          {formError}
        </p>
      ) : null}
      {fieldErrors ? (
        <div className="field-error" role="alert">
          <p>The service refused the request:</p>
          <ul>
            {fieldErrors.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        </div>
      ) : run.isError ? (
        <ErrorView error={run.error} />
      ) : null}
      <button type="submit" className="primary" disabled={run.isPending}>
        {run.isPending
          ? mode === 'sync'
            ? 'Investigating… (this waits for the result)'
            : 'Starting…'
          : 'Start investigation'}
      </button>
    </form>
  );
}

export default function NewInvestigationPage() {
  return (
    <Page title="New investigation">
      <RequireTeam>
        <NewInvestigationForm />
      </RequireTeam>
    </Page>
  );
}
