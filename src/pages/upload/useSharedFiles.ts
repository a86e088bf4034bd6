import { useEffect, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { SHARED_PARAM } from '../../../contract/share-target';
import { shareInbox, sharedText } from '../../lib/share-inbox';

/**
 * Files shared to the installed app (the share target, src/sw.ts) arrive as `/upload?shared=<id>`: they are taken
 * from the inbox for the upload form's list, not uploaded (the person checks the settings first), and the address
 * is cleared. `textId` names the entry when text came with them, for the editor to take.
 */
export function useSharedFiles(): { files: File[]; textId?: string } {
  const search = useSearch();
  const [, navigate] = useLocation();
  const [arrived, setArrived] = useState<{ files: File[]; textId?: string }>({ files: [] });
  const taken = useRef(new Set<string>());

  useEffect(() => {
    const id = new URLSearchParams(search).get(SHARED_PARAM);
    if (!id || taken.current.has(id)) return;
    taken.current.add(id);
    void shareInbox.get(id).then(async (entry) => {
      if (!entry) return;
      setArrived({ files: entry.files, ...(sharedText(entry) && { textId: id }) });
      await shareInbox.take(id, 'files');
    });
    navigate('/upload', { replace: true });
  }, [search, navigate]);

  return arrived;
}
