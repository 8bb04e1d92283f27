// The client's tests run against a sandbox listening on 127.0.0.1 (startListeningSandbox of the server's harness),
// so every call goes through fetch and real HTTP, as an integrator's would; this counts those calls.
/** A fetch that counts the requests to each path (`POST /token`, `GET /v3/products`) before passing them on. */
export function countingFetch(counts: Map<string, number>, next: typeof fetch = fetch): typeof fetch {
  return (input, init) => {
    const request = new Request(input, init);
    const key = `${request.method} ${new URL(request.url).pathname}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    return next(request);
  };
}
