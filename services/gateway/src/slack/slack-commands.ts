import { KNOWLEDGE_TYPES } from '@inquest/api-contract';

/** Knowledge types a `learn` may name with a leading word (`runbook: …`); default fact. */
export const KB_TYPES: readonly string[] = KNOWLEDGE_TYPES;

export type ChatCommand =
  | { kind: 'investigate'; message: string; service?: string; namespace?: string }
  | { kind: 'learn'; content: string; type: string; service?: string }
  | { kind: 'ask'; question: string; service?: string }
  | { kind: 'status'; investigationId: string }
  | { kind: 'list' }
  | { kind: 'help'; problem?: string };

export const HELP_TEXT = [
  'I understand:',
  '• `investigate <what happened> [service=x] [ns=y]`: start an investigation',
  '• `learn <service>: [runbook:|fact:|…] <text>`: teach the knowledge base',
  '• `ask <question> [service=x]`: answer from the knowledge base',
  '• `status <investigation_id>` and `list`',
].join('\n');

const OPTION = /(?:^|\s)(service|svc|ns|namespace)=(\S+)/gi;
const SERVICE_NAME = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,62}$/;

/** Takes `key=value` options out of the text. */
function options(text: string): { rest: string; service?: string; namespace?: string } {
  const out: { rest: string; service?: string; namespace?: string } = { rest: text };
  out.rest = text
    .replace(OPTION, (_m, key: string, value: string) => {
      if (/^(service|svc)$/i.test(key)) out.service = value;
      else out.namespace = value;
      return ' ';
    })
    .replace(/\s+/g, ' ')
    .trim();
  return out;
}

/** Slack's markup for mentions, links and escapes, as plain text. */
export function plainText(text: string): string {
  return text
    .replace(/<@[A-Z0-9]+(?:\|[^>]*)?>/g, ' ')
    .replace(/<#[A-Z0-9]+\|([^>]*)>/g, '#$1')
    .replace(/<(https?:[^|>]+)\|([^>]*)>/g, '$2 ($1)')
    .replace(/<(https?:[^>]+)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .trim();
}

/**
 * Reads one chat message (a mention, a direct message or the text of `/inquest`) as a command.
 * Anything it does not understand is `help`.
 */
export function parseCommand(raw: string): ChatCommand {
  const text = plainText(raw).replace(/\s+/g, ' ').trim();
  const m = /^(\S+)\s*(.*)$/s.exec(text);
  if (!m) return { kind: 'help' };
  const verb = (m[1] ?? '').toLowerCase();
  const rest = (m[2] ?? '').trim();
  switch (verb) {
    case 'investigate':
    case 'investigation': {
      const o = options(rest);
      if (!o.rest)
        return {
          kind: 'help',
          problem: 'What should I investigate? Describe the incident after `investigate`.',
        };
      return {
        kind: 'investigate',
        message: o.rest,
        ...(o.service ? { service: o.service } : {}),
        ...(o.namespace ? { namespace: o.namespace } : {}),
      };
    }
    case 'learn':
      return parseLearn(rest);
    case 'ask': {
      const o = options(rest);
      if (!o.rest) return { kind: 'help', problem: 'What is the question? Write it after `ask`.' };
      return { kind: 'ask', question: o.rest, ...(o.service ? { service: o.service } : {}) };
    }
    case 'status': {
      const id = rest.split(' ')[0] ?? '';
      if (!id)
        return { kind: 'help', problem: 'Which investigation? `status <investigation_id>`.' };
      return { kind: 'status', investigationId: id };
    }
    case 'list':
      return { kind: 'list' };
    default:
      return { kind: 'help' };
  }
}

const LEARN_USAGE =
  'Nothing to learn: write `learn <service>: <what to remember>` (optionally `runbook:`, `fact:`, … before the text). Nothing was stored.';

/** `learn [about] [<service>:] [<type>:] <content> [service=x]` */
function parseLearn(rest: string): ChatCommand {
  const o = options(rest);
  let text = o.rest.replace(/^about\s+/i, '');
  let service = o.service;
  let type = 'fact';
  for (let i = 0; i < 2; i++) {
    const lead = /^([A-Za-z0-9][A-Za-z0-9._/-]{0,62})\s*:(?!\/\/)\s*(.*)$/s.exec(text);
    if (!lead) break;
    const word = (lead[1] ?? '').toLowerCase();
    if (KB_TYPES.includes(word)) type = word;
    else if (!service && SERVICE_NAME.test(lead[1] ?? '')) service = lead[1];
    else break;
    text = (lead[2] ?? '').trim();
  }
  if (!text) return { kind: 'help', problem: LEARN_USAGE };
  return { kind: 'learn', content: text, type, ...(service ? { service } : {}) };
}
