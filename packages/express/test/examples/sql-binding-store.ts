import { bindingExpiresAt, type RecordStore, statusRecordExpiresAt } from '@verify-kit/express';

/** Your database: `get` answers the row or undefined, `run` how many rows it changed. */
export interface Sql {
  get(sql: string, params: unknown[]): Promise<{ value: string } | undefined>;
  run(sql: string, params: unknown[]): Promise<number>;
}

// CREATE TABLE verify_kit (key TEXT PRIMARY KEY, value TEXT NOT NULL, status TEXT, at BIGINT, expires_at BIGINT NOT NULL);
// Every row expires: a row past expires_at is never answered; a job deletes them now and then:
// DELETE FROM verify_kit WHERE expires_at <= <now in epoch ms>
export function createSqlStore(db: Sql): RecordStore {
  const read = async (key: string) => {
    const row = await db.get('SELECT value FROM verify_kit WHERE key = ? AND expires_at > ?', [
      key,
      Date.now(),
    ]);
    return row === undefined ? undefined : JSON.parse(row.value);
  };
  const upsert =
    'INSERT INTO verify_kit (key, value, expires_at) VALUES (?, ?, ?) ' +
    'ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at';
  const remove = async (key: string) => void (await db.run('DELETE FROM verify_kit WHERE key = ?', [key]));
  return {
    bindings: {
      get: (accountId) => read(`account:${accountId}`),
      set: async (accountId, binding) =>
        void (await db.run(upsert, [
          `account:${accountId}`,
          JSON.stringify(binding),
          bindingExpiresAt(binding),
        ])),
      delete: (accountId) => remove(`account:${accountId}`),
    },
    statusRecords: {
      get: (identificationId) => read(`status:${identificationId}`),
      async compareAndSet(identificationId, expected, next) {
        const row = [JSON.stringify(next), next.status, statusRecordExpiresAt(next)];
        const key = `status:${identificationId}`;
        // An expired row counts as no row.
        const changed =
          expected === undefined
            ? await db.run(
                'INSERT INTO verify_kit (value, status, expires_at, key) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE ' +
                  'SET value = excluded.value, status = excluded.status, expires_at = excluded.expires_at ' +
                  'WHERE verify_kit.expires_at <= ?',
                [...row, key, Date.now()],
              )
            : await db.run(
                'UPDATE verify_kit SET value = ?, status = ?, expires_at = ? WHERE key = ? AND status = ? AND expires_at > ?',
                [...row, key, expected, Date.now()],
              );
        return changed === 1;
      },
      delete: (identificationId) => remove(`status:${identificationId}`),
    },
    decisions: {
      get: (identificationId) => read(`decision:${identificationId}`),
      async put(identificationId, next, ttlMs) {
        // The later `at` wins; an expired row counts as no row.
        const changed = await db.run(
          'INSERT INTO verify_kit (key, value, at, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE ' +
            'SET value = excluded.value, at = excluded.at, expires_at = excluded.expires_at ' +
            'WHERE verify_kit.at <= excluded.at OR verify_kit.expires_at <= ?',
          [`decision:${identificationId}`, JSON.stringify(next), next.at, Date.now() + ttlMs, Date.now()],
        );
        return changed === 1;
      },
      delete: (identificationId) => remove(`decision:${identificationId}`),
    },
  };
}
