// Vitest global setup for the postgres project: one cluster for the run, a migrated template database, stopped afterwards.
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/platform/db/index.ts';
import { startCluster } from './postgres-cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export const TEMPLATE_DATABASE = 'sandbox_template';

export default async function setup(project: TestProject) {
  const cluster = await startCluster({ fsync: false });
  const admin = new pg.Client({ connectionString: cluster.url() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.end();
  const database = await openDatabase({ databaseUrl: cluster.url(TEMPLATE_DATABASE), poolSize: 1 });
  await database.close();
  project.provide('postgresUrl', cluster.url());
  return () => cluster.stop();
}
