import { useLingui } from '@lingui/react/macro';
import { CloudOff, FolderOpen, Lock } from 'lucide-react';
import { useState, type DragEvent } from 'react';
import { Button } from '../../components/Button';
import { Notice } from '../../components/Notice';
import { PageSkeleton } from '../../components/PageSkeleton';
import { droppedFiles, type PickedFile } from './dropped-files';
import styles from './Explorer.module.css';
import type { useExplorer } from './use-explorer';

interface FolderStatusProps {
  snapshot: ReturnType<typeof useExplorer>['snapshot'];
  writable: boolean;
  onUp: () => void;
  onDropFiles: (files: PickedFile[]) => void;
}

/** Everything but a list of items: loading, a refused or unreachable folder, an empty one (a drop target). */
export function FolderStatus({ snapshot, writable, onUp, onDropFiles }: FolderStatusProps) {
  const { t } = useLingui();
  const [dropping, setDropping] = useState(false);
  if (snapshot.hasTag('busy')) return <PageSkeleton lines={6} />;
  const failure = snapshot.context.failure;
  if (snapshot.hasTag('error') && failure) {
    const denied = failure.status === 403 || failure.status === 401;
    return (
      <Notice
        level={2}
        role="alert"
        icon={denied ? <Lock size={28} /> : <CloudOff size={28} />}
        title={denied ? t`Permission denied` : failure.status === 404 ? t`This folder does not exist` : t`The storage could not be reached`}
        actions={<Button onClick={onUp}>{t`Go up`}</Button>}
      >
        {denied
          ? failure.message || t`You don't have permission to access this feature. Please contact the administrator.`
          : failure.message}
      </Notice>
    );
  }
  const drop = async (event: DragEvent) => {
    event.preventDefault();
    setDropping(false);
    if (writable) onDropFiles(await droppedFiles(event.dataTransfer));
  };
  return (
    <div
      className={[styles.emptyFolder, dropping ? styles.dropping : ''].join(' ')}
      onDragOver={(event) => {
        if (!writable) return;
        event.preventDefault();
        setDropping(true);
      }}
      onDragLeave={() => setDropping(false)}
      onDrop={(event) => void drop(event)}
    >
      <Notice level={2} icon={<FolderOpen size={28} />} title={t`This folder is empty`}>
        {writable ? t`Upload files or drop them here.` : t`No mount points are visible here yet.`}
      </Notice>
    </div>
  );
}
