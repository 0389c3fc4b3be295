import {
  createContext,
  useContext,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
} from 'react';
import type { Bilingual } from '../i18n/index';

/**
 * Keyboard shortcuts. Global ones (`g <key>` navigation, `?` sheet) live in the layout; a feature adds its own
 * while mounted with `useShortcut({ keys: 'j', description: { en, es }, run })`; they appear in the `?` sheet.
 * Keys are single characters, named keys (`Enter`, `Space`, `ArrowLeft`, `ArrowRight`) or two-key sequences
 * separated by a space ("g i"). Ignored while typing in a field; a named key also gives way to the focused control
 * that acts on it by itself (Enter on a button, arrows in a radio group).
 */
export interface Shortcut {
  keys: string;
  description: Bilingual;
  run: () => void;
}

/**
 * A store, not React state: screens register their keys as they mount, and a state change there re-rendered the
 * whole frame and every screen using shortcuts once per mount (twice more per interview opened). Only the list
 * (the `?` sheet) follows the changes.
 */
interface Registry {
  register: (shortcut: Shortcut) => () => void;
  subscribe: (onChange: () => void) => () => void;
  /** The same array until a shortcut comes or goes. */
  list: () => Shortcut[];
}

function createRegistry(): Registry {
  const shortcuts = new Set<Shortcut>();
  const listeners = new Set<() => void>();
  let snapshot: Shortcut[] = [];
  const changed = () => {
    snapshot = [...shortcuts];
    for (const listener of listeners) listener();
  };
  return {
    register: (shortcut) => {
      shortcuts.add(shortcut);
      changed();
      return () => {
        shortcuts.delete(shortcut);
        changed();
      };
    },
    subscribe: (onChange) => {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    list: () => snapshot,
  };
}

const ShortcutContext = createContext<Registry | null>(null);
const SEQUENCE_TIMEOUT_MS = 1200;

export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (target as HTMLInputElement).type;
    return !['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file'].includes(type);
  }
  return false;
}

/**
 * Esc in a text field outside a dialog leaves it, its text kept, for the screen's content: the keys of the screen work
 * again without a Tab or the mouse. In a dialog, Esc closes the dialog, as the browser does.
 */
function leaveField(field: HTMLElement) {
  if (field.closest('dialog')) return;
  const content = field.closest<HTMLElement>('main[tabindex]');
  if (content) content.focus({ preventScroll: true });
  else field.blur();
}

/** What `event.key` gives for a key whose name holds the separator. */
const keyName = (key: string) => (key === ' ' ? 'Space' : key);

export function controlOwnsKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof Element)) return false;
  if (key === 'Enter' || key === 'Space')
    return !!target.closest(
      'a[href], button, summary, input, select, textarea, [role="button"], [role="link"], [role="checkbox"], [role="radio"]',
    );
  if (key.startsWith('Arrow'))
    return !!target.closest(
      'input[type="radio"], select, [role="radiogroup"], [role="tablist"], [role="listbox"], [role="menu"]',
    );
  return false;
}

export function ShortcutProvider({ children }: { children: ReactNode }) {
  const [registry] = useState(createRegistry);
  const pending = useRef<{ key: string; at: number } | null>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented && isTypingTarget(event.target)) {
        leaveField(event.target as HTMLElement);
        return;
      }
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event.target))
        return;
      if (document.querySelector('dialog[open]') && event.key !== 'Escape') return;
      const key = keyName(event.key);
      if (controlOwnsKey(event.target, key)) return;
      const now = Date.now();
      const prefix = pending.current && now - pending.current.at < SEQUENCE_TIMEOUT_MS ? pending.current.key : null;
      const all = registry.list();
      const match = (prefix && all.find((s) => s.keys === `${prefix} ${key}`)) || all.find((s) => s.keys === key);
      if (match) {
        pending.current = null;
        event.preventDefault();
        match.run();
        return;
      }
      pending.current = all.some((s) => s.keys.startsWith(`${key} `)) ? { key, at: now } : null;
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [registry]);

  return <ShortcutContext.Provider value={registry}>{children}</ShortcutContext.Provider>;
}

export function useShortcut(shortcut: Shortcut | Shortcut[]): void {
  const registry = useContext(ShortcutContext);
  const latest = useRef(shortcut);
  latest.current = shortcut;
  const signature = (Array.isArray(shortcut) ? shortcut : [shortcut]).map((s) => s.keys).join('|');
  useEffect(() => {
    if (!registry) return undefined;
    const list = Array.isArray(latest.current) ? latest.current : [latest.current];
    const disposers = list.map((s, index) =>
      registry.register({
        keys: s.keys,
        description: s.description,
        run: () => (Array.isArray(latest.current) ? latest.current[index] : latest.current)?.run(),
      }),
    );
    return () => disposers.forEach((dispose) => dispose());
    // Re-register only when the set of keys changes; `run` always calls the latest handler.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signature]);
}

const NONE: Shortcut[] = [];
const noChanges = () => () => undefined;

export function useShortcutList(): Shortcut[] {
  const registry = useContext(ShortcutContext);
  const list = registry?.list ?? (() => NONE);
  return useSyncExternalStore(registry?.subscribe ?? noChanges, list, list);
}

/**
 * Ctrl+Enter (⌘+Enter on a Mac) in a text area sends its form, as in the mail and chat tools analysts use all day:
 * Enter alone stays a new line. The form's own submit handler decides whether it may go.
 */
export function submitOnCtrlEnter(event: ReactKeyboardEvent<HTMLTextAreaElement>): void {
  if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
  event.preventDefault();
  event.currentTarget.form?.requestSubmit();
}
