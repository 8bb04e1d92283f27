// Each client's uploads at a pace: the bytes of order attachments and product images one client sends per second are
// bounded (UPLOAD_MIB_PER_SECOND, platform/byte-pace.ts), after a first burst of one largest file. An upload beyond
// waits its turn, out of the fair share (it holds no place while it waits); one that would wait longer than
// limits.uploadPaceMaxWaitSeconds is refused with 429 and Retry-After, its body already read and dropped.
//
// The pace is per process: behind a load balancer with several processes a client's uploads spread over them may go
// that many times faster. What it bounds is what one client takes of one process's machine.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { limits } from '@shopapi/contract';
import { BytePace } from '../../platform/byte-pace.ts';
import { domainError } from '../../platform/errors.ts';
import type { Turn } from '../../platform/fair-share.ts';
import { turnsOf } from './fair-share.ts';

/** The process's pace of uploads, or none when UPLOAD_MIB_PER_SECOND is 0. */
export function uploadPace(bytesPerSecond: number): BytePace | undefined {
  if (!bytesPerSecond) return undefined;
  return new BytePace(
    bytesPerSecond,
    Math.max(limits.productImageMaxBytes, limits.attachmentMaxBytes),
    limits.uploadPaceMaxWaitSeconds * 1000,
  );
}

/**
 * For an upload whose body of `bytes` has been read, before its file is checked and stored: waits for the client's pace
 * (a 429 when that would take too long), then gives the client's turns for the storing, the first charged with the
 * body's reading (turnsOf), which took the server's thread without a place.
 */
export async function uploadTurns(pace: BytePace | undefined, request: FastifyRequest, reply: FastifyReply, bytes: number): Promise<Turn> {
  await paceUpload(pace, request, reply, bytes);
  return turnsOf(request, bytes);
}

/** Waits until the client may send `bytes` more, or refuses the upload with 429 when that would take too long. */
async function paceUpload(pace: BytePace | undefined, request: FastifyRequest, reply: FastifyReply, bytes: number): Promise<void> {
  if (!pace || !request.client) return;
  const answer = pace.take(request.client.id, bytes);
  if ('refusedForMs' in answer) {
    const seconds = Math.ceil(answer.refusedForMs / 1000);
    reply.header('retry-after', seconds);
    const mibPerSecond = pace.bytesPerSecond / 2 ** 20;
    throw domainError(
      '429',
      `Your uploads go faster than ${mibPerSecond} MiB a second: this one would wait more than ${limits.uploadPaceMaxWaitSeconds} s. Send it again in ${seconds} s, or send fewer files at once.`,
    );
  }
  if (answer.waitMs > 0) await new Promise((resolve) => setTimeout(resolve, answer.waitMs));
}
