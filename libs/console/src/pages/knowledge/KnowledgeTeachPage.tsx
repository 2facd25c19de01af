import { useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import type {
  KnowledgeType,
  TeachRequest,
  TeachResponse,
  UploadDocumentRequest,
} from '@inquest/client';
import { Link } from 'wouter';
import { useClient } from '../../api/client';
import { Badge, statusTone } from '../../components/Badge';
import { ErrorView } from '../../components/ErrorView';
import { Field } from '../../components/Field';
import { Page } from '../../components/Page';
import { RequireTeam } from '../../components/RequireTeam';
import { KnowledgeNav } from './KnowledgeNav';
import { READ_ONLY_NOTE, useCanWrite, useTeamKey } from './team-scope';
import { TypeSelect } from './TypeSelect';
import { fieldProblems, parseTags, shownOnFields } from './knowledge-text';
import {
  MARKDOWN_ACCEPT,
  formatBytes,
  prepareMarkdownUpload,
  type PreparedUpload,
} from './markdown-upload';
import { rememberDocuments } from './recent-documents';
import './knowledge.css';

const TEACH_FIELDS = ['title', 'content', 'type', 'service', 'tags'];

function Stored(props: { res: TeachResponse; what: string; titles?: (string | undefined)[] }) {
  const ids = props.res.document_ids ?? [props.res.document_id];
  return (
    <div className="kb-stored" role="status">
      <p>
        {props.what}:{' '}
        <Badge tone={statusTone(props.res.status === 'indexed' ? 'completed' : 'pending')}>
          {props.res.status}
        </Badge>{' '}
        level {props.res.level}, {props.res.chunks} chunk{props.res.chunks === 1 ? '' : 's'}.
      </p>
      <ul>
        {ids.map((id, i) => (
          <li key={id}>
            {props.titles?.[i] ? `${props.titles[i]}: ` : null}
            <Link href={`/knowledge/documents?id=${encodeURIComponent(id)}`}>{id}</Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

function TeachForm() {
  const client = useClient();
  const readOnly = useCanWrite() === false;
  const team = useTeamKey();
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [type, setType] = useState<KnowledgeType>('runbook');
  const [service, setService] = useState('');
  const [tags, setTags] = useState('');
  const teach = useMutation({
    mutationFn: (body: TeachRequest) => client.kb.teach(body),
    onSuccess: (res, body) => {
      rememberDocuments(team, [
        {
          document_id: res.document_id,
          ...(body.title ? { title: body.title } : {}),
          type: body.type,
          origin: 'teach',
          taught_at: new Date().toISOString(),
        },
      ]);
    },
  });
  const problems = fieldProblems(teach.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const tagList = parseTags(tags);
    teach.mutate({
      content,
      type,
      ...(title.trim() ? { title: title.trim() } : {}),
      ...(service.trim() ? { service: service.trim() } : {}),
      ...(tagList.length ? { tags: tagList } : {}),
    });
  };
  return (
    <form className="card kb-form" aria-labelledby="kb-teach-title" onSubmit={submit}>
      <h2 id="kb-teach-title">Teach</h2>
      <Field label="Title" hint="Optional" error={problems.title}>
        <input value={title} maxLength={300} onChange={(e) => setTitle(e.target.value)} />
      </Field>
      <Field
        label="Content"
        hint="Markdown allowed. Lines like “Dependencies: db, cache”, “Owner: team” and “Experts: ana@x.org” feed the knowledge graph."
        error={problems.content}
      >
        <textarea rows={8} required value={content} onChange={(e) => setContent(e.target.value)} />
      </Field>
      <div className="kb-form-row">
        <Field label="Type" error={problems.type}>
          <TypeSelect value={type} onChange={(v) => setType(v as KnowledgeType)} />
        </Field>
        <Field label="Service" hint="Optional" error={problems.service}>
          <input value={service} maxLength={128} onChange={(e) => setService(e.target.value)} />
        </Field>
        <Field label="Tags" hint="Comma-separated, optional" error={problems.tags}>
          <input value={tags} onChange={(e) => setTags(e.target.value)} />
        </Field>
      </div>
      <div className="row">
        <button type="submit" className="primary" disabled={teach.isPending || readOnly}>
          {teach.isPending ? 'Teaching…' : 'Teach'}
        </button>
      </div>
      {teach.isError && !shownOnFields(teach.error, TEACH_FIELDS) ? (
        <ErrorView error={teach.error} />
      ) : null}
      {teach.data ? <Stored res={teach.data} what="Stored" /> : null}
    </form>
  );
}

function UploadForm() {
  const client = useClient();
  const readOnly = useCanWrite() === false;
  const team = useTeamKey();
  const fileRef = useRef<HTMLInputElement>(null);
  const [fileName, setFileName] = useState<string>();
  const [prepared, setPrepared] = useState<PreparedUpload>();
  const [type, setType] = useState<KnowledgeType>('runbook');
  const [service, setService] = useState('');
  const [tags, setTags] = useState('');
  const [title, setTitle] = useState('');
  const [uploadedTitles, setUploadedTitles] = useState<(string | undefined)[]>([]);
  const upload = useMutation({
    mutationFn: (body: UploadDocumentRequest) => client.kb.uploadDocument(body),
    onSuccess: (res, body) => {
      if (!prepared?.ok) return;
      const ids = res.document_ids ?? [res.document_id];
      setUploadedTitles(ids.map((_, i) => prepared.sections[i]?.title ?? body.title));
      rememberDocuments(
        team,
        ids.map((id, i) => ({
          document_id: id,
          ...((prepared.sections[i]?.title ?? body.title)
            ? { title: prepared.sections[i]?.title ?? body.title }
            : {}),
          type: body.type ?? 'runbook',
          origin: fileName ?? 'upload',
          taught_at: new Date().toISOString(),
        })),
      );
    },
  });
  const problems = fieldProblems(upload.error);

  const choose = async (file: File | undefined) => {
    upload.reset();
    setFileName(file?.name);
    if (!file) {
      setPrepared(undefined);
      return;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    const p = prepareMarkdownUpload(file.name, bytes, {
      type,
      service,
      tags: parseTags(tags),
      title,
    });
    setPrepared(p);
    if (p.ok && !title) setTitle(p.suggestedTitle);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!prepared?.ok) return;
    const tagList = parseTags(tags);
    upload.mutate({
      content: prepared.content,
      type,
      ...(title.trim() ? { title: title.trim() } : {}),
      ...(service.trim() ? { service: service.trim() } : {}),
      ...(tagList.length ? { tags: tagList } : {}),
    });
  };

  return (
    <form className="card kb-form" aria-labelledby="kb-upload-title" onSubmit={submit}>
      <h2 id="kb-upload-title">Upload Markdown</h2>
      <p className="muted">
        A .md file of at most 1 MiB (UTF-8). Each top-level heading becomes its own document.
      </p>
      <Field
        label="Markdown file"
        error={prepared && !prepared.ok ? prepared.error : problems.content}
      >
        <input
          ref={fileRef}
          type="file"
          accept={MARKDOWN_ACCEPT}
          onChange={(e) => void choose(e.target.files?.[0])}
        />
      </Field>
      {prepared?.ok ? (
        <div className="kb-preview" aria-live="polite">
          <p>
            {fileName} ({formatBytes(prepared.bytes)}) becomes{' '}
            <strong>
              {prepared.sections.length} document{prepared.sections.length === 1 ? '' : 's'}
            </strong>
            :
          </p>
          <ol>
            {prepared.sections.map((s, i) => (
              <li key={i}>{s.title ?? <em>{title || 'Text before the first heading'}</em>}</li>
            ))}
          </ol>
        </div>
      ) : null}
      <div className="kb-form-row">
        <Field label="Type of the documents" error={problems.type}>
          <TypeSelect value={type} onChange={(v) => setType(v as KnowledgeType)} />
        </Field>
        <Field label="Service of the documents" hint="Optional" error={problems.service}>
          <input value={service} maxLength={128} onChange={(e) => setService(e.target.value)} />
        </Field>
        <Field label="Tags of the documents" hint="Comma-separated, optional" error={problems.tags}>
          <input value={tags} onChange={(e) => setTags(e.target.value)} />
        </Field>
      </div>
      <Field
        label="Title for text before the first heading"
        hint="Defaults to the file name"
        error={problems.title}
      >
        <input value={title} maxLength={300} onChange={(e) => setTitle(e.target.value)} />
      </Field>
      <div className="row">
        <button
          type="submit"
          className="primary"
          disabled={!prepared?.ok || upload.isPending || readOnly}
        >
          {upload.isPending ? 'Uploading…' : 'Upload'}
        </button>
        {fileName ? (
          <button
            type="button"
            className="ghost"
            onClick={() => {
              if (fileRef.current) fileRef.current.value = '';
              void choose(undefined);
              setTitle('');
            }}
          >
            Clear file
          </button>
        ) : null}
      </div>
      {upload.isError && !shownOnFields(upload.error, TEACH_FIELDS) ? (
        <ErrorView error={upload.error} />
      ) : null}
      {upload.data ? (
        <Stored res={upload.data} what={`Uploaded ${fileName ?? ''}`} titles={uploadedTitles} />
      ) : null}
    </form>
  );
}

export default function KnowledgeTeachPage() {
  const canWrite = useCanWrite();
  return (
    <Page title="Teach the knowledge base">
      <KnowledgeNav />
      <RequireTeam>
        {canWrite === false ? (
          <p className="card kb-inline-error" role="note">
            {READ_ONLY_NOTE}
          </p>
        ) : null}
        <div className="kb-two">
          <TeachForm />
          <UploadForm />
        </div>
      </RequireTeam>
    </Page>
  );
}
