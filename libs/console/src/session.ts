// The signed-in session lives in sessionStorage (per tab, gone when the tab closes), never in a URL.

export interface Session {
  /** `<token_id>.<secret>`, `admin.<secret>` or an OIDC access token */
  token: string;
  /** how the token was obtained */
  method: 'token' | 'oidc';
  /** the team an admin token acts for (X-Inquest-Team); team tokens carry their own */
  team?: string;
}

const KEY = 'inquest.console.session';

export function loadSession(storage: Storage = sessionStorage): Session | undefined {
  try {
    const raw = storage.getItem(KEY);
    if (!raw) return undefined;
    const s = JSON.parse(raw) as Partial<Session>;
    if (typeof s.token !== 'string' || !s.token) return undefined;
    return {
      token: s.token,
      method: s.method === 'oidc' ? 'oidc' : 'token',
      ...(typeof s.team === 'string' && s.team ? { team: s.team } : {}),
    };
  } catch {
    return undefined;
  }
}

export function saveSession(session: Session, storage: Storage = sessionStorage): void {
  storage.setItem(KEY, JSON.stringify(session));
}

export function clearSession(storage: Storage = sessionStorage): void {
  storage.removeItem(KEY);
}

/** An admin token is `admin.<secret>`; OIDC tokens and team tokens act for one team. */
export function isAdminToken(token: string): boolean {
  return token.startsWith('admin.');
}
