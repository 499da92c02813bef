import { useCallback } from 'react';
import { atom, useAtom } from 'jotai';
import { DEFAULT_SHELL_PREFS, loadPrefs, savePrefs, type ShellPrefs } from './tab-state';

/** Preferences read this page's life, by user (stored by savePrefs). */
const prefsAtom = atom<Record<string, ShellPrefs>>({});

/** The frame's preferences of a user and their setter (docs/product-rules.md#tab-bar, #lock-screen). */
export function useShellPrefs(userId: string | null | undefined): [ShellPrefs, (change: Partial<ShellPrefs>) => void] {
  const [all, setAll] = useAtom(prefsAtom);
  const prefs = userId ? (all[userId] ?? loadPrefs(userId)) : DEFAULT_SHELL_PREFS;
  const set = useCallback(
    (change: Partial<ShellPrefs>) => {
      if (!userId) return;
      const next = { ...prefs, ...change };
      savePrefs(userId, next);
      setAll((a) => ({ ...a, [userId]: next }));
    },
    [userId, prefs, setAll],
  );
  return [prefs, set];
}
