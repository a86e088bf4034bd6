import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { whenSettled } from '../../lib/idle';

/**
 * Mounts lazily loaded `children` once the page has settled, or at once when `now` says they are needed: their
 * code stays off a visitor's first load (the toaster's Radix layers, the install and update prompts).
 */
export function WhenSettled({ now = false, children }: { now?: boolean; children: ReactNode }) {
  const [settled, setSettled] = useState(false);
  useEffect(() => whenSettled(() => setSettled(true)), []);
  if (!settled && !now) return null;
  return <Suspense fallback={null}>{children}</Suspense>;
}
