// The catalogue of test scenarios: every road an order or a packing slip can take in the warehouse, written once. The
// simulator follows it, GET /sandbox/scenarios serves it, the portal's "Test scenarios" page renders it and the tests
// walk it, so none of them can drift from the others.
import type { inboundStatuses, packingSlipStatuses, ShipmentStatus, TrackingStage } from './enums.ts';

/**
 * The marker that sets an order's (or a packing slip's) scenario when it is created: `sandbox-scenario:<name>` as the
 * whole value of one of its free fields extra1 to extra5 (v3 `metadata.extraN`, v2 `ExtraN`). Production stores free
 * fields and ignores them, so an integration can send the same order to both; no real value looks like it by accident.
 */
export const scenarioMarkerPrefix = 'sandbox-scenario:';

export const scenarioNames = [
  'waits-for-stock',
  'partial-delivery',
  'split',
  'warehouse-problem',
  'first-attempt-failed',
  'pick-up-point',
  'refused-returned',
  'customs',
  'lots-and-serials',
  'damaged-return',
  'inbound-short',
  'inbound-over',
] as const;
export type ScenarioName = (typeof scenarioNames)[number];

/** What a scenario's road is about: an order (and its shipments), or a packing slip (and its inbound). */
export const scenarioSubjects = ['order', 'packingSlip'] as const;
export type ScenarioSubject = (typeof scenarioSubjects)[number];

/** One point of the road: what the API shows and which webhook events fire at that moment of the client's clock. */
export interface ScenarioStep {
  /**
   * When, in warehouse steps after the subject entered the warehouse (the order's shipment was created, the packing
   * slip's goods arrived): each step is SANDBOX_STEP_SECONDS on the client's clock (30 s by default), so a clock
   * advance of `at` steps reaches it. Deterministic: the same order on the same clock takes the same road.
   */
  at: number;
  /**
   * What `at` counts from when it is not the subject's entry: `goodsReceived`, the moment an inbound brings the goods
   * the order waited for (its next shipment is created then, at 0).
   */
  after?: 'goodsReceived';
  /** Which shipment of the order (1, 2): for roads with more than one. */
  shipment?: number;
  /** The shipment's status (v3 `status`; v2 shipments show it as their state). */
  status?: ShipmentStatus;
  /** The shipment's tracking stage (v3 `tracking.stage`), or RETURNED, descriptive, for a parcel back at the warehouse. */
  trackingStage?: TrackingStage | 'RETURNED';
  /** The tracking's status (v3 `tracking.status`). */
  trackingStatus?: 'OK' | 'WARNING' | 'ERROR';
  /** The v2 track-trace status code (GET /v2/shipment/tracktracestatus `currentTrackTraceStatus`). */
  trackTraceCode?: number;
  /** For packing slip roads: the packing slip's status (v3 `status`). */
  packingSlipStatus?: (typeof packingSlipStatuses)[number];
  /** For packing slip roads: the status of the inbound the receipt made. */
  inboundStatus?: (typeof inboundStatuses)[number];
  /** Webhook events emitted at this moment, in order. */
  events: readonly string[];
  /** Stock mutation types booked at this moment. */
  stockMutations?: readonly string[];
  /** What happens, in a sentence. */
  description: string;
}

export interface Scenario {
  name: ScenarioName;
  title: string;
  /** One line: what the road is and which branch of an integration it exercises. */
  description: string;
  subject: ScenarioSubject;
  /**
   * How an integrator starts it. Scenarios with a marker are set by `sandbox-scenario:<name>` in a free field on create
   * (see scenarioMarkerPrefix) or, for orders, by PUT /sandbox/orders/{id}/scenario before the order ships. Scenarios
   * without one follow from the data itself (`condition`), e.g. an order whose goods are not in stock.
   */
  trigger: { marker: boolean; condition?: string };
  /** The road, in clock order. */
  steps: readonly ScenarioStep[];
}

/** How many warehouse steps the warehouse-problem road's ERROR lasts before the warehouse resolves it by itself. */
export const scenarioProblemSteps = 2;

/** The reason the warehouse-problem road gives for its ERROR (GET /sandbox/orders/{id}/scenario `problem`). */
export const scenarioProblemReason = 'Sandbox scenario warehouse-problem: the goods were not found on their pick location.';

type Step = ScenarioStep;

/**
 * The warehouse part of the happy road, from a shipment's creation at `from` to SHIPPED: one status per step, labelled
 * (tracking LABELLED, v2 code 1) at READY_TO_SHIP, goods booked out at SHIPPED.
 */
function toShipped(from: number, extra: Partial<Step> = {}): Step[] {
  return [
    {
      ...extra,
      at: from,
      status: 'READY_TO_PICK',
      events: ['shipment.created.3', 'shipment.readyToPick.3'],
      description: 'The shipment is created and waits to be picked.',
    },
    { ...extra, at: from + 1, status: 'READY_TO_SORT', events: [], description: 'Picked; waits to be sorted.' },
    {
      ...extra,
      at: from + 2,
      status: 'READY_TO_SHIP',
      trackingStage: 'LABELLED',
      trackingStatus: 'OK',
      trackTraceCode: 1,
      events: ['shipment.readyToShip.3'],
      description: 'Packed and labelled: tracking number, tracking URL and colli are set.',
    },
    {
      ...extra,
      at: from + 3,
      status: 'SHIPPED',
      trackingStage: 'LABELLED',
      trackingStatus: 'OK',
      trackTraceCode: 1,
      events: ['shipment.shipped.3'],
      stockMutations: ['SHIPMENT'],
      description: 'Handed to the carrier; the goods are booked out.',
    },
  ];
}

/** The carrier's stages after SHIPPED, one per step from `from`: ACCEPTED, SORTED, IN_DELIVERY. */
function toInDelivery(from: number, extra: Partial<Step> = {}): Step[] {
  const stage = (at: number, trackingStage: TrackingStage, trackTraceCode: number, description: string): Step => ({
    ...extra,
    at,
    status: 'SHIPPED',
    trackingStage,
    trackingStatus: 'OK',
    trackTraceCode,
    events: [],
    description,
  });
  return [
    stage(from, 'ACCEPTED', 2, 'Accepted by the carrier.'),
    stage(from + 1, 'SORTED', 3, "Sorted in the carrier's hub."),
    stage(from + 2, 'IN_DELIVERY', 4, 'Out for delivery.'),
  ];
}

const delivered = (at: number, extra: Partial<Step> = {}, description = 'Delivered to the consumer.'): Step => ({
  ...extra,
  at,
  status: 'SHIPPED',
  trackingStage: 'DELIVERED',
  trackingStatus: 'OK',
  trackTraceCode: 7,
  events: [],
  description,
});

/** The whole happy road of one shipment, created at `from`: SHIPPED at from + 3, DELIVERED at from + 7. */
const happyRoad = (from = 0, extra: Partial<Step> = {}): Step[] => [
  ...toShipped(from, extra),
  ...toInDelivery(from + 4, extra),
  delivered(from + 7, extra),
];

/** The ordinary road every order without a scenario takes when its goods are in stock. */
export const ordinaryRoad: readonly ScenarioStep[] = happyRoad();

const marker = { marker: true } as const;

export const scenarios: readonly Scenario[] = [
  {
    name: 'waits-for-stock',
    title: 'Waits for stock',
    description:
      'An order whose goods are not in stock is accepted, waits, and ships when an inbound brings the goods: the branch that must not treat "no shipment yet" as an error.',
    subject: 'order',
    trigger: {
      marker: false,
      condition:
        "The order's goods are not in free stock in its warehouse, and it does not allow partial delivery (or none of them is in stock).",
    },
    steps: [
      {
        at: 0,
        events: [],
        description:
          'Accepted with a Sandbox-Warning naming the missing goods; no shipment. GET /sandbox/orders/{id}/scenario shows them in waitingForStock.',
      },
      ...happyRoad(0, { after: 'goodsReceived' }),
    ],
  },
  {
    name: 'partial-delivery',
    title: 'Partial delivery',
    description:
      'An order that allows partial delivery ships what is in stock first and the rest in a second shipment once an inbound brings it: two shipments for one order, the first without every item.',
    subject: 'order',
    trigger: { marker: false, condition: 'allowPartialDelivery is true and only part of the goods is in free stock.' },
    steps: [...happyRoad(0, { shipment: 1 }), ...happyRoad(0, { shipment: 2, after: 'goodsReceived' })],
  },
  {
    name: 'split',
    title: 'Split shipment',
    description:
      'The warehouse packs the order in two parcels: two shipments, each with its own items, colli and tracking, on the same road side by side.',
    subject: 'order',
    trigger: marker,
    steps: [...happyRoad(0, { shipment: 1 }), ...happyRoad(0, { shipment: 2 })].sort((a, b) => a.at - b.at),
  },
  {
    name: 'warehouse-problem',
    title: 'Warehouse problem',
    description: `The shipment goes to ERROR with a reason after it is created, and the warehouse resolves it ${scenarioProblemSteps} steps later (or at once by POST /sandbox/shipments/{id}/advance): the branch that handles ERROR and a shipment picked again.`,
    subject: 'order',
    trigger: marker,
    steps: [
      toShipped(0)[0],
      {
        at: 1,
        status: 'ERROR',
        events: [],
        description: 'The warehouse hits a problem: the shipment is in ERROR; GET /sandbox/orders/{id}/scenario gives the reason.',
      },
      ...happyRoad(1 + scenarioProblemSteps).map((step, index) =>
        index === 0 ? { ...step, events: ['shipment.readyToPick.3'], description: 'Resolved: the shipment is picked again.' } : step,
      ),
    ],
  },
  {
    name: 'first-attempt-failed',
    title: 'First delivery attempt failed',
    description: 'Nobody is home at the first attempt (1ST_ATTEMPT, a WARNING); the carrier delivers on the second round.',
    subject: 'order',
    trigger: marker,
    steps: [
      ...toShipped(0),
      ...toInDelivery(4),
      {
        at: 7,
        status: 'SHIPPED',
        trackingStage: '1ST_ATTEMPT',
        trackingStatus: 'WARNING',
        trackTraceCode: 10,
        events: [],
        description: 'Nobody home: the first attempt failed.',
      },
      { ...toInDelivery(4)[2], at: 8, description: 'Out for delivery again.' },
      delivered(9),
    ],
  },
  {
    name: 'pick-up-point',
    title: 'Delivered to a pick-up point',
    description:
      'The parcel waits at a pick-up point (AT_PUP) before the consumer collects it. Orders with a pickUpPoint take this road without a marker.',
    subject: 'order',
    trigger: { marker: true, condition: 'The order has a pickUpPoint.' },
    steps: [
      ...toShipped(0),
      ...toInDelivery(4),
      {
        at: 7,
        status: 'SHIPPED',
        trackingStage: 'AT_PUP',
        trackingStatus: 'OK',
        trackTraceCode: 5,
        events: [],
        description: 'At the pick-up point, waiting to be collected.',
      },
      delivered(8, {}, 'Collected by the consumer.'),
    ],
  },
  {
    name: 'refused-returned',
    title: 'Refused and returned',
    description:
      'The consumer refuses the parcel; it goes back to the warehouse (tracking RETURNED, v2 code 19), where a return is registered and processed and the goods are booked back in with a RETURN mutation.',
    subject: 'order',
    trigger: marker,
    steps: [
      ...toShipped(0),
      ...toInDelivery(4),
      {
        at: 7,
        status: 'SHIPPED',
        trackingStage: '1ST_ATTEMPT',
        trackingStatus: 'WARNING',
        trackTraceCode: 10,
        events: [],
        description: 'The consumer refuses the parcel at the door.',
      },
      {
        at: 8,
        status: 'SHIPPED',
        trackingStage: 'RETURNED',
        trackingStatus: 'ERROR',
        trackTraceCode: 19,
        events: [],
        stockMutations: ['RETURN'],
        description:
          'Back at the warehouse: a return of every item (condition RETURN) is registered and processed, the goods go back to stock with RETURN mutations.',
      },
    ],
  },
  {
    name: 'customs',
    title: 'Customs',
    description:
      'A parcel to a destination outside the EU is held at customs (v2 code 20; v3 stage SORTED with status WARNING), then cleared and in transit (v2 code 21) before delivery. On an order to an EU country the marker is refused with a warning and the order takes the ordinary road.',
    subject: 'order',
    trigger: { marker: true, condition: "The order's delivery address is outside the EU." },
    steps: [
      ...toShipped(0),
      ...toInDelivery(4).slice(0, 2),
      {
        at: 6,
        status: 'SHIPPED',
        trackingStage: 'SORTED',
        trackingStatus: 'WARNING',
        trackTraceCode: 20,
        events: [],
        description: 'At customs.',
      },
      {
        at: 7,
        status: 'SHIPPED',
        trackingStage: 'SORTED',
        trackingStatus: 'OK',
        trackTraceCode: 21,
        events: [],
        description: 'Cleared: in transit (customs only).',
      },
      { ...toInDelivery(4)[2], at: 8 },
      delivered(9),
    ],
  },
  {
    name: 'lots-and-serials',
    title: 'Lot numbers, expiration dates and serial numbers',
    description:
      'Every shipment item carries a lot number, an expiration date and one serial number per unit once shipped, whether or not its product is set up for them: the branch that reads them from GET /v3/shipmentItems (v2 serialNrs).',
    subject: 'order',
    trigger: marker,
    steps: happyRoad().map((step) =>
      step.status === 'SHIPPED' && step.trackingStage === 'LABELLED'
        ? { ...step, description: `${step.description} Each item gets a lot number, an expiration date and serial numbers.` }
        : step,
    ),
  },
  {
    name: 'damaged-return',
    title: 'Damaged return',
    description:
      'The consumer sends the delivered goods back damaged: a return with reason DAMAGED (v2 IsDamaged) is processed with condition DAMAGED, and the goods land on a DAMAGED location.',
    subject: 'order',
    trigger: marker,
    steps: [
      ...happyRoad(),
      {
        at: 8,
        status: 'SHIPPED',
        trackingStage: 'DELIVERED',
        trackingStatus: 'OK',
        trackTraceCode: 7,
        events: [],
        stockMutations: ['RETURN'],
        description:
          'Returned damaged: a return of every item with your return reason coded DAMAGED (if you have one) is processed with condition DAMAGED.',
      },
    ],
  },
  {
    name: 'inbound-short',
    title: 'Inbound short',
    description:
      'Fewer goods arrive than the packing slip announced: one unit of each item is missing. The slip stays IN_PROGRESS with received below quantity, and the stock shows only what came.',
    subject: 'packingSlip',
    trigger: marker,
    steps: [
      {
        at: 0,
        packingSlipStatus: 'IN_PROGRESS',
        inboundStatus: 'CHECKED',
        events: ['inbound.processing', 'inbound.checking', 'inbound.checkingUpdate', 'inbound.checked'],
        stockMutations: ['INBOUND'],
        description:
          'The goods arrive on their expected day, one unit of each item short; the difference is counted (inbound.checkingUpdate) and the inbound completes 2 hours later.',
      },
    ],
  },
  {
    name: 'inbound-over',
    title: 'Inbound over',
    description:
      'More goods arrive than the packing slip announced: one unit more of each item. The slip is CHECKED with received above quantity, and the stock holds the extra units.',
    subject: 'packingSlip',
    trigger: marker,
    steps: [
      {
        at: 0,
        packingSlipStatus: 'CHECKED',
        inboundStatus: 'CHECKED',
        events: ['inbound.processing', 'inbound.checking', 'inbound.checkingUpdate', 'inbound.checked'],
        stockMutations: ['INBOUND'],
        description:
          'The goods arrive on their expected day, one unit more of each item; the difference is counted (inbound.checkingUpdate) and the inbound and the slip complete 2 hours later.',
      },
    ],
  },
];

/** The scenario of this name, if there is one. */
export const scenarioByName = (name: string): Scenario | undefined => scenarios.find((s) => s.name === name);

/**
 * The scenario a free-field value asks for: the name after `sandbox-scenario:` (trimmed), known or not, or undefined
 * when the value is no marker.
 */
export function markedScenario(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith(scenarioMarkerPrefix)) return undefined;
  return value.slice(scenarioMarkerPrefix.length).trim();
}
