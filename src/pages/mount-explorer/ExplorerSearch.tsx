import { useLingui } from '@lingui/react/macro';
import { SearchX } from 'lucide-react';
import { useId, type KeyboardEvent, type MouseEvent, type RefObject } from 'react';
import type { FsSearchHit } from '../../../contract/search';
import type { SearchKind, SearchOrder } from '../../../machines/fs-search.machine';
import { BreakableName } from '../../components/BreakableName';
import { Button } from '../../components/Button';
import { Notice } from '../../components/Notice';
import { PageSkeleton } from '../../components/PageSkeleton';
import { SearchField } from '../../components/SearchField';
import { formatBytes, formatDateTime } from '../../lib/format';
import { useSlashToFocus } from '../../lib/slash-focus';
import styles from './Explorer.module.css';
import { explorerHref } from './explorer-path';
import { ItemIcon } from './item-icon';
import type { FsSearch } from './use-fs-search';

/** The open buttons of the results, in order: the arrow keys move between them. */
const resultButtons = (list: HTMLElement | null) => [...(list?.querySelectorAll<HTMLButtonElement>('button[data-result]') ?? [])];

/** The search field of the explorer's toolbar: `/` focuses it, Down goes into the results, Escape ends the search. */
export function SearchBox({ search, field, results }: { search: FsSearch; field: RefObject<HTMLInputElement | null>; results: RefObject<HTMLUListElement | null> }) {
  const { t } = useLingui();
  useSlashToFocus(field);
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape' && search.active) {
      event.preventDefault();
      search.send({ type: 'search.clear' });
    } else if (event.key === 'ArrowDown' || (event.key === 'Enter' && search.active)) {
      // Enter opens the first result, as a launcher does; Down only goes to it.
      const first = resultButtons(results.current)[0];
      if (!first) return;
      event.preventDefault();
      if (event.key === 'Enter') first.click();
      else first.focus();
    }
  };
  return (
    <SearchField
      ref={field}
      className={styles.search}
      aria-label={t`Search names below this folder`}
      aria-keyshortcuts="/"
      placeholder={t`Search (press /)`}
      spellCheck={false}
      value={search.snapshot.context.query}
      onChange={(event) => search.send({ type: 'search.input', query: event.target.value })}
      onKeyDown={onKeyDown}
    />
  );
}

interface SearchResultsProps {
  search: FsSearch;
  field: RefObject<HTMLInputElement | null>;
  list: RefObject<HTMLUListElement | null>;
  onOpen: (hit: FsSearchHit) => void;
  onOpenFolder: (folder: string) => void;
}

/** What the search found below the folder, in place of its listing: name, folder, size, modified, and more on demand. */
export function SearchResults({ search, field, list, onOpen, onOpenFolder }: SearchResultsProps) {
  const { t, i18n } = useLingui();
  const headingId = useId();
  const { snapshot, send } = search;
  const { items, nextCursor, incomplete, failure, kind, order } = snapshot.context;
  const query = snapshot.context.query.trim();
  const waiting = snapshot.matches('waiting') || snapshot.matches('searching');

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const buttons = resultButtons(list.current);
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const goTo = (index: number) => (index < 0 ? field.current?.focus() : buttons[Math.min(index, buttons.length - 1)]?.focus());
    const keys: Record<string, () => void> = {
      ArrowDown: () => goTo(at + 1),
      ArrowUp: () => goTo(at - 1),
      Home: () => goTo(0),
      End: () => goTo(buttons.length - 1),
      Escape: () => {
        send({ type: 'search.clear' });
        field.current?.focus();
      },
    };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };

  /** A plain click on the folder opens it here; a middle or modified click is the browser's (a new tab). */
  const followFolder = (event: MouseEvent<HTMLAnchorElement>, folder: string) => {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onOpenFolder(folder);
  };

  const count = items.length.toLocaleString(i18n.locale);
  const status = waiting ? t`Searching…` : failure && items.length === 0 ? '' : nextCursor ? t`First ${count} results for “${query}”` : t`${count} results for “${query}”`;
  const mounts = incomplete.map((index) => index.mountPath).join(', ');

  return (
    <section className={styles.listArea} aria-labelledby={headingId}>
      <div className={styles.searchHead}>
        <h2 id={headingId} className="visually-hidden">{t`Search results`}</h2>
        <p className={styles.searchStatus} role="status">
          {status}
        </p>
        <span className={styles.searchOption}>
          <label htmlFor={`${headingId}-kind`}>{t`Show`}</label>
          <select id={`${headingId}-kind`} value={kind} onChange={(event) => send({ type: 'search.kind', kind: event.target.value as SearchKind })}>
            <option value="all">{t`Files and folders`}</option>
            <option value="file">{t`Files only`}</option>
            <option value="folder">{t`Folders only`}</option>
          </select>
        </span>
        <span className={styles.searchOption}>
          <label htmlFor={`${headingId}-order`}>{t`Order`}</label>
          <select id={`${headingId}-order`} value={order} onChange={(event) => send({ type: 'search.order', order: event.target.value as SearchOrder })}>
            <option value="best">{t`Best match`}</option>
            <option value="newest">{t`Newest first`}</option>
          </select>
        </span>
      </div>
      {incomplete.length > 0 && <p className={styles.searchNote}>{t`Still indexing: ${mounts}. Results may be missing.`}</p>}
      {snapshot.matches('searching') && items.length === 0 && <PageSkeleton lines={4} />}
      {snapshot.matches('failed') && (
        <Notice level={3} role="alert" icon={<SearchX size={28} />} title={t`The search failed`} actions={<Button onClick={() => send({ type: 'search.retry' })}>{t`Try again`}</Button>}>
          {failure}
        </Notice>
      )}
      {snapshot.matches('shown') && items.length === 0 && (
        <Notice level={3} icon={<SearchX size={28} />} title={t`Nothing found`}>
          {t`No file or folder below this folder has “${query}” in its name.`}
        </Notice>
      )}
      {items.length > 0 && (
        <ul ref={list} className={styles.results} aria-label={t`Search results`} aria-busy={waiting} onKeyDown={onKeyDown}>
          {items.map((hit) => (
            <li key={hit.path} className={styles.result}>
              <button type="button" data-result data-path={hit.path} className={styles.resultOpen} onClick={() => onOpen(hit)}>
                <ItemIcon item={hit} />
                <span>
                  <BreakableName name={hit.name} />
                </span>
              </button>
              <a className={styles.resultFolder} href={explorerHref(hit.folder)} onClick={(event) => followFolder(event, hit.folder)}>
                <span className="visually-hidden">{t`in folder`} </span>
                {hit.folder}
              </a>
              <span className={styles.size}>{hit.isDirectory ? '' : formatBytes(hit.size)}</span>
              <span className={styles.modified}>{hit.modified ? formatDateTime(hit.modified, i18n.locale) : ''}</span>
            </li>
          ))}
        </ul>
      )}
      {failure && items.length > 0 && (
        <p className={styles.searchNote} role="alert">
          {failure}
        </p>
      )}
      {nextCursor && (
        <div className={styles.searchMore}>
          <Button disabled={snapshot.hasTag('busy')} onClick={() => send({ type: 'search.more' })}>
            {t`Load more`}
          </Button>
        </div>
      )}
      <p className={styles.hint}>{t`Up and Down move through the results, Enter opens one, Escape goes back to the folder.`}</p>
    </section>
  );
}
