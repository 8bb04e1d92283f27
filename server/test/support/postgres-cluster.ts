// A throwaway PostgreSQL cluster for tests and benchmarks: initdb into a temp folder, listen on 127.0.0.1 at a free port.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.ts';

export interface Cluster {
  url: (database?: string) => string;
  stop: () => void;
}

function binDir(): string {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  if (!versions.length) throw new Error('PostgreSQL is not installed: run scripts/ensure-postgres.sh');
  return `/usr/lib/postgresql/${versions[0]}/bin`;
}

/** initdb refuses to run as root: run the server binaries as the postgres user when we are root. */
function asPostgres(command: string, args: string[], logFile?: string) {
  const isRoot = process.getuid?.() === 0;
  const [file, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  // The postmaster inherits pg_ctl's stdio: with pipes, waiting for them to close would never end.
  const result = spawnSync(file, argv, { encoding: 'utf8', stdio: logFile ? 'ignore' : 'pipe' });
  if (result.status !== 0) {
    const log = logFile && existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
    throw new Error(`${command} failed: ${result.stderr || result.stdout || ''}${log}`);
  }
}

export async function startCluster(opts: { fsync?: boolean } = {}): Promise<Cluster> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres', dir]);
  asPostgres(`${bin}/initdb`, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
  const settings = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c max_connections=200 ${opts.fsync === false ? '-c fsync=off -c synchronous_commit=off -c full_page_writes=off' : ''}`;
  asPostgres(`${bin}/pg_ctl`, ['-D', data, '-l', join(dir, 'log'), '-o', settings, '-w', 'start'], join(dir, 'log'));
  return {
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop: () => {
      try {
        asPostgres(`${bin}/pg_ctl`, ['-D', data, '-m', 'immediate', '-w', 'stop'], join(dir, 'log'));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
