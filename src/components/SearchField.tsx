import { Search } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { SEARCH_QUERY_MAX } from '../../contract/search';
import styles from './SearchField.module.css';

interface SearchFieldProps extends Omit<ComponentProps<'input'>, 'type' | 'className'> {
  /** The box's place in the caller's layout (width, margins). */
  className?: string;
  /** After the field, inside the search landmark (a count of what was found). */
  children?: ReactNode;
}

/** A search landmark with its field: the magnifier inside it, at most the contract's query length. */
export function SearchField({ className, children, ...input }: SearchFieldProps) {
  return (
    <div role="search" className={className ? `${styles.field} ${className}` : styles.field}>
      <Search size={16} aria-hidden />
      <input type="search" autoComplete="off" maxLength={SEARCH_QUERY_MAX} {...input} />
      {children}
    </div>
  );
}
