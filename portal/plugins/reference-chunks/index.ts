// Keeps the modules that only the API references use out of the chunk every guide loads. Docusaurus gathers any
// module used by half the pages into one "common" chunk; with a page per operation, that sweeps the reference's
// schema, markdown and try-it state machinery (about 550 kB) into it, and every guide that needs a shared module
// such as the code block loads all of it. Here, modules used only by reference pages go to chunks of their own.
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import type {Chunk, ChunkGraph, Module} from 'webpack';

interface Options {
  /** Folders whose pages are reference pages (the generated MDX of docusaurus-plugin-openapi-docs). */
  folders: string[];
}

/** The theme's page component for reference pages: its chunk counts as a reference chunk too. */
const referencePageComponent = `${path.sep}docusaurus-theme-openapi-docs${path.sep}lib${path.sep}theme${path.sep}ApiItem${path.sep}`;

export default function referenceChunks(context: LoadContext, pluginOptions: unknown): Plugin {
  const folders = (pluginOptions as Options).folders.map((folder) => path.resolve(context.siteDir, folder) + path.sep);
  const isReferenceModule = (module: Module) => {
    const resource = module.nameForCondition() ?? '';
    return folders.some((folder) => resource.startsWith(folder)) || resource.includes(referencePageComponent);
  };
  return {
    name: 'reference-chunks',
    configureWebpack(_config, isServer) {
      if (isServer) return {};
      const referenceChunk = new WeakMap<Chunk, boolean>();
      const isReferenceChunk = (chunk: Chunk, chunkGraph: ChunkGraph) => {
        if (!referenceChunk.has(chunk)) referenceChunk.set(chunk, chunkGraph.getChunkModules(chunk).some(isReferenceModule));
        return referenceChunk.get(chunk)!;
      };
      return {
        optimization: {
          splitChunks: {
            cacheGroups: {
              reference: {
                // Above Docusaurus' "common" group (40), below its single stylesheet (50).
                priority: 45,
                minChunks: 2,
                test: (module: Module, {chunkGraph}: {chunkGraph: ChunkGraph}) =>
                  module.type.startsWith('javascript') && chunkGraph.getModuleChunks(module).every((chunk) => isReferenceChunk(chunk, chunkGraph)),
              },
            },
          },
        },
      };
    },
  };
}
