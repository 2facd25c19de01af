import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { KnowledgeType as KnowledgeTypeSchema, RetrievalStrategy } from '@inquest/api-contract';
import { Option } from 'commander';
import type { KnowledgeType } from '@inquest/client';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context';
import { CliExit } from '../errors-output';
import { json, table, truncate } from '../format';

const TYPES: readonly KnowledgeType[] = KnowledgeTypeSchema.options;
const STRATEGIES = RetrievalStrategy.options;

export function registerKnowledgeCommands(program: Command, ctx: CliContext): void {
  const kb = program.command('kb').description('the knowledge base');

  kb.command('teach')
    .description('add knowledge from a file, or from stdin with -')
    .argument('<file>', 'a Markdown/text file, or - for stdin')
    .addOption(
      new Option('-t, --type <type>', 'kind of knowledge').choices(TYPES).default('runbook'),
    )
    .option('-s, --service <service>', 'service it is about')
    .option('--tags <tags>', 'comma-separated tags')
    .option('--title <title>', 'title (default: the file name)')
    .option('--json', 'print JSON')
    .action(
      async (
        file: string,
        f: { type: KnowledgeType; service?: string; tags?: string; title?: string; json?: boolean },
      ) => {
        let content: string;
        try {
          content = file === '-' ? await ctx.readStdin() : readFileSync(file, 'utf8');
        } catch (err) {
          throw new CliExit(
            1,
            `error: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
          );
        }
        if (!content.trim())
          throw new CliExit(1, `error: ${file === '-' ? 'stdin' : file} is empty`);
        const tags = f.tags
          ?.split(',')
          .map((t) => t.trim())
          .filter(Boolean);
        const title = f.title ?? (file === '-' ? undefined : basename(file));
        const res = await ctx.client().kb.teach({
          content,
          type: f.type,
          ...(f.service ? { service: f.service } : {}),
          ...(tags?.length ? { tags } : {}),
          ...(title ? { title } : {}),
        });
        ctx.print(
          f.json
            ? json(res)
            : `Taught ${res.document_id} (${res.level}, ${res.chunks} chunk${res.chunks === 1 ? '' : 's'}, ${res.status})`,
        );
      },
    );

  kb.command('search')
    .description('retrieve the most relevant knowledge')
    .argument('<query>')
    .option('-s, --service <service>', 'prefer this service')
    .option('-k, --top-k <n>', 'how many results')
    .addOption(new Option('--strategy <strategy>', 'retrieval strategy').choices(STRATEGIES))
    .option('--json', 'print JSON')
    .action(
      async (
        query: string,
        f: {
          service?: string;
          topK?: string;
          strategy?: 'dense' | 'sparse' | 'hybrid';
          json?: boolean;
        },
      ) => {
        const res = await ctx.client().kb.retrieve({
          query,
          ...(f.service ? { service: f.service } : {}),
          ...(f.topK ? { top_k: Number(f.topK) } : {}),
          ...(f.strategy ? { strategy: f.strategy } : {}),
        });
        if (f.json) return ctx.print(json(res));
        if (!res.results.length) return ctx.print('No results.');
        ctx.print(
          table(
            ['SCORE', 'LEVEL', 'TYPE', 'DOCUMENT', 'CONTENT'],
            res.results.map((r) => [
              r.score.toFixed(3),
              r.level,
              r.type,
              r.document_id,
              truncate(r.content, 70),
            ]),
            ctx.out,
          ),
        );
        ctx.print(ctx.out.dim(`query ${res.query_id} · ${res.strategy} · ${res.took_ms} ms`));
      },
    );

  kb.command('ask')
    .description('answer a question from the knowledge base, with sources')
    .argument('<question>')
    .option('-s, --service <service>', 'prefer this service')
    .option('--no-sources', 'leave out the sources')
    .option('--json', 'print JSON')
    .action(async (question: string, f: { service?: string; sources: boolean; json?: boolean }) => {
      const res = await ctx.client().kb.answer({
        question,
        include_sources: f.sources,
        ...(f.service ? { service: f.service } : {}),
      });
      if (f.json) return ctx.print(json(res));
      ctx.print(res.answer);
      ctx.print(ctx.out.dim(`confidence ${res.confidence} · query ${res.query_id}`));
      if (res.sources?.length) {
        ctx.print(ctx.out.bold('\nSources'));
        // numbered as the answer cites them ([1], [2]); generated knowledge says so
        res.sources.forEach((s, i) =>
          ctx.print(
            `  [${i + 1}] ${s.title || s.document_id} ${ctx.out.dim(
              `(${[s.type, s.provenance === 'generated' ? 'generated' : '', s.document_id, s.score.toFixed(3)].filter(Boolean).join(', ')})`,
            )}`,
          ),
        );
      }
    });

  kb.command('status')
    .description('whether a taught document is indexed')
    .argument('<document_id>')
    .option('--json', 'print JSON')
    .action(async (id: string, f: { json?: boolean }) => {
      const res = await ctx.client().kb.status(id);
      ctx.print(f.json ? json(res) : `${res.document_id} ${res.status} (${res.chunks} chunks)`);
    });

  kb.command('delete')
    .description('delete a taught document: it is no longer retrieved')
    .argument('<document_id>')
    .option('--json', 'print JSON')
    .action(async (id: string, f: { json?: boolean }) => {
      await ctx.client().kb.deleteDocument(id);
      ctx.print(f.json ? json({ document_id: id, deleted: true }) : `Deleted ${id}`);
    });

  kb.command('stats')
    .description('knowledge tree statistics')
    .action(async () => ctx.print(json(await ctx.client().kb.treeStats())));
}
