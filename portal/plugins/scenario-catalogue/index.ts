// The contract's catalogue of test scenarios (contract/src/scenarios.ts) as tables, put where a guide writes the line
// `::scenario-catalogue`, when the page is compiled: the "Test scenarios" page shows the very data the simulator follows
// and GET /sandbox/scenarios serves, so it cannot drift from them. A remark plugin rather than a React component, so the
// tables are in the page's HTML and in its Markdown for machines (plugins/llms-txt runs the guides' remark plugins too).
import {scenarioMarkerPrefix, scenarios as catalogue, type Scenario, type ScenarioStep} from '@shopapi/contract';
import type {Heading, Paragraph, PhrasingContent, Root, RootContent, Table, TableCell, TableRow} from 'mdast';
import type {LeafDirective} from 'mdast-util-directive';

/** The directive a guide writes, alone on a line, where the catalogue goes. */
export const directiveName = 'scenario-catalogue';

const text = (value: string): PhrasingContent => ({type: 'text', value});
const code = (value: string): PhrasingContent => ({type: 'inlineCode', value});

/** Values one per line in a cell. */
function lines(values: readonly PhrasingContent[]): PhrasingContent[] {
  return values.flatMap((value, index) => (index ? [{type: 'break'} as PhrasingContent, value] : [value]));
}

/** A header cell of the first row (scope col) or of a row (scope row); mdast-util-to-hast reads `data.hName`. */
function headerCell(children: PhrasingContent[], scope: 'col' | 'row'): TableCell {
  return {type: 'tableCell', children, data: {hName: 'th', hProperties: {scope}}};
}

const cell = (children: PhrasingContent[]): TableCell => ({type: 'tableCell', children});

interface Column<T> {
  header: string;
  cell: (row: T) => PhrasingContent[];
}

/**
 * A table whose first column heads each row. Wider than a phone, it scrolls sideways in its own box (Infima's tables are
 * blocks with overflow auto): focusable, so a keyboard can scroll it, and named for the screen reader that lands on it.
 */
function table<T>(label: string, columns: Column<T>[], rows: readonly T[]): Table {
  const header: TableRow = {type: 'tableRow', children: columns.map((column) => headerCell([text(column.header)], 'col'))};
  const body = rows.map(
    (row): TableRow => ({
      type: 'tableRow',
      children: columns.map((column, index) => (index === 0 ? headerCell(column.cell(row), 'row') : cell(column.cell(row)))),
    }),
  );
  return {
    type: 'table',
    children: [header, ...body],
    data: {hProperties: {tabIndex: 0, ariaLabel: label, className: ['scenario-table']}},
  };
}

const subjectNames: Record<Scenario['subject'], string> = {order: 'an order', packingSlip: 'a packing slip'};

/** The marker, when the scenario has one, and the condition in the data that leads to it by itself, when there is one. */
function triggerOf(scenario: Scenario): PhrasingContent[] {
  const {marker, condition} = scenario.trigger;
  if (!marker) return [text(condition ?? '')];
  const markerCode = code(`${scenarioMarkerPrefix}${scenario.name}`);
  return condition ? lines([markerCode, text(`Without a marker: ${condition}`)]) : [markerCode];
}

function summaryTable(scenarios: readonly Scenario[]): Table {
  return table<Scenario>(
    'Test scenarios',
    [
      {header: 'Scenario', cell: (scenario) => [{type: 'link', url: `#${scenario.name}`, children: [text(scenario.title)]}]},
      {header: 'For', cell: (scenario) => [text(subjectNames[scenario.subject])]},
      {header: 'What it tests', cell: (scenario) => [text(scenario.description)]},
      {header: 'Trigger', cell: triggerOf},
    ],
    scenarios,
  );
}

/** When a step happens: warehouse steps after the subject entered the warehouse, or after the goods it waited for came. */
function whenOf(step: ScenarioStep): PhrasingContent[] {
  return [text(step.after === 'goodsReceived' ? `${step.at} after the goods arrive` : String(step.at))];
}

/** The tracking stage and the tracking's status, `IN_DELIVERY OK`. */
function trackingOf(step: ScenarioStep): PhrasingContent[] {
  const parts = [step.trackingStage, step.trackingStatus].filter((part) => part !== undefined);
  return parts.flatMap((part, index) => (index ? [text(' '), code(part)] : [code(part)]));
}

const optional = (value: string | number | undefined): PhrasingContent[] => (value === undefined ? [] : [code(String(value))]);

/**
 * The columns of a road: those its steps fill (an order's road has shipment statuses and tracking, a packing slip's its
 * own statuses; the shipment number only where there are two), then the events, the stock and what happens.
 */
function stepColumns(steps: readonly ScenarioStep[]): Column<ScenarioStep>[] {
  const filled = (field: keyof ScenarioStep) => steps.some((step) => step[field] !== undefined);
  const columns: [boolean, Column<ScenarioStep>][] = [
    [true, {header: 'Step', cell: whenOf}],
    [filled('shipment'), {header: 'Shipment', cell: (step) => optional(step.shipment)}],
    [filled('status'), {header: 'Status', cell: (step) => optional(step.status)}],
    [filled('trackingStage') || filled('trackingStatus'), {header: 'Tracking', cell: trackingOf}],
    [filled('trackTraceCode'), {header: 'v2 code', cell: (step) => optional(step.trackTraceCode)}],
    [filled('packingSlipStatus'), {header: 'Packing slip', cell: (step) => optional(step.packingSlipStatus)}],
    [filled('inboundStatus'), {header: 'Inbound', cell: (step) => optional(step.inboundStatus)}],
    [true, {header: 'Webhook events', cell: (step) => lines(step.events.map(code))}],
    [steps.some((step) => step.stockMutations?.length), {header: 'Stock mutations', cell: (step) => lines((step.stockMutations ?? []).map(code))}],
    [true, {header: 'What happens', cell: (step) => [text(step.description)]}],
  ];
  return columns.flatMap(([shown, column]) => (shown ? [column] : []));
}

function scenarioSection(scenario: Scenario): RootContent[] {
  // The scenario's name is its anchor, so the summary table and other pages link to `#waits-for-stock`.
  const heading: Heading = {type: 'heading', depth: 3, children: [text(scenario.title)], data: {hProperties: {id: scenario.name}}};
  const trigger: Paragraph = {type: 'paragraph', children: [{type: 'strong', children: [text('Trigger:')]}, text(' '), ...triggerOf(scenario)]};
  return [
    heading,
    {type: 'paragraph', children: [text(scenario.description)]},
    trigger,
    table(`The road of ${scenario.title}`, stepColumns(scenario.steps), scenario.steps),
  ];
}

/** The catalogue as Markdown nodes: a table of every scenario, then a section per scenario with its road, step by step. */
export function catalogueNodes(scenarios: readonly Scenario[]): RootContent[] {
  return [summaryTable(scenarios), ...scenarios.flatMap(scenarioSection)];
}

const isCatalogueDirective = (node: RootContent): node is LeafDirective => node.type === 'leafDirective' && node.name === directiveName;

/** The remark plugin: each `::scenario-catalogue` line of a page becomes the catalogue. */
export default function remarkScenarioCatalogue() {
  return (tree: Root): void => {
    tree.children = tree.children.flatMap((node) => (isCatalogueDirective(node) ? catalogueNodes(catalogue) : [node]));
  };
}
