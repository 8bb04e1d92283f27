// v3 order attachments: multipart with a `data` part (the JSON:API document as text) and a `file` part (the PDF).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { limits, OrderAttachmentData } from '@shopapi/contract';
import { route } from '../shared/routes.ts';
import { compileBodyValidator, validationItems } from '../shared/validation.ts';
import { assertCleanInput } from '../shared/input-guard.ts';
import { addAttachment, findAttachment } from '../../modules/orders/attachments.ts';
import { orderAttachmentResource } from '../../representation/index.ts';
import type { AppContext } from '../shared/context.ts';
import { locating, multipartPointer } from '../shared/problem-pointers.ts';
import { uploadTurns } from '../shared/upload-pace.ts';
import { DomainError, domainError } from '../../platform/errors.ts';

const validateData = compileBodyValidator(OrderAttachmentData);

async function readParts(request: FastifyRequest): Promise<{ data?: string; file?: Buffer }> {
  if (!request.isMultipart()) throw domainError('415', 'Send multipart/form-data with a data part and a file part.');
  const out: { data?: string; file?: Buffer } = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw domainError('400', `Unexpected file part "${part.fieldname}"; send the PDF as "file".`);
        out.file = await part.toBuffer();
      } else if (part.fieldname === 'data') out.data = String(part.value);
    }
  } catch (error) {
    if (error instanceof DomainError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw domainError('400', `The file is larger than ${limits.attachmentMaxBytes / 1024 / 1024} MiB.`, { pointer: '/file' });
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw domainError('400', 'The multipart body has more parts than allowed: send one data part and one file part.');
    throw domainError('400', 'The multipart body could not be read.');
  }
  return out;
}

export function attachmentRoutes(app: FastifyInstance, { db, baseOf, config, uploadPace }: AppContext) {
  route(app, 'createOrderAttachment', async (request, reply) => {
    const parts = await readParts(request);
    if (parts.data === undefined) throw domainError('400', 'The data part is missing.', { pointer: '/data' });
    if (!parts.file?.length) throw domainError('400', 'The file part is missing or empty.', { pointer: '/file' });
    let document: unknown;
    try {
      document = JSON.parse(parts.data);
    } catch {
      throw domainError('400', 'The data part is not valid JSON.', { pointer: '/data' });
    }
    // The data part skips the request-body hooks: the same guard as every body, here.
    assertCleanInput(document, 'body');
    // The spec describes the part as the resource itself (type, attributes, relationships); clients send that as
    // well as the whole document ({"data": {...}}). Both are read as the document.
    if (document && typeof document === 'object' && !Array.isArray(document) && !('data' in document) && 'type' in document)
      document = { data: document };
    if (!validateData(document)) throw new DomainError(validationItems(validateData.errors ?? [], 'body'));
    const { attributes, relationships } = (document as typeof OrderAttachmentData.static).data;
    // The file's check and storing wait for the client's pace of uploads, and its storing's turns carry the body's
    // reading (a multipart call holds no place).
    const turns = await uploadTurns(uploadPace, request, reply, parts.file.length);
    const result = await locating(
      multipartPointer,
      addAttachment(
        db,
        request.client.id,
        {
          ...attributes,
          orderId: relationships?.order ? Number(relationships.order.data.id) : undefined,
        },
        parts.file,
        config.storageQuotaBytes,
        turns,
      ),
    );
    // Read back, so the answer is the attachment exactly as GET /v3/orderAttachments/{id} gives it.
    return { data: orderAttachmentResource((await findAttachment(db, request.client.id, result.id))!, baseOf(request)) };
  });

  route(app, 'getOrderAttachment', async (request) => {
    const attachment = await findAttachment(db, request.client.id, request.params.id);
    if (!attachment) throw domainError('404', `Order attachment ${request.params.id} not found.`);
    return { data: orderAttachmentResource(attachment, baseOf(request)) };
  });
}
