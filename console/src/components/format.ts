// Dates, numbers, counts and durations as the console shows them: times in the reader's locale and time zone, words in
// English (the console's language) with Intl choosing singular or plural.
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

export const dateTime = (iso: string | null | undefined): string => (iso ? dateTimeFormat.format(new Date(iso)) : '—');

/** The time of day alone when `iso` falls on the reader's today, else the date with it. */
export function timeOfDay(iso: string): string {
  const when = new Date(iso);
  return when.toDateString() === new Date().toDateString() ? timeFormat.format(when) : dateTimeFormat.format(when);
}

export const bytes = (count: number): string => (count < 1024 ? `${count} B` : `${(count / 1024).toFixed(1)} KiB`);

const englishPlurals = new Intl.PluralRules('en');

/** A count and its noun: "1 change", "2 changes"; `nouns` for a plural that is not the noun plus s. */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${englishPlurals.select(count) === 'one' ? noun : nouns}`;
}

const units = [
  ['day', 86_400],
  ['hour', 3600],
  ['minute', 60],
] as const;
const unitFormats = Object.fromEntries(
  units.map(([unit]) => [unit, new Intl.NumberFormat('en', { style: 'unit', unit, unitDisplay: 'long' })]),
) as Record<(typeof units)[number][0], Intl.NumberFormat>;
const secondFormat = new Intl.NumberFormat('en', { style: 'unit', unit: 'second', unitDisplay: 'long' });
const unitList = new Intl.ListFormat('en', { style: 'long', type: 'unit' });

/** A length of time in whole days, hours and minutes: "1 day", "1 day, 2 hours, 5 minutes"; under a minute in seconds. */
export function duration(seconds: number): string {
  if (seconds < 60) return secondFormat.format(Math.max(0, Math.floor(seconds)));
  let rest = Math.floor(seconds);
  const parts: string[] = [];
  for (const [unit, size] of units) {
    const whole = Math.floor(rest / size);
    rest -= whole * size;
    if (whole) parts.push(unitFormats[unit].format(whole));
  }
  return unitList.format(parts);
}

/** A body as text, indented when it is JSON. */
export function prettyBody(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
