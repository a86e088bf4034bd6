import type { ReactNode } from 'react';
import { Link } from 'wouter';
import styles from './Button.module.css';

interface LinkButtonProps {
  href: string;
  children: ReactNode;
  variant?: 'default' | 'primary';
  size?: 'normal' | 'small';
  /** A link out of the app (raw text, a file): plain anchor in a new tab. */
  external?: boolean;
  /** Runs before the navigation (saving what the page holds). */
  onClick?: () => void;
  'aria-label'?: string;
}

/** A link that looks like a button: navigation stays a link for keyboards, readers and middle-clicks. */
export function LinkButton({ href, children, variant = 'default', size = 'normal', external, onClick, ...aria }: LinkButtonProps) {
  const className = [styles.button, styles.link, variant === 'primary' && styles.primary, size === 'small' && styles.small]
    .filter(Boolean)
    .join(' ');
  if (external) {
    return (
      <a className={className} href={href} target="_blank" rel="noreferrer" {...aria}>
        {children}
      </a>
    );
  }
  return (
    <Link className={className} href={href} onClick={onClick} {...aria}>
      {children}
    </Link>
  );
}
