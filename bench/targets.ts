/**
 * What a figure should be, declared beside the bench that measures it (`export const targets`), so that
 * `npm run bench` says for each figure whether this machine met it. Missing a target is reported, not an error:
 * the figures are ratios on a noisy machine, read by people.
 */
export type Target = { atMost: number } | { under: number } | { atLeast: number } | { exactly: number };
export type Targets = Record<string, Target>;

export function meets(value: number, target: Target): boolean {
  if ('atMost' in target) return value <= target.atMost;
  if ('under' in target) return value < target.under;
  if ('atLeast' in target) return value >= target.atLeast;
  return value === target.exactly;
}

export function describeTarget(target: Target): string {
  if ('atMost' in target) return `≤ ${target.atMost}`;
  if ('under' in target) return `< ${target.under}`;
  if ('atLeast' in target) return `≥ ${target.atLeast}`;
  return `= ${target.exactly}`;
}

export interface Verdict {
  lines: string[];
  met: number;
  missed: number;
  /** Targets that name a figure no bench reported: a typo or a figure that was renamed. */
  orphans: string[];
}

/** One line per figure (`name: value`, and its target with met or missed when it has one), then the tally. */
export function judge(figures: Record<string, number>, targets: Targets, format: (value: number) => string): Verdict {
  const verdict: Verdict = {
    lines: [],
    met: 0,
    missed: 0,
    orphans: Object.keys(targets).filter((name) => !(name in figures)),
  };
  for (const [name, value] of Object.entries(figures)) {
    const target = targets[name];
    if (!target) {
      verdict.lines.push(`${name}: ${format(value)}`);
      continue;
    }
    const ok = meets(value, target);
    if (ok) verdict.met++;
    else verdict.missed++;
    verdict.lines.push(`${name}: ${format(value)}  (target ${describeTarget(target)}: ${ok ? 'met' : 'MISSED'})`);
  }
  return verdict;
}
