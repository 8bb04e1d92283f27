// Register a webhook; the answer's signing secret is shown once, with a copy button and how to verify deliveries.
import { type FormEvent, useState } from 'react';
import { webhookEvents } from '../api/contract.ts';
import { write } from '../api/errors.ts';
import { useAction, useApi } from '../api/hooks.ts';
import { CopyButton } from '../components/CopyButton.tsx';
import { Dialog, DialogClose } from '../components/Dialog.tsx';
import { Code } from '../components/regions.tsx';
import { ErrorState } from '../components/states.tsx';
import { verificationSnippet } from './verification.ts';

type Entity = keyof typeof webhookEvents;
type WebhookEvent = (typeof webhookEvents)[Entity][number];
const entities = Object.keys(webhookEvents) as Entity[];

function Secret({ secret }: { secret: string }) {
  return (
    <>
      <div role="status" className="notice success">
        <p>The webhook is registered. Its signing secret is shown this once: store it now.</p>
        <p>
          <code className="secret">{secret}</code>
        </p>
        <CopyButton text={secret} label="Copy the secret" />
      </div>
      <h3>Verify each delivery</h3>
      <p>
        Every delivery carries the headers <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code>{' '}
        (Standard Webhooks). Check them against the raw body, in Node.js for example:
      </p>
      <Code label="Verification in Node.js">{verificationSnippet}</Code>
      <div className="actions">
        <CopyButton text={verificationSnippet} label="Copy the snippet" />
        <DialogClose>Done</DialogClose>
      </div>
    </>
  );
}

export function CreateWebhookDialog() {
  const api = useApi();
  const [open, setOpen] = useState(false);
  const [entity, setEntity] = useState<Entity>('shipment');
  const create = useAction((attributes: { entity: Entity; event: WebhookEvent; targetUrl: string; isActive: boolean }) =>
    write(api.POST('/v3/webhooks', { body: { data: { type: 'webhook', attributes } } })),
  );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    create.mutate({
      entity,
      event: form.get('event') as WebhookEvent,
      targetUrl: String(form.get('targetUrl')),
      isActive: form.get('isActive') === 'on',
    });
  };
  // Closing forgets the secret: it is shown once.
  const changeOpen = (next: boolean) => {
    setOpen(next);
    if (!next) create.reset();
  };
  const secret = create.data?.data.attributes.secret;
  return (
    <Dialog
      opener="New webhook…"
      title="New webhook"
      description="The sandbox POSTs the chosen event to your URL, signed with a secret of the webhook's own. The embedded sandbox delivers to your own machine too (127.0.0.1)."
      open={open}
      onOpenChange={changeOpen}
    >
      {secret ? (
        <Secret secret={secret} />
      ) : (
        <form onSubmit={submit}>
          <div className="field">
            <label htmlFor="webhook-entity">Entity</label>
            <select id="webhook-entity" value={entity} onChange={(event) => setEntity(event.target.value as Entity)}>
              {entities.map((name) => (
                <option key={name}>{name}</option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="webhook-event">Event</label>
            <select id="webhook-event" name="event" key={entity}>
              {webhookEvents[entity].map((name) => (
                <option key={name}>{name}</option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="webhook-target">Target URL</label>
            <input id="webhook-target" name="targetUrl" type="url" required placeholder="http://127.0.0.1:9000/hooks" />
          </div>
          <div className="checkbox">
            <input id="webhook-active" name="isActive" type="checkbox" defaultChecked />
            <label htmlFor="webhook-active">Active: send events from now on</label>
          </div>
          {create.isError && <ErrorState error={create.error} action="Registering the webhook failed" />}
          <div className="actions">
            <button type="submit" disabled={create.isPending}>
              Register
            </button>
            <DialogClose>Cancel</DialogClose>
          </div>
        </form>
      )}
    </Dialog>
  );
}
