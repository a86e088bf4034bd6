import { useLingui } from '@lingui/react/macro';
import { Trash2 } from 'lucide-react';
import { Button } from '../../../components/Button';
import { toasts } from '../../../lib/toast';
import type { ManagementList } from './use-management-list';

interface DeleteSelectedButtonProps<Item> {
  list: ManagementList<Item>;
  deleteMany: (ids: string[]) => Promise<{ deleted: number; missing: number }>;
  /** The confirmation's question and consequence for `count` rows. */
  question: (count: number) => { title: string; description: string };
}

/** The header button that deletes the ticked rows, after asking, and says how many went. */
export function DeleteSelectedButton<Item>({ list, deleteMany, question }: DeleteSelectedButtonProps<Item>) {
  const { t } = useLingui();
  const { selected, clear } = list.selection;

  const ask = () =>
    list.ask({
      ...question(selected.size),
      confirmLabel: t`Delete`,
      run: async () => {
        const { deleted, missing } = await deleteMany([...selected]);
        if (missing > 0) toasts.show('info', t`${deleted} deleted, ${missing} already gone`);
        else toasts.success(t`${deleted} deleted`);
        clear();
      },
    });

  return (
    <Button disabled={selected.size === 0} onClick={ask}>
      <Trash2 size={16} aria-hidden />
      {t`Delete selected (${selected.size})`}
    </Button>
  );
}
