// Whether what a build wrote is up to date with its sources, without reading every source on every `npm start`. A stamp
// file beside the output keeps two lines: a hash of the sources' contents, which decides, and a hash of their paths,
// sizes and modification times, a shortcut. When the sizes and times are those of the stamp, the contents are taken as
// unchanged, as make does (hashing the server's sources took about 60 ms of every start); when they differ, the contents
// are hashed and compared, and a match (a checkout or a copy that touched the files) renews the shortcut.
import { createHash } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The stamp of `files` (absolute paths, named in the hashes relative to `root`). `salt`: what else the output depends
 * on (the checkout's path, node's version).
 */
export function sourcesStamp(root, files, salt = []) {
  const names = files.map((file) => path.relative(root, file));
  const started = () => salt.reduce((hash, part) => hash.update(part).update('\0'), createHash('sha256'));
  const times = started();
  names.forEach((name, index) => {
    const { size, mtimeMs } = statSync(files[index]);
    times.update(name).update('\0').update(`${size} ${mtimeMs}`).update('\0');
  });
  const timesHash = times.digest('hex');
  let contentsHash;
  const contents = () => {
    if (contentsHash === undefined) {
      const hash = started();
      names.forEach((name, index) => {
        hash.update(name).update('\0').update(readFileSync(files[index])).update('\0');
      });
      contentsHash = hash.digest('hex');
    }
    return contentsHash;
  };
  return {
    /**
     * Whether `stampFile` records these sources. When it does not, the contents are hashed now, before the caller
     * builds: an edit made during the build is then seen by the next start.
     */
    upToDate(stampFile) {
      let recorded;
      try {
        recorded = readFileSync(stampFile, 'utf8').split('\n');
      } catch {
        contents();
        return false;
      }
      if (recorded[1] === timesHash) return true;
      if (recorded[0] !== contents()) return false;
      writeFileSync(stampFile, `${contentsHash}\n${timesHash}\n`);
      return true;
    },
    /** Records the sources as built into `stampFile`. */
    record(stampFile) {
      writeFileSync(stampFile, `${contents()}\n${timesHash}\n`);
    },
  };
}
