// Lists of resources: a table where it fits, and where it does not (a phone, a narrow window, a long list of columns) a
// card per row with each value under its column's name, so that no column is ever cut off or hidden off to the side.
import { Fragment, type ReactNode, useCallback, useLayoutEffect, useRef, useState } from 'react';

export interface Column<Row> {
  /** The column's name: the table's header, and in a card the term before each value. */
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Right-aligned: quantities, amounts, durations. */
  numeric?: boolean;
  /** Free text (emails, URLs, errors) that may break anywhere. */
  wrap?: boolean;
  /** Codes (SKUs) and values that read as one word: never broken at their hyphens or spaces. */
  nowrap?: boolean;
  /** The name is read out but not shown (a column of buttons that name themselves). */
  hiddenHeader?: boolean;
}

const cellClass = (column: Column<never>) =>
  [column.numeric && 'number', column.wrap && 'wrap', column.nowrap && 'nowrap'].filter(Boolean).join(' ') || undefined;

export function DataTable<Row>({
  label,
  caption,
  columns,
  rows,
  rowKey,
}: {
  /** Names the region the list is in. */
  label: string;
  /** What the rows are and in what order, for screen readers ("Your orders, newest first"). */
  caption?: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string | number;
}) {
  const region = useRef<HTMLElement>(null);
  // The width the table needed when it last did not fit its region; undefined while it fits.
  const [needed, setNeeded] = useState<number>();
  // Measured before the browser paints, so a table that does not fit is never shown.
  const measure = useCallback(() => {
    const element = region.current;
    if (!element) return;
    const table = element.querySelector('table');
    if (table && table.offsetWidth > element.clientWidth) setNeeded(table.offsetWidth);
    if (!table) setNeeded((width) => (width !== undefined && element.clientWidth >= width ? undefined : width));
  }, []);
  // After every render (new rows can widen the table) and whenever the region's width changes.
  useLayoutEffect(measure);
  useLayoutEffect(() => {
    const observer = new ResizeObserver(measure);
    if (region.current) observer.observe(region.current);
    return () => observer.disconnect();
  }, [measure]);

  if (needed !== undefined) {
    return (
      <section ref={region} className="cards" aria-label={label}>
        {caption && <p className="visually-hidden">{caption}</p>}
        <ul>
          {rows.map((row) => (
            <li key={rowKey(row)} className="card">
              <dl className="facts">
                {columns.map((column, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed; their order is their identity.
                  <Fragment key={index}>
                    <dt className={column.hiddenHeader ? 'visually-hidden' : undefined}>{column.header}</dt>
                    <dd className={column.hiddenHeader ? 'whole' : undefined}>{column.cell(row)}</dd>
                  </Fragment>
                ))}
              </dl>
            </li>
          ))}
        </ul>
      </section>
    );
  }
  return (
    // A table that fits still scrolls sideways inside its region while the region shrinks, until it is measured again.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to be scrolled by keyboard.
    <section ref={region} className="table-wrap" aria-label={label} tabIndex={0}>
      <table>
        {caption && <caption className="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: as above.
              <th key={index} scope="col" className={cellClass(column)}>
                {column.hiddenHeader ? <span className="visually-hidden">{column.header}</span> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: as above.
                <td key={index} className={cellClass(column)}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
