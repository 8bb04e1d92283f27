// The try-it's storage helpers, without crypto-js. The theme names the stored choice among a set of security schemes
// by a SHA-1 of their names, which loads all of crypto-js (its ciphers' tables are built when it loads) on every
// reference page; a key made of the sorted names identifies the set as well.
type Persistence = false | 'localStorage' | 'sessionStorage' | undefined;

/** The storage key for the chosen scheme among these security schemes (prefixed: scheme names are keys too). */
export function hashArray(names: string[]): string {
  return `security-schemes:${[...names].sort().join(',')}`;
}

export function createStorage(persistence: Persistence): Storage {
  if (persistence === false) {
    return {getItem: () => null, setItem: () => {}, clear: () => {}, key: () => null, removeItem: () => {}, length: 0};
  }
  return persistence === 'sessionStorage' ? sessionStorage : localStorage;
}
