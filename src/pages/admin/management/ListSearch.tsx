import { useLingui } from '@lingui/react/macro';
import { Search } from 'lucide-react';
import { SEARCH_QUERY_MAX } from '../../../../contract/search';
import type { ManagementList } from './use-management-list';
import styles from './ListSearch.module.css';

/** The search field above a management table: Escape clears it, and the table shows its pages again. */
export function ListSearch<Item>({ list, label }: { list: ManagementList<Item>; label: string }) {
  const { t, i18n } = useLingui();
  const count = list.items.length.toLocaleString(i18n.locale);
  return (
    <div role="search" className={styles.search}>
      <Search size={16} aria-hidden />
      <input
        type="search"
        aria-label={label}
        placeholder={label}
        autoComplete="off"
        maxLength={SEARCH_QUERY_MAX}
        value={list.query}
        onChange={(event) => list.setQuery(event.target.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Escape' || !list.query) return;
          event.preventDefault();
          list.setQuery('');
        }}
      />
      <span role="status" className={styles.status}>
        {list.searching && list.resource.status === 'ready' ? t`${count} found` : ''}
      </span>
    </div>
  );
}
