// The catalogue of test scenarios: every road an order or a packing slip can take in the warehouse, written once. The
// simulator follows it, GET /sandbox/scenarios serves it, the portal's "Test scenarios" page renders it and the tests
// walk it, so none of them can drift from the others.
import type { ShipmentStatus, TrackingStage } from './enums.ts';

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
