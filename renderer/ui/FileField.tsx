import { useId, useState, type ReactNode } from 'react';
import { common } from '../i18n/common';
import { useFormat, useT } from '../i18n/index';
import { Button } from './Button';

export interface ChosenFile {
  name: string;
  size: number;
}

/**
 * A labelled file input whose words follow the app's language: the browser's own control says "Choose File" and
 * "No file chosen" in the browser's language. The input stays in the page, visually hidden, so labels, keyboard,
 * screen readers and tests use it as any file input; a button drawn from its label opens it, and the chosen file's
 * name and size show beside it.
 *
 * Shows the file last picked, or `file` when the caller holds it (then `onClear` offers to remove it). The input is
 * emptied after each pick, so picking the same file again is seen as a new pick.
 */
export function FileField({
  label,
  hint,
  error,
  accept,
  disabled,
  file,
  onFile,
  onClear,
  testId,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  accept?: string;
  disabled?: boolean;
  file?: ChosenFile | null;
  onFile: (file: File | undefined) => void;
  onClear?: () => void;
  testId?: string;
}) {
  const t = useT(common);
  const format = useFormat();
  const id = useId();
  const [picked, setPicked] = useState<ChosenFile | null>(null);
  const shown = file === undefined ? picked : file;
  return (
    <div className="field file-field">
      <span className="field-label" id={`${id}-label`}>
        {label}
      </span>
      <div className="file-field-row">
        {/* aria-labelledby, so the button's words do not join the field's name. */}
        <input
          id={id}
          type="file"
          className="visually-hidden"
          accept={accept}
          disabled={disabled}
          aria-labelledby={`${id}-label`}
          aria-describedby={[`${id}-name`, hint ? `${id}-hint` : '', error ? `${id}-error` : '']
            .filter(Boolean)
            .join(' ')}
          aria-invalid={error ? true : undefined}
          onChange={(e) => {
            const chosen = e.target.files?.[0];
            e.target.value = '';
            setPicked(chosen ? { name: chosen.name, size: chosen.size } : null);
            onFile(chosen);
          }}
        />
        <label htmlFor={id} className="btn" aria-hidden="true">
          {shown ? t('fileChooseAnother') : t('fileChoose')}
        </label>
        <span className={shown ? 'mono small' : 'small muted'} id={`${id}-name`} data-testid={testId}>
          {shown ? `${shown.name} · ${format.bytes(shown.size)}` : t('fileNone')}
        </span>
        {shown && onClear && (
          <Button
            variant="link"
            disabled={disabled}
            onClick={() => {
              setPicked(null);
              onClear();
            }}
          >
            {t('fileRemove')}
          </Button>
        )}
      </div>
      {hint && (
        <span id={`${id}-hint`} className="hint">
          {hint}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} className="field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
