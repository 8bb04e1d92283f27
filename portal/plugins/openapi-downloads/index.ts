// Publishes each OpenAPI document exactly as contract/ generated it at /specs/<id>/openapi.json, the address of the
// download button on each reference's introduction page.
import fs from 'node:fs/promises';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';

export interface Options {
  /** The documents to publish, by reference id. */
  documents: Record<string, string>;
}

export default function openapiDownloads(_context: LoadContext, pluginOptions: unknown): Plugin {
  const options = pluginOptions as Options;
  return {
    name: 'openapi-downloads',
    getPathsToWatch: () => Object.values(options.documents),
    async postBuild({outDir}) {
      for (const [id, file] of Object.entries(options.documents)) {
        const target = path.join(outDir, 'specs', id, 'openapi.json');
        await fs.mkdir(path.dirname(target), {recursive: true});
        await fs.copyFile(file, target);
      }
    },
  };
}
