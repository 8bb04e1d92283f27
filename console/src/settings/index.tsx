// Settings: the client's order types, shipping methods, languages, countries and return reasons, edited and saved as one.
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { read, write } from '../api/errors.ts';
import { useAction, useApi } from '../api/hooks.ts';
import { Outcome } from '../components/Outcome.tsx';
import { type Column, DataTable } from '../components/DataTable.tsx';
import { Page } from '../components/Page.tsx';
import { Loaded } from '../components/states.tsx';
import { blankRow, type Draft, draftOf, inputOf, lists, type Row } from './lists.ts';

type List = (typeof lists)[number];

function ListEditor({ list, rows, onChange }: { list: List; rows: Row[]; onChange: (rows: Row[]) => void }) {
  const [added, setAdded] = useState(0);
  const update = (key: string, field: string, value: string | boolean) =>
    onChange(rows.map((row) => (row.key === key ? { ...row, [field]: value } : row)));
  const rowName = (row: Row) => `${list.title}, row ${rows.indexOf(row) + 1}`;
  const columns: Column<Row>[] = [
    { header: 'Id', cell: (row) => row.id ?? 'new' },
    ...list.columns.map(
      (column): Column<Row> => ({
        header: column.label,
        cell: (row) =>
          column.kind === 'boolean' ? (
            <input
              type="checkbox"
              aria-label={`${column.label}, ${rowName(row)}`}
              checked={row[column.field] === true}
              onChange={(event) => update(row.key, column.field, event.target.checked)}
            />
          ) : (
            <input
              aria-label={`${column.label}, ${rowName(row)}`}
              value={String(row[column.field] ?? '')}
              placeholder={column.kind === 'warehouses' ? 'NR, BW' : undefined}
              required
              onChange={(event) => update(row.key, column.field, event.target.value)}
            />
          ),
      }),
    ),
    {
      header: 'Remove',
      hiddenHeader: true,
      cell: (row) => (
        <button type="button" className="danger" onClick={() => onChange(rows.filter((other) => other.key !== row.key))}>
          Remove<span className="visually-hidden"> {rowName(row)}</span>
        </button>
      ),
    },
  ];
  return (
    // Long lists (countries) start folded.
    <details className="panel" open={rows.length <= 20}>
      <summary>
        <h2 className="inline-heading">
          {list.title} ({rows.length})
        </h2>
      </summary>
      <DataTable label={list.title} rows={rows} rowKey={(row) => row.key} columns={columns} />
      <button
        type="button"
        className="secondary"
        onClick={() => {
          onChange([...rows, blankRow(list, `new-${added}`)]);
          setAdded(added + 1);
        }}
      >
        Add to {list.title.toLowerCase()}
      </button>
    </details>
  );
}

function Editor({ initial }: { initial: Draft }) {
  const api = useApi();
  const [saved, setSaved] = useState(initial);
  const [draft, setDraft] = useState(initial);
  // The answer is the settings as stored: the editor goes on from them (new entries now have their ids).
  const save = useAction(async (edited: Draft) =>
    draftOf(
      (await write(api.PUT('/sandbox/settings', { body: { data: { type: 'sandboxSettings', attributes: inputOf(edited) } } }))).data
        .attributes,
    ),
  );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate(draft, {
      onSuccess: (stored) => {
        setSaved(stored);
        setDraft(stored);
      },
    });
  };
  return (
    <form onSubmit={submit}>
      {lists.map((list) => (
        <ListEditor key={list.name} list={list} rows={draft[list.name]} onChange={(rows) => setDraft({ ...draft, [list.name]: rows })} />
      ))}
      <Outcome action={save} what="Saving the settings" done={() => 'Saved: GET /settings/get answers these lists now.'} />
      <div className="actions">
        <button type="submit" disabled={save.isPending}>
          Save settings
        </button>
        <button type="button" className="secondary" onClick={() => setDraft(saved)}>
          Discard changes
        </button>
      </div>
    </form>
  );
}

export function SettingsScreen() {
  const api = useApi();
  // Read once: the editor starts from them and then keeps its own copy, which a refresh must not undo.
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: () => read(api.GET('/sandbox/settings')),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return (
    <Page
      title="Settings"
      lead={
        <>
          The codes of your account, as <code>GET /settings/get</code> lists them: shape them like your production account's. Entries keep
          their id when you change them; orders refer to these ids.
        </>
      }
    >
      <Loaded query={settings} what="your settings">
        {({ data }) => <Editor initial={draftOf(data.attributes)} />}
      </Loaded>
    </Page>
  );
}
