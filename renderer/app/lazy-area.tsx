import { useEffect, useState, type ComponentType } from 'react';
import { Skeleton } from '../ui/index';

/**
 * An area's screen, loaded once: ahead of need by `preload`, or when first shown. Once loaded it renders at once.
 *
 * Not React.lazy: a screen that suspends shows its Suspense placeholder, and React keeps a placeholder for at least
 * 300 ms (its fallback throttle), so a first visit took ~330 ms where the code arrives in ~40 ms. Here the area shows
 * its own placeholder and swaps in the screen as soon as the code is there.
 */
export function lazyArea(load: () => Promise<{ default: ComponentType }>): {
  Component: ComponentType;
  preload: () => Promise<void>;
} {
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
  function Area() {
    const [Screen, setScreen] = useState(() => loaded);
    const [failure, setFailure] = useState<unknown>();
    useEffect(() => {
      if (Screen) return;
      preload().then(
        () => setScreen(() => loaded),
        (error: unknown) => setFailure(() => error),
      );
    }, [Screen]);
    // The route's error boundary says what failed and offers a reload.
    if (failure !== undefined) throw failure;
    return Screen ? <Screen /> : <Skeleton rows={4} />;
  }
  return { Component: Area, preload };
}
