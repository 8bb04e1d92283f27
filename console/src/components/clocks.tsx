// Which clock a time is on. The sandbox keeps two: your sandbox clock (real time plus every advance you made), on which
// the warehouse works and writes its times (orders, shipments, stock, inbound goods, webhook events), and real time, on
// which calls arrive and webhook deliveries are attempted. After an advance the two differ, so every time the console
// shows names its clock, in the same words on every screen; a time your shop sent says so.
import type { ReactNode } from 'react';

export type Clock = 'sandbox' | 'real' | 'shop';

const names: Record<Clock, string> = { sandbox: 'sandbox clock', real: 'real time', shop: 'as your shop sent it' };

/** A term or a column's name followed by the clock of its times: "Shipped (sandbox clock)". */
export function ClockTerm({ clock, children }: { clock: Clock; children: ReactNode }) {
  return (
    <>
      {children}
      <span className="on-clock"> ({names[clock]})</span>
    </>
  );
}
