import { createHash, randomBytes } from 'node:crypto';

/** How long a login link works, in real time: the developer's clock may be days ahead, a link's life is not. */
export const LINK_LIFETIME_MS = 5 * 60_000;
export const SESSION_COOKIE = 'ledger_session';

export interface Sessions {
  /** A one-time login token for the developer, and when it expires (real time, ms). */
  issue(developerId: string): { token: string; expiresAt: number };
  /** Spends a token: a new session's secret, or undefined for a token used, expired or unknown. */
  consume(token: string): { session: string; developerId: string } | undefined;
  /** The developer of a session secret (the cookie's value), if it is one. */
  developerOf(session: string | undefined): string | undefined;
  end(session: string | undefined): void;
}

const hash = (secret: string) => createHash('sha256').update(secret).digest('base64url');
const secret = () => randomBytes(32).toString('base64url');

/**
 * Tokens and sessions kept in this server's memory, each only as its hash: a copy of the process's
 * memory or of its database holds nothing that logs in. They end when the server stops, and a link
 * works only on the server that made it (servers sharing a database do not share them).
 */
export function createSessions(realNow: () => number): Sessions {
  const tokens = new Map<string, { developerId: string; expiresAt: number }>();
  const sessions = new Map<string, string>();
  const sweep = () => {
    const now = realNow();
    for (const [key, token] of tokens) if (token.expiresAt <= now) tokens.delete(key);
  };
  return {
    issue(developerId) {
      sweep();
      const token = secret();
      const expiresAt = realNow() + LINK_LIFETIME_MS;
      tokens.set(hash(token), { developerId, expiresAt });
      return { token, expiresAt };
    },
    consume(token) {
      const key = hash(token);
      const found = tokens.get(key);
      tokens.delete(key);
      if (!found || found.expiresAt <= realNow()) return undefined;
      const session = secret();
      sessions.set(hash(session), found.developerId);
      return { session, developerId: found.developerId };
    },
    developerOf: (session) => (session ? sessions.get(hash(session)) : undefined),
    end: (session) => void (session && sessions.delete(hash(session))),
  };
}

/** The value of one cookie in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const equals = part.indexOf('=');
    if (equals !== -1 && part.slice(0, equals).trim() === name) return part.slice(equals + 1).trim();
  }
  return undefined;
}
