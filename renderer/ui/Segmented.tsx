import { useId, type ReactNode } from 'react';

export interface SegmentedOption<T extends string | number> {
  value: T;
  label: ReactNode;
}

/**
 * A short choice shown whole (two to seven options): one click to change, arrow keys move between options, as a
 * radio group. Screens that open often use it instead of <select>: Chromium's autofill answers every <select> that
 * appears with a task that forces a full style and layout (5–15 ms on the review workspace) before the next frame.
 */
export function Segmented<T extends string | number>({
  label,
  value,
  options,
  onChange,
  hideLabel,
  testId,
}: {
  label: ReactNode;
  value: T;
  options: readonly SegmentedOption<T>[];
  onChange: (value: T) => void;
  /** The label is still read out, but not shown (where the context already says it). */
  hideLabel?: boolean;
  testId?: string;
}) {
  const id = useId();
  return (
    <div className="segmented-field" data-testid={testId}>
      <span id={`${id}-label`} className={hideLabel ? 'visually-hidden' : 'segmented-label'}>
        {label}
      </span>
      <div className="segmented" role="radiogroup" aria-labelledby={`${id}-label`}>
        {options.map((option) => (
          <label key={String(option.value)} className="segmented-option">
            <input
              type="radio"
              name={id}
              value={String(option.value)}
              checked={option.value === value}
              onChange={() => onChange(option.value)}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
    </div>
  );
}
