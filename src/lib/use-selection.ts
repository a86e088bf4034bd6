import { useCallback, useState } from 'react';

/** Which rows of a list are ticked, for batch actions. */
export function useSelection() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const toggle = useCallback(
    (id: string) =>
      setSelected((previous) => {
        const next = new Set(previous);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [],
  );
  const allOf = (ids: readonly string[]) => ids.length > 0 && ids.every((id) => selected.has(id));
  const toggleAll = (ids: readonly string[]) => setSelected(allOf(ids) ? new Set() : new Set(ids));
  const clear = useCallback(() => setSelected(new Set()), []);
  return { selected, toggle, toggleAll, allOf, clear };
}
