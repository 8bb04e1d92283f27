// Which test scenario's road an order follows, and where a shipment goes next on it: the catalogue
// (contract/src/scenarios.ts) read by the simulator, so the warehouse walks exactly the steps GET /sandbox/scenarios lists.
import {
  euCountryCodes,
  markedScenario,
  metadataExtraFields,
  scenarioByName,
  type Scenario,
  type ScenarioName,
  type ScenarioStep,
} from '@shopapi/contract';

type Metadata = Record<string, string | null | undefined>;

/** Whether a delivery country is outside the EU, where parcels meet customs (a sub-territory counts as its country). */
export const outsideEu = (countryCode: string) => !euCountryCodes.has(countryCode.slice(0, 2).toUpperCase());

/** A `sandbox-scenario:` marker found in an order's or a packing slip's free fields. */
export interface Marker {
  /** The free field that holds it: extra1 … extra5. */
  field: (typeof metadataExtraFields)[number];
  /** The name after the prefix, as sent. */
  name: string;
  /** The scenario it sets; absent when the marker names none that applies (see refusal). */
  scenario?: Scenario;
  /** Why the marker sets nothing: an unknown name, a road of the other subject, a road that follows from data. */
  refusal?: string;
}

/**
 * The first marker in these free fields, judged for a subject. `countryCode`: an order's delivery country, for customs,
 * which needs a destination outside the EU (on an EU destination the marker is refused and the order takes the
 * ordinary road: a parcel that stays in the EU meets no customs).
 */
export function markerIn(metadata: Metadata, subject: Scenario['subject'], countryCode?: string): Marker | undefined {
  for (const field of metadataExtraFields) {
    const name = markedScenario(metadata[field]);
    if (name === undefined) continue;
    const scenario = scenarioByName(name);
    const refusal = !scenario
      ? `"${name}" is not a scenario (GET /sandbox/scenarios lists them)`
      : scenario.subject !== subject
        ? `${name} is a scenario of ${scenario.subject === 'order' ? 'orders' : 'packing slips'}`
        : !scenario.trigger.marker
          ? `${name} follows from the data (${scenario.trigger.condition}), not from a marker`
          : name === 'customs' && countryCode && !outsideEu(countryCode)
            ? `customs needs a destination outside the EU; ${countryCode} is in the EU`
            : undefined;
    return refusal ? { field, name, refusal } : { field, name, scenario };
  }
  return undefined;
}

export interface OrderRoadFields {
  scenario: string | null;
  scenarioSetBy: string | null;
  metadata: Metadata;
}

/**
 * The scenario an order follows by marker or control: the control (PUT /sandbox/orders/{id}/scenario) wins, even when it
 * chose the ordinary road (null); else a marker in its free fields that applies.
 */
export function orderRoad(order: OrderRoadFields, countryCode: string): { scenario: Scenario; setBy: 'marker' | 'control' } | undefined {
  if (order.scenarioSetBy === 'control') {
    const scenario = order.scenario ? scenarioByName(order.scenario) : undefined;
    return scenario && { scenario, setBy: 'control' };
  }
  const scenario = markerIn(order.metadata, 'order', countryCode)?.scenario;
  return scenario && { scenario, setBy: 'marker' };
}

/** The steps of the road one shipment (1 for the order's first) walks by itself, in clock order. */
export function shipmentSteps(scenario: Scenario, shipment: number): ScenarioStep[] {
  return scenario.steps.filter((s) => !s.after && (s.shipment ?? 1) === shipment);
}

/** The scenarios whose road the simulator walks step by step from the catalogue (the others follow from data). */
export const isWalked = (scenario: Scenario) => scenario.subject === 'order' && scenario.trigger.marker;

export type { ScenarioName };
