// Signing in: POST /token with the password grant, and what to tell the user when the sandbox refuses.
import { consoleClient } from '../api/client.ts';
import { startSession } from '../api/session.ts';

export class SignInError extends Error {
  override name = 'SignInError';
}

function refusal(status: number, body: { error?: string; error_description?: string } | undefined, retryAfter: string | null): string {
  if (status === 429) {
    const seconds = Number(retryAfter);
    const wait = Number.isFinite(seconds) && seconds > 0 ? `in ${Math.ceil(seconds / 60)} min (Retry-After: ${seconds} s)` : 'later';
    return `Too many failed sign-ins. The sandbox accepts no more attempts for now: try again ${wait}.`;
  }
  if (body?.error === 'invalid_grant') return 'Wrong username or password.';
  return `The sandbox refused the sign-in (${status}${body?.error ? ` ${body.error}` : ''}): ${body?.error_description ?? 'no reason given'}.`;
}

export async function signIn(username: string, password: string): Promise<void> {
  const issuedAt = Date.now();
  const { data, error, response } = await consoleClient()
    .POST('/token', {
      body: { grant_type: 'password', username, password },
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    .catch((failure: unknown) => {
      throw new SignInError(`The sandbox did not answer (${failure instanceof Error ? failure.message : String(failure)}). Is it running?`);
    });
  if (!data) throw new SignInError(refusal(response.status, error as Parameters<typeof refusal>[1], response.headers.get('retry-after')));
  startSession({ token: data.access_token, username: data.userName, expiresAt: issuedAt + data.expires_in * 1000 });
}
