// What every API plugin is given by the composition root: the database, the configuration, the modules' per-app
// services and how links are built.
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../platform/db/index.ts';
import type { WarehouseWorker } from '../../warehouse/worker.ts';
import type { ModuleServices } from '../../modules/services.ts';
import type { BytePace } from '../../platform/byte-pace.ts';

export interface AppContext {
  db: Db;
  config: Config;
  /** Scheme and host of links in responses: PUBLIC_URL, else the request's own. */
  baseOf(request: FastifyRequest): string;
  /** This process's warehouse worker: clock advances run on it. */
  warehouse: WarehouseWorker;
  /** The per-app ports of the modules (composeServices in app.ts). */
  services: ModuleServices;
  /** The pace of each client's uploads (UPLOAD_MIB_PER_SECOND), none when it is 0. */
  uploadPace?: BytePace;
}
