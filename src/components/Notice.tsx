import type { ReactNode } from 'react';
import styles from './Notice.module.css';

interface NoticeProps {
  icon?: ReactNode;
  title: ReactNode;
  children?: ReactNode;
  actions?: ReactNode;
  role?: 'alert' | 'status';
  /** The page's main heading (h1), a section's (h2) or a subsection's (h3). */
  level?: 1 | 2 | 3;
}

/** A calm, centred message: empty states, denied access, pages still to come. */
export function Notice({ icon, title, children, actions, role, level = 1 }: NoticeProps) {
  const Heading = (['h1', 'h2', 'h3'] as const)[level - 1] ?? 'h1';
  return (
    <section className={styles.notice} role={role}>
      {icon && <div className={styles.icon} aria-hidden>{icon}</div>}
      <Heading>{title}</Heading>
      {children && <p className={styles.text}>{children}</p>}
      {actions && <div className={styles.actions}>{actions}</div>}
    </section>
  );
}
