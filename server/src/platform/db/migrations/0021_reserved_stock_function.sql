-- The stock a client's open shipments in a warehouse reserve, per product: what an order create, a shipment's start and
-- the warehouse's pacer subtract from the stock on the shelf (modules/shipments/repository.ts, reservedStock).
--
-- A function, so that its plan holds whatever the statistics say. As a join in the calling statement, the plan that a
-- connection cached while the shipment tables were empty (a fresh database, or statistics taken before a clock advance
-- filled them) read both tables whole, once for each shipment item: 32 ms of a 32.5 ms create while another client's
-- advance made shipments (bench/RESULTS.md, findings). Here sequential scans are off, so the open shipments are read
-- from shipments_open_idx and their items by shipment_items_shipment_idx: the work is the client's own open shipments,
-- never the size of the tables or another client's volume.
CREATE FUNCTION "shopapi_reserved_stock"("of_client" integer, "in_warehouse" text)
RETURNS TABLE ("product_id" integer, "reserved" bigint)
LANGUAGE plpgsql STABLE
SET enable_seqscan = off
AS $reserved$
BEGIN
  RETURN QUERY
  SELECT si.product_id, sum(si.quantity)::bigint
  FROM shipment_items si
  WHERE si.shipment_id = ANY (ARRAY(
    SELECT sh.id FROM shipments sh
    WHERE sh.client_id = of_client AND sh.warehouse_code = in_warehouse AND sh.status <> 'SHIPPED'
  ))
  GROUP BY si.product_id;
END
$reserved$;
