import { join } from 'node:path';
import { sql } from 'kysely';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { ENGINES, engineFactory } from '../../helpers/record-engines';

/** Each table and column as `table.column`, marked `?` where it may be null. */
type Shape = string[];

/**
 * What `main/record/schema.ts` says a select reads: each table of `RecordDatabase`, each column, and whether its
 * selected type admits null (Kysely's `ColumnType<Select, Insert, Update>` and `Generated` unwrapped).
 */
function declaredShape(): Shape {
  const file = join(import.meta.dirname, '../../../main/record/schema.ts');
  const program = ts.createProgram([file], { strict: true, noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const database = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'RecordDatabase',
  )!;
  const shape: Shape = [];
  for (const table of checker.getTypeAtLocation(database).getProperties()) {
    const tableType = checker.getTypeOfSymbolAtLocation(table, database);
    for (const column of tableType.getProperties()) {
      let type = checker.getTypeOfSymbolAtLocation(column, database);
      const selected = type.getProperty('__select__');
      if (selected) type = checker.getTypeOfSymbolAtLocation(selected, database);
      const parts = type.isUnion() ? type.types : [type];
      // `unknown` and `any` admit null too: a column declared so must be nullable in the database.
      const nullable = parts.some(
        (t) => (t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Unknown | ts.TypeFlags.Any)) !== 0,
      );
      shape.push(`${table.name}.${column.name}${nullable ? '?' : ''}`);
    }
  }
  return shape.sort();
}

describe.each(ENGINES)('schema.ts against the tables on the %s engine', (kind) => {
  const engines = engineFactory(kind);
  afterAll(() => engines.dispose());

  it('names every table and column the migrations make, each nullable exactly where the database lets it be', async () => {
    const record = await engines.open();
    const { rows } = await sql<{ table_name: string; column_name: string; is_nullable: 'YES' | 'NO' }>`
      select table_name, column_name, is_nullable from information_schema.columns
      where table_schema = 'public' and table_name not like 'kysely_migration%'`.execute(record.db);
    const actual = rows.map((r) => `${r.table_name}.${r.column_name}${r.is_nullable === 'YES' ? '?' : ''}`).sort();
    expect(declaredShape()).toEqual(actual);
  }, 60_000);
});
