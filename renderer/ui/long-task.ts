import { useCallback } from 'react';
import { common } from '../i18n/common';
import { useT } from '../i18n/index';

/**
 * Long work that ends while the user looks elsewhere raises an OS notification (ux.md, "Long work"). One place for
 * every long task: ProgressBar uses it through its `outcome` prop; work that has no bar on screen when it ends calls
 * `useTaskNotifier()` directly. Uses the HTML Notification API, which Electron's renderer and browsers both provide.
 */
export type TaskOutcome = 'done' | 'failed' | 'cancelled';

let askedThisSession = false;

/**
 * Asks for permission on the user's first long task, never at startup: a prompt with no context gets refused, and
 * browsers may only show it right after the click that started the work. Electron answers from its permission handler.
 */
export function askToNotifyOnce(): void {
  if (askedThisSession || typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  askedThisSession = true;
  void Promise.resolve(Notification.requestPermission()).catch(() => undefined);
}

/** The window is minimized, covered, in another tab, or simply not the one the user is working in. */
export function inBackground(): boolean {
  return document.hidden || !document.hasFocus();
}

/** Shows the notification when it is due; the notification, or null when nothing was shown and why does not matter. */
export function showTaskNotification(title: string, body: string, outcome: TaskOutcome): Notification | null {
  // Cancelling is the user's own act: telling them about it would be noise.
  if (outcome === 'cancelled' || !inBackground()) return null;
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return null;
  const lang = document.documentElement.lang;
  const notification = new Notification(title, { body, ...(lang ? { lang } : {}) });
  // Clicking it brings the app back to the front, where the result is.
  notification.onclick = () => {
    window.focus();
    notification.close();
  };
  return notification;
}

/** `(task, outcome)`: the task's name as the user knows it ("Batch validation"), in the current language. */
export function useTaskNotifier(): (task: string | undefined, outcome: TaskOutcome) => void {
  const t = useT(common);
  return useCallback(
    (task, outcome) => {
      const name = task?.trim() || t('taskDefault');
      if (outcome === 'cancelled') return;
      showTaskNotification(
        t('appName'),
        t(outcome === 'done' ? 'notifyTaskDone' : 'notifyTaskFailed', { task: name }),
        outcome,
      );
    },
    [t],
  );
}
