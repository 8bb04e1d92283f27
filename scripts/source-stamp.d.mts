// Types of source-stamp.mjs for the TypeScript that imports it (its test).
export interface SourcesStamp {
  /** Whether `stampFile` records these sources; when it does not, their contents are hashed before this returns. */
  upToDate(stampFile: string): boolean;
  /** Records the sources as built into `stampFile`. */
  record(stampFile: string): void;
}

export function sourcesStamp(root: string, files: string[], salt?: string[]): SourcesStamp;
