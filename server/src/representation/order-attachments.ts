// Order attachments, without their contents, which are never returned.
import type { AttachmentRow } from '../modules/orders/attachments.ts';
import { one, self, type ResourceObject } from './resource.ts';

export function orderAttachmentResource(a: AttachmentRow, base: string): ResourceObject {
  return {
    type: 'orderAttachment',
    id: a.id,
    attributes: {
      filename: a.filename,
      contentType: a.contentType,
      printStrategy: a.printStrategy,
      externalOrderNumber: a.externalOrderNumber,
      createdOn: a.createdAt.toISOString(),
    },
    relationships: { order: one('order', a.orderId) },
    links: self(base, 'orderAttachments', a.id),
  };
}
