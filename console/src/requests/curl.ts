// "Copy as curl": a logged request as a command that sends it again. The token is never in the log; the command reads
// it from $TOKEN, which the reader sets (the sandbox guide shows how).
import type { ItemOf } from '@shopapi/client';

export type LoggedRequest = ItemOf<'/sandbox/requests'>['attributes'];

/** A shell word in single quotes, any single quote in it closed, escaped and reopened. */
const quote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

export function curlOf(entry: LoggedRequest, origin: string): string {
  const method = entry.method === 'HEAD' ? '-I' : entry.method === 'GET' ? '' : `-X ${entry.method}`;
  // -g: brackets in page[size] and filter[...] are part of the URL, not a curl pattern.
  const parts = [['curl -g', method, quote(origin + entry.url)].filter(Boolean).join(' ')];
  // POST /token is the one call made without a token.
  if (entry.api !== 'token') parts.push('-H "Authorization: Bearer $TOKEN"');
  const { contentType, body, bytes, truncated } = entry.request;
  if (contentType) parts.push(`-H ${quote(`Content-Type: ${contentType}`)}`);
  if (body !== null) parts.push(`--data-raw ${quote(body)}`);
  const notes = [
    body === null && bytes > 0 ? `# The ${bytes}-byte body (a file or a multipart upload) is not in the log: add it yourself.` : '',
    truncated ? `# The log kept only the start of the ${bytes}-byte body.` : '',
    body?.includes('[redacted]') ? '# Secrets in the body were logged as [redacted]: put yours back.' : '',
  ].filter(Boolean);
  return [...notes, parts.join(' \\\n  ')].join('\n');
}
