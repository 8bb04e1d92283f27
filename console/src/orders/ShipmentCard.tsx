// One shipment: where it is in its lifecycle and tracking, what it carries, and the sandbox's moves on it.
import { Link } from 'react-router';
import { useAction, useApi } from '../api/hooks.ts';
import { StatusBadge } from '../components/badges.tsx';
import { DataTable } from '../components/DataTable.tsx';
import { goodsColumns } from '../components/goods.ts';
import { Outcome } from '../components/Outcome.tsx';
import { Timeline } from '../components/Timeline.tsx';
import { ReturnDialog } from './ReturnDialog.tsx';
import { canFail, type Shipment, type ShipmentItem, type ShipmentMove, shipmentMoves, statusSteps, trackingSteps } from './shipments.ts';

const moveDone: Record<ShipmentMove, string> = { advance: 'Moved one step', error: 'Put in ERROR' };

/**
 * The sandbox's tracking URLs (made in the server's modules/shipments) are on tracking.sandbox.invalid: .invalid is
 * reserved (RFC 2606) and never resolves, so there is no page behind them. Such a URL is shown as text, marked as a
 * stand-in, rather than as a link that leads nowhere.
 */
function TrackingUrl({ url }: { url: string }) {
  if (!new URL(url).hostname.endsWith('.invalid')) {
    return (
      <p>
        <a href={url}>Track the parcel</a>
      </p>
    );
  }
  return (
    <p className="tracking-url">
      Tracking URL <code>{url}</code> <span className="muted">(a stand-in made by the sandbox: no carrier page is behind it)</span>
    </p>
  );
}

export function ShipmentCard({
  shipment,
  items,
  viaPickUpPoint,
  level,
}: {
  shipment: Shipment;
  items: ShipmentItem[];
  viaPickUpPoint: boolean;
  /** The card's heading level: 2 on the shipment's own screen, 3 among an order's shipments. */
  level: 2 | 3;
}) {
  const Heading = level === 2 ? 'h2' : 'h3';
  const Subheading = level === 2 ? 'h3' : 'h4';
  const api = useApi();
  const { status, tracking, warehouseCode } = shipment.attributes;
  const move = useAction((kind: ShipmentMove) => shipmentMoves[kind](api, shipment.id));
  const own = items.filter((item) => item.relationships.shipment.data?.id === shipment.id);
  const delivered = tracking?.stage === 'DELIVERED';
  return (
    <article className="panel" aria-labelledby={`shipment-${shipment.id}`}>
      <Heading id={`shipment-${shipment.id}`} className="row">
        <Link to={`/shipments/${shipment.id}`}>Shipment {shipment.id}</Link> <StatusBadge status={status} />
        {tracking?.stage && <StatusBadge status={tracking.stage} />}
      </Heading>
      <p className="muted">From warehouse {warehouseCode}</p>
      <Timeline
        label={`Status of shipment ${shipment.id}`}
        steps={statusSteps(shipment)}
        current={status}
        failed={status === 'ERROR' ? 'ERROR' : undefined}
        clock="sandbox"
      />
      {tracking && (
        <>
          <Subheading>Tracking</Subheading>
          <Timeline
            label={`Tracking of shipment ${shipment.id}`}
            steps={trackingSteps(viaPickUpPoint)}
            current={tracking.stage}
            failed={tracking.stage === '1ST_ATTEMPT' ? '1ST_ATTEMPT' : undefined}
            clock="sandbox"
          />
          <p>
            {tracking.carrier ?? 'Carrier unknown'}, tracking number <code>{tracking.number}</code>
          </p>
          {tracking.url && <TrackingUrl url={tracking.url} />}
        </>
      )}
      <DataTable label={`Items of shipment ${shipment.id}`} rows={own} rowKey={(item) => item.id} columns={goodsColumns} />
      {/* Each move is offered only where the sandbox takes it: DELIVERED is the end, only a shipment not yet shipped can fail. */}
      <div className="actions">
        {!delivered && (
          <button type="button" onClick={() => move.mutate('advance')} disabled={move.isPending}>
            Advance one step
          </button>
        )}
        {canFail(status) && (
          <button type="button" className="danger" onClick={() => move.mutate('error')} disabled={move.isPending}>
            Put in error
          </button>
        )}
        {status === 'SHIPPED' && <ReturnDialog shipment={shipment} items={own} />}
      </div>
      <Outcome
        action={move}
        what="Moving the shipment"
        done={({ data }, kind) =>
          `${moveDone[kind]}: shipment ${data.id} is ${data.attributes.status}${data.attributes.tracking?.stage ? `, tracking ${data.attributes.tracking.stage}` : ''}.`
        }
      />
    </article>
  );
}
