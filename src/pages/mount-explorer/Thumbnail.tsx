import { useEffect, useRef, useState } from 'react';
import type { FsItem } from '../../../contract/fs';
import { THUMBNAIL_WIDTHS } from '../../../contract/thumbnail-sizes';
import styles from './Explorer.module.css';
import { ItemIcon } from './item-icon';
import { thumbnailUrlsOf, type ThumbnailUrls } from './thumbnail-links';

/**
 * The server's thumbnail of an image, PDF or video: its signed links are asked for once the tile nears the view,
 * never the whole file. The icon stays where the server makes none (or the picture fails).
 */
export function Thumbnail({ item }: { item: FsItem }) {
  const host = useRef<HTMLSpanElement>(null);
  const [urls, setUrls] = useState<ThumbnailUrls>();
  const [failed, setFailed] = useState(false);
  const version = item.etag ?? `${item.modified ?? ''}:${item.size}`;
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    let live = true;
    setFailed(false);
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        void thumbnailUrlsOf(item.path, version).then((found) => live && setUrls(found));
      },
      { rootMargin: '200px' },
    );
    observer.observe(element);
    return () => {
      live = false;
      observer.disconnect();
    };
  }, [item.path, version]);
  return (
    <span ref={host} className={styles.thumbnail}>
      {urls && !failed ? (
        <img
          src={urls.grid}
          srcSet={`${urls.grid} ${THUMBNAIL_WIDTHS.grid}w, ${urls.large} ${THUMBNAIL_WIDTHS.large}w`}
          // A tile is about 8 rem wide: the grid size serves screens up to twice as dense.
          sizes="8rem"
          alt=""
          loading="lazy"
          decoding="async"
          onError={() => setFailed(true)}
        />
      ) : (
        <ItemIcon item={item} size={40} />
      )}
    </span>
  );
}
