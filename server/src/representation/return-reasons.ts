// Return reasons: the client's reference data.
import type { ReturnReasonRow } from '../modules/reference/service.ts';
import { self, type ResourceObject } from './resource.ts';

export function returnReasonResource(r: ReturnReasonRow, base: string): ResourceObject {
  return { type: 'returnReason', id: r.id, attributes: { code: r.code, name: r.name }, links: self(base, 'returnReasons', r.id) };
}
