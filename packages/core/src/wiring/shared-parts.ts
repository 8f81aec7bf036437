import { isPerProcessStore } from '../bindings/binding-store.js';
import type { ResolvedOptions } from './options.js';

/**
 * The parts of the kit's state that several instances must share to behave as one, and whether this
 * kit shares each. Given some shared and some per process, the per-process ones count or decide
 * for one instance only (three instances on one Redis without `sessionLimit.redis` let an address
 * create three times its limit): said once, at startup, naming them.
 */
export function perProcessParts(options: ResolvedOptions): string[] {
  const parts: Record<string, boolean> = {
    bindingStore: !isPerProcessStore(options.bindingStore),
    statusBus: options.statusBus !== undefined,
    replayStore: options.replayStore !== undefined,
    // Creation limits left to the app (sessionLimit: false) are neither.
    ...(options.sessionLimit === false
      ? {}
      : { 'sessionLimit.redis (creation limits)': options.sessionLimit.redis !== undefined }),
    'the read budget (counted in sessionLimit.redis)': options.readBudget.redis !== undefined,
    ...(options.sendLink === undefined ? {} : { 'sendLink.redis': options.sendLink.redis !== undefined }),
  };
  const shared = Object.values(parts).some(Boolean);
  return shared ? Object.keys(parts).filter((name) => !parts[name]) : [];
}
