// Receive goods of a packing slip now: per sku how many arrive (by default what is still expected).
import { type FormEvent, useState } from 'react';
import { write } from '../api/errors.ts';
import { useAction, useApi } from '../api/hooks.ts';
import { Dialog, DialogClose } from '../components/Dialog.tsx';
import { Outcome } from '../components/Outcome.tsx';
import { ErrorState } from '../components/states.tsx';
import type { PackingSlip, PackingSlipItem } from './lifecycles.ts';

export function ReceiveDialog({ packingSlip, items }: { packingSlip: PackingSlip; items: PackingSlipItem[] }) {
  const api = useApi();
  const [open, setOpen] = useState(false);
  const receive = useAction((received: { sku: string; quantity: number }[]) =>
    write(api.POST('/sandbox/inboundPackingSlips/{id}/receive', { params: { path: { id: packingSlip.id } }, body: { items: received } })),
  );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const received = items.map(({ id, attributes }) => ({ sku: attributes.sku, quantity: Number(form.get(`received-${id}`)) }));
    receive.mutate(received, { onSuccess: () => setOpen(false) });
  };
  return (
    <>
      <Dialog
        opener="Receive goods…"
        title={`Receive packing slip ${packingSlip.attributes.reference}`}
        description={`The warehouse ${packingSlip.attributes.expectedIn} receives these quantities now: an inbound is made, stock appears with INBOUND mutations. Fewer or more than expected is fine.`}
        open={open}
        onOpenChange={setOpen}
      >
        <form onSubmit={submit}>
          {items.map(({ id, attributes: item }) => (
            <div key={id} className="field">
              <label htmlFor={`received-${id}`}>
                {item.sku}{' '}
                <span className="field-hint">
                  (expected {item.quantity}, received so far {item.received})
                </span>
              </label>
              <input
                id={`received-${id}`}
                name={`received-${id}`}
                type="number"
                min={0}
                max={1_000_000}
                defaultValue={Math.max(0, item.quantity - item.received)}
                required
              />
            </div>
          ))}
          {receive.isError && <ErrorState error={receive.error} action="Receiving the goods failed" />}
          <div className="actions">
            <button type="submit" disabled={receive.isPending}>
              Receive
            </button>
            <DialogClose>Cancel</DialogClose>
          </div>
        </form>
      </Dialog>
      {receive.isSuccess && (
        <Outcome
          action={receive}
          what="Receiving the goods"
          done={({ data }) => `Inbound ${data.id} made: it is ${data.attributes.status}.`}
        />
      )}
    </>
  );
}
