// The stock level formulas, once (the contract's stockLevelFormulas state them for the reference).

/** What the database sums per product and warehouse; every figure of a level derives from these. */
export interface LevelComponents {
  physical: number;
  quarantined: number;
  /** Not quarantined, by quality. */
  damaged: number;
  toScrap: number;
  overdue: number;
  expired: number;
  /** Quarantine-free, quality OK, but not matched yet (status other than OK). */
  unmatched: number;
  /** Sellable stock lying on locations excluded from fulfilment. */
  onExcludedLocations: number;
  outbound: number;
  ordered: number;
  expected: number;
}

export interface StockLevelValues {
  warehouse: string;
  stock: number;
  free: number;
  economic: number;
  available: number;
  physical: number;
  quarantined: number;
  unavailable: number;
  expected: number;
  damaged: number;
  toScrap: number;
  overdue: number;
  expired: number;
  outbound: number;
}

/** Location types whose goods cannot be picked for a shipment (v2: "locations excluded from fulfilment"). */
export const locationTypesExcludedFromFulfilment = ['INBOUND', 'RETURN', 'TRANSFER', 'DAMAGED', 'TO_SCRAP'] as const;

export const emptyComponents = (): LevelComponents => ({
  physical: 0,
  quarantined: 0,
  damaged: 0,
  toScrap: 0,
  overdue: 0,
  expired: 0,
  unmatched: 0,
  onExcludedLocations: 0,
  outbound: 0,
  ordered: 0,
  expected: 0,
});

export function stockLevel(warehouse: string, c: LevelComponents): StockLevelValues {
  const unavailable = c.quarantined + c.damaged + c.toScrap + c.overdue + c.expired + c.unmatched;
  const stock = c.physical - unavailable;
  const free = Math.max(0, stock - c.outbound - c.ordered);
  return {
    warehouse,
    stock,
    free,
    economic: Math.max(0, stock + c.expected - c.outbound - c.ordered),
    available: Math.max(0, free - c.onExcludedLocations),
    physical: c.physical,
    quarantined: c.quarantined,
    unavailable,
    expected: c.expected,
    damaged: c.damaged,
    toScrap: c.toScrap,
    overdue: c.overdue,
    expired: c.expired,
    outbound: c.outbound,
  };
}

/** A warehouse gets a level when anything of the product is there, expected there or ordered from there. */
export const isRelevant = (c: LevelComponents) => c.physical > 0 || c.expected > 0 || c.ordered > 0 || c.outbound > 0;
