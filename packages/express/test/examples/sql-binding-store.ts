import type { BindingStore } from '@verify-kit/express';

/** Your database: `get` answers the row or undefined, `run` how many rows it changed. */
export interface Sql {
  get(sql: string, params: unknown[]): Promise<{ value: string } | undefined>;
  run(sql: string, params: unknown[]): Promise<number>;
}

// CREATE TABLE verify_kit (key TEXT PRIMARY KEY, value TEXT NOT NULL, status TEXT);
export function createSqlBindingStore(db: Sql): BindingStore {
  const read = async (key: string) => {
    const row = await db.get('SELECT value FROM verify_kit WHERE key = ?', [key]);
    return row === undefined ? undefined : JSON.parse(row.value);
  };
  const upsert =
    'INSERT INTO verify_kit (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value';
  const remove = async (key: string) => void (await db.run('DELETE FROM verify_kit WHERE key = ?', [key]));
  return {
    get: (accountId) => read(`account:${accountId}`),
    set: async (accountId, binding) =>
      void (await db.run(upsert, [`account:${accountId}`, JSON.stringify(binding)])),
    delete: (accountId) => remove(`account:${accountId}`),
    getStatus: (identificationId) => read(`status:${identificationId}`),
    async compareAndSetStatus(identificationId, expected, next) {
      const params = [JSON.stringify(next), next.status, `status:${identificationId}`];
      const changed =
        expected === undefined
          ? await db.run(
              'INSERT INTO verify_kit (value, status, key) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING',
              params,
            )
          : await db.run('UPDATE verify_kit SET value = ?, status = ? WHERE key = ? AND status = ?', [
              ...params,
              expected,
            ]);
      return changed === 1;
    },
    deleteStatus: (identificationId) => remove(`status:${identificationId}`),
  };
}
