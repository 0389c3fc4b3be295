import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Bilingual } from '../i18n/index';

/**
 * Keyboard shortcuts. Global ones (`g <key>` navigation, `?` sheet) live in the layout; a feature adds its own
 * while mounted with `useShortcut({ keys: 'j', description: { en, es }, run })`; they appear in the `?` sheet.
 * Keys are single characters or two-key sequences separated by a space ("g i"). Ignored while typing in a field.
 */
export interface Shortcut {
  keys: string;
  description: Bilingual;
  run: () => void;
}

interface Registry {
  register: (shortcut: Shortcut) => () => void;
  list: () => Shortcut[];
  version: number;
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

export function ShortcutProvider({ children }: { children: ReactNode }) {
  const shortcuts = useRef(new Set<Shortcut>());
  const [version, setVersion] = useState(0);
  const pending = useRef<{ key: string; at: number } | null>(null);

  const register = useCallback((shortcut: Shortcut) => {
    shortcuts.current.add(shortcut);
    setVersion((v) => v + 1);
    return () => {
      shortcuts.current.delete(shortcut);
      setVersion((v) => v + 1);
    };
  }, []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event.target)) return;
      if (document.querySelector('dialog[open]') && event.key !== 'Escape') return;
      const key = event.key;
      const now = Date.now();
      const prefix = pending.current && now - pending.current.at < SEQUENCE_TIMEOUT_MS ? pending.current.key : null;
      const all = [...shortcuts.current];
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
  }, []);

  const value = useMemo<Registry>(() => ({ register, list: () => [...shortcuts.current], version }), [register, version]);
  return <ShortcutContext.Provider value={value}>{children}</ShortcutContext.Provider>;
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
      registry.register({ keys: s.keys, description: s.description, run: () => (Array.isArray(latest.current) ? latest.current[index] : latest.current)?.run() }),
    );
    return () => disposers.forEach((dispose) => dispose());
    // Re-register only when the set of keys changes; `run` always calls the latest handler.
  }, [signature]);
}

export function useShortcutList(): Shortcut[] {
  const registry = useContext(ShortcutContext);
  return registry ? registry.list() : [];
}
