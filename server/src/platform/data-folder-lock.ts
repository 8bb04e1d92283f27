// One process owns the data folder of the embedded database: PGlite is a single-process database, and a second process
// on the same folder would never see the first one's writes and would overwrite them when it closes. The holder is a
// running sandbox or a CLI command. The lock is one the kernel releases when the process ends, however it ends, so a
// kill -9 never leaves a lock behind that blocks the next start.
//
// Linux: a socket in the abstract namespace named after the folder (its device and inode, so every path to the folder
// finds it) is the lock. Binding a name is atomic and the kernel unbinds it when the process exits. Two processes
// starting at the same moment: exactly one bind succeeds; the other connects to it, reads the winner's pid and gives up.
// The holder then binds the folder's control socket, DATA_DIR/sandbox.sock (mode 0600, control-socket.ts). A socket
// file there that nobody listens on was left by a killed holder; only the lock's holder removes it, so no two processes
// ever race to replace it.
// macOS and the BSDs have no abstract namespace: the control socket is the lock itself (bind fails while the file
// exists; a file nobody listens on, twice 100 ms apart, is stale and removed). One race remains there: two processes
// that both find a stale file at the same instant may both remove it and bind in turn. Windows: a named pipe, which the
// system removes with its process, is both the lock and the control channel.
// By hand: Node has no flock(2), and lock-file libraries (proper-lockfile) tell a dead holder by the age of a file, so a
// killed process would block the next starts until the file went stale.
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join, relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  askHolder,
  ControlCommandError,
  createControlServer,
  greetingAt,
  type ControlHandler,
  type ControlRequest,
  type Holder,
  type HolderRole,
} from './control-socket.ts';

export interface DataFolderLock {
  /** Runs CLI commands sent through the control socket on this process's open database. */
  serve(handler: ControlHandler): void;
  /** Answers `retry` to new commands (the asker waits for the folder) and waits for the running ones. */
  stopServing(): Promise<void>;
  /** Closes the control socket (its file goes with it) and frees the folder. */
  release(): Promise<void>;
}

export class DataFolderBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: Holder | undefined,
    asker: HolderRole,
  ) {
    const who = holder
      ? `process ${holder.pid} (${holder.role === 'server' ? 'a running sandbox' : 'an `npm run cli` command'})`
      : 'another process';
    const stop = holder ? `Ctrl+C in its terminal, or \`kill ${holder.pid}\`` : 'find it with `lsof +D` on the folder';
    const wait = holder?.role === 'cli' ? 'Wait for it to finish and start again' : `Stop that process (${stop})`;
    super(
      asker === 'server'
        ? `The data folder ${dataDir} is in use by ${who}: one process at a time owns an embedded database. ${wait}, or start this one with another DATA_DIR (and another PORT).`
        : `The data folder ${dataDir} stayed in use by ${who}. Try again when it has finished, or stop it (${stop}).`,
    );
  }
}

/** sun_path is 108 bytes on Linux and 104 on macOS; Node 20 cuts a longer path short without an error. */
const maxSocketPathBytes = 103;

/** The control socket's address. Relative to the working directory when that is shorter (the default ./.data is). */
function controlSocketAddress(dataDir: string): string {
  if (process.platform === 'win32') return `\\\\.\\pipe\\shopapi-sandbox-${folderKey(dataDir)}`;
  const absolute = join(resolve(dataDir), 'sandbox.sock');
  const fromHere = relative(process.cwd(), absolute);
  const address = fromHere.length < absolute.length ? fromHere : absolute;
  if (Buffer.byteLength(address) > maxSocketPathBytes) {
    throw new Error(
      `The path of the data folder's control socket, ${absolute}, is longer than a Unix socket allows (${maxSocketPathBytes} bytes): use a shorter DATA_DIR.`,
    );
  }
  return address;
}

/** Names the folder itself, whatever path leads to it. */
function folderKey(dataDir: string): string {
  const { dev, ino } = statSync(realpathSync(dataDir), { bigint: true });
  return createHash('sha256').update(`${dev}:${ino}`).digest('hex').slice(0, 32);
}

function listen(server: Server, address: string): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((done) => {
    const onError = (error: NodeJS.ErrnoException) => done(error);
    server.once('error', onError);
    server.listen(address, () => {
      server.off('error', onError);
      done(undefined);
    });
  });
}

const close = (server: Server) => new Promise<void>((done) => server.close(() => done()));

/** Binds the abstract name (Linux): the lock itself. */
async function holdKernelLock(dataDir: string, holder: Holder): Promise<Server> {
  const name = `\0shopapi-sandbox-${folderKey(dataDir)}`;
  // Bounded: the holder of the name can release it between our bind and our connect, and a new one take it.
  for (let attempt = 0; attempt < 20; attempt++) {
    const server = createServer((socket) => {
      socket.on('error', () => undefined);
      socket.end(`${JSON.stringify(holder)}\n`);
    });
    const error = await listen(server, name);
    if (!error) return server;
    if (error.code !== 'EADDRINUSE') throw error;
    const other = await greetingAt(name);
    if (other !== 'nobody') throw new DataFolderBusyError(dataDir, other, holder.role);
    await sleep(20);
  }
  throw new DataFolderBusyError(dataDir, undefined, holder.role);
}

async function bindControlSocket(server: Server, dataDir: string, address: string, holder: Holder, staleIsCertain: boolean): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const error = await listen(server, address);
    if (!error) {
      if (process.platform !== 'win32') chmodSync(address, 0o600);
      return;
    }
    if (error.code !== 'EADDRINUSE') throw error;
    let other = await greetingAt(address);
    // Without the kernel lock, a process that bound the file a moment ago may not listen yet: look once more.
    if (other === 'nobody' && !staleIsCertain) other = await sleep(100).then(() => greetingAt(address));
    if (other !== 'nobody') throw new DataFolderBusyError(dataDir, other, holder.role);
    if (process.platform === 'win32') {
      await sleep(20);
      continue;
    }
    const existing = lstatSync(address, { throwIfNoEntry: false });
    if (existing && !existing.isSocket()) {
      throw new Error(`${address} is in the way of the data folder's control socket and is not a socket: remove it.`);
    }
    rmSync(address, { force: true });
  }
  throw new DataFolderBusyError(dataDir, undefined, holder.role);
}

/** Takes the data folder for this process, or throws DataFolderBusyError naming the process that has it. */
export async function lockDataFolder(dataDir: string, role: HolderRole): Promise<DataFolderLock> {
  // 0700 when new: the folder holds the database and the control socket.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const holder: Holder = { pid: process.pid, role };
  const address = controlSocketAddress(dataDir);
  const kernelLock = process.platform === 'linux' ? await holdKernelLock(dataDir, holder) : undefined;
  const control = createControlServer(holder);
  try {
    await bindControlSocket(control.server, dataDir, address, holder, kernelLock !== undefined);
  } catch (error) {
    if (kernelLock) await close(kernelLock);
    throw error;
  }
  return {
    serve: control.serve,
    stopServing: control.stopServing,
    async release() {
      await control.stopServing();
      control.closeConnections();
      // Closing a listening Unix socket removes its file; the abstract name goes last, so whoever takes it next finds
      // the control socket gone.
      await close(control.server);
      if (kernelLock) await close(kernelLock);
    },
  };
}

/** Longest a CLI command waits for the folder: another CLI command has it for a second or two, a stopping sandbox for its shutdown. */
const waitForFolderMs = 60_000;
/** Longest the running sandbox may take to answer: it may still be opening its database when the command comes. */
const answerTimeoutMs = 120_000;

/**
 * Runs a CLI command on the data folder: by the running sandbox through its control socket when one runs, otherwise
 * here (runHere) while this process holds the folder, so that no sandbox starts on it meanwhile.
 */
export async function runOnDataFolder<T>(dataDir: string, request: ControlRequest, runHere: () => Promise<T>): Promise<T> {
  let holder: Holder | undefined;
  for (const deadline = Date.now() + waitForFolderMs; Date.now() < deadline; ) {
    let lock: DataFolderLock | undefined;
    try {
      lock = await lockDataFolder(dataDir, 'cli');
    } catch (error) {
      if (!(error instanceof DataFolderBusyError)) throw error;
      holder = error.holder;
    }
    if (lock) {
      try {
        return await runHere();
      } finally {
        await lock.release();
      }
    }
    if (holder?.role === 'server') {
      const asked = await askHolder(controlSocketAddress(dataDir), request, answerTimeoutMs).catch((error: Error) => {
        // Not retried: the command may have run.
        throw new ControlCommandError(
          `The running sandbox (process ${holder!.pid}) did not answer (${error.message}): check with \`npm run cli -- client list\` whether the command took effect.`,
        );
      });
      if (asked !== 'nobody' && 'result' in asked.answer) return asked.answer.result as T;
      if (asked !== 'nobody' && 'error' in asked.answer) throw new ControlCommandError(asked.answer.error);
    }
    await sleep(100);
  }
  throw new DataFolderBusyError(dataDir, holder, 'cli');
}
