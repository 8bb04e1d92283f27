// Date helpers for filters and retention windows ("gt" a date means after that whole day).
export const startOfDay = (day: string) => new Date(`${day}T00:00:00Z`);
export const dayAfter = (day: string) => new Date(startOfDay(day).getTime() + 86_400_000);
export const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * 86_400_000);
/** A timestamp as the APIs write it (ISO 8601, UTC), or null. */
export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
