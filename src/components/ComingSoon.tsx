import { useLingui } from '@lingui/react/macro';
import { Construction } from 'lucide-react';
import type { ReactNode } from 'react';
import { Notice } from './Notice';

/** A screen whose capability is not built yet says so plainly; it never shows made-up data. */
export function ComingSoon({ title, level }: { title: ReactNode; level?: 1 | 2 }) {
  const { t } = useLingui();
  return (
    <Notice icon={<Construction size={32} />} title={title} level={level}>
      {t`This part of Clipstash is not built yet. It will arrive in a coming release.`}
    </Notice>
  );
}
