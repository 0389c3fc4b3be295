import type { Page } from '@playwright/test';
import { expect, test, type ShellFixture } from './fixtures';
import { expectAxeClean, goTo } from './review-helpers';

/**
 * Bad input gets a clear error where it enters, in the screen's language, and nothing crashes (red team 20c findings
 * 3, 4, 5 and 7; UX review H4): the queue's search, the team database's CA certificate, the ids and tokens of "Add
 * interviews", the queue's CSV file, and a saved view's name.
 */

const SHOTS = '.tmp/uxfix-input';
const LANGUAGES = ['es', 'en'] as const;
type Language = (typeof LANGUAGES)[number];
const say = <T extends string | RegExp>(language: Language, es: T, en: T): T => (language === 'es' ? es : en);

async function inLanguage(page: Page, shell: ShellFixture, l: Language) {
  await shell.ipc('settings.setPreferences', { language: l });
  await page.reload();
}

/** The IPC calls the page makes on `channel` from now on (the web shell batches them as JSON to /ipc). */
function callsTo(page: Page, channel: string): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const body = request.postData();
    if (request.method() === 'POST' && body?.includes(`"${channel}"`)) seen.push(body);
  });
  return seen;
}

for (const l of LANGUAGES)
  test(`${l}: a search longer than the queue takes is held to its limit, and a refused one is said under the search, which stays`, async ({
    page,
    shell,
  }) => {
    await inLanguage(page, shell, l);
    await goTo(page, '/interviews');
    const search = page.getByRole('searchbox', { name: say(l, 'Buscar', 'Search') });
    const rows = page.getByTestId('queue-row');
    await expect(rows.first()).toBeVisible();
    // The field holds what main takes.
    await search.fill('x'.repeat(350));
    await expect(search).toHaveValue('x'.repeat(300));
    await expect(page.getByText('INVALID_INPUT')).toHaveCount(0);
    await expect(search).toBeVisible();

    // A search main still refuses (one kept from before the field had its limit): said under the search, which stays
    // there to be corrected; the rows' panel says why it shows none, with no error notice in place of the queue.
    await search.evaluate((input) => input.removeAttribute('maxlength'));
    await search.fill('y'.repeat(350));
    const error = page.getByTestId('queue-search-error');
    await expect(error).toHaveText(
      say(l, 'La búsqueda admite hasta 300 caracteres', 'A search has at most 300 characters'),
    );
    await expect(search).toHaveAttribute('aria-invalid', 'true');
    await expect(search).toHaveAttribute('aria-describedby', 'queue-search-error');
    await expect(
      page.getByText(
        say(
          l,
          'La bandeja se vuelve a mostrar cuando corrijas la búsqueda de arriba.',
          'The queue shows again once the search above is corrected.',
        ),
      ),
    ).toBeVisible();
    await expect(page.getByText('INVALID_INPUT')).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/queue-search-refused-${l}.png` });
    await expectAxeClean(page);

    // Corrected in place: the rows come back, without a reload.
    await search.fill('demo-clean');
    await expect(error).toHaveCount(0);
    await expect(search).not.toHaveAttribute('aria-invalid');
    await expect(rows.filter({ hasText: 'demo-clean-pass' })).toBeVisible();
  });

for (const l of LANGUAGES)
  test(`${l}: a CA certificate main refuses is said under the CA field`, async ({ page, shell }) => {
    await inLanguage(page, shell, l);
    await page
      .getByRole('navigation')
      .getByRole('link', { name: /^(Settings|Configuración)/ })
      .click();
    const panel = page.getByTestId('team-database');
    await panel.scrollIntoViewIfNeeded();
    await panel.getByRole('textbox', { name: 'Host', exact: true }).fill('db.example.mx');
    await panel.getByRole('textbox', { name: say(l, 'Base de datos', 'Database'), exact: true }).fill('equipo');
    await panel
      .getByRole('textbox', { name: say(l, 'Tu usuario de base de datos', 'Your database user'), exact: true })
      .fill('analista');
    // The base64 body alone, without its BEGIN line: an easy mistake.
    const ca = panel.getByLabel(say(l, 'Certificado de la CA', 'CA certificate'));
    await ca.fill('MIIBszCCAVmgAwIBAgIUQ0VSVElGSUNBRE8gREUgUFJVRUJB');
    await panel.getByRole('button', { name: say(l, 'Guardar la dirección', 'Save the address') }).click();
    await expect(ca).toHaveAttribute('aria-invalid', 'true');
    const reason = say(
      l,
      'Pega el certificado completo, desde su línea -----BEGIN CERTIFICATE-----',
      'Paste the whole certificate, from its -----BEGIN CERTIFICATE----- line',
    );
    await expect(panel.locator('#team-ca-error')).toHaveText(reason);
    await expect(ca).toHaveAttribute('aria-describedby', 'team-ca-error');
    // Nothing was saved, and the page did not say it was.
    await expect(panel.getByRole('status')).toHaveCount(0);
    await panel.screenshot({ path: `${SHOTS}/team-ca-refused-${l}.png` });
  });

for (const l of LANGUAGES)
  test(`${l}: Add interviews checks the id and the token with main's rules, says the rule up front and why at the field`, async ({
    page,
    shell,
  }) => {
    await inLanguage(page, shell, l);
    await goTo(page, '/interviews');
    await page.getByTestId('queue-add-toggle').click();
    const id = page.getByLabel(say(l, 'Id de entrevista o enlace', 'Interview id or link'));
    const token = page.getByLabel(say(l, 'Token de sesión (opcional)', 'Session token (optional)'));
    // The rules, before anything is typed.
    await expect(id).toHaveAccessibleDescription(
      say(
        l,
        'Solo letras, números y . _ : -, sin espacios; o un enlace omni-reviewer://interview/…',
        'Letters, digits and . _ : - only, no spaces; or an omni-reviewer://interview/… link.',
      ),
    );
    await expect(token).toHaveAccessibleDescription(
      say(l, /^Al menos 8 caracteres, sin espacios\./, /^At least 8 characters, no spaces\./),
    );
    const adds = callsTo(page, 'queue.add');

    await id.fill('caso 2024/17');
    await token.fill('abc');
    await page.getByRole('button', { name: say(l, 'Agregar a la bandeja', 'Add to queue') }).click();
    const idReason = say(
      l,
      'Un id de entrevista lleva solo letras, números y . _ : -, empieza con letra o número y no tiene espacios',
      'Interview ids use letters, digits and . _ : - only, starting with a letter or digit, without spaces',
    );
    await expect(id).toHaveAttribute('aria-invalid', 'true');
    await expect(id).toHaveAccessibleDescription(new RegExp(`${escape(idReason)}$`));
    await expect(id).toBeFocused();
    await expect(token).toHaveAttribute('aria-invalid', 'true');
    await expect(token).toHaveAccessibleDescription(
      new RegExp(
        `${escape(say(l, 'Un token de sesión tiene al menos 8 caracteres', 'A session token has at least 8 characters'))}$`,
      ),
    );
    await expect(page.getByText('INVALID_INPUT')).toHaveCount(0);
    await page.locator('#queue-add').screenshot({ path: `${SHOTS}/add-id-token-refused-${l}.png` });
    await expectAxeClean(page);
    expect(adds, 'nothing was sent').toEqual([]);

    // Corrected, the reasons go as it is typed, and it is added.
    await id.fill('caso-2024-17');
    await expect(id).not.toHaveAttribute('aria-invalid');
    await token.fill('tok-abcdefgh');
    await expect(token).not.toHaveAttribute('aria-invalid');
    await page.getByRole('button', { name: say(l, 'Agregar a la bandeja', 'Add to queue') }).click();
    await expect
      .poll(async () => (await shell.ipc<{ interviewId: string }[]>('queue.list')).map((e) => e.interviewId))
      .toContain('caso-2024-17');
  });

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201' +
    'a5f7d1b90000000049454e44ae426082',
  'hex',
);

for (const l of LANGUAGES)
  test(`${l}: the queue's CSV file is checked before it is read or sent: too large, or not text`, async ({
    page,
    shell,
  }) => {
    await inLanguage(page, shell, l);
    await goTo(page, '/interviews');
    await page.getByTestId('queue-add-toggle').click();
    await page
      .getByText(say(l, 'Importar una lista pegada o un archivo CSV', 'Import a pasted list or a CSV file'))
      .click();
    const file = page.getByLabel(say(l, 'Archivo CSV', 'CSV file'));
    await expect(file).toHaveAccessibleDescription(say(l, /hasta 2,000,000 caracteres/, /up to 2,000,000 characters/));
    const imports = callsTo(page, 'queue.importText');
    const error = page.locator('.queue-csv .field-error');

    // An image renamed .csv.
    await file.setInputFiles({ name: 'foto.csv', mimeType: 'text/csv', buffer: PNG });
    await expect(error).toContainText(
      say(
        l,
        'foto.csv no es un archivo de texto (¿es una imagen o una hoja de cálculo?)',
        'foto.csv is not a text file (is it an image or a spreadsheet?)',
      ),
    );
    await expect(file).toHaveAttribute('aria-invalid', 'true');
    await page.locator('#queue-add').screenshot({ path: `${SHOTS}/csv-not-text-${l}.png` });
    await expectAxeClean(page);

    // Larger than the import takes: 2.5 million characters.
    const long = `interviewId\n${'demo-clean-pass\n'.repeat(160_000)}`;
    await file.setInputFiles({ name: 'bandeja.csv', mimeType: 'text/csv', buffer: Buffer.from(long) });
    await expect(error).toContainText(
      say(
        l,
        `bandeja.csv tiene ${long.length.toLocaleString('es-MX')} caracteres; aquí caben hasta 2,000,000.`,
        `bandeja.csv has ${long.length.toLocaleString('en-US')} characters; this takes up to 2,000,000.`,
      ),
    );
    // So large it is not read at all: said by its size.
    await file.setInputFiles({ name: 'enorme.csv', mimeType: 'text/csv', buffer: Buffer.alloc(6_500_000, 0x61) });
    await expect(error).toContainText(
      say(l, 'enorme.csv pesa 6.2 MB: es demasiado grande', 'enorme.csv is 6.2 MB: too large'),
    );
    await page.locator('#queue-add').screenshot({ path: `${SHOTS}/csv-too-large-${l}.png` });
    expect(imports, 'nothing was sent').toEqual([]);
    await expect(page.getByText('INVALID_INPUT')).toHaveCount(0);

    // A good file goes through, and the notice goes with the next pick.
    await file.setInputFiles({ name: 'ok.csv', mimeType: 'text/csv', buffer: Buffer.from('interviewId\ncsv-ok-1\n') });
    await expect(error).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: say(l, '1 agregadas', '1 added') })).toBeVisible();
    expect((await shell.ipc<{ interviewId: string }[]>('queue.list')).map((e) => e.interviewId)).toContain('csv-ok-1');
  });

for (const l of LANGUAGES)
  test(`${l}: a view name of invisible characters only is refused at the name field`, async ({ page, shell }) => {
    await inLanguage(page, shell, l);
    await goTo(page, '/interviews');
    await page.getByLabel(say(l, 'Riesgo', 'Risk'), { exact: true }).selectOption('high');
    await page.getByRole('button', { name: say(l, 'Guardar vista…', 'Save view…') }).click();
    const name = page.getByLabel(say(l, 'Nombre de la vista', 'Name of the view'));
    await name.fill('\u200b\u200b\u200b');
    await page.getByRole('button', { name: say(l, 'Guardar vista', 'Save view'), exact: true }).click();
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(name).toHaveAccessibleDescription(
      say(
        l,
        /^El nombre de la vista necesita al menos un carácter visible/,
        /^A view name needs at least one visible character/,
      ),
    );
    await page.locator('.queue-save-view').screenshot({ path: `${SHOTS}/view-name-invisible-${l}.png` });
    expect(await shell.ipc('queue.views', {})).toEqual([]);
    // main refuses it too, in both languages.
    const refused = await shell
      .ipc('queue.saveView', {
        name: '\u200b\u200b',
        shared: false,
        query: { filter: { state: 'all', status: 'all' }, sort: 'added', search: '' },
      })
      .then(
        () => 'saved',
        (e: Error) => e.message,
      );
    expect(refused).toContain('INVALID_INPUT');

    await name.fill('Alto riesgo');
    await expect(name).not.toHaveAttribute('aria-invalid');
    await page.getByRole('button', { name: say(l, 'Guardar vista', 'Save view'), exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Alto riesgo' })).toBeVisible();
  });

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
