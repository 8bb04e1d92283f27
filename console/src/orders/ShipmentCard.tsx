// One shipment: where it is in its lifecycle and tracking, what it carries, and the sandbox's moves on it.
import { Link } from 'react-router';
import { useAction, useApi } from '../api/hooks.ts';
import { StatusBadge } from '../components/badges.tsx';
import { Outcome } from '../components/Outcome.tsx';
import { TableRegion } from '../components/regions.tsx';
import { Timeline } from '../components/Timeline.tsx';
import { ReturnDialog } from './ReturnDialog.tsx';
import { type Shipment, type ShipmentItem, type ShipmentMove, shipmentMoves, statusSteps, trackingSteps } from './shipments.ts';

const moveDone: Record<ShipmentMove, string> = { advance: 'Moved one step', error: 'Put in ERROR' };

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
      />
      {tracking && (
        <>
          <Subheading>Tracking</Subheading>
          <Timeline
            label={`Tracking of shipment ${shipment.id}`}
            steps={trackingSteps(viaPickUpPoint)}
            current={tracking.stage}
            failed={tracking.stage === '1ST_ATTEMPT' ? '1ST_ATTEMPT' : undefined}
          />
          <p>
            {tracking.carrier ?? 'Carrier unknown'} {tracking.number}
            {tracking.url && (
              <>
                {' '}
                · <a href={tracking.url}>track the parcel</a>
              </>
            )}
          </p>
        </>
      )}
      <TableRegion label={`Items of shipment ${shipment.id}`}>
        <table>
          <thead>
            <tr>
              <th scope="col">SKU</th>
              <th scope="col" className="number">
                Quantity
              </th>
              <th scope="col">Lot</th>
              <th scope="col">Expires</th>
            </tr>
          </thead>
          <tbody>
            {own.map(({ id, attributes: item }) => (
              <tr key={id}>
                <td>{item.sku}</td>
                <td className="number">{item.quantity}</td>
                <td>{item.lotNumber ?? '—'}</td>
                <td>{item.expirationDate ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
      <div className="actions">
        <button type="button" onClick={() => move.mutate('advance')} disabled={move.isPending || delivered}>
          Advance one step
        </button>
        <button type="button" className="danger" onClick={() => move.mutate('error')} disabled={move.isPending || status === 'SHIPPED'}>
          Put in error
        </button>
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
