// Sandbox requests: one entry of the client's request log, in a page and alone.
import type { RequestLogRow } from '../modules/request-log/reader.ts';

const message = (contentType: string | null, bytes: number, truncated: boolean, body: string | null) => ({
  contentType,
  bytes,
  truncated,
  body,
});

export function sandboxRequestResource(row: RequestLogRow, base: string) {
  return {
    type: 'sandboxRequest',
    id: row.requestId,
    attributes: {
      receivedAt: row.receivedAt.toISOString(),
      api: row.api,
      operationId: row.operationId,
      method: row.method,
      url: row.url,
      status: row.status,
      durationMs: row.durationMs,
      warnings: row.warnings,
      request: message(row.requestContentType, row.requestBytes, row.requestTruncated, row.requestBody),
      response: message(row.responseContentType, row.responseBytes, row.responseTruncated, row.responseBody),
    },
    links: { self: `${base}/sandbox/requests/${row.requestId}` },
  };
}
