// Bearer tokens: opaque random strings, stored only as a SHA-256 hash with their expiry, so any process can check them and they can be revoked.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { type Db, ownedBy, schema } from '../../platform/db/index.ts';
import { burnPasswordCheck, verifyPassword } from './passwords.ts';
import type { Client } from './client.ts';
import type { TokenCache } from './token-cache.ts';

const { clients, tokens } = schema;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface IssuedToken {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  userName: string;
  issued: string;
  expires: string;
}

/** Checks the credentials and issues a token to the client they name; undefined when they are wrong. */
export async function issueToken(
  db: Db,
  username: string,
  password: string,
  lifetimeSeconds: number,
): Promise<{ token: IssuedToken; client: Client } | undefined> {
  const [client] = await db.select().from(clients).where(eq(clients.username, username));
  const ok = client ? await verifyPassword(password, client.passwordHash) : await burnPasswordCheck(password);
  if (!client || !ok) return undefined;
  const token = randomBytes(32).toString('base64url');
  const issuedAt = new Date();
  issuedAt.setMilliseconds(0);
  const expiresAt = new Date(issuedAt.getTime() + lifetimeSeconds * 1000);
  await db.insert(tokens).values({ clientId: client.id, tokenHash: hashToken(token), issuedAt, expiresAt });
  return {
    token: {
      access_token: token,
      token_type: 'bearer',
      expires_in: lifetimeSeconds,
      userName: client.username,
      issued: issuedAt.toUTCString(),
      expires: expiresAt.toUTCString(),
    },
    client: {
      id: client.id,
      username: client.username,
      defaultWarehouse: client.defaultWarehouse,
      clockOffsetSeconds: client.clockOffsetSeconds,
    },
  };
}

/**
 * The client a live token belongs to; undefined for unknown, expired or revoked tokens. With `cached`, a token this
 * app checked less than tokenCacheSeconds ago is taken from memory, with the client as it was then: a revocation
 * by another process takes up to that long to apply, and the client's clock offset may be as old, so only routes that
 * read nothing of the client but its identity ask for it. A revocation through this module applies at once.
 */
export async function authenticate(db: Db, cache: TokenCache, token: string, opts: { cached?: boolean } = {}): Promise<Client | undefined> {
  const tokenHash = hashToken(token);
  if (opts.cached) {
    const client = cache.cachedClient(tokenHash);
    if (client) return client;
  }
  const started = cache.lookupStarted();
  const [row] = await db
    .select({
      id: clients.id,
      username: clients.username,
      defaultWarehouse: clients.defaultWarehouse,
      clockOffsetSeconds: clients.clockOffsetSeconds,
      expiresAt: tokens.expiresAt,
    })
    .from(tokens)
    .innerJoin(clients, eq(clients.id, tokens.clientId))
    .where(and(eq(tokens.tokenHash, tokenHash), isNull(tokens.revokedAt), gt(tokens.expiresAt, new Date())));
  if (!row) return undefined;
  const { expiresAt, ...client } = row;
  cache.remember(tokenHash, client, expiresAt, started);
  return client;
}

/** Revokes one token; this app stops accepting it at once (others within tokenCacheSeconds). */
export async function revokeToken(db: Db, cache: TokenCache, token: string): Promise<boolean> {
  const tokenHash = hashToken(token);
  cache.forgetToken(tokenHash);
  const rows = await db
    .update(tokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(tokens.tokenHash, tokenHash), isNull(tokens.revokedAt)))
    .returning({ id: tokens.id });
  cache.forgetToken(tokenHash);
  return rows.length > 0;
}

/**
 * Revokes every token of the client. Inside a transaction, call cache.forgetClient(clientId) again once it has committed:
 * until then a concurrent check still reads the tokens as live and may cache them.
 */
export async function revokeClientTokens(db: Db, cache: TokenCache, clientId: number): Promise<number> {
  cache.forgetClient(clientId);
  const rows = await db
    .update(tokens)
    .set({ revokedAt: new Date() })
    .where(and(ownedBy(tokens, clientId), isNull(tokens.revokedAt)))
    .returning({ id: tokens.id });
  cache.forgetClient(clientId);
  return rows.length;
}
