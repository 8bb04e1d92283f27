// Statements prepared by name on the embedded database (PGlite). Its query() parses, plans and describes a statement
// on every call, in five calls into the WASM engine: a list page's statement (6 KB of SQL) spent longer being planned
// than being run. Here each statement text is parsed once per database (a named Parse message) and a run is one call
// of Bind, Execute and Sync. The rows come back in PostgreSQL's text form, unparsed.
import type * as PGliteModule from '@electric-sql/pglite';

type Serialize = typeof PGliteModule.protocol.serialize;
type TextRow = (string | null)[];

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

export class EmbeddedStatements {
  /** The names parsed, oldest first. */
  private readonly prepared = new Set<string>();

  constructor(
    private readonly client: PGliteModule.PGlite,
    private readonly serialize: Serialize,
  ) {}

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
