// The logger's `err` serializer: what an error may put in a log line. Database errors carry the statement's bound
// parameters (customers' emails, addresses, metadata; megabytes for a big request): drizzle's DrizzleQueryError in its
// message ("Failed query: ... params: ..."), its stack and `params`, PGlite's errors in `params` and `queryOptions`,
// pg's in `detail` ("Key (email)=(...)"). pino's standard serializer copies every enumerable property, so this one is
// written by hand: it copies only named fields, drops parameters everywhere in the cause chain, and bounds every string.

/** Longest text kept per field; longer text is cut and says how much was left out. */
const maxLength = { message: 2048, stack: 4096, nestedStack: 1024, sql: 1024, field: 200 } as const;
/** Errors serialized per log line, counting causes and the members of AggregateErrors. */
const maxErrors = 5;

/** Short identifying fields of Node, Fastify and PostgreSQL errors; none of them holds a bound value. */
const keptFields = [
  'code',
  'statusCode',
  'errno',
  'syscall',
  'address',
  'port',
  'severity',
  'routine',
  'constraint',
  'table',
  'column',
  'schema',
  'dataType',
  'position',
] as const;

/**
 * PostgreSQL messages that quote the offending input value (a bound parameter); the value is replaced. Other
 * messages quote identifiers (relation "orders"), which are kept. Each pattern has a group before and after the value.
 */
const valueQuotingMessages = [
  /^(invalid input syntax for type [^:]+: )".*"()$/s,
  /^(invalid input value for enum [^:]+: )".*"()$/s,
  /^(malformed [\w ]+ literal: )".*"()$/s,
  /^(value )".*"( is out of range for type .*)$/s,
];

export interface SerializedError {
  type: string;
  message: string;
  /** Empty when the value thrown was not an Error. */
  stack: string;
  /** The statement of a failed query, without its parameters. */
  sql?: string;
  cause?: SerializedError;
  errors?: SerializedError[];
  [field: string]: unknown;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

function withoutValues(message: string): string {
  // drizzle: `Failed query: ${sql}\nparams: ${params}`.
  const params = message.startsWith('Failed query: ') ? message.indexOf('\nparams: ') : -1;
  if (params >= 0) return `${message.slice(0, params)}\nparams: [omitted]`;
  for (const pattern of valueQuotingMessages) {
    if (pattern.test(message)) return message.replace(pattern, (_, before: string, after: string) => `${before}[value omitted]${after}`);
  }
  return message;
}

/** The stack's frames under a clean header: the header repeats the raw message, with its parameters. */
function cleanStack(stack: string, rawMessage: string, header: string, max: number): string {
  const at = rawMessage ? stack.indexOf(rawMessage) : -1;
  const frames =
    at >= 0
      ? stack.slice(at + rawMessage.length)
      : `\n${stack
          .split('\n')
          .filter((line) => /^\s+at /.test(line))
          .join('\n')}`;
  return truncate(`${header}${frames}`, max);
}

function serializeOne(value: unknown, budget: { left: number }, nested: boolean): SerializedError {
  budget.left--;
  if (typeof value !== 'object' || value === null)
    return { type: typeof value, message: truncate(String(value), maxLength.message), stack: '' };
  const error = value as Record<string, unknown> & { message?: unknown; stack?: unknown; cause?: unknown; errors?: unknown };
  const type = (error as object).constructor?.name ?? 'Object';
  const rawMessage = typeof error.message === 'string' ? error.message : '';
  const message = truncate(withoutValues(rawMessage), maxLength.message);
  const stack =
    typeof error.stack === 'string'
      ? cleanStack(error.stack, rawMessage, `${type}: ${message}`, nested ? maxLength.nestedStack : maxLength.stack)
      : '';
  const out: SerializedError = { type, message, stack };
  if (typeof error.query === 'string') out.sql = truncate(error.query, maxLength.sql);
  for (const field of keptFields) {
    const kept = error[field];
    if (typeof kept === 'number' || typeof kept === 'boolean') out[field] = kept;
    else if (typeof kept === 'string') out[field] = truncate(kept, maxLength.field);
  }
  if (error.cause !== undefined) {
    if (budget.left > 0) out.cause = serializeOne(error.cause, budget, true);
    else out.causeOmitted = true;
  }
  if (Array.isArray(error.errors) && error.errors.length) {
    const members: SerializedError[] = [];
    for (const member of error.errors) {
      if (budget.left <= 0) break;
      members.push(serializeOne(member, budget, true));
    }
    out.errors = members;
    if (members.length < error.errors.length) out.errorsOmitted = error.errors.length - members.length;
  }
  return out;
}

/** pino `err` serializer (Fastify's logger option `serializers: { err }`). */
export function serializeError(error: unknown): SerializedError {
  return serializeOne(error, { left: maxErrors }, false);
}
