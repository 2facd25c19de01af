import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  isInquestError,
  type CreatedToken,
  type Node,
  type NodeKind,
  type TokenInfo,
} from '@inquest/client';
import { diffConfigs, isPlainObject, type JsonObject } from '@inquest/config-model/merge';
import { useClient } from '../../api/client';
import { Badge } from '../../components/Badge';
import { Empty } from '../../components/Empty';
import { ErrorView } from '../../components/ErrorView';
import { Field } from '../../components/Field';
import { Loading } from '../../components/Loading';
import { Page } from '../../components/Page';
import { Time } from '../../components/Time';
import { DiffTable } from '../config/DiffTable';
import { ChangeRequestsPanel } from './ChangeRequestsPanel';
import { diffRows, jsonLines, lineOf, mergePatchBetween, problemsOf } from '../config/config-draft';
import { buildTree, childKinds, NODE_ID_RE, suggestNodeId, type TreeNode } from './hierarchy-tree';
import '../config/config.css';
import './admin.css';

const NODES_KEY = ['admin', 'nodes'] as const;

/** Admin (admin token only): the hierarchy as a tree, create nodes, issue and revoke tokens. */
export default function AdminPage() {
  const client = useClient();
  const nodes = useQuery({
    queryKey: NODES_KEY,
    queryFn: ({ signal }) => client.admin.listNodes({}, { signal }),
  });
  const [selected, setSelected] = useState<string | undefined>();
  const list = useMemo(() => nodes.data?.nodes ?? [], [nodes.data]);
  const tree = useMemo(() => buildTree(list), [list]);
  const current = list.find((n) => n.node_id === selected);
  return (
    <Page title="Admin">
      {nodes.isPending ? <Loading label="Loading the hierarchy…" /> : null}
      {nodes.isError ? (
        <ErrorView error={nodes.error} onRetry={() => void nodes.refetch()} />
      ) : null}
      {nodes.data ? (
        <div className="admin-layout">
          <section className="admin-tree cfg-section" aria-labelledby="admin-tree-h">
            <h2 id="admin-tree-h">Hierarchy</h2>
            {tree.length === 0 ? (
              <Empty title="No nodes yet">Create an organization to start.</Empty>
            ) : (
              <ul className="tree" aria-label="Organizations, groups and teams">
                {tree.map((t) => (
                  <TreeItem
                    key={t.node.node_id}
                    item={t}
                    selected={selected}
                    onSelect={setSelected}
                  />
                ))}
              </ul>
            )}
            <CreateNode nodes={list} parent={current} onCreated={(n) => setSelected(n.node_id)} />
          </section>
          <section className="admin-detail cfg-section" aria-labelledby="admin-detail-h">
            {current ? (
              <NodeDetail key={current.node_id} node={current} />
            ) : (
              <>
                <h2 id="admin-detail-h">Node</h2>
                <p className="muted">
                  Select a node in the hierarchy to see its own configuration and, for a team, its
                  tokens.
                </p>
              </>
            )}
          </section>
        </div>
      ) : null}
      <ChangeRequestsPanel />
    </Page>
  );
}

function TreeItem(props: {
  item: TreeNode<Node>;
  selected: string | undefined;
  onSelect(id: string): void;
}) {
  const { node, children } = props.item;
  const isSelected = props.selected === node.node_id;
  const tone = node.kind === 'team' ? 'success' : node.kind === 'group' ? 'info' : 'neutral';
  return (
    <li>
      <button
        type="button"
        className={isSelected ? 'tree-node selected' : 'tree-node'}
        aria-current={isSelected ? 'true' : undefined}
        onClick={() => props.onSelect(node.node_id)}
      >
        <Badge tone={tone}>{node.kind}</Badge> {node.name}{' '}
        <span className="muted">({node.node_id})</span>
      </button>
      {children.length > 0 ? (
        <ul>
          {children.map((c) => (
            <TreeItem
              key={c.node.node_id}
              item={c}
              selected={props.selected}
              onSelect={props.onSelect}
            />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

function apiProblems(err: unknown): Record<string, string> {
  if (!isInquestError(err)) return {};
  const out: Record<string, string> = {};
  for (const p of err.errors ?? (err.details ? [err.details] : [])) out[p.field] = p.error;
  if (err.field) out[err.field] = err.message;
  return out;
}

function CreateNode(props: { nodes: Node[]; parent: Node | undefined; onCreated(n: Node): void }) {
  const client = useClient();
  const queryClient = useQueryClient();
  const parents = props.nodes.filter((n) => n.kind !== 'team');
  const [parentId, setParentId] = useState<string>(
    props.parent && props.parent.kind !== 'team' ? props.parent.node_id : '',
  );
  const parent = props.nodes.find((n) => n.node_id === parentId);
  const kinds = childKinds(parent);
  const [kind, setKind] = useState<NodeKind>(kinds[kinds.length - 1] ?? 'org');
  const [name, setName] = useState('');
  const [nodeId, setNodeId] = useState('');
  const [idTouched, setIdTouched] = useState(false);
  const [created, setCreated] = useState<Node | undefined>();
  // follow the tree's selection as the default parent
  useEffect(() => {
    if (props.parent && props.parent.kind !== 'team') setParentId(props.parent.node_id);
  }, [props.parent]);
  useEffect(() => {
    if (!kinds.includes(kind)) setKind(kinds[kinds.length - 1] ?? 'org');
  }, [kinds, kind]);
  const create = useMutation({
    mutationFn: () =>
      client.admin.createNode({ node_id: nodeId, parent_id: parentId || null, kind, name }),
    onSuccess: async (n) => {
      setCreated(n);
      setName('');
      setNodeId('');
      setIdTouched(false);
      await queryClient.invalidateQueries({ queryKey: NODES_KEY });
      props.onCreated(n);
    },
  });
  const problems = apiProblems(create.error);
  // a duplicate id (409) and an unknown parent (404) belong to their inputs too
  if (isInquestError(create.error) && create.error.code === 'conflict')
    problems['node_id'] = create.error.message;
  if (isInquestError(create.error) && create.error.code === 'not_found')
    problems['parent_id'] = create.error.message;
  const idError =
    nodeId && !NODE_ID_RE.test(nodeId)
      ? 'Lowercase letters, digits and dashes, 2 to 63 characters, starting with a letter or digit'
      : problems['node_id'];
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!nodeId || !NODE_ID_RE.test(nodeId) || !name.trim()) return;
    setCreated(undefined);
    create.mutate();
  };
  const otherError =
    create.isError && Object.keys(problems).length === 0 ? create.error : undefined;
  return (
    <form className="cfg-form admin-create" aria-labelledby="admin-create-h" onSubmit={onSubmit}>
      <h3 id="admin-create-h">Create a node</h3>
      <Field label="Parent" error={problems['parent_id']}>
        <select value={parentId} onChange={(e) => setParentId(e.target.value)}>
          <option value="">None: a new organization</option>
          {parents.map((p) => (
            <option key={p.node_id} value={p.node_id}>
              {p.kind} {p.name} ({p.node_id})
            </option>
          ))}
        </select>
      </Field>
      <Field label="Kind" error={problems['kind']}>
        <select value={kind} onChange={(e) => setKind(e.target.value as NodeKind)}>
          {kinds.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Name" error={problems['name']}>
        <input
          value={name}
          required
          maxLength={200}
          autoComplete="off"
          onChange={(e) => {
            setName(e.target.value);
            if (!idTouched) setNodeId(suggestNodeId(e.target.value));
          }}
        />
      </Field>
      <Field
        label="Node id"
        hint="Fixed once created; a team's id is its team_node_id"
        error={idError}
      >
        <input
          value={nodeId}
          required
          pattern="[a-z0-9][a-z0-9\-]{1,62}"
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => {
            setIdTouched(true);
            setNodeId(e.target.value);
          }}
        />
      </Field>
      <div className="cfg-actions">
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : `Create ${kind}`}
        </button>
      </div>
      {otherError ? <ErrorView error={otherError} /> : null}
      {created ? (
        <p role="status" className="cfg-notice success">
          Created {created.kind} {created.name} ({created.node_id}).
        </p>
      ) : null}
    </form>
  );
}

function NodeDetail(props: { node: Node }) {
  const { node } = props;
  const client = useClient();
  const detail = useQuery({
    queryKey: ['admin', 'node', node.node_id],
    queryFn: ({ signal }) => client.admin.getNode(node.node_id, { signal }),
  });
  return (
    <>
      <h2 id="admin-detail-h">
        {node.kind} {node.name}
      </h2>
      <dl className="admin-facts">
        <dt>Node id</dt>
        <dd>
          <code>{node.node_id}</code>
        </dd>
        <dt>Parent</dt>
        <dd>{node.parent_id ? <code>{node.parent_id}</code> : 'none (organization root)'}</dd>
        <dt>Organization</dt>
        <dd>
          <code>{node.org_id}</code>
        </dd>
        <dt>Created</dt>
        <dd>
          <Time value={node.created_at} />
        </dd>
      </dl>
      <h3>Own configuration</h3>
      {detail.isPending ? <Loading /> : null}
      {detail.isError ? (
        <ErrorView error={detail.error} onRetry={() => void detail.refetch()} />
      ) : null}
      {detail.data ? (
        <NodeConfig
          key={detail.data.version}
          nodeId={node.node_id}
          config={detail.data.config as JsonObject}
          version={detail.data.version}
        />
      ) : null}
      {node.kind === 'team' ? <Tokens team={node} /> : null}
    </>
  );
}

/** A node's own config: shown as JSON; the admin edits it (never needs approval) with a diff first. */
function NodeConfig(props: { nodeId: string; config: JsonObject; version: number }) {
  const client = useClient();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(() => JSON.stringify(props.config, null, 2));
  const [review, setReview] = useState(false);
  const parsed = useMemo(() => {
    try {
      const v = JSON.parse(text) as unknown;
      return isPlainObject(v)
        ? { ok: true as const, value: v }
        : { ok: false as const, error: 'The configuration must be a JSON object ({ … }).' };
    } catch (e) {
      return { ok: false as const, error: `Not valid JSON: ${(e as Error).message}` };
    }
  }, [text]);
  const draft = parsed.ok ? parsed.value : props.config;
  const rows = useMemo(() => diffRows(diffConfigs(props.config, draft)), [props.config, draft]);
  const save = useMutation({
    mutationFn: () =>
      client.admin.updateNodeConfig(props.nodeId, mergePatchBetween(props.config, draft)),
    onSuccess: async () => {
      // the saved version remounts this editor (its key) with the new config
      await queryClient.invalidateQueries({ queryKey: ['admin', 'node', props.nodeId] });
      await queryClient.invalidateQueries({ queryKey: ['config'] });
    },
    onError: () => setReview(false),
  });
  const problems =
    isInquestError(save.error) &&
    (save.error.code === 'validation_error' || save.error.code === 'invalid_field')
      ? problemsOf(save.error)
      : [];
  const lines = useMemo(() => jsonLines(text), [text]);
  const id = `admin-config-${props.nodeId}`;
  if (!editing)
    return (
      <>
        <p className="muted">Version {props.version}</p>
        <pre
          className="cfg-value admin-config"
          tabIndex={0}
          aria-label={`Own configuration of ${props.nodeId}`}
        >
          {JSON.stringify(props.config, null, 2)}
        </pre>
        <div className="cfg-actions">
          <button type="button" onClick={() => setEditing(true)}>
            Edit own configuration of {props.nodeId}
          </button>
        </div>
      </>
    );
  return (
    <>
      {problems.length > 0 ? (
        <div className="cfg-notice danger" role="alert">
          <p>
            <strong>The service refused the change:</strong>
          </p>
          <ul className="cfg-problems" id={`${id}-problems`}>
            {problems.map((p, i) => (
              <li key={`${p.field}-${i}`}>
                <code>{p.field}</code>: {p.error}
                {lineOf(lines, p.field) !== undefined ? ` (line ${lineOf(lines, p.field)})` : ''}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {save.isError && problems.length === 0 ? <ErrorView error={save.error} /> : null}
      {review ? (
        <>
          <h4>Changes to {props.nodeId}</h4>
          {rows.length === 0 ? (
            <p>No changes.</p>
          ) : (
            <DiffTable
              caption={`Changes to the own configuration of ${props.nodeId}`}
              rows={rows}
            />
          )}
          <div className="cfg-actions">
            <button
              type="button"
              className="primary"
              disabled={rows.length === 0 || save.isPending}
              onClick={() => save.mutate()}
            >
              {save.isPending ? 'Saving…' : 'Save changes'}
            </button>
            <button type="button" onClick={() => setReview(false)}>
              Back to editing
            </button>
          </div>
        </>
      ) : (
        <>
          <div className="field">
            <label htmlFor={id}>Own configuration of {props.nodeId} (JSON)</label>
            <textarea
              id={id}
              className="cfg-json"
              rows={Math.min(30, Math.max(8, text.split('\n').length + 2))}
              spellCheck={false}
              value={text}
              onChange={(e) => setText(e.target.value)}
              aria-invalid={!parsed.ok || problems.length > 0 ? true : undefined}
              aria-describedby={
                [!parsed.ok ? `${id}-error` : '', problems.length > 0 ? `${id}-problems` : '']
                  .filter(Boolean)
                  .join(' ') || undefined
              }
            />
            {!parsed.ok ? (
              <div id={`${id}-error`} className="field-error" role="alert">
                {parsed.error}
              </div>
            ) : null}
          </div>
          <div className="cfg-actions">
            <button
              type="button"
              className="primary"
              disabled={!parsed.ok}
              onClick={() => setReview(true)}
            >
              Review changes
            </button>
            <button
              type="button"
              onClick={() => {
                setText(JSON.stringify(props.config, null, 2));
                setEditing(false);
              }}
            >
              Cancel
            </button>
          </div>
        </>
      )}
    </>
  );
}

function Tokens(props: { team: Node }) {
  const team = props.team.node_id;
  const client = useClient();
  const queryClient = useQueryClient();
  const key = ['admin', 'tokens', team];
  const tokens = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => client.admin.listTokens(team, { signal }),
  });
  const [issued, setIssued] = useState<CreatedToken | undefined>();
  const [confirm, setConfirm] = useState<string | undefined>();
  const revoke = useMutation({
    mutationFn: (id: string) => client.admin.revokeToken(id),
    onSuccess: async () => {
      setConfirm(undefined);
      await queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const active = (t: TokenInfo) =>
    !t.revoked_at && !(t.expires_at && Date.parse(t.expires_at) <= Date.now());
  return (
    <section className="cfg-section" aria-labelledby="admin-tokens-h">
      <h3 id="admin-tokens-h">Tokens of {props.team.name}</h3>
      {issued ? <IssuedSecret token={issued} onDone={() => setIssued(undefined)} /> : null}
      <IssueToken
        team={team}
        onIssued={async (t) => {
          setIssued(t);
          await queryClient.invalidateQueries({ queryKey: key });
        }}
      />
      {tokens.isPending ? <Loading /> : null}
      {tokens.isError ? (
        <ErrorView error={tokens.error} onRetry={() => void tokens.refetch()} />
      ) : null}
      {revoke.isError ? <ErrorView error={revoke.error} /> : null}
      {tokens.data && tokens.data.tokens.length === 0 ? <Empty title="No tokens yet" /> : null}
      {tokens.data && tokens.data.tokens.length > 0 ? (
        // scrolls sideways next to the tree: focusable, so a keyboard can scroll it (axe)
        <div
          className="table-wrap"
          role="region"
          aria-label={`Tokens of team ${team}`}
          tabIndex={0}
        >
          <table className="data-table">
            <caption className="sr-only">Tokens of team {team}</caption>
            <thead>
              <tr>
                <th scope="col">Token id</th>
                <th scope="col">Owner</th>
                <th scope="col">Permissions</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.tokens.map((t) => (
                <tr key={t.token_id}>
                  <th scope="row">
                    <code>{t.token_id}</code>
                    {t.label ? <div className="muted">{t.label}</div> : null}
                  </th>
                  <td>{t.owner}</td>
                  <td>{t.permissions.join(', ')}</td>
                  <td>
                    <Time value={t.created_at} />
                  </td>
                  <td>{t.expires_at ? <Time value={t.expires_at} /> : 'never'}</td>
                  <td>
                    {t.revoked_at ? (
                      <Badge tone="danger">revoked</Badge>
                    ) : active(t) ? (
                      <Badge tone="success">active</Badge>
                    ) : (
                      <Badge tone="warning">expired</Badge>
                    )}
                  </td>
                  <td>
                    {t.revoked_at ? null : confirm === t.token_id ? (
                      <span className="row">
                        <button
                          type="button"
                          className="danger"
                          disabled={revoke.isPending}
                          onClick={() => revoke.mutate(t.token_id)}
                        >
                          Confirm revoking {t.token_id}
                        </button>
                        <button type="button" onClick={() => setConfirm(undefined)}>
                          Keep it
                        </button>
                      </span>
                    ) : (
                      <button
                        type="button"
                        className="danger"
                        aria-label={`Revoke ${t.token_id}`}
                        onClick={() => setConfirm(t.token_id)}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

function IssueToken(props: { team: string; onIssued(t: CreatedToken): Promise<void> }) {
  const client = useClient();
  const [owner, setOwner] = useState('');
  const [write, setWrite] = useState(false);
  const [label, setLabel] = useState('');
  const [expires, setExpires] = useState('');
  const issue = useMutation({
    mutationFn: () =>
      client.admin.createToken(props.team, {
        owner: owner.trim(),
        permissions: write ? ['read', 'write'] : ['read'],
        ...(label.trim() ? { label: label.trim() } : {}),
        // the end of the chosen day, UTC
        ...(expires ? { expires_at: `${expires}T23:59:59.000Z` } : {}),
      }),
    onSuccess: async (t) => {
      setOwner('');
      setLabel('');
      setExpires('');
      setWrite(false);
      await props.onIssued(t);
    },
  });
  const problems = apiProblems(issue.error);
  const otherError = issue.isError && Object.keys(problems).length === 0 ? issue.error : undefined;
  return (
    <form
      className="cfg-form admin-issue"
      aria-label={`Issue a token for ${props.team}`}
      onSubmit={(e) => {
        e.preventDefault();
        issue.mutate();
      }}
    >
      <fieldset>
        <legend>Issue a token</legend>
        <div className="cfg-grid">
          <Field
            label="Owner e-mail"
            hint="Shown as changed_by in the audit"
            error={problems['owner']}
          >
            <input
              type="email"
              required
              value={owner}
              autoComplete="off"
              onChange={(e) => setOwner(e.target.value)}
            />
          </Field>
          <Field label="Label (optional)" error={problems['label']}>
            <input value={label} maxLength={200} onChange={(e) => setLabel(e.target.value)} />
          </Field>
          <Field label="Expires on (optional, end of day UTC)" error={problems['expires_at']}>
            <input type="date" value={expires} onChange={(e) => setExpires(e.target.value)} />
          </Field>
          <div className="field">
            <label>
              <input type="checkbox" checked={write} onChange={(e) => setWrite(e.target.checked)} />{' '}
              Write permission (edit configuration, teach knowledge)
            </label>
          </div>
        </div>
        <div className="cfg-actions">
          <button type="submit" className="primary" disabled={issue.isPending}>
            {issue.isPending ? 'Issuing…' : 'Issue token'}
          </button>
        </div>
        {otherError ? <ErrorView error={otherError} /> : null}
      </fieldset>
    </form>
  );
}

/** The new token's secret: shown once, with a copy button and a clear warning. */
function IssuedSecret(props: { token: CreatedToken; onDone(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'yes' | 'failed' | undefined>();
  useEffect(() => {
    ref.current?.focus();
  }, []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.token.token);
      setCopied('yes');
    } catch {
      // no clipboard permission (http, or denied): select the text for a manual copy
      inputRef.current?.select();
      setCopied('failed');
    }
  };
  return (
    <div
      ref={ref}
      tabIndex={-1}
      className="cfg-notice warning"
      role="region"
      aria-labelledby="admin-secret-h"
    >
      <h4 id="admin-secret-h">New token for {props.token.owner}</h4>
      <p>
        <strong>Copy it now: this is the only time the secret is shown.</strong> Inquest keeps only
        a hash; if it is lost, revoke it and issue another.
      </p>
      <div className="field">
        <label htmlFor="admin-secret">Token {props.token.token_id}</label>
        <input
          id="admin-secret"
          ref={inputRef}
          readOnly
          className="admin-secret"
          value={props.token.token}
          onFocus={(e) => e.currentTarget.select()}
        />
      </div>
      <div className="cfg-actions">
        <button type="button" className="primary" onClick={() => void copy()}>
          Copy token
        </button>
        <button type="button" onClick={props.onDone}>
          I have stored it
        </button>
        <span role="status">
          {copied === 'yes'
            ? 'Copied to the clipboard.'
            : copied === 'failed'
              ? 'Could not copy: the text is selected, press Ctrl+C.'
              : ''}
        </span>
      </div>
    </div>
  );
}
