// The /sandbox controls, settings and request log as one encapsulated plugin, in the JSON:API conventions of v3.
import type { FastifyInstance } from 'fastify';
import { useJsonApi } from '../shared/jsonapi.ts';
import type { AppContext } from '../shared/context.ts';
import { apiPlugin } from '../shared/api-plugin.ts';
import { sandboxRoutes } from './controls.ts';
import { sandboxSettingsRoutes } from './settings.ts';
import { sandboxRequestRoutes } from './requests.ts';
import { sandboxScenarioRoutes } from './scenarios.ts';

async function sandbox(app: FastifyInstance, context: AppContext) {
  useJsonApi(app, 'sandbox');
  sandboxRoutes(app, context);
  sandboxSettingsRoutes(app, context);
  sandboxRequestRoutes(app, context);
  sandboxScenarioRoutes(app, context);
}

export const sandboxPlugin = apiPlugin('shopapi-sandbox', ['shopapi-jsonapi'], sandbox);
