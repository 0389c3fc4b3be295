import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layering of docs/architecture.md, checked on the real import graph (type imports included): common/ at the
 * bottom, main and the renderer on top of it, the preload only a bridge; no circle anywhere.
 */
const root = join(import.meta.dirname, '../..');
const layers = ['common', 'main', 'preload', 'renderer'] as const;
type Layer = (typeof layers)[number];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'fixtures' ? [] : sourceFiles(path);
    // Build configs (renderer/vite.config.ts) run in Node at build time, outside every process.
    return /\.(ts|tsx)$/.test(name) && !/\.(d|config)\.ts$/.test(name) ? [path] : [];
  });
}

const specifierPattern = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

function resolveRelative(from: string, specifier: string, known: Set<string>): string | undefined {
  const base = join(dirname(from), specifier);
  return ['', '.ts', '.tsx', '/index.ts', '/index.tsx']
    .map((ext) => base + ext)
    .find((candidate) => known.has(candidate));
}

const files = layers.flatMap((layer) => sourceFiles(join(root, layer)));
const known = new Set(files);
const graph = new Map<string, { relative: string[]; bare: string[] }>(
  files.map((file) => {
    const specifiers = [...readFileSync(file, 'utf8').matchAll(specifierPattern)].map((m) => m[1]!);
    return [
      file,
      {
        relative: specifiers.filter((s) => s.startsWith('.')).flatMap((s) => resolveRelative(file, s, known) ?? []),
        bare: specifiers.filter((s) => !s.startsWith('.')),
      },
    ];
  }),
);
const layerOf = (file: string): Layer => relative(root, file).split('/')[0] as Layer;
const show = (file: string) => relative(root, file);

function importsAcross(from: Layer, to: Layer): string[] {
  return [...graph].flatMap(([file, { relative: targets }]) =>
    layerOf(file) === from ? targets.filter((t) => layerOf(t) === to).map((t) => `${show(file)} -> ${show(t)}`) : [],
  );
}

describe('the import graph', () => {
  it('reads the whole tree (a broken scan would pass every check below)', () => {
    expect(files.length).toBeGreaterThan(150);
    expect(importsAcross('main', 'common').length).toBeGreaterThan(20);
    expect(importsAcross('renderer', 'common').length).toBeGreaterThan(20);
  });

  it('has no import from renderer/ or preload/ into main/', () => {
    expect([...importsAcross('renderer', 'main'), ...importsAcross('preload', 'main')]).toEqual([]);
  });

  it('has no import from common/ outward, and common/ uses neither Node nor Electron', () => {
    const outward = layers.filter((l) => l !== 'common').flatMap((to) => importsAcross('common', to));
    const platform = [...graph].flatMap(([file, { bare }]) =>
      layerOf(file) === 'common'
        ? bare.filter((s) => s.startsWith('node:') || s === 'electron').map((s) => `${show(file)} -> ${s}`)
        : [],
    );
    expect([...outward, ...platform]).toEqual([]);
  });

  it('keeps the renderer off the preload and off Node and Electron', () => {
    const platform = [...graph].flatMap(([file, { bare }]) =>
      layerOf(file) === 'renderer'
        ? bare.filter((s) => s.startsWith('node:') || s === 'electron').map((s) => `${show(file)} -> ${s}`)
        : [],
    );
    expect([...importsAcross('renderer', 'preload'), ...platform]).toEqual([]);
  });

  it('has no circle', () => {
    // Tarjan's strongly connected components: any component of more than one file is a circle.
    let index = 0;
    const indexOf = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const circles: string[][] = [];
    const visit = (file: string) => {
      indexOf.set(file, index);
      low.set(file, index);
      index += 1;
      stack.push(file);
      onStack.add(file);
      for (const next of graph.get(file)!.relative) {
        if (!indexOf.has(next)) {
          visit(next);
          low.set(file, Math.min(low.get(file)!, low.get(next)!));
        } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, indexOf.get(next)!));
      }
      if (low.get(file) === indexOf.get(file)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(show(member));
        } while (member !== file);
        if (component.length > 1) circles.push(component.sort());
      }
    };
    for (const file of files) if (!indexOf.has(file)) visit(file);
    expect(circles).toEqual([]);
  });
});
