import { useLingui } from '@lingui/react/macro';
import { SearchField } from '../../../components/SearchField';
import type { ManagementList } from './use-management-list';
import styles from './ListSearch.module.css';

/** The search field above a management table: Escape clears it, and the table shows its pages again. */
export function ListSearch<Item>({ list, label }: { list: ManagementList<Item>; label: string }) {
  const { t, i18n } = useLingui();
  const count = list.items.length.toLocaleString(i18n.locale);
  return (
    <SearchField
      className={styles.search}
      aria-label={label}
      placeholder={label}
      value={list.query}
      onChange={(event) => list.setQuery(event.target.value)}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !list.query) return;
        event.preventDefault();
        list.setQuery('');
      }}
    >
      <span role="status" className={styles.status}>
        {list.searching && list.resource.status === 'ready' ? t`${count} found` : ''}
      </span>
    </SearchField>
  );
}
