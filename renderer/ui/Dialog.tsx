import { useEffect, useRef, type ReactNode } from 'react';
import { common } from '../i18n/common';
import { useT } from '../i18n/index';
import { Button } from './Button';

/**
 * Modal dialog on the native <dialog>: focus is trapped and Esc closes it (the browser does both);
 * focus returns to the element that opened it. Focus starts on the element marked `data-autofocus` (React's
 * `autoFocus` runs before the dialog is shown, so the browser would start on Close instead).
 */
export function Dialog({
  open,
  onClose,
  title,
  children,
  actions,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const t = useT(common);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const opener = document.activeElement as HTMLElement | null;
      dialog.showModal();
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
      return () => opener?.focus?.();
    }
    if (!open && dialog.open) dialog.close();
    return undefined;
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="dialog"
      // Esc: told at once, in the key's own task. The browser's `close` event comes a task later: a key pressed in
      // between (a shortcut opening the next dialog) would be undone by it, so a late one for a dialog open again is
      // not passed on.
      onCancel={onClose}
      onClose={() => {
        if (!ref.current?.open) onClose();
      }}
      aria-labelledby="dialog-title"
    >
      {open && (
        <>
          <div className="dialog-header">
            <h2 id="dialog-title">{title}</h2>
            <Button variant="link" onClick={onClose} aria-label={t('close')}>
              {t('close')}
            </Button>
          </div>
          <div className="dialog-body">{children}</div>
          {actions && <div className="dialog-actions">{actions}</div>}
        </>
      )}
    </dialog>
  );
}
