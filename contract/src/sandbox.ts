// Sandbox controls: test helpers that do what the real warehouse would, authenticated as the client.
import { Type } from '@sinclair/typebox';
import { IdParams, defineOperation } from './operation.ts';
import { limits } from './limits.ts';
import { Resource, SelfLinks, SingleDocument } from './jsonapi.ts';
import { Shipment, ShipmentItem } from './v3/shipments.ts';
import { Inbound, InboundItem } from './v3/inbound.ts';
import { ReturnItem } from './v3/returns.ts';
import { Sku } from './formats.ts';
import {
  clockStatuses,
  inboundStatuses,
  packingSlipStatuses,
  returnConditions,
  shipmentStatuses,
  stockMutationTypes,
  trackingStages,
  trackingStatuses,
} from './enums.ts';
import { scenarioMarkerPrefix, scenarioNames, scenarioSubjects, scenarios } from './scenarios.ts';

const tags = ['Sandbox'];

/** The client's clock, as reading it and advancing it answer. */
const ClockDocument = Type.Object({
  data: Type.Object({
    type: Type.Literal('clock'),
    id: Type.Integer({ minimum: 1, description: 'Your client id: each client has its own clock.' }),
    attributes: Type.Object({
      now: Type.String({
        format: 'date-time',
        description:
          "Your clock's time now. While an advance runs it moves forward as the warehouse catches up: it is the moment up to which everything due has been done.",
      }),
      offsetSeconds: Type.Integer({ description: 'How far your clock runs ahead of real time.' }),
      status: Type.Union(
        clockStatuses.map((s) => Type.Literal(s)),
        {
          description:
            '`ready`: the warehouse has done everything due by `now`. `advancing`: an advance is under way; `now` moves on to `advancingTo`, and the clock is `ready` again when it gets there.',
        },
      ),
      advancingTo: Type.Optional(
        Type.String({
          format: 'date-time',
          description: 'While advancing: the time the clock moves to (it keeps running at real time meanwhile, like `now`).',
        }),
      ),
      progress: Type.Optional(
        Type.Number({
          minimum: 0,
          maximum: 1,
          description:
            "While advancing: how much of the advance's time the clock has covered, 0 to 1. The clock moves as fast as the warehouse works through what falls due, so it can hold still while many moves fall due close together (a year's advance spends most of its work in the first minutes, when open orders ship).",
        }),
      ),
    }),
  }),
});

export const sandboxOperations = [
  defineOperation({
    operationId: 'sandboxShipOrder',
    documents: ['v3'],
    method: 'POST',
    path: '/sandbox/orders/{id}/ship',
    tags,
    auth: true,
    success: 201,
    summary: 'Ship an order now (sandbox)',
    description:
      'Takes the order through the simulated warehouse to SHIPPED now: a shipment already under way continues, and everything still open gets a shipment that walks READY_TO_PICK → READY_TO_SORT → READY_TO_SHIP → SHIPPED at once, with every webhook event on the way, tracking (stage LABELLED) and SHIPMENT stock mutations. It works whatever the stock and even when the order is on hold: where stock is short the missing goods are first booked in with a visible CORRECTION mutation (correction code ADJUSTMENT). Afterwards the order is fulfilled and refuses changes (422). An order that is Not Valid (its address lacks a house number) answers 422. Sandbox only. While your clock is advancing (`POST /sandbox/clock/advance` answered 202) it answers 409.',
    params: IdParams,
    responses: { 201: { description: 'The shipment, with its items included.', schema: SingleDocument(Shipment, [ShipmentItem]) } },
    errors: ['401', '404-5', '406', '409', '422'],
  }),
  defineOperation({
    operationId: 'sandboxReceiveInboundPackingSlip',
    documents: ['v3'],
    method: 'POST',
    path: '/sandbox/inboundPackingSlips/{id}/receive',
    tags,
    auth: true,
    success: 201,
    summary: 'Receive a packing slip now (sandbox)',
    description:
      "Receives goods of the packing slip in its warehouse (`expectedIn`): an inbound goes PROCESSING → CHECKING → CHECKED with its items (lot numbers and expiration dates for products that need them), stock appears on locations with INBOUND stock mutations, the items' `received` quantities grow, and products without weight and dimensions get them at this first receipt. Without a body everything still expected is received. With `items` you choose per sku: fewer, more than expected, or skus that are not on the slip (they must be your products; 404-1 otherwise). The packing slip becomes CHECKED when every item is fully received, else IN_PROGRESS; a CHECKED inbound completes 2 hours later on your clock, and its packing slip with it. A packing slip that is already CHECKED or COMPLETED answers 409. Sandbox only. While your clock is advancing (`POST /sandbox/clock/advance` answered 202) it answers 409.",
    params: IdParams,
    body: Type.Object(
      {
        items: Type.Optional(
          Type.Array(
            Type.Object(
              {
                sku: Sku,
                quantity: Type.Integer({
                  minimum: 0,
                  maximum: 1_000_000,
                  description: 'Quantity received; 0 receives nothing of this sku.',
                }),
              },
              { additionalProperties: false },
            ),
            {
              maxItems: limits.packingSlipItemsMax,
              description: 'Received quantities per sku; a repeated sku is summed. Default: everything still expected.',
            },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    requestExample: {
      items: [
        { sku: 'SKU-TSHIRT-M', quantity: 90 },
        { sku: 'SKU-MUG', quantity: 30 },
      ],
    },
    responses: { 201: { description: 'The new inbound, with its items included.', schema: SingleDocument(Inbound, [InboundItem]) } },
    errors: ['400', '401', '404', '404-1', '406', '409', '415'],
  }),
  defineOperation({
    operationId: 'sandboxGetClock',
    documents: ['v3'],
    method: 'GET',
    path: '/sandbox/clock',
    tags,
    auth: true,
    success: 200,
    summary: 'Read your clock (sandbox)',
    description:
      'Your own simulated clock: the time the warehouse works on for you, and how far it runs ahead of real time after your advances (`POST /sandbox/clock/advance`). Timestamps the warehouse writes and the retention windows use this time. While an advance is under way it shows `status: advancing`, how far it got and where it goes; poll it until `status` is `ready`. Reading it changes nothing.',
    responses: { 200: { description: 'Your clock now.', schema: ClockDocument } },
    errors: ['401', '406'],
  }),
  defineOperation({
    operationId: 'sandboxAdvanceClock',
    documents: ['v3'],
    method: 'POST',
    path: '/sandbox/clock/advance',
    tags,
    auth: true,
    success: 200,
    summary: 'Advance your clock (sandbox)',
    description: `Moves your own simulated clock forward (no other client's) and runs everything that falls due meanwhile, in clock order, each at its own moment: packing slips expected by then arrive and are received, orders that are not on hold and have stock get a shipment, shipments move one status per warehouse step (\`SANDBOX_STEP_SECONDS\`, default 30 s of your clock) to SHIPPED and their tracking on to DELIVERED, checked inbounds complete 2 hours after CHECKED, and expiration statuses follow the date. Webhook events are sent for each move, in that order. Without these calls the warehouse runs on real time.

The warehouse catches up in short slices, taking turns with other clients' work, so an advance never holds the sandbox. A short advance is done within a few seconds (${limits.clockAdvanceWaitMsDefault / 1000} by default) and answers 200 with \`status: ready\`: everything due has been done. A longer one answers 202 with \`status: advancing\`: your clock moves forward as the work completes; read \`GET /sandbox/clock\` until its \`status\` is \`ready\`. While it advances, a second advance and the other sandbox controls that move the warehouse (ship, advance, fail or return a shipment, receive a packing slip) answer 409; your other calls work as usual, at your clock's current time (an order you place meanwhile joins the catch-up). One advance moves at most ${limits.clockAdvanceMaxSeconds / 86_400} days, and your clock may run at most ${limits.clockAheadMaxSeconds / (366 * 86_400)} years ahead of real time (409 beyond).`,
    body: Type.Object(
      {
        seconds: Type.Integer({
          minimum: 1,
          maximum: limits.clockAdvanceMaxSeconds,
          description: `Seconds to move forward; at most ${limits.clockAdvanceMaxSeconds / 86_400} days.`,
        }),
      },
      { additionalProperties: false },
    ),
    requestExample: { seconds: 3600 },
    responses: {
      200: {
        description: 'The advance is done: your clock after it, `status: ready`.',
        schema: ClockDocument,
      },
      202: {
        description:
          'The advance is under way: your clock as far as it got, `status: advancing` with `advancingTo` and `progress`. Read `GET /sandbox/clock` until it is `ready`.',
        schema: ClockDocument,
      },
    },
    errors: ['400', '401', '406', '409', '415'],
  }),
  defineOperation({
    operationId: 'sandboxAdvanceShipment',
    documents: ['v3'],
    method: 'POST',
    path: '/sandbox/shipments/{id}/advance',
    tags,
    auth: true,
    success: 200,
    summary: 'Move a shipment one step (sandbox)',
    description:
      'One warehouse step for this shipment now: READY_TO_PICK → READY_TO_SORT → READY_TO_SHIP (labelled, with tracking and colli) → SHIPPED (stock booked out; 409 when the stock is not there), or after SHIPPED the next tracking stage (LABELLED → ACCEPTED → SORTED → IN_DELIVERY → AT_PUP for pick-up points → DELIVERED). A shipment in ERROR is resolved by the operator and goes back to READY_TO_PICK. A delivered shipment answers 409. While your clock is advancing (`POST /sandbox/clock/advance` answered 202) it answers 409.',
    params: IdParams,
    responses: {
      200: { description: 'The shipment after the step, with its items included.', schema: SingleDocument(Shipment, [ShipmentItem]) },
    },
    errors: ['401', '404', '406', '409'],
  }),
  defineOperation({
    operationId: 'sandboxFailShipment',
    documents: ['v3'],
    method: 'POST',
    path: '/sandbox/shipments/{id}/error',
    tags,
    auth: true,
    success: 200,
    summary: 'Put a shipment in ERROR (sandbox)',
    description:
      'The warehouse hits a problem: the shipment goes to ERROR and waits for operator action (`POST /sandbox/shipments/{id}/advance`). A shipped shipment never changes: 409. While your clock is advancing (`POST /sandbox/clock/advance` answered 202) it answers 409.',
    params: IdParams,
    responses: {
      200: { description: 'The shipment in ERROR, with its items included.', schema: SingleDocument(Shipment, [ShipmentItem]) },
    },
    errors: ['401', '404', '406', '409'],
  }),
  defineOperation({
    operationId: 'sandboxReturnShipment',
    documents: ['v3'],
    method: 'POST',
    path: '/sandbox/shipments/{id}/return',
    tags,
    auth: true,
    success: 201,
    summary: 'Return shipped goods (sandbox)',
    description:
      "The consumer sends goods of a SHIPPED shipment back and the warehouse processes them at once, in the shipment's warehouse: condition RETURN goes back to stock (restocked), DAMAGED goes to a DAMAGED location with quality DAMAGED, UNKNOWN waits on a RETURN location. Each item books a RETURN stock mutation and appears in `GET /v3/returnItems`. A sku that is not on the shipment answers 404-1, more than was shipped 400; a shipment that is not SHIPPED answers 409. While your clock is advancing (`POST /sandbox/clock/advance` answered 202) it answers 409.",
    params: IdParams,
    body: Type.Object(
      {
        items: Type.Array(
          Type.Object(
            {
              sku: Sku,
              quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
              condition: Type.Union(
                returnConditions.map((c) => Type.Literal(c)),
                { description: 'RETURN (restockable), DAMAGED or UNKNOWN.' },
              ),
              returnReasonId: Type.Optional(Type.Integer({ minimum: 1, description: 'One of your return reasons (GET /settings/get).' })),
              comment: Type.Optional(Type.String({ maxLength: 1000 })),
            },
            { additionalProperties: false },
          ),
          { minItems: 1, maxItems: 100 },
        ),
      },
      { additionalProperties: false },
    ),
    requestExample: {
      items: [
        { sku: 'SKU-TSHIRT-M', quantity: 1, condition: 'RETURN' },
        { sku: 'SKU-MUG', quantity: 1, condition: 'DAMAGED', comment: 'Broken handle' },
      ],
    },
    responses: { 201: { description: 'The processed return items.', schema: Type.Object({ data: Type.Array(ReturnItem) }) } },
    errors: ['400', '401', '404', '404-1', '406', '409', '415'],
  }),
];

const literals = <T extends string>(values: readonly T[], description?: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    description ? { description } : {},
  );

const ScenarioName = literals(scenarioNames, "The scenario's name: its id, and what follows `sandbox-scenario:` in a marker.");

/** One point of a scenario's road, as GET /sandbox/scenarios lists it (contract/src/scenarios.ts ScenarioStep). */
const ScenarioStepSchema = Type.Object({
  at: Type.Integer({
    minimum: 0,
    description:
      "Warehouse steps (SANDBOX_STEP_SECONDS of your clock each, 30 s by default) after the subject entered the warehouse: the shipment was created, or the packing slip's goods arrived.",
  }),
  after: Type.Optional(
    Type.Literal('goodsReceived', {
      description: '`at` counts from the moment an inbound brings the goods the order waited for (its next shipment is created then).',
    }),
  ),
  shipment: Type.Optional(Type.Integer({ minimum: 1, description: 'Which shipment of the order, for roads with more than one.' })),
  status: Type.Optional(literals(shipmentStatuses, "The shipment's status.")),
  trackingStage: Type.Optional(literals([...trackingStages, 'RETURNED'], "The shipment's `tracking.stage`.")),
  trackingStatus: Type.Optional(literals(trackingStatuses, "The shipment's `tracking.status`.")),
  trackTraceCode: Type.Optional(Type.Integer({ description: 'The v2 track-trace code (`currentTrackTraceStatus`).' })),
  packingSlipStatus: Type.Optional(literals(packingSlipStatuses)),
  inboundStatus: Type.Optional(literals(inboundStatuses)),
  events: Type.Array(Type.String(), { maxItems: 10, description: 'Webhook events sent at this moment, in order.' }),
  stockMutations: Type.Optional(Type.Array(literals(stockMutationTypes), { maxItems: 10, description: 'Stock mutation types booked.' })),
  description: Type.String(),
});

const ScenarioResource = Type.Object(
  {
    type: Type.Literal('scenario'),
    id: ScenarioName,
    attributes: Type.Object({
      title: Type.String(),
      description: Type.String(),
      subject: literals(scenarioSubjects, 'What the road is about: an order (and its shipments) or a packing slip (and its inbound).'),
      trigger: Type.Object({
        marker: Type.Boolean({
          description: `\`${scenarioMarkerPrefix}<name>\` as the whole value of a free field (v3 \`metadata.extra1\`…\`extra5\`, v2 \`Extra1\`…\`Extra5\`) sets it on create; for orders PUT /sandbox/orders/{id}/scenario does too.`,
        }),
        condition: Type.Optional(Type.String({ description: 'The data that takes this road by itself.' })),
      }),
      steps: Type.Array(ScenarioStepSchema, { maxItems: 40 }),
    }),
  },
  { title: 'scenario' },
);

const WaitingForStock = Type.Array(
  Type.Object({
    sku: Sku,
    quantity: Type.Integer({ minimum: 1, description: "Units ordered that free stock in the order's warehouse does not cover." }),
  }),
  {
    maxItems: limits.orderItemsMax,
    description: 'What the order waits for before it can ship (empty when nothing is missing or the order is under way or fulfilled).',
  },
);

const OrderScenarioAttributes = Type.Object({
  name: Type.Union([ScenarioName, Type.Null()], { description: 'The scenario the order follows; null: the ordinary road.' }),
  setBy: Type.Union([Type.Literal('marker'), Type.Literal('control'), Type.Literal('condition'), Type.Null()], {
    description:
      '`marker`: a `sandbox-scenario:` free field on create; `control`: PUT /sandbox/orders/{id}/scenario; `condition`: the data itself (goods not in stock, allowPartialDelivery, a pick-up point); null on the ordinary road.',
  }),
  waitingForStock: WaitingForStock,
  reached: Type.Array(
    Type.Object({
      shipment: Type.Integer({ minimum: 1, description: 'Which shipment of the order, 1 for the first.' }),
      shipmentId: Type.Integer({ minimum: 1 }),
      at: Type.Integer({ minimum: 0, description: 'The last step of the road this shipment reached (see GET /sandbox/scenarios).' }),
      status: literals(shipmentStatuses),
      trackingStage: Type.Union([literals([...trackingStages, 'RETURNED']), Type.Null()]),
    }),
    { maxItems: 100, description: "Where the order's shipments are on the road, one entry per shipment, oldest first." },
  ),
  problem: Type.Union([Type.String(), Type.Null()], {
    description: 'Why a shipment of the order is in ERROR, when the road put it there.',
  }),
});

const OrderScenario = Resource('orderScenario', OrderScenarioAttributes, undefined, "The road an order follows; its id is the order's.");

/** Scenarios an operator can set on an order: those with a marker whose subject is an order. */
const settable = scenarios.filter((s) => s.subject === 'order' && s.trigger.marker).map((s) => s.name);

export const scenarioOperations = [
  defineOperation({
    operationId: 'sandboxListScenarios',
    documents: ['v3'],
    method: 'GET',
    path: '/sandbox/scenarios',
    tags,
    auth: true,
    success: 200,
    summary: 'List the test scenarios (sandbox)',
    description: `Every road an order or a packing slip can take in the simulated warehouse, with its trigger and its sequence of statuses, tracking stages, v2 track-trace codes, webhook events and stock mutations, in clock order. The simulator follows this same list. Start one with \`${scenarioMarkerPrefix}<name>\` as the whole value of a free field (v3 \`metadata.extra1\`…\`extra5\`, v2 \`Extra1\`…\`Extra5\`) of a new order or packing slip, or for an order with PUT /sandbox/orders/{id}/scenario. The list is the same for every client and has no paging.`,
    responses: {
      200: {
        description: 'The scenarios.',
        schema: Type.Object({ data: Type.Array(ScenarioResource, { maxItems: scenarioNames.length }), links: Type.Optional(SelfLinks) }),
      },
    },
    errors: ['401', '406'],
  }),
  defineOperation({
    operationId: 'sandboxGetOrderScenario',
    documents: ['v3'],
    method: 'GET',
    path: '/sandbox/orders/{id}/scenario',
    tags,
    auth: true,
    success: 200,
    summary: "Read an order's scenario (sandbox)",
    description:
      "Which road the order follows (a scenario set by a marker or this API, one that follows from its data, or the ordinary road), what it waits for when its goods are not in stock, and how far each of its shipments got on the road. Reading it changes nothing. Another client's order answers 404.",
    params: IdParams,
    responses: { 200: { description: "The order's road.", schema: SingleDocument(OrderScenario) } },
    errors: ['401', '404-5', '406'],
  }),
  defineOperation({
    operationId: 'sandboxSetOrderScenario',
    documents: ['v3'],
    method: 'PUT',
    path: '/sandbox/orders/{id}/scenario',
    tags,
    auth: true,
    success: 200,
    summary: "Set an order's scenario (sandbox)",
    description: `Puts the order on a scenario's road without touching its data, for tests that cannot add a marker: one of ${settable.map((n) => `\`${n}\``).join(', ')}, or null for the ordinary road. Allowed until the order's first shipment ships: afterwards, or once the order is fulfilled, 409. A shipment already under way follows the new road from the step it reached. A name that is not in the catalogue, a scenario that follows from data (waits-for-stock, partial-delivery) or about packing slips, or customs for a destination inside the EU answers 422 with a pointer to \`/data/attributes/name\`. While your clock is advancing (\`POST /sandbox/clock/advance\` answered 202) it answers 409.`,
    params: IdParams,
    body: Type.Object(
      {
        data: Type.Object(
          {
            type: Type.Literal('orderScenario'),
            id: Type.Optional(Type.Union([Type.Integer(), Type.String({ maxLength: 20 })], { description: "The order's id, if given." })),
            attributes: Type.Object(
              {
                name: Type.Union([Type.String({ maxLength: 100 }), Type.Null()], {
                  description: 'A scenario name from GET /sandbox/scenarios, or null for the ordinary road.',
                }),
              },
              { additionalProperties: false },
            ),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
    requestExample: { data: { type: 'orderScenario', attributes: { name: 'first-attempt-failed' } } },
    responses: { 200: { description: "The order's road now.", schema: SingleDocument(OrderScenario) } },
    errors: ['400', '401', '404-5', '406', '409', '415', '422'],
  }),
];

export { Type };
