// What the server did with a request beyond what the client asked: keys it ignored, deprecated names it read, values it
// converted, defaults it filled in. Collected per request, answered in Sandbox-Warning headers and kept in the request log.
import type { FieldPath } from './errors.ts';

export interface RequestWarning {
  /**
   * ignored: a key the server does not read; alias: a deprecated name; coerced: a value converted; default: a value filled
   * in; scenario: the test scenario the thing follows, or why it waits (goods not in stock).
   */
  kind: 'ignored' | 'alias' | 'coerced' | 'default' | 'scenario';
  detail: string;
  /** Where in the request: a JSON pointer into the body (/data/attributes/vat), or a query parameter's name. */
  source?: string;
}

/** A request may note this many warnings; more are counted, not kept, so a body of 20,000 stray keys costs no memory. */
export const warningsMax = 50;

export class Warnings {
  readonly list: RequestWarning[] = [];
  /** Warnings beyond warningsMax, not kept. */
  dropped = 0;

  add(kind: RequestWarning['kind'], detail: string, source?: string): void {
    if (this.list.length >= warningsMax) {
      this.dropped++;
      return;
    }
    this.list.push(source === undefined ? { kind, detail } : { kind, detail, source });
  }
}

/** For code that runs outside a request (the simulated warehouse, the CLI): warnings go nowhere. */
export const noWarnings: Pick<Warnings, 'add'> = { add() {} };

export type WarningSink = Pick<Warnings, 'add'>;

/** What a service notes warnings into: places are field paths of the input it was given; each API maps them to its own. */
export interface InputWarnings {
  add(kind: RequestWarning['kind'], detail: string, path?: FieldPath): void;
}

export const noInputWarnings: InputWarnings = { add() {} };
