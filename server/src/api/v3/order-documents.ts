// The order documents of POST and PUT /v3/orders read into the plain order the order service takes: addresses, items and
// the pick-up point come from `included` by provisional id, the order type and shipping method from relationships.
import type { Static } from '@sinclair/typebox';
import { limits, type OrderCreateDocument, type OrderUpdateDocument } from '@shopapi/contract';
import type { NewOrder, OrderChanges } from '../../modules/orders/service.ts';
import { ProblemCollector } from '../../platform/errors.ts';
import type { WarningSink } from '../../platform/request-warnings.ts';
import { attributesPointer, pointerAt, type Locate } from '../shared/problem-pointers.ts';

type CreateDocument = Static<typeof OrderCreateDocument>;
type UpdateDocument = Static<typeof OrderUpdateDocument>;
type Included = NonNullable<CreateDocument['included']>[number];

const provisionalKey = (ref: { id?: string | number; lid?: string | number }) =>
  (ref.lid ?? ref.id) === undefined ? undefined : String(ref.lid ?? ref.id);

/** Where the document carries the fields of the order that are not attributes. */
const relationshipOf: Record<string, string> = {
  orderTypeId: 'orderType',
  preferredShippingMethodId: 'preferredShippingMethod',
  billingAddress: 'billingAddress',
  deliveryAddress: 'deliveryAddress',
};

/**
 * The order of a create document, the problems of the document itself (provisional ids, links), and where each
 * path into the order sits in the document. The order service reports its own problems with the document's.
 */
export function newOrderFromDocument(document: CreateDocument): { order: NewOrder; problems: ProblemCollector; locate: Locate } {
  const { attributes, relationships } = document.data;
  const included = document.included ?? [];
  const problems = new ProblemCollector();

  const addressesByKey = new Map<string, { index: number; resource: Included }>();
  const items: { index: number; resource: Extract<Included, { type: 'orderItem' }> }[] = [];
  const pickUps: { index: number; resource: Extract<Included, { type: 'pickUpPoint' }> }[] = [];
  included.forEach((resource, index) => {
    if (resource.type === 'address') {
      const key = provisionalKey(resource);
      if (key === undefined)
        problems.add('400', 'An included address needs a provisional id that a relationship points to.', { pointer: `/included/${index}` });
      else if (addressesByKey.has(key))
        problems.add('400', `The provisional id "${key}" is used by two included addresses.`, { pointer: `/included/${index}/id` });
      else addressesByKey.set(key, { index, resource });
    } else if (resource.type === 'orderItem') items.push({ index, resource });
    else pickUps.push({ index, resource });
  });
  if (pickUps.length > 1) problems.add('400', 'An order has at most one pick-up point.', { pointer: `/included/${pickUps[1].index}` });
  if (items.length > limits.orderItemsMax)
    problems.add('400', `An order has at most ${limits.orderItemsMax} items; this one has ${items.length}.`, {
      pointer: `/included/${items[limits.orderItemsMax].index}`,
    });

  const linkedAddress = (name: 'deliveryAddress' | 'billingAddress') => {
    const ref = relationships[name];
    if (!ref) return undefined;
    const key = provisionalKey(ref.data);
    const found = key === undefined ? undefined : addressesByKey.get(key);
    if (!found)
      problems.add('400', `${name} must point to an address in included by its provisional id.`, {
        pointer: `/data/relationships/${name}`,
      });
    return found;
  };
  const delivery = linkedAddress('deliveryAddress');
  const billing = linkedAddress('billingAddress');
  for (const [key, entry] of addressesByKey) {
    if (entry !== delivery && entry !== billing)
      problems.add('400', `The included address "${key}" is not linked from the order.`, { pointer: `/included/${entry.index}` });
  }

  const addressOf = (entry: { resource: Included } | undefined) =>
    entry?.resource.attributes as Extract<Included, { type: 'address' }>['attributes'] | undefined;
  const order: NewOrder = {
    ...attributes,
    orderTypeId: Number(relationships.orderType.data.id),
    preferredShippingMethodId: relationships.preferredShippingMethod ? Number(relationships.preferredShippingMethod.data.id) : undefined,
    deliveryAddress: addressOf(delivery),
    billingAddress: billing === undefined ? undefined : billing === delivery ? 'delivery' : addressOf(billing),
    pickUpPoint: pickUps[0]?.resource.attributes,
    items: items.map(({ resource }) => resource.attributes),
  };

  const locate: Locate = (path) => {
    const [head, index, ...rest] = path;
    if (head === 'items' && typeof index === 'number' && items[index]) return pointerAt(`/included/${items[index].index}/attributes`, rest);
    if (head === 'pickUpPoint' && pickUps[0]) return pointerAt(`/included/${pickUps[0].index}/attributes`, path.slice(1));
    if ((head === 'deliveryAddress' || head === 'billingAddress') && path.length > 1) {
      const entry = head === 'deliveryAddress' ? delivery : billing;
      if (entry) return pointerAt(`/included/${entry.index}/attributes`, path.slice(1));
    }
    if (path.length === 1 && typeof head === 'string' && head in relationshipOf) return `/data/relationships/${relationshipOf[head]}`;
    return attributesPointer(path);
  };
  return { order, problems, locate };
}

/**
 * The changes of an update document. Relationships cannot change: each one sent is noted as ignored. Paths into the
 * changes are paths into the attributes, the default pointers.
 */
export function orderChangesFromDocument(document: UpdateDocument, warnings: WarningSink): OrderChanges {
  for (const name in document.data.relationships)
    warnings.add('ignored', 'relationships cannot change; not read', `/data/relationships/${name}`);
  return document.data.attributes;
}
