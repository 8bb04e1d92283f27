// Clock: the client's own sandbox time, moving it forward (with the progress of a long advance), and what the warehouse
// did in the time skipped.
import type { ShopApiClient } from '@shopapi/client';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { read, write } from '../api/errors.ts';
import { useAction, useApi } from '../api/hooks.ts';
import { refresh } from '../api/refresh.ts';
import { dateTime, duration, plural } from '../components/format.ts';
import { Page } from '../components/Page.tsx';
import { Empty, ErrorState, Loaded } from '../components/states.tsx';
import { changesBetween, snapshot } from './changes.ts';

const steps = [
  ['+15 min', 15 * 60],
  ['+1 hour', 3600],
  ['+1 day', 86_400],
] as const;

const units = { minutes: 60, hours: 3600, days: 86_400 } as const;

type Clock = Awaited<ReturnType<typeof readClock>>;

const readClock = (api: ShopApiClient) => read(api.GET('/sandbox/clock'));

/** How often the screen reads the clock while an advance is under way (the sandbox answers 202 for a long one). */
const advancingPollMs = 1_000;

/**
 * The advance, with the warehouse's state read before and after it. A long advance answers 202 while the warehouse
 * catches up: the clock is read until it is ready, and each reading is shown as the advance's progress.
 */
async function advance(api: ShopApiClient, seconds: number, onProgress: (clock: Clock) => void) {
  const before = await snapshot(api);
  let clock: Clock = await write(api.POST('/sandbox/clock/advance', { body: { seconds } }));
  while (clock.data.attributes.status === 'advancing') {
    onProgress(clock);
    await new Promise((resolve) => setTimeout(resolve, advancingPollMs));
    clock = await readClock(api);
  }
  return { seconds, clock, ...changesBetween(before, await snapshot(api)) };
}

/** An advance under way: how far the clock got, where it goes, and a progress bar. */
function Advancing({ clock }: { clock: Clock }) {
  const { now, advancingTo, progress = 0 } = clock.data.attributes;
  const percent = Math.floor(progress * 100);
  return (
    <div role="status" className="notice">
      <p>
        Advancing: the warehouse is catching up. Your clock is at <time dateTime={now}>{dateTime(now)}</time> and moves on to{' '}
        <time dateTime={advancingTo}>{dateTime(advancingTo)}</time> ({percent} %).
      </p>
      <progress max={1} value={progress} aria-label="Progress of the advance">
        {percent} %
      </progress>
    </div>
  );
}

/** The clock's time, ticking in the browser between reads: the sandbox's clock is real time plus the offset. */
function Ticking({ offsetSeconds }: { offsetSeconds: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const time = new Date(now + offsetSeconds * 1000).toISOString();
  return (
    <time className="clock" dateTime={time}>
      {dateTime(time)}
    </time>
  );
}

function Meanwhile({ result }: { result: Awaited<ReturnType<typeof advance>> }) {
  const mutations = Object.entries(result.newStockMutations);
  const moved = result.changes.length + mutations.length;
  return (
    <>
      <p role="status" className="notice success">
        Advanced by {duration(result.seconds)}: {moved ? `${plural(moved, 'change')}, listed below` : 'nothing was due'}.
      </p>
      <section aria-labelledby="meanwhile">
        <h2 id="meanwhile">What happened in the {duration(result.seconds)} skipped</h2>
        {moved === 0 ? (
          <Empty>Nothing moved: no shipment, packing slip or inbound was due.</Empty>
        ) : (
          <ul className="changes">
            {result.changes.map((change) => (
              <li key={change.key}>
                <Link to={change.path}>{change.label}</Link>: {change.from ? `${change.from} → ${change.to}` : `new, ${change.to}`}
              </li>
            ))}
            {mutations.length > 0 && (
              <li>
                <Link to="/stock">Stock mutations</Link> booked: {mutations.map(([type, count]) => `${count} ${type}`).join(', ')}
              </li>
            )}
          </ul>
        )}
      </section>
    </>
  );
}

export function ClockScreen() {
  const api = useApi();
  const clock = useQuery({
    queryKey: ['clock'],
    queryFn: () => readClock(api),
    // An advance started elsewhere (a script, another tab) shows its progress here too.
    refetchInterval: (query) => (query.state.data?.data.attributes.status === 'advancing' ? advancingPollMs : refresh.clock),
  });
  const [progress, setProgress] = useState<Clock>();
  const move = useAction((seconds: number) => {
    setProgress(undefined);
    return advance(api, seconds, setProgress);
  });
  const advancing = move.isPending || clock.data?.data.attributes.status === 'advancing';
  const custom = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    move.mutate(Number(form.get('amount')) * units[form.get('unit') as keyof typeof units]);
  };
  return (
    <Page
      title="Clock"
      lead="Your sandbox runs on a clock of its own: real time plus every advance you made. Moving it forward runs whatever falls due meanwhile, in order: packing slips arrive, orders ship, tracking moves on to DELIVERED, webhooks fire. A long advance takes a while; its progress shows here."
    >
      <Loaded query={clock} what="your clock">
        {({ data }) => (
          <div className="panel">
            <p>
              Your clock: <Ticking offsetSeconds={data.attributes.offsetSeconds} />
            </p>
            <p className="muted">
              {data.attributes.offsetSeconds
                ? `${duration(data.attributes.offsetSeconds - (data.attributes.offsetSeconds % 60))} ahead of real time.`
                : 'On real time: you have not advanced it.'}
            </p>
            {data.attributes.status === 'advancing' && !move.isPending && <Advancing clock={{ data }} />}
          </div>
        )}
      </Loaded>
      <h2>Advance</h2>
      <div className="actions">
        {steps.map(([label, seconds]) => (
          <button key={seconds} type="button" onClick={() => move.mutate(seconds)} disabled={advancing}>
            {label}
          </button>
        ))}
      </div>
      <form className="filters" onSubmit={custom} aria-label="Advance by a custom time">
        <div className="field">
          <label htmlFor="advance-amount">Advance by</label>
          <input id="advance-amount" name="amount" type="number" min={1} max={366 * 24 * 60} defaultValue={30} required />
        </div>
        <div className="field">
          <label htmlFor="advance-unit">Unit</label>
          <select id="advance-unit" name="unit" defaultValue="minutes">
            {Object.keys(units).map((unit) => (
              <option key={unit}>{unit}</option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={advancing}>
          Advance
        </button>
      </form>
      {move.isPending &&
        (progress ? (
          <Advancing clock={progress} />
        ) : (
          <p role="status" className="muted">
            Advancing, and reading what changed…
          </p>
        ))}
      {move.isError && <ErrorState error={move.error} action="Advancing the clock failed" />}
      {move.data && <Meanwhile result={move.data} />}
    </Page>
  );
}
