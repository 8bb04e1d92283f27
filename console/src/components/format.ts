// Dates and numbers as the console shows them: in the reader's locale and time zone.
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

export const dateTime = (iso: string | null | undefined): string => (iso ? dateTimeFormat.format(new Date(iso)) : '—');

export const timeOfDay = (iso: string): string => timeFormat.format(new Date(iso));

export const bytes = (count: number): string => (count < 1024 ? `${count} B` : `${(count / 1024).toFixed(1)} KiB`);

/** A body as text, indented when it is JSON. */
export function prettyBody(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
