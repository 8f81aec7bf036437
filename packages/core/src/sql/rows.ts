import { parseBinding, type VerificationBinding } from '../bindings/binding.js';
import type { StatusRecord, StoredDecision } from '../bindings/binding-store.js';
import type { SqlRow } from './driver.js';

// A row's JSON is data from outside the process: checked before use. A record is answered whole, as
// it was written (the kit may add optional fields): only the fields the kit relies on are checked.

function jsonOf(rows: readonly SqlRow[]): Record<string, unknown> | undefined {
  const value = rows[0]?.value;
  if (typeof value !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export function bindingOf(rows: readonly SqlRow[]): VerificationBinding | undefined {
  const json = jsonOf(rows);
  return json === undefined ? undefined : parseBinding(json);
}

export function statusRecordOf(rows: readonly SqlRow[]): StatusRecord | undefined {
  const record = jsonOf(rows);
  return typeof record?.status === 'string' && typeof record.observedAt === 'number'
    ? (record as unknown as StatusRecord)
    : undefined;
}

export function decisionOf(rows: readonly SqlRow[]): StoredDecision | undefined {
  const decision = jsonOf(rows);
  if (decision === undefined) return undefined;
  const { status, at, source, reReadAfterMs } = decision;
  if (status !== null && typeof status !== 'string') return undefined;
  if (typeof at !== 'number' || (source !== 'read' && source !== 'webhook')) return undefined;
  if (reReadAfterMs !== undefined && typeof reReadAfterMs !== 'number') return undefined;
  return decision as unknown as StoredDecision;
}
