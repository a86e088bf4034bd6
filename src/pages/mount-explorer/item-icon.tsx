import { File, FileArchive, FileAudio, FileCode, FileImage, FileText, FileVideo, Folder, HardDrive } from 'lucide-react';
import type { FsItem } from '../../../contract/fs';
import { previewKind } from '../../components/file-preview/preview-kind';

const ARCHIVES = /\.(zip|rar|7z|tar|gz|tgz|bz2|xz|zst)$/i;

/** The icon of an item: mounts, folders, and files by what they hold. */
export function ItemIcon({ item, size = 18 }: { item: FsItem; size?: number }) {
  const props = { size, 'aria-hidden': true } as const;
  if (item.isDirectory) return item.isVirtual ? <HardDrive {...props} /> : <Folder {...props} />;
  if (ARCHIVES.test(item.name)) return <FileArchive {...props} />;
  switch (previewKind(item.mimetype ?? '', item.name)) {
    case 'image':
      return <FileImage {...props} />;
    case 'video':
      return <FileVideo {...props} />;
    case 'audio':
      return <FileAudio {...props} />;
    case 'text':
      return <FileCode {...props} />;
    case 'markdown':
    case 'pdf':
    case 'office':
      return <FileText {...props} />;
    default:
      return <File {...props} />;
  }
}
