/**
 * Retrieval quality of the knowledge base: a labelled set of operational questions against a
 * corpus of runbooks (tools/bench/data/kb), taught through the real knowledge-raptor service
 * (gRPC on loopback, embedded SQLite + sqlite-vec + FTS5, RAPTOR tree built). Reports recall@1,
 * recall@5, MRR@10 and nDCG@10 (binary relevance, per document) for dense, sparse and hybrid
 * next to a plain Okapi BM25 baseline over whole documents (lower-case words, no stemming, no
 * vocabulary) computed in the same run.
 *
 * `--dump=FILE` writes, per question, the rank of its first relevant runbook under each strategy
 * and hybrid's top 3 (to read the misses).
 *
 * `--distractors=N` first teaches N notes of ~1 KB made of sentences of the same runbooks (the
 * kb-speed documents) into the team, so the runbooks must be found among N+55 documents that
 * share their wording (the baseline ranks the same documents); the tree is not built then (a rebuild of that many chunks would dominate
 * the run). The embedded BM25 pass ranks at most INQUEST_KB_SPARSE_POSTING_BUDGET postings
 * (default 60,000; query terms rarest first): run once more with
 * INQUEST_KB_SPARSE_POSTING_BUDGET=0 to see what that bound costs in quality and gains in latency.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@inquest/grpc-kit';
import { start } from '@inquest/knowledge-raptor-service';
import { silentLogger } from '@inquest/observability';
import { knowledgeV1 } from '@inquest/proto';
import { freePort } from '@inquest/testing';
import {
  docFactory,
  flag,
  loadKbCorpus,
  percentile,
  type LabelledQuestion,
  type Runbook,
} from './kb-bench-support';

interface Metrics {
  r1: number;
  r5: number;
  mrr10: number;
  ndcg10: number;
}

function evaluate(ranked: string[][], questions: LabelledQuestion[]): Metrics {
  let r1 = 0;
  let r5 = 0;
  let mrr = 0;
  let ndcg = 0;
  questions.forEach((q, i) => {
    const list = ranked[i]!.slice(0, 10);
    const rel = new Set(q.relevant);
    const hits = (k: number) => list.slice(0, k).filter((d) => rel.has(d)).length / rel.size;
    r1 += hits(1);
    r5 += hits(5);
    const first = list.findIndex((d) => rel.has(d));
    if (first >= 0) mrr += 1 / (first + 1);
    let dcg = 0;
    list.forEach((d, j) => {
      if (rel.has(d)) dcg += 1 / Math.log2(j + 2);
    });
    let idcg = 0;
    for (let j = 0; j < Math.min(rel.size, 10); j++) idcg += 1 / Math.log2(j + 2);
    ndcg += dcg / idcg;
  });
  const n = questions.length;
  return { r1: r1 / n, r5: r5 / n, mrr10: mrr / n, ndcg10: ndcg / n };
}

/** Plain Okapi BM25 (k1 = 1.2, b = 0.75) over whole documents: the baseline. */
function bm25Baseline(runbooks: Runbook[], questions: LabelledQuestion[]): string[][] {
  const tok = (s: string) => s.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const docs = runbooks.map((r) => tok(`${r.title}\n${r.content}`));
  const avgdl = docs.reduce((s, d) => s + d.length, 0) / docs.length;
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  const tfs = docs.map((d) => {
    const m = new Map<string, number>();
    for (const t of d) m.set(t, (m.get(t) ?? 0) + 1);
    return m;
  });
  const N = docs.length;
  return questions.map((q) => {
    const terms = [...new Set(tok(q.q))];
    const scores = docs.map((d, i) => {
      let s = 0;
      for (const t of terms) {
        const f = tfs[i]!.get(t);
        if (!f) continue;
        const n = df.get(t)!;
        const idf = Math.log(1 + (N - n + 0.5) / (n + 0.5));
        s += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.length) / avgdl));
      }
      return { id: runbooks[i]!.id, s };
    });
    return scores
      .filter((x) => x.s > 0)
      .sort((a, b) => b.s - a.s)
      .map((x) => x.id);
  });
}

const pct = (x: number) => x.toFixed(3);

export async function run(args: string[] = []): Promise<void> {
  const distractors = flag(args, 'distractors', 0);
  const { runbooks, questions, hardQuestions, blindQuestions } = loadKbCorpus();
  const dataDir = mkdtempSync(join(tmpdir(), 'inquest-kb-quality-'));
  const svc = await start(
    {
      INQUEST_GRPC_PORT: '0',
      INQUEST_DATA_DIR: dataDir,
      INQUEST_CONFIG_ADDR: `127.0.0.1:${await freePort()}`,
      INQUEST_KB_REBUILD_DEBOUNCE_MS: '600000',
      INQUEST_LOG_LEVEL: 'silent',
      INQUEST_KB_SPARSE_POSTING_BUDGET: process.env['INQUEST_KB_SPARSE_POSTING_BUDGET'],
    },
    { logger: silentLogger() },
  );
  const kb = createClient(knowledgeV1.KnowledgeServiceClient, svc.address, { deadlineMs: 60000 });
  const team = 'bench-quality';
  try {
    const note = docFactory(7);
    const notes = Array.from({ length: distractors }, (_, i) => note(i));
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < distractors) {
          const i = next++;
          await svc.knowledge.teach({ teamId: team, content: notes[i]!, type: 'runbook' });
        }
      }),
    );
    const docToRunbook = new Map<string, string>();
    for (const r of runbooks) {
      const res = await kb.teach({
        team_id: team,
        content: r.content,
        type: r.type,
        service: r.service,
        title: r.title,
        tags: [],
        format: 'text',
      });
      docToRunbook.set(res.document_id, r.id);
    }
    const t0 = Date.now();
    if (!distractors) await svc.rebuildTree(team);
    const stats = await kb.getTreeStats({ team_id: team });
    process.stdout.write(
      `corpus: ${runbooks.length} runbooks${distractors ? ` + ${distractors} distractor notes (no tree)` : ''}, ${stats.total_chunks} chunks, tree depth ${stats.tree_depth}, nodes by layer ${JSON.stringify(stats.nodes_by_level)}${distractors ? '' : ` (built in ${Date.now() - t0} ms)`}; ${questions.length} + ${hardQuestions.length} (hard) + ${blindQuestions.length} (blind) labelled questions; sparse posting budget ${process.env['INQUEST_KB_SPARSE_POSTING_BUDGET'] ?? '60000 (default)'}\n\n`,
    );
    // both sets, every strategy and the baseline in the same run; the hard set also per kind
    const sets: [string, LabelledQuestion[]][] = [['questions.json', questions]];
    for (const [file, short, qs] of [
      ['questions-hard.json', 'hard', hardQuestions],
      ['questions-blind.json', 'blind', blindQuestions],
    ] as const) {
      if (!qs.length) continue;
      sets.push([file, qs]);
      for (const kind of [...new Set(qs.map((q) => q.kind ?? 'other'))].sort())
        sets.push([`  ${short}: ${kind}`, qs.filter((q) => (q.kind ?? 'other') === kind)]);
    }
    const allQuestions = [...questions, ...hardQuestions, ...blindQuestions];
    const baselineDocs = [
      ...runbooks,
      ...notes.map((content, i) => ({ id: `note-${i}`, title: '', content }) as Runbook),
    ];
    const rankedBy = new Map<string, Map<LabelledQuestion, string[]>>();
    const baseline = bm25Baseline(baselineDocs, allQuestions);
    rankedBy.set(
      'bm25 baseline (plain)',
      new Map(allQuestions.map((q, i) => [q, baseline[i]!] as const)),
    );
    const latency: string[] = [];
    for (const strategy of ['dense', 'sparse', 'hybrid']) {
      const ranked = new Map<LabelledQuestion, string[]>();
      const took: number[] = [];
      for (const q of allQuestions) {
        const s0 = performance.now();
        const r = await kb.retrieve({
          team_id: team,
          query: q.q,
          strategy,
          top_k: 30,
          min_relevance: 0,
          levels: [],
          levels_enum: [],
        });
        took.push(performance.now() - s0);
        // ranked per document; a distractor note takes its place in the ranking (never relevant)
        const seen: string[] = [];
        for (const x of r.results) {
          const id = docToRunbook.get(x.document_id) ?? x.document_id;
          if (!seen.includes(id)) seen.push(id);
        }
        ranked.set(q, seen);
      }
      rankedBy.set(`${strategy}${strategy === 'hybrid' ? ' (default)' : ''}`, ranked);
      took.sort((a, b) => a - b);
      latency.push(
        `${strategy} p50 ${percentile(took, 50).toFixed(1)} ms, p95 ${percentile(took, 95).toFixed(1)} ms`,
      );
    }
    const dump = args.find((a) => a.startsWith('--dump='))?.slice('--dump='.length);
    if (dump) {
      // per question: the rank (1-based, 0 = not in the top 30) of its first relevant runbook
      const rows = allQuestions.map((q) => ({
        q: q.q,
        kind: q.kind,
        relevant: q.relevant,
        ranks: Object.fromEntries(
          [...rankedBy].map(([name, ranked]) => {
            const list = ranked.get(q)!;
            const first = list.findIndex((d) => q.relevant.includes(d));
            return [name.split(' ')[0], first + 1] as const;
          }),
        ),
        top: rankedBy.get('hybrid (default)')!.get(q)!.slice(0, 3),
      }));
      writeFileSync(dump, JSON.stringify(rows, null, 1));
    }
    const results = new Map<string, Map<string, Metrics>>();
    for (const [setName, qs] of sets) {
      process.stdout.write(
        `${setName} (${qs.length} questions)\n${'strategy'.padEnd(24)} recall@1  recall@5  MRR@10  nDCG@10\n`,
      );
      const bySet = new Map<string, Metrics>();
      for (const [name, ranked] of rankedBy) {
        const m = evaluate(
          qs.map((q) => ranked.get(q)!),
          qs,
        );
        bySet.set(name, m);
        process.stdout.write(
          `${name.padEnd(24)} ${pct(m.r1).padStart(8)}  ${pct(m.r5).padStart(8)}  ${pct(m.mrr10).padStart(6)}  ${pct(m.ndcg10).padStart(7)}\n`,
        );
      }
      results.set(setName, bySet);
      process.stdout.write('\n');
    }
    process.stdout.write(`retrieve latency (top 30, gRPC): ${latency.join('; ')}\n`);
    let beatsAll = true;
    for (const [setName] of sets.filter(([n]) => !n.startsWith(' '))) {
      const m = results.get(setName)!;
      const base = m.get('bm25 baseline (plain)')!;
      const def = m.get('hybrid (default)')!;
      const legs = ['dense', 'sparse'].map((n) => m.get(n)!.mrr10);
      const beats = def.mrr10 > base.mrr10 && def.ndcg10 > base.ndcg10;
      beatsAll &&= beats;
      process.stdout.write(
        `\n${setName}: default strategy (hybrid) ${beats ? 'BEATS' : 'does NOT beat'} the plain BM25 baseline (MRR@10 ${pct(def.mrr10)} vs ${pct(base.mrr10)}, +${pct(def.mrr10 - base.mrr10)}; nDCG@10 ${pct(def.ndcg10)} vs ${pct(base.ndcg10)}); ${def.mrr10 >= Math.max(...legs) ? 'not below' : 'BELOW'} its best leg (MRR@10 ${pct(Math.max(...legs))})`,
      );
    }
    process.stdout.write('\n');
    if (!beatsAll) process.exitCode = 1;
  } finally {
    kb.close();
    await svc.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
