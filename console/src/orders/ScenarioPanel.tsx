// The test scenario an order follows (GET /sandbox/orders/{id}/scenario) against its road in the catalogue (GET
// /sandbox/scenarios): what set it, what the order waits for, how far each shipment got, and a way to put the order on
// another road until it ships (PUT).
import type { ItemOf } from '@shopapi/client';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { read, write } from '../api/errors.ts';
import { useAction, useApi } from '../api/hooks.ts';
import { refresh } from '../api/refresh.ts';
import { DataTable } from '../components/DataTable.tsx';
import { Outcome } from '../components/Outcome.tsx';
import { Loaded } from '../components/states.tsx';

type Scenario = ItemOf<'/sandbox/scenarios'>;
type Step = Scenario['attributes']['steps'][number];

const setByText = {
  marker: 'a sandbox-scenario marker in a free field of the order',
  control: 'PUT /sandbox/orders/{id}/scenario (here, or by your tests)',
  condition: "the order's own data",
} as const;

type Reached = { shipment: number; shipmentId: number; at: number; status: string };

/**
 * Where a shipment is on its road: the index of the step it shows now among `steps`, the road's steps for that shipment.
 * Steps are matched by their moment and status, the last such one (a road names one moment twice when it waits for goods
 * first); -1 before the shipment exists.
 */
function currentIndex(steps: Step[], reached: Reached | undefined): number {
  if (!reached) return -1;
  let found = -1;
  steps.forEach((step, index) => {
    if (step.at === reached.at && (step.status === undefined || step.status === reached.status)) found = index;
  });
  return found;
}

const stepState = (index: number, current: number) => (index < current ? 'done' : index === current ? 'here now' : 'to come');

function RoadTable({ steps, reached, label }: { steps: Step[]; reached: Reached | undefined; label: string }) {
  const current = currentIndex(steps, reached);
  const rows = steps.map((step, index) => ({ step, index, state: stepState(index, current) }));
  return (
    <DataTable
      label={label}
      caption="The road's steps in clock order, with how far the shipment got"
      rows={rows}
      rowKey={(row) => row.index}
      columns={[
        { header: 'Reached', cell: (row) => (row.state === 'here now' ? <strong>here now</strong> : row.state) },
        {
          header: 'Step',
          cell: ({ step }) => (step.after === 'goodsReceived' ? `${step.at} after the goods arrive` : step.at),
          numeric: true,
        },
        { header: 'Status', cell: ({ step }) => step.status ?? '—', nowrap: true },
        {
          header: 'Tracking',
          cell: ({ step }) => [step.trackingStage, step.trackingStatus].filter(Boolean).join(' ') || '—',
          nowrap: true,
        },
        { header: 'Webhook events', cell: ({ step }) => step.events.join(', ') || '—', wrap: true },
        { header: 'What happens', cell: ({ step }) => step.description, wrap: true },
      ]}
    />
  );
}

/** The road, one table per shipment of it (a split road has two), each against how far that shipment got. */
function Road({ scenario, reached }: { scenario: Scenario; reached: Reached[] }) {
  const numbers = [...new Set(scenario.attributes.steps.map((step) => step.shipment ?? 1))];
  return numbers.map((number) => {
    const own = reached.find((entry) => entry.shipment === number);
    const title = numbers.length > 1 ? `Road of shipment ${number}` : 'Road';
    return (
      <div key={number}>
        <h3>
          {title}
          {own && <span className="muted"> · shipment {own.shipmentId}</span>}
        </h3>
        <RoadTable
          steps={scenario.attributes.steps.filter((step) => (step.shipment ?? 1) === number)}
          reached={own}
          label={`${title} of ${scenario.attributes.title}`}
        />
      </div>
    );
  });
}

/** The scenarios an order can be put on: those about orders that a marker starts (the others follow from data). */
const settable = (catalogue: Scenario[]) =>
  catalogue.filter((scenario) => scenario.attributes.subject === 'order' && scenario.attributes.trigger.marker);

/** PUT /sandbox/orders/{id}/scenario, kept by the panel: its outcome stays on screen while the road below is read again. */
function useStartScenario(orderId: number) {
  const api = useApi();
  return useAction((name: string | null) =>
    write(
      api.PUT('/sandbox/orders/{id}/scenario', {
        params: { path: { id: orderId } },
        body: { data: { type: 'orderScenario', attributes: { name } } },
      }),
    ),
  );
}

function StartScenario({
  start,
  catalogue,
  current,
}: {
  start: ReturnType<typeof useStartScenario>;
  catalogue: Scenario[];
  current: string | null;
}) {
  const selectId = useId();
  const options = settable(catalogue);
  // A road the data chose (waits-for-stock) cannot be set: the select then starts on the ordinary road.
  const [choice, setChoice] = useState(options.some((scenario) => scenario.id === current) ? (current ?? '') : '');
  return (
    <form
      className="filters"
      onSubmit={(event) => {
        event.preventDefault();
        start.mutate(choice || null);
      }}
    >
      <div className="field">
        <label htmlFor={selectId}>Scenario</label>
        <select id={selectId} value={choice} onChange={(event) => setChoice(event.target.value)}>
          <option value="">None: the ordinary road</option>
          {options.map((scenario) => (
            <option key={scenario.id} value={scenario.id}>
              {scenario.attributes.title}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" disabled={start.isPending}>
        Start scenario
      </button>
    </form>
  );
}

export function ScenarioPanel({ orderId }: { orderId: number }) {
  const api = useApi();
  const start = useStartScenario(orderId);
  const road = useQuery({
    queryKey: ['order', orderId, 'scenario'],
    queryFn: () => read(api.GET('/sandbox/orders/{id}/scenario', { params: { path: { id: orderId } } })),
    refetchInterval: refresh.detail,
  });
  // The catalogue is the same for every client and changes only with the sandbox itself.
  const catalogue = useQuery({
    queryKey: ['scenarios'],
    queryFn: () => read(api.GET('/sandbox/scenarios')),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return (
    <section aria-labelledby="scenario-heading">
      <h2 id="scenario-heading">Test scenario</h2>
      <Loaded query={catalogue} what="the test scenarios">
        {({ data: scenarios }) => (
          <Loaded query={road} what="the order's scenario">
            {({ data: { attributes } }) => {
              const scenario = scenarios.find((each) => each.id === attributes.name);
              const shipped = attributes.reached.some((entry) => entry.status === 'SHIPPED');
              return (
                <>
                  <dl className="facts panel">
                    <dt>Road</dt>
                    <dd>
                      {scenario ? (
                        <>
                          {scenario.attributes.title} (<code>{scenario.id}</code>): {scenario.attributes.description}{' '}
                          <a href={`/docs/test-scenarios#${scenario.id}`}>In the catalogue</a>
                        </>
                      ) : (
                        'The ordinary road: no test scenario.'
                      )}
                    </dd>
                    {attributes.setBy && (
                      <>
                        <dt>Set by</dt>
                        <dd>{setByText[attributes.setBy]}</dd>
                      </>
                    )}
                  </dl>
                  {attributes.waitingForStock.length > 0 && (
                    <div className="notice warning">
                      <p>
                        <strong>Waiting for stock.</strong> The warehouse starts on this order once an inbound brings these goods:
                      </p>
                      <ul aria-label="Goods the order waits for">
                        {attributes.waitingForStock.map((item) => (
                          <li key={item.sku}>
                            <code>{item.sku}</code>: {item.quantity} missing
                          </li>
                        ))}
                      </ul>
                    </div>
                  )}
                  {attributes.problem && (
                    <div className="notice error">
                      <p>
                        <strong>Warehouse problem:</strong> {attributes.problem}
                      </p>
                    </div>
                  )}
                  {scenario && <Road scenario={scenario} reached={attributes.reached} />}
                  {shipped ? (
                    <p className="muted">The order has shipped: its road can no longer change.</p>
                  ) : (
                    <StartScenario start={start} catalogue={scenarios} current={attributes.name} />
                  )}
                </>
              );
            }}
          </Loaded>
        )}
      </Loaded>
      <Outcome
        action={start}
        what="Starting the scenario"
        done={(_, name) => {
          const title = catalogue.data?.data.find((scenario) => scenario.id === name)?.attributes.title;
          return name ? `The order now follows ${title ?? name}.` : 'The order now follows the ordinary road.';
        }}
      />
    </section>
  );
}
