import { lazy } from 'react';

/** Loaded when first needed: the upload page and the explorer ship without it until a task meets a taken name. */
export const LazyConflictDialog = lazy(() => import('./ConflictDialog').then((module) => ({ default: module.ConflictDialog })));
