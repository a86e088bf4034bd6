import type { ReactNode } from 'react';
import styles from './Admin.module.css';

export function LoginCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className={styles.loginCard}>
      <h1>{title}</h1>
      {children}
    </section>
  );
}
