import { QueryClientProvider, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Navigate, RouterProvider, createHashRouter, useNavigate } from 'react-router-dom';
import type { PreferencesView } from '../../common/ipc/settings';
import { createQueryClient, keys, useOmniQuery } from '../api/index';
import { omni } from '../api/omni';
import { common } from '../i18n/common';
import { LocaleProvider, intlLocale, localeFromNavigator, useT, type Locale } from '../i18n/index';
import { Button } from '../ui/index';
import { Layout, RouteError } from './Layout';
import { DEFAULT_PATH, areas, preloadAreasWhenIdle, type AreaRoute } from './routes';
import { ShortcutProvider } from '../ui/shortcuts';

/** Hash routing: the app is served from one index.html under app:// and the web shell alike. */
function createAppRouter(queryClient: QueryClient) {
  const router = createHashRouter([
    {
      path: '/',
      element: <Layout />,
      errorElement: <RouteError />,
      children: [
        { index: true, element: <Navigate to={DEFAULT_PATH} replace /> },
        ...areas.flatMap((area) =>
          [area.path, ...(area.childPaths ?? [])].map((path) => ({
            path,
            element: <area.Component />,
            errorElement: <RouteError />,
            handle: area,
          })),
        ),
        { path: '*', element: <NotFound /> },
      ],
    },
  ]);
  // The router announces a navigation before React renders it: the area's data starts loading at that moment.
  const prefetch = (matches: typeof router.state.matches) => {
    for (const match of matches) {
      const area = match.route.handle as AreaRoute | undefined;
      void area?.preload().catch(() => undefined);
      area?.prefetch?.(queryClient, match.params);
    }
  };
  prefetch(router.state.matches);
  router.subscribe((state) => prefetch(state.matches));
  preloadAreasWhenIdle();
  return router;
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createAppRouter(queryClient));
  return (
    <QueryClientProvider client={queryClient}>
      <Preferences>
        <ShortcutProvider>
          {/* Not as a transition: React would keep rendering the next screen in the background and restart it with
              every answer that lands, so an interview took twice as long to appear. The new screen shows at once,
              with a skeleton per panel. */}
          <RouterProvider router={router} useTransitions={false} />
        </ShortcutProvider>
      </Preferences>
    </QueryClientProvider>
  );
}

/** Language and theme: the OS decides until the user chooses in Settings; the choice is stored by main. */
function Preferences({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const prefs = useOmniQuery(keys.settings.preferences(), (api) => api.settings.preferences({}), {
    staleTime: Infinity,
  });
  const locale: Locale = prefs.data?.language ?? localeFromNavigator();
  const theme = prefs.data?.theme ?? 'system';

  useEffect(() => {
    document.documentElement.lang = intlLocale(locale);
  }, [locale]);
  useEffect(() => {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
  }, [theme]);

  const setLocale = useCallback(
    (language: Locale | null) => {
      void omni()
        .settings.setPreferences({ language })
        .then((next: PreferencesView) => queryClient.setQueryData(keys.settings.preferences(), next));
    },
    [queryClient],
  );
  const value = useMemo(() => ({ locale, setLocale }), [locale, setLocale]);
  return <LocaleProvider value={value}>{children}</LocaleProvider>;
}

function NotFound() {
  const t = useT(common);
  const navigate = useNavigate();
  return (
    <section className="panel">
      <h1>{t('notFoundTitle')}</h1>
      <p>{t('notFoundBody')}</p>
      <Button variant="primary" onClick={() => navigate(DEFAULT_PATH)}>
        {t('notFoundAction')}
      </Button>
    </section>
  );
}
