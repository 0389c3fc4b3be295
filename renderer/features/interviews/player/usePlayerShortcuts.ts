import { useShortcut } from '../../../ui/shortcuts';
import { messages } from '../messages';
import type { Playback } from './usePlayback';

/** Anywhere in the workspace, not only in the player: the analyst reads the checks while the video runs. */
export function usePlayerShortcuts({ toggle, seekBy, step, changeSpeed }: Playback) {
  useShortcut([
    {
      keys: 'Space',
      description: { en: messages.en.shortcutPlayPause, es: messages.es.shortcutPlayPause },
      run: toggle,
    },
    {
      keys: 'ArrowLeft',
      description: { en: messages.en.shortcutBack5, es: messages.es.shortcutBack5 },
      run: () => seekBy(-5),
    },
    {
      keys: 'ArrowRight',
      description: { en: messages.en.shortcutForward5, es: messages.es.shortcutForward5 },
      run: () => seekBy(5),
    },
    {
      keys: ',',
      description: { en: messages.en.shortcutFrameBack, es: messages.es.shortcutFrameBack },
      run: () => step(-1),
    },
    {
      keys: '.',
      description: { en: messages.en.shortcutFrameForward, es: messages.es.shortcutFrameForward },
      run: () => step(1),
    },
    {
      keys: '[',
      description: { en: messages.en.shortcutSlower, es: messages.es.shortcutSlower },
      run: () => changeSpeed(-1),
    },
    {
      keys: ']',
      description: { en: messages.en.shortcutFaster, es: messages.es.shortcutFaster },
      run: () => changeSpeed(1),
    },
  ]);
}
