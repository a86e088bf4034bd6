import { useEffect, useRef, useState } from 'react';
import type { FsItem } from '../../../contract/fs';
import { fileLink } from '../../lib/api/fs';
import styles from './Explorer.module.css';
import { ItemIcon } from './item-icon';

/** Image thumbnails ask for a signed link only once they scroll into view. */
const THUMBNAIL_LINK_SECONDS = 3600;

export function Thumbnail({ item }: { item: FsItem }) {
  const host = useRef<HTMLSpanElement>(null);
  const [src, setSrc] = useState<string>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    let live = true;
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      fileLink(item.path, { expiresIn: THUMBNAIL_LINK_SECONDS }).then(
        (link) => live && setSrc(link.url),
        () => live && setFailed(true),
      );
    });
    observer.observe(element);
    return () => {
      live = false;
      observer.disconnect();
    };
  }, [item.path]);
  return (
    <span ref={host} className={styles.thumbnail}>
      {src && !failed ? <img src={src} alt="" loading="lazy" onError={() => setFailed(true)} /> : <ItemIcon item={item} size={40} />}
    </span>
  );
}
