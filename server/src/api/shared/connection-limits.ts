// A cap on the connections one remote address holds, so a single client (slowloris: many connections, each sending
// a request a byte at a time) cannot take all of MAX_CONNECTIONS and starve everyone else.
//
// Written by hand: rate-limit libraries count requests, and a slow client never completes one; the cap must act on
// the server's 'connection' event, before a request exists. Behind a reverse proxy every connection comes from the
// proxy's address, so there the cap must be raised or disabled (0).
import type { Server } from 'node:http';

export function limitConnectionsPerAddress(server: Server, perAddress: number) {
  if (!perAddress) return;
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return; // already gone
    const count = open.get(address) ?? 0;
    if (count >= perAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
