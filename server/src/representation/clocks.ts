// The client's clock (sandbox): the simulated now, how far it is ahead of the real one, and the advance under way.
import { timeAtOffset } from '../modules/clients/service.ts';
import type { ClockState } from '../modules/clients/clock.ts';

export function clockResource(clock: ClockState) {
  const { advance } = clock;
  const base = { now: timeAtOffset(clock.offsetSeconds).toISOString(), offsetSeconds: clock.offsetSeconds };
  if (!advance) return { type: 'clock', id: clock.clientId, attributes: { ...base, status: 'ready' } };
  const covered = (clock.offsetSeconds - advance.fromOffsetSeconds) / (advance.toOffsetSeconds - advance.fromOffsetSeconds);
  return {
    type: 'clock',
    id: clock.clientId,
    attributes: {
      ...base,
      status: 'advancing',
      advancingTo: timeAtOffset(advance.toOffsetSeconds).toISOString(),
      // Three decimals: a year's advance shows its movement in steps of about nine hours.
      progress: Math.floor(Math.min(1, Math.max(0, covered)) * 1000) / 1000,
    },
  };
}
