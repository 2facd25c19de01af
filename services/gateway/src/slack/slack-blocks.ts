import type { knowledgeV1 } from '@inquest/proto';
import type { InvestigationView } from '../grpc/investigation-messages';

/** A Block Kit block (https://api.slack.com/block-kit), kept loose: Slack validates them. */
export type Block = Record<string, unknown>;

export const ACTION_CANCEL = 'inquest_cancel';
export const ACTION_APPROVE = 'inquest_approve';
export const ACTION_REJECT = 'inquest_reject';
export const ACTION_UNDO_LEARN = 'inquest_undo_learn';

/** Slack's limit for the text of one section. */
const MAX_SECTION = 2900;
const clip = (s: string, n = MAX_SECTION) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
/** Text a user wrote, shown without turning into Slack markup (mentions, links). */
export const escapeMrkdwn = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const section = (text: string): Block => ({
  type: 'section',
  text: { type: 'mrkdwn', text: clip(text) },
});
const context = (text: string): Block => ({
  type: 'context',
  elements: [{ type: 'mrkdwn', text: clip(text) }],
});

export function consoleUrl(baseUrl: string, investigationId: string): string {
  return `${baseUrl}/console/investigations/${encodeURIComponent(investigationId)}`;
}

/** The progress message of a running investigation, edited as steps finish; with a Cancel button. */
export function progressBlocks(inv: InvestigationView): Block[] {
  const p = inv.progress;
  const step = p?.current_step || (inv.status === 'pending' ? 'waiting for a runner' : 'starting');
  const count = p && p.steps_total > 0 ? ` (${p.steps_completed}/${p.steps_total})` : '';
  return [
    section(`:mag: Investigating \`${inv.investigation_id}\`: ${step}${count}`),
    {
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: ACTION_CANCEL,
          text: { type: 'plain_text', text: 'Cancel' },
          style: 'danger',
          value: inv.investigation_id,
        },
      ],
    },
  ];
}

/**
 * The reply to `learn`: what was stored and, when this teaching created the document, an Undo
 * button whose value names the team and the document (`<team>:<document_id>`).
 */
export function learnedBlocks(
  text: string,
  undo?: { teamId: string; documentId: string },
): Block[] {
  if (!undo) return [section(text)];
  return [
    section(text),
    {
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: ACTION_UNDO_LEARN,
          text: { type: 'plain_text', text: 'Undo' },
          value: `${undo.teamId}:${undo.documentId}`,
        },
      ],
    },
  ];
}

/** The text of the progress message once the investigation ended (no button). */
export function endedText(inv: InvestigationView): string {
  switch (inv.status) {
    case 'completed':
      return `:white_check_mark: Investigation \`${inv.investigation_id}\` completed.`;
    case 'cancelled':
      return `:no_entry_sign: Investigation \`${inv.investigation_id}\` was cancelled.`;
    default:
      return `:x: Investigation \`${inv.investigation_id}\` failed: ${inv.error?.message ?? 'unknown error'} (${inv.error?.code ?? 'internal'})`;
  }
}

/**
 * The report of a completed investigation: summary, root cause with confidence, evidence,
 * timeline, recommendations and a link to the console page.
 */
export function reportBlocks(inv: InvestigationView, baseUrl: string): Block[] {
  const r = inv.result;
  const blocks: Block[] = [
    {
      type: 'header',
      text: { type: 'plain_text', text: clip(`Investigation report ${inv.investigation_id}`, 150) },
    },
  ];
  if (inv.status !== 'completed' || !r) {
    blocks.push(section(endedText(inv)));
  } else {
    if (r.summary) blocks.push(section(escapeMrkdwn(r.summary)));
    const rc = r.root_cause;
    if (rc) {
      blocks.push(
        section(
          `*Root cause* (confidence ${Math.round(rc.confidence)}%)\n${escapeMrkdwn(rc.description)}`,
        ),
      );
      if (rc.evidence.length)
        blocks.push(
          section(`*Evidence*\n${rc.evidence.map((e) => `• ${escapeMrkdwn(e)}`).join('\n')}`),
        );
    }
    if (r.timeline.length)
      blocks.push(
        section(
          `*Timeline*\n${r.timeline.map((t) => `• ${t.timestamp} ${escapeMrkdwn(t.event)}`).join('\n')}`,
        ),
      );
    if (r.recommendations.length)
      blocks.push(
        section(
          `*Recommendations*\n${r.recommendations
            .map((x) => `• [${x.priority}] ${escapeMrkdwn(x.action)}`)
            .join('\n')}`,
        ),
      );
    if (r.affected_systems.length)
      blocks.push(context(`Affected: ${r.affected_systems.map(escapeMrkdwn).join(', ')}`));
  }
  blocks.push(
    context(
      `<${consoleUrl(baseUrl, inv.investigation_id)}|Open in the Inquest console> · agent ${inv.agent}` +
        (inv.tools_used.length ? ` · tools: ${inv.tools_used.join(', ')}` : ''),
    ),
  );
  return blocks;
}

/** A knowledge-base answer with its sources. */
export function answerBlocks(question: string, a: knowledgeV1.AnswerResponse): Block[] {
  const blocks: Block[] = [
    section(`*Q:* ${escapeMrkdwn(question)}\n${escapeMrkdwn(a.answer || 'No answer found.')}`),
  ];
  const sources = a.sources ?? [];
  if (sources.length)
    blocks.push(
      context(
        `Sources: ${sources
          .slice(0, 5)
          .map((s) => `${escapeMrkdwn(s.title || s.document_id)} (\`${s.document_id}\`)`)
          .join(' · ')} · confidence ${Math.round((a.confidence ?? 0) * 100)}%`,
      ),
    );
  return blocks;
}
