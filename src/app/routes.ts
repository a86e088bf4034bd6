import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { ADMIN_MODULE_TITLES, isAdminModule } from './admin-modules';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export interface RouteEntry {
  /** wouter pattern */
  path: string;
  title: MessageDescriptor;
  /** A title that depends on the path's parameters (admin modules). */
  titleFor?: (params: Record<string, string | undefined>) => MessageDescriptor | undefined;
  page: LazyExoticComponent<ComponentType>;
}

/** The routes of frontend-spec §2; every page is its own lazily loaded chunk. */
export const routes: readonly RouteEntry[] = [
  { path: '/', title: msg`Online clipboard`, page: lazy(() => import('../pages/home/HomePage')) },
  { path: '/upload', title: msg`File upload`, page: lazy(() => import('../pages/upload/UploadPage')) },
  {
    path: '/admin/:module?',
    title: msg`Admin panel`,
    titleFor: ({ module }) => (isAdminModule(module) ? ADMIN_MODULE_TITLES[module] : undefined),
    page: lazy(() => import('../pages/admin/AdminPage')),
  },
  { path: '/paste/:slug', title: msg`View share`, page: lazy(() => import('../pages/paste-view/PasteViewPage')) },
  { path: '/file/:slug', title: msg`File preview`, page: lazy(() => import('../pages/file-view/FileViewPage')) },
  {
    path: '/mount-explorer/*?',
    title: msg`Mount explorer`,
    page: lazy(() => import('../pages/mount-explorer/MountExplorerPage')),
  },
  { path: '/expense', title: msg`Expense management`, page: lazy(() => import('../pages/expense/ExpensePage')) },
];

export const PRODUCT_NAME = 'Clipstash';
