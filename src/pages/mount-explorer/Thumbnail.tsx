import { useEffect, useRef, useState } from 'react';
import type { FsItem } from '../../../contract/fs';
import { THUMBNAIL_WIDTHS } from '../../../contract/thumbnail-sizes';
import styles from './Explorer.module.css';
import { ItemIcon } from './item-icon';
import { thumbnailShowable, thumbnailUrlsOf, type ThumbnailUrls } from './thumbnail-links';

/** The picture is shown, or its failure is being looked into (the icon meanwhile), or there is none. */
type Showing = 'picture' | 'asking' | 'failed';

/**
 * Drops a picture's source when it goes (its tile left the window) before it loaded: a removed image keeps loading
 * otherwise, and a quick scroll through a large folder would have the server make every thumbnail it passed.
 */
function cancelWhenGone(image: HTMLImageElement) {
  return () => {
    if (image.complete) return;
    image.removeAttribute('srcset');
    image.removeAttribute('src');
  };
}

/**
 * The server's thumbnail of an image, PDF or video: its signed links are asked for once the tile nears the view,
 * never the whole file. The icon stays where the server makes none (or the picture fails); a picture that failed
 * as the server was busy is asked for again, until the tile leaves the window.
 */
export function Thumbnail({ item }: { item: FsItem }) {
  const host = useRef<HTMLSpanElement>(null);
  const [urls, setUrls] = useState<ThumbnailUrls>();
  const [showing, setShowing] = useState<Showing>('picture');
  /** The look into a failed picture: one per tile and version, stopped when the tile goes. */
  const asking = useRef<AbortController>(undefined);
  const version = item.etag ?? `${item.modified ?? ''}:${item.size}`;
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    let live = true;
    setShowing('picture');
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
      asking.current?.abort();
      asking.current = undefined;
    };
  }, [item.path, version]);

  const onError = (src: string) => {
    // A picture that fails again once the server has answered is not asked for a third time.
    if (asking.current) return setShowing('failed');
    const controller = new AbortController();
    asking.current = controller;
    setShowing('asking');
    thumbnailShowable(src, controller.signal).then(
      (showable) => !controller.signal.aborted && setShowing(showable ? 'picture' : 'failed'),
      () => !controller.signal.aborted && setShowing('failed'),
    );
  };
  return (
    <span ref={host} className={styles.thumbnail}>
      {urls && showing === 'picture' ? (
        <img
          src={urls.grid}
          srcSet={`${urls.grid} ${THUMBNAIL_WIDTHS.grid}w, ${urls.large} ${THUMBNAIL_WIDTHS.large}w`}
          // A tile is about 8 rem wide: the grid size serves screens up to twice as dense.
          sizes="8rem"
          alt=""
          loading="lazy"
          decoding="async"
          ref={cancelWhenGone}
          // A source dropped as the picture went is no failure.
          onError={(event) => event.currentTarget.hasAttribute('src') && onError(event.currentTarget.currentSrc || urls.grid)}
        />
      ) : (
        <ItemIcon item={item} size={40} />
      )}
    </span>
  );
}
