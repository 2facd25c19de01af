import { invalidRequest, notFound, validationError, type ErrorDetail } from '@inquest/errors';
import { Subjects, eventEnvelope } from '@inquest/events';
import type { NodeRecord, TokenRecord, TokenStore } from '@inquest/store';
import type { PublishEvent } from './publish-event';
import {
  hashSecret,
  newTokenId,
  newTokenSecret,
  parseTeamToken,
  secretMatches,
} from './team-token';

/** A token as shown: everything but the hash of its secret. */
export type TokenInfo = Omit<TokenRecord, 'secret_hash'>;

export interface TeamTokensDeps {
  tokens: TokenStore;
  /** the node, or not_found / invalid_request for an unknown or malformed id */
  requireNode(nodeId: string): Promise<NodeRecord>;
  publish: PublishEvent;
}

const PERMISSION_SETS = [['read'], ['read', 'write']];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Team tokens: issued to an owner with read or read+write permission, optionally expiring,
 * revoked (announced once), verified in constant time. Only a hash of the secret is stored.
 */
export class TeamTokens {
  constructor(private readonly deps: TeamTokensDeps) {}

  /** A new token of a team; the secret is in the answer only. */
  async issue(input: {
    team_id: string;
    permissions: string[];
    owner: string;
    label?: string;
    expires_at?: string;
  }): Promise<{ token: string; info: TokenInfo }> {
    const team = await this.deps.requireNode(input.team_id);
    if (team.kind !== 'team') throw invalidRequest(`node ${input.team_id} is not a team`);
    const problems: ErrorDetail[] = [];
    const perms = [...new Set(input.permissions)].sort();
    if (
      !PERMISSION_SETS.some((s) => s.length === perms.length && s.every((p, i) => p === perms[i]))
    ) {
      problems.push({ field: 'permissions', error: 'must be ["read"] or ["read","write"]' });
    }
    if (!EMAIL.test(input.owner ?? ''))
      problems.push({ field: 'owner', error: 'must be an e-mail address' });
    let expiresAt: string | undefined;
    if (input.expires_at) {
      const t = Date.parse(input.expires_at);
      if (Number.isNaN(t))
        problems.push({ field: 'expires_at', error: 'must be an ISO 8601 timestamp' });
      else if (t <= Date.now())
        problems.push({ field: 'expires_at', error: 'must be in the future' });
      else expiresAt = new Date(t).toISOString();
    }
    if (problems.length) throw validationError(problems);
    const secret = newTokenSecret();
    const record: TokenRecord = {
      token_id: newTokenId(),
      team_id: input.team_id,
      permissions: perms,
      owner: input.owner,
      ...(input.label ? { label: input.label } : {}),
      created_at: new Date().toISOString(),
      ...(expiresAt ? { expires_at: expiresAt } : {}),
      secret_hash: hashSecret(secret),
    };
    await this.deps.tokens.insert(record);
    return { token: `${record.token_id}.${secret}`, info: tokenInfo(record) };
  }

  async list(teamId: string): Promise<TokenInfo[]> {
    // as issuing one: only a team holds tokens (an org or group is no team_node_id)
    const team = await this.deps.requireNode(teamId);
    if (team.kind !== 'team') throw invalidRequest(`node ${teamId} is not a team`);
    return (await this.deps.tokens.listByTeam(teamId)).map(tokenInfo);
  }

  /** Revokes a token; `inquest.v1.token.revoked` goes out the first time only. */
  async revoke(tokenId: string): Promise<TokenInfo> {
    const existing = await this.deps.tokens.get(tokenId);
    if (!existing) throw notFound(`token ${tokenId} not found`);
    const revoked = await this.deps.tokens.revoke(tokenId, new Date().toISOString());
    if (!revoked) throw notFound(`token ${tokenId} not found`);
    if (!existing.revoked_at) {
      await this.deps.publish(Subjects.tokenRevoked, {
        ...eventEnvelope(revoked.team_id),
        token_id: tokenId,
      });
    }
    return tokenInfo(revoked);
  }

  /** Unknown, malformed, revoked, expired or wrong secret: all simply invalid. */
  async verify(token: string): Promise<TokenInfo | undefined> {
    const parsed = parseTeamToken(token);
    if (!parsed) return undefined;
    const record = await this.deps.tokens.get(parsed.tokenId);
    // Compare even for an unknown id so timing does not tell which ids exist.
    const ok = secretMatches(parsed.secret, record?.secret_hash ?? '0'.repeat(64));
    if (!record || !ok || record.revoked_at) return undefined;
    if (record.expires_at && Date.parse(record.expires_at) <= Date.now()) return undefined;
    return tokenInfo(record);
  }
}

function tokenInfo(t: TokenRecord): TokenInfo {
  const { secret_hash: _hash, ...info } = t;
  return info;
}
