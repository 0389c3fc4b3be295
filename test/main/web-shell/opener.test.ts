import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openerFile, openThroughPrivateFile } from '../../../main/web-shell/index';

/**
 * The web shell opens the system browser through a file only its user reads: a command line is readable by other
 * local users (/proc/<pid>/cmdline), who could take the one-time code from xdg-open's or the browser's and have the
 * per-launch key before the user's browser does.
 */
let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the web shell’s opener', () => {
  it('puts the one-time address in a file of mode 0600 and only the file’s path on the command line', () => {
    dir = mkdtempSync(join(tmpdir(), 'omni-opener-'));
    const oneTime = 'http://127.0.0.1:5173/open?code=Zm9yLXRoZS1icm93c2VyLW9ubHk';
    const opened: string[] = [];
    expect(openThroughPrivateFile(dir, oneTime, (url) => opened.push(url) > 0)).toBe(true);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatch(/^file:\/\//);
    expect(opened[0]).not.toContain('code=');
    const file = fileURLToPath(opened[0]!);
    expect(file).toBe(openerFile(dir));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain(`<meta http-equiv="refresh" content="0;url=${oneTime}">`);
    // The next start writes its own, with a new code.
    openThroughPrivateFile(dir, `${oneTime}-next`, () => true);
    expect(readFileSync(file, 'utf8')).toContain('-next');
  });
});
