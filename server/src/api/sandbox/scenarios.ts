// The test scenarios: the catalogue (contract/src/scenarios.ts) as a JSON:API collection.
import type { FastifyInstance } from 'fastify';
import { scenarios } from '@shopapi/contract';
import { route } from '../shared/routes.ts';
import type { AppContext } from '../shared/context.ts';
import { orderScenario, setOrderScenario, type OrderScenario } from '../../modules/scenarios/service.ts';
import { attributesPointer, locating } from '../shared/problem-pointers.ts';

export function sandboxScenarioRoutes(app: FastifyInstance, { db, baseOf }: AppContext) {
  const orderScenarioDocument = (id: number, attributes: OrderScenario, base: string) => ({
    data: { type: 'orderScenario' as const, id, attributes, links: { self: `${base}/sandbox/orders/${id}/scenario` } },
  });

  route(app, 'sandboxListScenarios', async (request) => {
    const base = baseOf(request);
    return {
      data: scenarios.map(({ name, ...attributes }) => ({
        type: 'scenario' as const,
        id: name,
        attributes: { ...attributes, steps: [...attributes.steps] },
      })),
      links: { self: `${base}/sandbox/scenarios` },
    };
  });

  route(app, 'sandboxGetOrderScenario', async (request) =>
    orderScenarioDocument(request.params.id, await orderScenario(db, request.client, request.params.id), baseOf(request)),
  );

  route(app, 'sandboxSetOrderScenario', async (request) => {
    const { id } = request.params;
    await locating(attributesPointer, setOrderScenario(db, request.client.id, id, request.body.data.attributes.name));
    return orderScenarioDocument(id, await orderScenario(db, request.client, id), baseOf(request));
  });
}
