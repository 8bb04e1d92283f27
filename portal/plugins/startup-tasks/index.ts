// The app starts in several tasks instead of one. Evaluating the main script (React, the router, the theme's layout) and
// looking up the page's components, which asks webpack for their scripts and evaluates those already there, ran as one
// task: on a phone (Lighthouse's 4x CPU) 170-250 ms, the longest of a page's start and most of a guide's blocking time.
// The start (@docusaurus/core/lib/client/clientEntry.js) gets a preload that waits for the next task; navigation between
// pages keeps the original. ./collator.ts moves one more piece of start-up work into a task of its own.
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';

const clientEntry = path.join('@docusaurus', 'core', 'lib', 'client', 'clientEntry.js');

export default function startupTasks(): Plugin {
  return {
    name: 'startup-tasks',
    getClientModules: () => [path.join(__dirname, 'collator.ts')],
    configureWebpack(_config, isServer, {currentBundler}) {
      if (isServer) return {};
      return {
        plugins: [
          new currentBundler.instance.NormalModuleReplacementPlugin(
            /^\.\/preload$/,
            (resource: {request: string; contextInfo?: {issuer?: string}}) => {
              if (resource.contextInfo?.issuer?.endsWith(clientEntry)) resource.request = path.join(__dirname, 'preload.ts');
            },
          ),
        ],
      };
    },
  };
}
