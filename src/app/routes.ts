import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { loadWholeCatalog, type SharePage } from '../lib/i18n';
import { ADMIN_MODULE_TITLES, isAdminModule } from './admin-modules';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export interface RouteEntry {
  /** wouter pattern */
  path: string;
  title: MessageDescriptor;
  /** A title that depends on the path's parameters (admin modules). */
  titleFor?: (params: Record<string, string | undefined>) => MessageDescriptor | undefined;
  /**
   * A share's page, opened by visitors from a link: it renders with its visitor's catalog (src/lib/i18n.ts) and
   * before the app's actors (XState) have loaded, and they load once it has settled (main.tsx).
   */
  shareView?: SharePage;
  /** A page for visitors who came by a link (a share, a file request): the menu shows them none of the operator's. */
  forVisitors?: true;
  page: LazyExoticComponent<ComponentType>;
  /** Starts loading the page's code (the same import as `page`'s). */
  load: () => Promise<unknown>;
}

/**
 * A route whose page loads lazily, in its own chunk; every page but a share's with the whole catalog (a share's page
 * renders with its visitor's catalog).
 */
function route(entry: Omit<RouteEntry, 'page' | 'load'>, loadPage: () => Promise<{ default: ComponentType }>): RouteEntry {
  const load = entry.shareView ? loadPage : () => Promise.all([loadPage(), loadWholeCatalog()]).then(([page]) => page);
  return { ...entry, page: lazy(load), load };
}

/** The app's routes; every page is its own lazily loaded chunk. */
export const routes: readonly RouteEntry[] = [
  route({ path: '/', title: msg`Online clipboard` }, () => import('../pages/home/HomePage')),
  route({ path: '/upload', title: msg`File upload` }, () => import('../pages/upload/UploadPage')),
  route(
    {
      path: '/admin/:module?',
      title: msg`Admin panel`,
      titleFor: ({ module }) => (isAdminModule(module) ? ADMIN_MODULE_TITLES[module] : undefined),
    },
    () => import('../pages/admin/AdminPage'),
  ),
  route({ path: '/paste/:slug', title: msg`View share`, shareView: 'paste', forVisitors: true }, () => import('../pages/paste-view/PasteViewPage')),
  route({ path: '/file/:slug', title: msg`File preview`, shareView: 'file', forVisitors: true }, () => import('../pages/file-view/FileViewPage')),
  route({ path: '/mount-explorer/*?', title: msg`Mount explorer` }, () => import('../pages/mount-explorer/MountExplorerPage')),
  route({ path: '/expense/*?', title: msg`Expense management` }, () => import('../pages/expense/ExpensePage')),
  route({ path: '/request/:slug', title: msg`Send files`, forVisitors: true }, () => import('../pages/file-request/FileRequestPage')),
];

/** A route's first path segment, without parameters: `/paste/:slug` → `paste`, `/` → ``. */
const firstSegment = (path: string) => (path.split('/')[1] ?? '').replace(/^:.*|[*?]+$/, '');

/** The route of `pathname`: every route differs from the others by its first segment. */
export const routeAt = (pathname: string) => routes.find((entry) => firstSegment(entry.path) === firstSegment(pathname));

export const PRODUCT_NAME = 'Clipstash';
