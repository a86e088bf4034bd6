import type { ComponentProps } from 'react';
import styles from './Button.module.css';

/** Native button props, ref included (React 19 passes it as a prop). */
export interface ButtonProps extends ComponentProps<'button'> {
  variant?: 'default' | 'primary' | 'danger' | 'ghost';
  size?: 'normal' | 'small' | 'icon';
}

export function Button({ variant = 'default', size = 'normal', className, type = 'button', ...rest }: ButtonProps) {
  const classes = [styles.button, variant !== 'default' && styles[variant], size !== 'normal' && styles[size], className]
    .filter(Boolean)
    .join(' ');
  return <button type={type} className={classes} {...rest} />;
}
