// The test scenarios: the catalogue (contract/src/scenarios.ts) as a JSON:API collection.
import type { FastifyInstance } from 'fastify';
import { scenarios } from '@shopapi/contract';
import { route } from '../shared/routes.ts';
import type { AppContext } from '../shared/context.ts';

export function sandboxScenarioRoutes(app: FastifyInstance, { baseOf }: AppContext) {
  route(app, 'sandboxListScenarios', async (request) => {
    const base = baseOf(request);
    return {
      data: scenarios.map(({ name, ...attributes }) => ({
        type: 'scenario' as const,
        id: name,
        attributes: { ...attributes, steps: [...attributes.steps] },
        links: { self: `${base}/sandbox/scenarios` },
      })),
      links: { self: `${base}/sandbox/scenarios` },
    };
  });
}
