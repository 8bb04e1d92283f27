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
  /** A hash of the salt and, for each file, its name and what `read` gives of it. */
  const hashOf = (read) => {
    const hash = createHash('sha256');
    for (const part of salt) hash.update(part).update('\0');
    for (const file of files) hash.update(path.relative(root, file)).update('\0').update(read(file)).update('\0');
    return hash.digest('hex');
  };
  const timesHash = hashOf((file) => {
    const { size, mtimeMs } = statSync(file);
    return `${size} ${mtimeMs}`;
  });
  let contentsHash;
  const contents = () => {
    contentsHash ??= hashOf((file) => readFileSync(file));
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
