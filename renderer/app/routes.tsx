import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import type { Params } from 'react-router-dom';
import { prefetchInterview } from '../features/interviews/prefetch';
import { common } from '../i18n/common';
import { lazyArea } from './lazy-area';

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
  Component: ComponentType;
  /** Loads the area's code ahead of need (the app does it for every area once idle after start). */
  preload: () => Promise<void>;
  /**
   * Starts the screen's calls as the navigation begins, while its code and first render are still on the way.
   * Idempotent: the router calls it on every state change of a matching location.
   */
  prefetch?: (client: QueryClient, params: Params) => void;
}

export const areas: AreaRoute[] = [
  {
    path: '/interviews',
    childPaths: ['/interviews/:id'],
    labelKey: 'navInterviews',
    shortcut: 'i',
    shortcutLabelKey: 'shortcutGoInterviews',
    ...lazyArea(() => import('../features/interviews/index')),
    prefetch: (client, { id }) => id && prefetchInterview(client, id),
  },
  {
    path: '/signing',
    labelKey: 'navSigning',
    shortcut: 's',
    shortcutLabelKey: 'shortcutGoSigning',
    ...lazyArea(() => import('../features/signing/index')),
  },
  {
    path: '/validation',
    labelKey: 'navValidation',
    shortcut: 'v',
    shortcutLabelKey: 'shortcutGoValidation',
    ...lazyArea(() => import('../features/validation/index')),
  },
  {
    path: '/capture',
    labelKey: 'navCapture',
    shortcut: 'c',
    shortcutLabelKey: 'shortcutGoCapture',
    ...lazyArea(() => import('../features/capture/index')),
  },
  {
    path: '/api-keys',
    labelKey: 'navApiKeys',
    shortcut: 'k',
    shortcutLabelKey: 'shortcutGoApiKeys',
    ...lazyArea(() => import('../features/api-keys/index')),
  },
  {
    path: '/team',
    labelKey: 'navTeam',
    shortcut: 't',
    shortcutLabelKey: 'shortcutGoTeam',
    ...lazyArea(() => import('../features/team/index')),
  },
  {
    path: '/settings',
    labelKey: 'navSettings',
    shortcut: ',',
    shortcutLabelKey: 'shortcutGoSettings',
    ...lazyArea(() => import('../features/settings/index')),
  },
];

/** Loads the code of the area that shows `path` (the default area for `/` and unknown paths). */
export function preloadAreaAt(path: string): Promise<void> {
  const area =
    areas.find((a) => path === a.path || path.startsWith(`${a.path}/`)) ?? areas.find((a) => a.path === DEFAULT_PATH)!;
  return area.preload().catch(() => undefined);
}

/** Loads every area's code once the app is idle after start, so no first visit waits for it. */
export function preloadAreasWhenIdle(): void {
  const preloadAll = () => {
    for (const area of areas) void area.preload().catch(() => undefined);
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(preloadAll, { timeout: 2000 });
  else setTimeout(preloadAll, 200);
}

export const DEFAULT_PATH = '/interviews';
