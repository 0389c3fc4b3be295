/** Bundles main/web-shell/cli.ts into OUT_DIR/cli.mjs for plain `node`; resolves to its absolute path. */
export function buildWebShell(outDir: string): Promise<string>;
