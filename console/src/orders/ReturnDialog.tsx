// Return goods of a shipped shipment: per item how many come back and in what condition; the sandbox processes them at once.
import { type FormEvent, useState } from 'react';
import { returnConditions } from '../api/contract.ts';
import { write } from '../api/errors.ts';
import { useAction, useApi } from '../api/hooks.ts';
import { Dialog, DialogClose } from '../components/Dialog.tsx';
import { Outcome } from '../components/Outcome.tsx';
import { plural } from '../components/format.ts';
import { ErrorState } from '../components/states.tsx';
import type { Shipment, ShipmentItem } from './shipments.ts';

type Condition = (typeof returnConditions)[number];

const conditionMeaning: Record<Condition, string> = {
  RETURN: 'RETURN: back to stock',
  DAMAGED: 'DAMAGED: to a damaged location',
  UNKNOWN: 'UNKNOWN: waits on a return location',
};

export function ReturnDialog({ shipment, items }: { shipment: Shipment; items: ShipmentItem[] }) {
  const api = useApi();
  const [open, setOpen] = useState(false);
  const giveBack = useAction((returned: { sku: string; quantity: number; condition: Condition }[]) =>
    write(api.POST('/sandbox/shipments/{id}/return', { params: { path: { id: shipment.id } }, body: { items: returned } })),
  );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const returned = items
      .map((item) => ({
        sku: item.attributes.sku,
        quantity: Number(form.get(`quantity-${item.id}`)),
        condition: form.get(`condition-${item.id}`) as Condition,
      }))
      .filter((item) => item.quantity > 0);
    giveBack.mutate(returned, { onSuccess: () => setOpen(false) });
  };
  return (
    <>
      <Dialog
        opener="Return goods…"
        title={`Return goods of shipment ${shipment.id}`}
        description="The consumer sends these back and the warehouse processes them now: each item books a RETURN stock mutation."
        open={open}
        onOpenChange={setOpen}
      >
        <form onSubmit={submit}>
          {items.map((item) => (
            <fieldset key={item.id} className="panel">
              <legend>{item.attributes.sku}</legend>
              <div className="field">
                <label htmlFor={`quantity-${item.id}`}>Quantity returned (of {item.attributes.quantity} shipped)</label>
                <input
                  id={`quantity-${item.id}`}
                  name={`quantity-${item.id}`}
                  type="number"
                  min={0}
                  max={item.attributes.quantity}
                  defaultValue={item.attributes.quantity}
                  required
                />
              </div>
              <div className="field">
                <label htmlFor={`condition-${item.id}`}>Condition</label>
                <select id={`condition-${item.id}`} name={`condition-${item.id}`} defaultValue="RETURN">
                  {returnConditions.map((condition) => (
                    <option key={condition} value={condition}>
                      {conditionMeaning[condition]}
                    </option>
                  ))}
                </select>
              </div>
            </fieldset>
          ))}
          {giveBack.isError && <ErrorState error={giveBack.error} action="Returning the goods failed" />}
          <div className="actions">
            <button type="submit" disabled={giveBack.isPending}>
              Return
            </button>
            <DialogClose>Cancel</DialogClose>
          </div>
        </form>
      </Dialog>
      {giveBack.isSuccess && (
        <Outcome
          action={giveBack}
          what="Returning the goods"
          done={(result) => `${plural(result.data.length, 'return item')} processed.`}
        />
      )}
    </>
  );
}
