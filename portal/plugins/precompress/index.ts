// Writes a Brotli copy (name.br, at the best quality) beside each page and each script and stylesheet of the build, for
// the server to send as it is (@fastify/static's preCompressed). Compressing as it answers, the server uses a fast
// quality: the main script comes out a fifth larger, and a phone on a slow network waits for the difference.
// Pages, scripts and stylesheets are all written before any plugin's postBuild runs; files that other plugins write in
// theirs (search index, llms.txt, sitemap, OpenAPI documents) are still being written now and stay compressed on the fly.
import {readdir, readFile, writeFile} from 'node:fs/promises';
import path from 'node:path';
import {promisify} from 'node:util';
import zlib from 'node:zlib';
import type {Plugin} from '@docusaurus/types';

const brotli = promisify(zlib.brotliCompress);
const compressible = /\.(html|js|css)$/;
/** Below this size the server does not compress either (@fastify/compress's threshold). */
const minimumBytes = 1024;

export default function precompress(): Plugin {
  return {
    name: 'precompress',
    async postBuild({outDir}) {
      const entries = await readdir(outDir, {recursive: true, withFileTypes: true});
      const files = entries.filter((entry) => entry.isFile() && compressible.test(entry.name)).map((entry) => path.join(entry.parentPath, entry.name));
      // zlib's asynchronous calls run on libuv's thread pool: a few at a time keeps every core busy.
      const queue = [...files];
      const worker = async () => {
        for (let file = queue.pop(); file; file = queue.pop()) {
          const content = await readFile(file);
          if (content.length < minimumBytes) continue;
          const params = {[zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length};
          await writeFile(`${file}.br`, await brotli(content, {params}));
        }
      };
      await Promise.all(Array.from({length: 4}, worker));
    },
  };
}
