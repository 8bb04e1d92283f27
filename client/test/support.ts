// The client's tests run against a sandbox listening on a free port of 127.0.0.1, so every call goes through fetch
// and real HTTP, as an integrator's would.
import type { AddressInfo } from 'node:net';
import type { Config } from '../../server/src/config.ts';
import { startSandbox, type TestSandbox } from '../../server/test/support/sandbox.ts';

export async function listeningSandbox(overrides: Partial<Config> = {}): Promise<{ sb: TestSandbox; baseUrl: string }> {
  const sb = await startSandbox(overrides);
  await sb.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = sb.app.server.address() as AddressInfo;
  return { sb, baseUrl: `http://127.0.0.1:${port}` };
}

/** A fetch that counts the requests to each path (`POST /token`, `GET /v3/products`) before passing them on. */
export function countingFetch(counts: Map<string, number>, next: typeof fetch = fetch): typeof fetch {
  return (input, init) => {
    const request = new Request(input, init);
    const key = `${request.method} ${new URL(request.url).pathname}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    return next(request);
  };
}
