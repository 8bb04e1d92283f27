// Every business constant of the spec, once. Server, tests and docs import from here.
export const limits = {
  pageSizeMax: 100,
  pageSizeDefault: 100,
  externalOrderNumberMax: 50,
  channelIdentifierMax: 250,
  phoneNumberMax: 32,
  skuMin: 2,
  skuMax: 80,
  metadataExtraMax: 250,
  productNameMax: 250,
  productDescriptionMax: 10000,
  hsCodeMinDigits: 6,
  hsCodeMaxDigits: 12,
  productImageMaxBytes: 10 * 1024 * 1024,
  v2EncodedImageMaxBytes: 100 * 1024,
  v2DescriptionMax: 200,
  v2ShipmentListMax: 100,
  v2ReturnItemsMax: 1000,
  v2LanguagesMax: 11,
  /** Metadata pairs of one v2 RMA item. */
  v2MetadataPairsMax: 20,
  attachmentMaxBytes: 5 * 1024 * 1024,
  attachmentMaxPages: 1,
  shipmentRetentionDays: 90,
  packingSlipRetentionDays: 90,
  stockMutationRetentionDays: 7,
  rateLimitPerHour: 500,
  checkedInboundAutoCompleteHours: 2,
  tokenLifetimeSecondsDefault: 56_000,
  requestBodyMaxBytes: 1024 * 1024,
  includeDepthMax: 1,
  /** Items of one order (v3 and v2), and so shipment items of one shipment. */
  orderItemsMax: 1000,
  /** Items of one inbound packing slip (v2: purchase order), and items received by one sandbox call. */
  packingSlipItemsMax: 1000,
  /** Ids in one v2 sync call (shipments, stock mutations) and order types in one v2 shipment query. */
  syncIdsMax: 1000,
  /**
   * Items (order items, shipment items, packing slip and inbound items) included in one list page. A page whose
   * resources hold more ends early, at least one resource long, and links to the next: one answer stays a few MB.
   */
  includedItemsMaxPerPage: 1000,
  /** Problems listed in one error answer; a last entry says how many more there were. */
  errorsMax: 100,
  /** Form bodies (v2, /token): the highest list index, the deepest key and the most fields one body may have. */
  formArrayIndexMax: 1000,
  formDepthMax: 8,
  formFieldsMax: 20_000,
  /** The bound of text the contract gives no tighter bound (filters, free text). */
  textMaxDefault: 10_000,
  /** Dates and times as text. */
  dateTextMax: 64,
  /**
   * The storage quota of one client by default (STORAGE_QUOTA_MIB): the bytes of its order attachments and product
   * images together. Far above what an integration stores (a thousand 100 KB invoices and a hundred 1 MB images).
   */
  storageQuotaMibDefault: 512,
  /**
   * The pace of one client's uploads by default (UPLOAD_MIB_PER_SECOND): the bytes of its attachments and product images
   * it sends per second, after a first burst of one largest file. An upload beyond waits its turn, up to
   * uploadPaceMaxWaitSeconds, and is refused with 429 past that. Eight a second is a label PDF every 15 ms.
   */
  uploadMibPerSecondDefault: 8,
  /**
   * Bodies that wait for the pace are held in memory: what one client can hold so is bounded by this wait (40 MiB at
   * the default pace, and a first burst of one largest file).
   */
  uploadPaceMaxWaitSeconds: 5,
  /**
   * Webhooks one client may have, active or not (Stripe allows 16 per account): each event fans out to at most this
   * many deliveries, and reactivating a webhook can never pass it.
   */
  webhooksPerClientMax: 20,
  /** A delivery attempt (connect, headers and the answer's body together) counts as failed when it takes longer. */
  webhookAttemptTimeoutSeconds: 10,
  /** Of a receiver's answer the dispatcher reads and logs this many bytes; the rest is not read. */
  webhookResponseMaxBytes: 2048,
  /** One advance of a client's sandbox clock (POST /sandbox/clock/advance): at most a year. */
  clockAdvanceMaxSeconds: 366 * 86_400,
  /**
   * How far a client's clock may run ahead of real time, all advances together: a hundred years. Dates stay four-digit
   * years, and repeated advances cannot push the clock past what dates can hold.
   */
  clockAheadMaxSeconds: 100 * 366 * 86_400,
  /**
   * How long POST /sandbox/clock/advance waits for the warehouse to catch up before it answers 202 with the advance under
   * way (the default of the server's SANDBOX_ADVANCE_WAIT_MS).
   */
  clockAdvanceWaitMsDefault: 5_000,
} as const;

/** The pace of uploads, as the upload operations document it. */
export const uploadPaceText = `Your uploads (attachments and product images together) go at most ${limits.uploadMibPerSecondDefault} MiB a second by default, after a first burst of one largest file: a faster one waits its turn, and one that would wait more than ${limits.uploadPaceMaxWaitSeconds} s answers 429 with Retry-After.`;

export const defaults = {
  currency: 'EUR',
  vat: 0,
  allowPartialDelivery: false,
  onHold: false,
  hsCodeCountry: 'XX',
  noReplyEmail: 'no-reply@sandbox.invalid',
} as const;
