// One delivery attempt: the signed POST to the target, with a deadline on the whole exchange and a bounded read of the answer.
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createHmac } from 'node:crypto';
import { limits } from '@shopapi/contract';
import { guardedLookup, refusedHost } from '../../platform/outbound-guard.ts';
import type { SignatureHeaders } from './outbox.ts';

export interface AttemptOptions {
  allowPrivateTargets: boolean;
  /** The deadline of the whole attempt: lookup, connect, sending, the answer's headers and its body. */
  timeoutMs: number;
}

export interface SendResult {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The first webhookResponseMaxBytes of the answer's body, as UTF-8 text; null when no answer came. */
  responseBody: string | null;
}

/**
 * The Standard Webhooks signature (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the secret's key), made with
 * node:crypto: the reference library's pure-JavaScript hash took 6 times as long. Tests verify every delivery with
 * that library (standardwebhooks' Webhook.verify), so the two cannot drift apart.
 */
function sign(secret: string, id: string, at: Date, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key)
    .update(`${id}.${Math.floor(at.getTime() / 1000)}.${body}`)
    .digest('base64')}`;
}

/** Signature headers for an attempt sent now: the timestamp is real time, as receivers compare it with their clock. */
export function signatureHeaders(secret: string, eventId: string, body: string): SignatureHeaders {
  const sentAt = new Date();
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': sign(secret, eventId, sentAt, body),
  };
}

/** PostgreSQL text cannot hold NUL; a receiver's answer may. */
const storable = (bytes: Buffer) => bytes.toString('utf8').replaceAll('\u0000', '\uFFFD');

/**
 * One POST; the caller decides what the status means. Redirects are not followed. The attempt ends at the first of:
 * the answer's end, webhookResponseMaxBytes of its body read (the connection is then closed: a receiver that streams
 * without end costs a few KiB), or the deadline (a receiver that answers slowly, or drips its body, is cut off; a
 * status that arrived before still counts).
 */
export function send(url: URL, body: string, headers: SignatureHeaders, opts: AttemptOptions): Promise<SendResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    // Node connects to an IP literal without a lookup, so the host as written is checked here and names at lookup.
    const refused = opts.allowPrivateTargets ? undefined : refusedHost(url.hostname);
    if (refused) return resolve({ statusCode: null, durationMs: 0, error: refused, responseBody: null });
    let statusCode: number | null = null;
    const chunks: Buffer[] = [];
    let read = 0;
    let settled = false;
    /** Ends the attempt; `cut` closes the connection (an answer read to its end leaves it to the agent for reuse). */
    const finish = (error: string | null, cut = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (cut) request.destroy();
      const durationMs = Math.round(performance.now() - started);
      const responseBody = statusCode === null ? null : storable(Buffer.concat(chunks));
      resolve({ statusCode, durationMs, error, responseBody });
    };
    const options: RequestOptions = {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'user-agent': 'shopapi-sandbox-webhooks/1',
      },
      lookup: opts.allowPrivateTargets ? undefined : guardedLookup,
    };
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, options, (response) => {
      statusCode = response.statusCode ?? null;
      response.on('data', (chunk: Buffer) => {
        const room = limits.webhookResponseMaxBytes - read;
        chunks.push(chunk.subarray(0, room));
        read += Math.min(chunk.length, room);
        if (read >= limits.webhookResponseMaxBytes) finish(null, true);
      });
      response.on('end', () => finish(null));
      response.on('error', (error) => finish(error.message));
    });
    const deadline = setTimeout(
      () =>
        finish(
          `${statusCode === null ? 'no answer' : 'the answer did not end'} within ${opts.timeoutMs} ms; the attempt was cut off`,
          true,
        ),
      opts.timeoutMs,
    );
    request.on('error', (error) => finish(error.message));
    request.end(body);
  });
}
