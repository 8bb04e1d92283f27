// Statements prepared by name on the embedded database (PGlite). Its query() parses, plans and describes a statement
// on every call, in six calls into the WASM engine (Parse, Describe, Bind, Describe, Execute, Sync), each awaited: a
// list page's statement (6 KB of SQL) spent longer being planned than being run, and a small select cost 650 µs where
// its run costs 80. Here each statement text is parsed and described once per database (a named Parse message) and a
// run is one call of Bind, Execute and Sync. Two ways in: `textRows`, the rows in PostgreSQL's text form, unparsed (the
// list pages' JSON); and `drizzleClient`, what drizzle is given in place of the PGlite client, whose query() answers
// exactly as PGlite's does (the same parameter serializers and result parsers, by the types the description gave).
//
// Written here rather than taken from a library: PGlite has no statement cache of its own, and this is the layer that
// knows its locks (a query outside a transaction waits for any transaction open, as PGlite's own query() does).
import type * as PGliteModule from '@electric-sql/pglite';
type BackendMessage = PGliteModule.messages.BackendMessage;

type Serialize = typeof PGliteModule.protocol.serialize;
type ParseResults = typeof PGliteModule.parse.parseResults;
type TextRow = (string | null)[];
type QueryOptions = PGliteModule.QueryOptions;
type Results = PGliteModule.Results;

/** PostgreSQL's bytea type id. */
const byteaType = 17;

/** A statement text parsed under a name: its parameters' types (to serialize values as PGlite does) and its row description. */
interface Described {
  name: string;
  parameterTypes: number[];
  rowDescription?: BackendMessage;
}

/** The part of a PGlite client (or of one of its transactions) that drizzle's PGlite driver calls. */
export interface DrizzleClient {
  query(text: string, params?: unknown[], options?: QueryOptions): Promise<Results>;
  transaction<T>(callback: (tx: DrizzleTransaction) => Promise<T>): Promise<T>;
}
interface DrizzleTransaction {
  query(text: string, params?: unknown[], options?: QueryOptions): Promise<Results>;
  exec(text: string, options?: QueryOptions): Promise<Results[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

/** A message of several protocol messages. */
function joined(parts: Uint8Array[]): Uint8Array {
  const message = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    message.set(part, offset);
    offset += part.length;
  }
  return message;
}

/** The error of a run, as PGlite's query() throws it (the statement and its parameters attached). */
function failure(messages: BackendMessage[], text: string, params: unknown[], options: QueryOptions | undefined) {
  const error = messages.find((m) => m.name === 'error');
  return error && Object.assign(error, { query: text, params, queryOptions: options });
}

/**
 * A parameter in PostgreSQL's text form, or a buffer as it is (sent in binary form: byteaArray); undefined for one
 * without either (an object).
 */
function textValue(value: unknown): string | Uint8Array | null | undefined {
  if (value === null || value === undefined) return null;
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    const elements = value.map(textValue);
    if (elements.some((e) => e === undefined || e instanceof Uint8Array)) return undefined;
    return `{${(elements as (string | null)[]).map((e) => (e === null ? 'NULL' : `"${e.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`)).join(',')}}`;
  }
  return undefined;
}

/** Prepared statements kept at most (one per statement text: filters of different lengths make different texts). */
const preparedMax = 200;
/** Statements of drizzle's queries kept at most, the least recently run closed first (inserts of n rows are n texts). */
const describedMax = 500;

export class EmbeddedStatements {
  /** The names parsed, oldest first. */
  private readonly prepared = new Set<string>();
  /** drizzle's statement texts parsed and described, least recently run first. */
  private readonly described = new Map<string, Described>();
  /** Names of statements put out of the cache, closed with the next message. */
  private closing: string[] = [];
  private named = 0;

  constructor(
    private readonly client: PGliteModule.PGlite,
    private readonly serialize: Serialize,
    private readonly parseResults: ParseResults,
  ) {}

  /**
   * What drizzle is given instead of the PGlite client: the same query() and transaction(), with each statement text
   * prepared once. Outside a transaction a query waits for any transaction open (PGlite's two locks, in its order);
   * inside one, the transaction holds them.
   */
  drizzleClient(): DrizzleClient {
    const { client } = this;
    return {
      // As PGlite's query(): ready first (a turn of the microtask queue, as transaction() takes), so calls take the locks
      // in the order they were made.
      query: async (text, params = [], options) => {
        await client._checkReady();
        return client._runExclusiveTransaction(() => client.runExclusive(() => this.run(text, params, options, false)));
      },
      transaction: (callback) =>
        client.transaction((tx) =>
          callback({
            query: async (text, params = [], options) => {
              if (tx.closed) throw new Error('Transaction is closed');
              return client.runExclusive(() => this.run(text, params, options, true));
            },
            exec: (text, options) => tx.exec(text, options),
            rollback: () => tx.rollback(),
            get closed() {
              return tx.closed;
            },
          }),
        ),
    };
  }

  /** One statement through its prepared name: described at its first run, then Bind, Execute and Sync in one call. */
  private async run(text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results> {
    const { client, serialize } = this;
    let statement = this.described.get(text);
    if (statement) {
      this.described.delete(text);
      this.described.set(text, statement);
    } else {
      statement = await this.describe(text, params, options);
    }
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const type = statement.parameterTypes[i];
      // A buffer for a bytea goes as it is, in binary form: PGlite's serializer writes it as hex text in JavaScript, a
      // string per byte (a stored file's 256 KiB part took milliseconds of this thread, and the engine decoded it again).
      if (type === byteaType && ArrayBuffer.isView(param)) return param;
      const serializer = options?.serializers?.[type] ?? client.serializers[type];
      return serializer ? serializer(param) : String(param);
    });
    const { messages } = await client.execProtocol(
      joined([...this.closes(), serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()]),
      { throwOnError: false, syncToFs: !inTransaction },
    );
    const error = failure(messages, text, params, options);
    if (error) {
      // A table changed under the statement (its plan's row type no longer holds): described again, outside a
      // transaction run again; inside one the transaction has failed, as it would with PGlite's own query().
      if ((error as { code?: string }).code === '0A000' && this.described.get(text) === statement) {
        this.forget(text);
        if (!inTransaction) return this.run(text, params, options, inTransaction);
      }
      throw error;
    }
    const described = statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
    return this.parseResults(described, client.parsers, options)[0];
  }

  private async describe(text: string, params: unknown[], options: QueryOptions | undefined): Promise<Described> {
    const { serialize } = this;
    const name = `d${++this.named}`;
    const { messages } = await this.client.execProtocol(
      joined([
        ...this.closes(),
        serialize.parse({ name, text, types: options?.paramTypes }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      { throwOnError: false, syncToFs: false },
    );
    const error = failure(messages, text, params, options);
    if (error) throw error;
    if (this.described.size >= describedMax) {
      const [oldest] = this.described.keys();
      this.forget(oldest);
    }
    const parameters = messages.find((m) => m.name === 'parameterDescription') as { dataTypeIDs?: number[] } | undefined;
    const statement: Described = {
      name,
      parameterTypes: parameters?.dataTypeIDs ?? [],
      rowDescription: messages.find((m) => m.name === 'rowDescription'),
    };
    this.described.set(text, statement);
    return statement;
  }

  private forget(text: string) {
    const statement = this.described.get(text);
    if (!statement) return;
    this.described.delete(text);
    this.closing.push(statement.name);
  }

  /** Close messages for the statements put out of the cache since the last message. */
  private closes(): Uint8Array[] {
    if (!this.closing.length) return [];
    const closes = this.closing.map((name) => this.serialize.close({ type: 'S', name }));
    this.closing = [];
    return closes;
  }

  /** The rows of the statement `name` (its text parsed at its first run); undefined when a parameter has no text form. */
  async textRows(name: string, text: string, params: unknown[]): Promise<TextRow[] | undefined> {
    const values = params.map(textValue);
    if (values.includes(undefined)) return undefined;
    const { client, serialize } = this;
    // The locks PGlite's own query() takes, in its order: a transaction another caller has open ends before this runs.
    return client._runExclusiveTransaction(() =>
      client.runExclusive(async () => {
        const parse: Uint8Array[] = [];
        if (!this.prepared.has(name)) {
          const [oldest] = this.prepared;
          if (this.prepared.size >= preparedMax && this.prepared.delete(oldest)) parse.push(serialize.close({ type: 'S', name: oldest }));
          parse.push(serialize.parse({ name, text }));
        }
        const parts = [
          ...parse,
          serialize.bind({ statement: name, values: values as (string | Uint8Array | null)[] }),
          serialize.execute({}),
          serialize.sync(),
        ];
        const message = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
        let offset = 0;
        for (const part of parts) {
          message.set(part, offset);
          offset += part.length;
        }
        const { messages } = await client.execProtocol(message, { throwOnError: false });
        // Prepared once parsed, even when the run failed after that, so the name is not parsed twice.
        if (messages.some((m) => m.name === 'parseComplete')) this.prepared.add(name);
        const error = messages.find((m) => m.name === 'error');
        if (error) throw error;
        return messages.flatMap((m) => (m.name === 'dataRow' ? [(m as PGliteModule.messages.DataRowMessage).fields as TextRow] : []));
      }),
    );
  }
}
