// A lifecycle as a row of steps: the ones passed, the current one and the ones to come, with when each was reached
// where the resource says. A side state (a shipment in ERROR) is shown after the step it left from.
import { type Clock, ClockTerm } from './clocks.tsx';
import { dateTime } from './format.ts';

export interface Step {
  name: string;
  /** When the resource reached this step, if it records that. */
  at?: string | null;
}

export function Timeline({
  label,
  steps,
  current,
  failed,
  clock,
}: {
  label: string;
  steps: Step[];
  current: string | null;
  failed?: string;
  /** The clock the steps' times are on, named under them. */
  clock: Clock;
}) {
  const reached = steps.findIndex((step) => step.name === current);
  const last = steps.length - 1;
  return (
    <>
      <ol className="timeline" aria-label={label}>
        {steps.map((step, index) => {
          const state = index < reached || (index === reached && index === last) ? 'done' : index === reached ? 'current' : 'todo';
          return (
            <li key={step.name} className={state} aria-current={state === 'current' ? 'step' : undefined}>
              <span className="step">{step.name}</span>
              <span className="visually-hidden">{state === 'todo' ? ', to come' : state === 'done' ? ', done' : ', current'}</span>
              {step.at && <span className="when">{dateTime(step.at)}</span>}
            </li>
          );
        })}
        {failed && (
          <li className="failed" aria-current="step">
            <span className="step">{failed}</span>
            <span className="visually-hidden">, current</span>
          </li>
        )}
      </ol>
      {steps.some((step) => step.at) && (
        <p className="timeline-clock">
          <ClockTerm clock={clock}>Times</ClockTerm>
        </p>
      )}
    </>
  );
}
