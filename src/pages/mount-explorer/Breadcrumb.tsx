import { useLingui } from '@lingui/react/macro';
import { HardDrive } from 'lucide-react';
import { Link } from 'wouter';
import styles from './Explorer.module.css';
import { crumbsOf, explorerHref } from './explorer-path';

/** Root, then each folder down to the one shown (the last is the current page). */
export function Breadcrumb({ folder }: { folder: string }) {
  const { t } = useLingui();
  const crumbs = crumbsOf(folder);
  return (
    <nav aria-label={t`Folder path`} className={styles.breadcrumb}>
      <ol>
        <li>
          <Link href={explorerHref('/')} aria-current={crumbs.length === 0 ? 'page' : undefined}>
            <HardDrive size={15} aria-hidden />
            {t`Root`}
          </Link>
        </li>
        {crumbs.map((crumb, index) => (
          <li key={crumb.path}>
            <Link href={explorerHref(crumb.path)} aria-current={index === crumbs.length - 1 ? 'page' : undefined}>
              {crumb.name}
            </Link>
          </li>
        ))}
      </ol>
    </nav>
  );
}
