import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';

export interface SegmentedOption<T extends string | number> {
  value: T;
  label: ReactNode;
}

/**
 * A short choice shown whole (two to seven options): one click to change, arrow keys move between options, as a
 * radio group. Screens that open often use it instead of <select>: Chromium's autofill answers every <select> that
 * appears with a task that forces a full style and layout (5–15 ms on the review workspace) before the next frame.
 * Where its options do not fit on one line (a narrow panel, long Spanish labels) they are drawn as separate buttons
 * that wrap, rather than a joined bar broken across lines.
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
  const group = useRef<HTMLDivElement>(null);
  const wrapped = useWrapped(group, options.map((option) => String(option.value)).join('\u0000'));
  return (
    <div className="segmented-field" data-testid={testId}>
      <span id={`${id}-label`} className={hideLabel ? 'visually-hidden' : 'segmented-label'}>
        {label}
      </span>
      <div
        ref={group}
        className={wrapped ? 'segmented segmented-wrapped' : 'segmented'}
        role="radiogroup"
        aria-labelledby={`${id}-label`}
      >
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

/**
 * Whether the options, joined on one line, are wider than the group may be. Read when the group or an option
 * changes size (a window, a panel, a language), after the browser's own layout: nothing is measured while rendering,
 * and a group that fits, the usual case, renders once.
 */
function useWrapped(group: RefObject<HTMLDivElement | null>, values: string): boolean {
  const [wrapped, setWrapped] = useState(false);
  useEffect(() => {
    const el = group.current;
    if (!el || typeof ResizeObserver === 'undefined') return undefined;
    const faces = [...el.querySelectorAll<HTMLElement>(':scope > .segmented-option > span')];
    const measure = () => {
      // Joined, each option overlaps the one before it by its 1 px border.
      const joined = faces.reduce((sum, face) => sum + face.getBoundingClientRect().width, 0) - (faces.length - 1);
      setWrapped(joined > el.getBoundingClientRect().width + 0.5);
    };
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    for (const face of faces) observer.observe(face);
    return () => observer.disconnect();
  }, [group, values]);
  return wrapped;
}
