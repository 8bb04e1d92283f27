// Sandbox controls: test helpers that do what the real warehouse would, authenticated as the client.
import { Type } from '@sinclair/typebox';
import { IdParams, defineOperation } from './operation.ts';
import { limits } from './limits.ts';
import { SingleDocument } from './jsonapi.ts';
import { Shipment, ShipmentItem } from './v3/shipments.ts';
import { Inbound, InboundItem } from './v3/inbound.ts';
import { ReturnItem } from './v3/returns.ts';
import { Sku } from './formats.ts';
import { clockStatuses, returnConditions } from './enums.ts';

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

export { Type };
