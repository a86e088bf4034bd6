// @vitest-environment happy-dom
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManagementTable, type Column } from './ManagementTable';
import { useManagementList, type ListPage } from './use-management-list';

type Row = { id: string; name: string };

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  i18n.loadAndActivate({ locale: 'en-US', messages: {} });
});

const unmounts: (() => void)[] = [];
afterEach(() => unmounts.splice(0).forEach((unmount) => act(unmount)));

const columns: Column<Row>[] = [{ label: 'Name', cell: (row) => <strong>{row.name}</strong> }];

function Table({ load, selectable }: { load: () => Promise<ListPage<Row>>; selectable: boolean }) {
  const list = useManagementList({ load, pageSize: 2 });
  return (
    <ManagementTable
      list={list}
      columns={columns}
      errorTitle="Could not load"
      empty={<p>Nothing here</p>}
      rowData={(row) => ({ 'data-name': row.name })}
      selectLabel={selectable ? (row) => `Select ${row.name}` : undefined}
      rowActions={(row) => <button type="button">Edit {row.name}</button>}
    />
  );
}

async function renderTable(page: ListPage<Row>, selectable = true) {
  const container = document.createElement('div');
  const root = createRoot(container);
  await act(async () =>
    root.render(
      <I18nProvider i18n={i18n}>
        <Table load={async () => page} selectable={selectable} />
      </I18nProvider>,
    ),
  );
  unmounts.push(() => root.unmount());
  return container;
}

const checkbox = (container: HTMLElement, name: string) => {
  const box = container.querySelector<HTMLInputElement>(`input[aria-label="${name}"]`);
  if (!box) throw new Error(`no checkbox ${name}`);
  return box;
};

const rows: Row[] = [
  { id: '1', name: 'alpha' },
  { id: '2', name: 'beta' },
];

describe('ManagementTable', () => {
  it('labels every cell with its column for the narrow layout and marks rows with their data', async () => {
    const container = await renderTable({ items: rows, total: 2 });
    const headers = [...container.querySelectorAll('th')].map((th) => th.textContent);
    expect(headers).toEqual(['', 'Name', 'Actions']);
    const firstRow = container.querySelector('tr[data-name="alpha"]');
    expect([...(firstRow?.querySelectorAll('td') ?? [])].map((td) => td.dataset.label)).toEqual(['Select', 'Name', 'Actions']);
    expect(container.querySelector('nav')).toBeNull();
  });

  it('ticks every row of the page with select all, and unticks them again', async () => {
    const container = await renderTable({ items: rows, total: 2 });
    await act(async () => checkbox(container, 'Select all on this page').click());
    expect([checkbox(container, 'Select alpha').checked, checkbox(container, 'Select beta').checked]).toEqual([true, true]);
    await act(async () => checkbox(container, 'Select all on this page').click());
    expect(checkbox(container, 'Select alpha').checked).toBe(false);
  });

  it('has no checkboxes when rows cannot be selected', async () => {
    const container = await renderTable({ items: rows, total: 2 }, false);
    expect(container.querySelectorAll('input[type="checkbox"]')).toHaveLength(0);
  });

  it('shows the empty notice for no rows, and pages once there are more rows than fit', async () => {
    expect((await renderTable({ items: [], total: 0 })).textContent).toContain('Nothing here');
    expect((await renderTable({ items: rows, total: 3 })).querySelector('nav')?.textContent).toContain('Page 1 of 2');
  });
});
