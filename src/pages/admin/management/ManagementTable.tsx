import { useLingui } from '@lingui/react/macro';
import { SearchX } from 'lucide-react';
import type { ReactNode } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import tableStyles from '../../../components/DataTable.module.css';
import { Notice } from '../../../components/Notice';
import { Pagination } from '../../../components/Pagination';
import { ResourceStatus } from '../../../components/ResourceStatus';
import { ListSearch } from './ListSearch';
import type { ManagementList } from './use-management-list';

export interface Column<Item> {
  /** The header, and each cell's data-label, which names the cell when rows become cards on narrow screens. */
  label: string;
  cell: (item: Item) => ReactNode;
  /**
   * How the column shares the width, its cells kept to one line on wide screens: `fill` takes the room the others
   * leave and cuts its text with an ellipsis, `clip` is capped and cut likewise; by default a column is as wide as
   * its longest cell.
   */
  width?: 'fill' | 'clip';
}

interface ManagementTableProps<Item extends { id: string }> {
  list: ManagementList<Item>;
  columns: readonly Column<Item>[];
  errorTitle: string;
  /** What the list shows once it has loaded with no rows. */
  empty: ReactNode;
  /** The row's data attributes, by which the browser tests find it. */
  rowData: (item: Item) => Record<`data-${string}`, string>;
  /** The accessible name of a row's checkbox; lists without batch actions have no checkboxes. */
  selectLabel?: (item: Item) => string;
  rowActions: (item: Item) => ReactNode;
  /** The accessible name of the search field of a searchable list. */
  searchLabel?: string;
}

/**
 * A management list: its search field (when it can be searched), its loading and failure states, the empty notice,
 * the table (with a checkbox per row when rows can be selected), the pages and the dialog that confirms the list's
 * destructive actions. A search's rows are shown whole, in the same table, with no pages.
 */
export function ManagementTable<Item extends { id: string }>({
  list,
  columns,
  errorTitle,
  empty,
  rowData,
  selectLabel,
  rowActions,
  searchLabel,
}: ManagementTableProps<Item>) {
  const { t } = useLingui();
  const { resource, items, total, page, pageSize, selection, confirmation, searching } = list;
  const ids = items.map((item) => item.id);
  const query = list.query.trim();

  return (
    <>
      {list.searchable && <ListSearch list={list} label={searchLabel ?? t`Search`} />}
      <ResourceStatus resource={resource} errorTitle={errorTitle} />
      {resource.data &&
        items.length === 0 &&
        (searching ? (
          <Notice level={3} icon={<SearchX size={28} />} title={t`Nothing matches “${query}”`}>
            {t`Try another word, or clear the search to see every row.`}
          </Notice>
        ) : (
          empty
        ))}
      {items.length > 0 && (
        <div className={tableStyles.wrap}>
          <table className={`${tableStyles.table} ${tableStyles.oneLine}`}>
            <thead>
              <tr>
                {selectLabel && (
                  <th scope="col">
                    <input
                      type="checkbox"
                      aria-label={t`Select all on this page`}
                      checked={selection.allOf(ids)}
                      onChange={() => selection.toggleAll(ids)}
                    />
                  </th>
                )}
                {columns.map((column) => (
                  <th key={column.label} scope="col">
                    {column.label}
                  </th>
                ))}
                <th scope="col" className={tableStyles.actionsHead}>
                  {t`Actions`}
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.id} {...rowData(item)}>
                  {selectLabel && (
                    <td data-label={t`Select`}>
                      <input
                        type="checkbox"
                        aria-label={selectLabel(item)}
                        checked={selection.selected.has(item.id)}
                        onChange={() => selection.toggle(item.id)}
                      />
                    </td>
                  )}
                  {columns.map((column) => (
                    <td key={column.label} data-label={column.label} className={column.width && tableStyles[column.width]}>
                      {/* One box for the value: the ellipsis cuts it, and in a card it sits beside its label. */}
                      <span className={tableStyles.value}>{column.cell(item)}</span>
                    </td>
                  ))}
                  <td data-label={t`Actions`}>{rowActions(item)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pageSize !== undefined && !searching && total > pageSize && <Pagination page={page} pageSize={pageSize} total={total} onPage={list.setPage} />}

      <ConfirmDialog
        open={list.confirming}
        onOpenChange={(open) => !open && list.dismiss()}
        title={confirmation?.title}
        description={confirmation?.description}
        confirmLabel={confirmation?.confirmLabel ?? ''}
        busy={list.busy}
        onConfirm={list.confirm}
      />
    </>
  );
}
