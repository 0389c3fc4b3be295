import type { QueryClient } from '@tanstack/react-query';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { Params } from 'react-router-dom';
import { prefetchInterview } from '../features/interviews/prefetch';
import { common } from '../i18n/common';

/**
 * Routing convention: one area per top-level path; each area lazy-loads `renderer/features/<area>/index.tsx`
 * and renders its default export (no props; read params with useParams). `/interviews/:id` renders the same
 * feature as `/interviews`. The left rail is built from this list, in this order.
 */
export interface AreaRoute {
  path: string;
  /** Extra paths served by the same feature. */
  childPaths?: string[];
  labelKey: keyof (typeof common)['en'];
  /** Second key of the `g <key>` shortcut. */
  shortcut: string;
  shortcutLabelKey: keyof (typeof common)['en'];
  Component: LazyExoticComponent<ComponentType>;
  /**
   * Starts the screen's calls as the navigation begins, while its code and first render are still on the way.
   * Idempotent: the router calls it on every state change of a matching location.
   */
  prefetch?: (client: QueryClient, params: Params) => void;
}

export const areas: AreaRoute[] = [
  { path: '/interviews', childPaths: ['/interviews/:id'], labelKey: 'navInterviews', shortcut: 'i', shortcutLabelKey: 'shortcutGoInterviews', Component: lazy(() => import('../features/interviews/index')), prefetch: (client, { id }) => id && prefetchInterview(client, id) },
  { path: '/signing', labelKey: 'navSigning', shortcut: 's', shortcutLabelKey: 'shortcutGoSigning', Component: lazy(() => import('../features/signing/index')) },
  { path: '/validation', labelKey: 'navValidation', shortcut: 'v', shortcutLabelKey: 'shortcutGoValidation', Component: lazy(() => import('../features/validation/index')) },
  { path: '/capture', labelKey: 'navCapture', shortcut: 'c', shortcutLabelKey: 'shortcutGoCapture', Component: lazy(() => import('../features/capture/index')) },
  { path: '/api-keys', labelKey: 'navApiKeys', shortcut: 'k', shortcutLabelKey: 'shortcutGoApiKeys', Component: lazy(() => import('../features/api-keys/index')) },
  { path: '/settings', labelKey: 'navSettings', shortcut: ',', shortcutLabelKey: 'shortcutGoSettings', Component: lazy(() => import('../features/settings/index')) },
];

export const DEFAULT_PATH = '/interviews';
