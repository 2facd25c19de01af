import { knowledgeV1 } from '@inquest/proto';
import { serveDouble, teamOf, type DoubleSwitches } from './serve-double';

export interface KnowledgeCall {
  method: keyof typeof knowledgeV1.KnowledgeServiceService;
  teamId?: string;
  /** the query of Retrieve / ListPatterns */
  query?: string;
  /** Retrieve's `internal` flag (the engine's own lookup: no usage counted) */
  internal?: boolean;
}

export interface KnowledgeServiceDouble extends DoubleSwitches {
  address: string;
  /** what Retrieve answers (filtered by the requested levels) */
  chunks: knowledgeV1.RetrievedChunk[];
  /** what ListPatterns answers */
  patterns: knowledgeV1.LearnedPattern[];
  /** every call in order (including calls refused while `down`) */
  calls: KnowledgeCall[];
  stop(): Promise<void>;
}

/**
 * A real gRPC KnowledgeService (knowledge-raptor's contract) on loopback with scripted retrieval:
 * Retrieve answers the scripted chunks of the requested levels, ListPatterns the scripted
 * patterns. Every other method answers UNAVAILABLE.
 */
export async function startKnowledgeServiceDouble(): Promise<KnowledgeServiceDouble> {
  const double: KnowledgeServiceDouble = {
    address: '',
    down: false,
    delayMs: 0,
    chunks: [],
    patterns: [],
    calls: [],
    stop: async () => undefined,
  };
  const server = await serveDouble({
    definition: knowledgeV1.KnowledgeServiceService,
    name: 'inquest.knowledge.v1.KnowledgeService',
    switches: double,
    onCall: (method, req) => {
      const teamId = teamOf(req);
      const { query, internal } = req as { query?: unknown; internal?: unknown };
      double.calls.push({
        method: method as KnowledgeCall['method'],
        ...(teamId === undefined ? {} : { teamId }),
        ...(typeof query === 'string' ? { query } : {}),
        ...(typeof internal === 'boolean' ? { internal } : {}),
      });
    },
    scripted: {
      retrieve: async (req) => {
        const levels = req.levels ?? [];
        const results = double.chunks.filter(
          (c) => levels.length === 0 || levels.includes(c.level),
        );
        return { query_id: 'q1', strategy: req.strategy ?? 'hybrid', results, took_ms: 1 };
      },
      listPatterns: async () => ({ patterns: double.patterns }),
    },
  });
  double.address = server.address;
  double.stop = () => server.shutdown(200);
  return double;
}
