// The control channel of a data folder's holder (see data-folder-lock.ts): a local socket on which another process learns
// who holds the folder and asks a running sandbox to run a CLI command on its open database. One JSON line each way:
// the holder greets every connection with its pid and role, the asker sends one request, the holder answers once.
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export type HolderRole = 'server' | 'cli';

/** Who holds a data folder: the greeting a holder writes first on every connection. */
export interface Holder {
  pid: number;
  role: HolderRole;
}

export interface ControlRequest {
  command: string;
  args: Record<string, string>;
}

/** `retry`: the holder cannot run commands now (a CLI command, or a sandbox shutting down); ask again in a moment. */
export type ControlAnswer = { result: unknown } | { error: string } | { retry: true };

export type ControlHandler = (request: ControlRequest) => Promise<unknown>;

/** A command that the running sandbox refused (a taken username, a short password) or did not answer: its message is for the user. */
export class ControlCommandError extends Error {}

/** A request may carry a settings file (at most 1 MiB of JSON), escaped once more as a string argument. */
const maxLineLength = 4 * 1024 * 1024;
/** How long a holder waits for the request after its greeting. */
const requestTimeoutMs = 10_000;

/**
 * Reads newline-terminated lines from a socket. By hand rather than node:readline: readline ends quietly when the
 * socket is cut, times out or sends an endless line, and the callers here must tell "no answer" from an answer.
 */
function lineReader(socket: Socket, timeoutMs: number): () => Promise<string> {
  let buffered = '';
  const lines: string[] = [];
  let failure: Error | undefined;
  let wake: () => void = () => {};
  socket.setEncoding('utf8');
  socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      lines.push(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
    }
    if (buffered.length > maxLineLength) socket.destroy(new Error('line too long'));
    wake();
  });
  socket.on('error', (error) => {
    failure = error;
    wake();
  });
  socket.on('close', () => {
    failure ??= new Error('connection closed without an answer');
    wake();
  });
  return async () => {
    while (!lines.length) {
      if (failure) throw failure;
      await new Promise<void>((resolve) => (wake = resolve));
    }
    return lines.shift()!;
  };
}

function parseHolder(line: string): Holder | undefined {
  try {
    const value = JSON.parse(line) as Partial<Holder>;
    return Number.isInteger(value.pid) && (value.role === 'server' || value.role === 'cli')
      ? { pid: value.pid!, role: value.role }
      : undefined;
  } catch {
    return undefined;
  }
}

function parseRequest(line: string): ControlRequest | undefined {
  try {
    const value = JSON.parse(line) as Partial<ControlRequest>;
    const args = value.args ?? {};
    if (typeof value.command !== 'string' || typeof args !== 'object' || Object.values(args).some((v) => typeof v !== 'string'))
      return undefined;
    return { command: value.command, args };
  } catch {
    return undefined;
  }
}

export interface ControlServer {
  server: Server;
  /** Runs requests with the handler from now on; requests that came earlier wait for it. */
  serve(handler: ControlHandler): void;
  /** Answers `retry` to new requests and waits for the ones running. */
  stopServing(): Promise<void>;
  /** Cuts the connections still open (idle askers), so the server can close. */
  closeConnections(): void;
}

export function createControlServer(holder: Holder): ControlServer {
  let stopping = false;
  let handOver: (handler: ControlHandler | undefined) => void = () => undefined;
  const handlerReady = new Promise<ControlHandler | undefined>((resolve) => (handOver = resolve));
  const running = new Set<Promise<unknown>>();
  const sockets = new Set<Socket>();

  const answer = async (line: string): Promise<ControlAnswer> => {
    if (holder.role !== 'server') return { retry: true };
    const request = parseRequest(line);
    if (!request) return { error: 'Malformed control request.' };
    const handler = await handlerReady;
    if (!handler || stopping) return { retry: true };
    const work = handler(request);
    running.add(work);
    try {
      return { result: await work };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    } finally {
      running.delete(work);
    }
  };

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.write(`${JSON.stringify(holder)}\n`);
    const next = lineReader(socket, requestTimeoutMs);
    // An asker that only wanted the greeting hangs up: nothing to answer. Once the request is in, no timeout: the
    // command may wait for the database to open and then runs to its end; the asker has its own timeout.
    next().then(
      async (line) => {
        socket.setTimeout(0);
        socket.end(`${JSON.stringify(await answer(line))}\n`);
      },
      () => socket.destroy(),
    );
  });

  return {
    server,
    serve: (handler) => handOver(handler),
    async stopServing() {
      stopping = true;
      handOver(undefined);
      await Promise.allSettled([...running]);
    },
    closeConnections() {
      for (const socket of sockets) socket.destroy();
    },
  };
}

interface Connection {
  socket: Socket;
  next: () => Promise<string>;
}

/** Connects to a holder; `nobody` when nothing listens there (no socket, or a file that a killed process left). */
function connect(address: string, timeoutMs: number): Promise<Connection | 'nobody'> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(address);
    const next = lineReader(socket, timeoutMs);
    socket.once('connect', () => resolve({ socket, next }));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? resolve('nobody') : reject(error),
    );
  });
}

/**
 * Who listens at the address: `nobody`, the holder it names, or undefined for a live listener that did not say
 * (it accepted the connection, so it is alive, but it gave no greeting in time).
 */
export async function greetingAt(address: string): Promise<Holder | undefined | 'nobody'> {
  const connection = await connect(address, requestTimeoutMs).catch(() => undefined);
  if (!connection || connection === 'nobody') return connection;
  try {
    return parseHolder(await connection.next());
  } catch {
    return undefined;
  } finally {
    connection.socket.destroy();
  }
}

/** Sends one request to the holder at the address and returns its greeting and answer; `nobody` when none listens. */
export async function askHolder(
  address: string,
  request: ControlRequest,
  timeoutMs: number,
): Promise<{ holder: Holder | undefined; answer: ControlAnswer } | 'nobody'> {
  const connection = await connect(address, timeoutMs);
  if (connection === 'nobody') return 'nobody';
  try {
    const holder = parseHolder(await connection.next());
    connection.socket.write(`${JSON.stringify(request)}\n`);
    return { holder, answer: JSON.parse(await connection.next()) as ControlAnswer };
  } finally {
    connection.socket.destroy();
  }
}
