import { useLingui } from '@lingui/react/macro';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from './Button';
import styles from './Pagination.module.css';

interface PaginationProps {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}

export function Pagination({ page, pageSize, total, onPage }: PaginationProps) {
  const { t } = useLingui();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav className={styles.pagination} aria-label={t`Pages`}>
      <span className={styles.summary}>{t`Page ${page} of ${pages} · ${total} in all`}</span>
      <Button size="small" aria-label={t`Previous page`} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <ChevronLeft size={16} aria-hidden />
      </Button>
      <Button size="small" aria-label={t`Next page`} disabled={page >= pages} onClick={() => onPage(page + 1)}>
        <ChevronRight size={16} aria-hidden />
      </Button>
    </nav>
  );
}
