import type { AuthContext } from '../http/route';

/** What the authenticator sees of a request. */
export interface Credentials {
  authorization?: string;
  /** X-Inquest-Team (admin tokens name the team this way) */
  team?: string;
  /** client address, for limiting failed attempts */
  ip?: string;
  requestId: string;
}

/**
 * Turns credentials into an AuthContext or throws DomainError unauthenticated (401, one message
 * for every failure). Team resolution for admin tokens happens in the app (X-Inquest-Team).
 */
export interface Authenticator {
  authenticate(credentials: Credentials): Promise<AuthContext>;
  /**
   * Whether `authorization` presents a credential in a form this authenticator verifies. A refusal
   * of one that does not (no header, another scheme, a malformed token) is not a failed attempt:
   * nothing was guessed and nothing asked of the token store. Absent: every refusal counts.
   */
  presentsCredential?(authorization: string | undefined): boolean;
}
