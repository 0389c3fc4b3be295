import { lazy, type ComponentType } from 'react';

/**
 * An area's screen, loaded once: ahead of need by `preload`, or when first shown. Once loaded it renders at once.
 * Until then it suspends, and React keeps the placeholder it then shows for at least 300 ms (its fallback
 * throttle), so a first visit without preloading took ~330 ms where the code itself arrives in ~40 ms.
 */
export function lazyArea(load: () => Promise<{ default: ComponentType }>): { Component: ComponentType; preload: () => Promise<void> } {
  let loaded: ComponentType | undefined;
  let loading: Promise<void> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (module) => void (loaded = module.default),
      (error: unknown) => {
        // A failed load (e.g. the file could not be read) is tried again next time rather than remembered.
        loading = undefined;
        throw error;
      },
    ));
  const Suspending = lazy(async () => {
    await preload();
    return { default: loaded! };
  });
  function Area() {
    const Screen = loaded ?? Suspending;
    return <Screen />;
  }
  return { Component: Area, preload };
}
