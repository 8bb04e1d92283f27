// The entry of each file-check worker thread, in plain JavaScript: a worker starts as bare Node, and Node 20 applies
// no `--import` loader to a worker's entry, so it registers tsx here and then loads the TypeScript worker.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
