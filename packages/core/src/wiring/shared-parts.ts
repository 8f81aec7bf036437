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

/**
 * What a kit says once at startup of how it shares its state: a Redis given for the limits that this
 * server does not count in (`countsInMemory`: the shell brought no counter of its own), and the
 * parts kept per process beside shared ones (perProcessParts).
 */
export function sharingWarnings(options: ResolvedOptions, countsInMemory: boolean): string[] {
  const warnings: string[] = [];
  const counted = [options.sessionLimit !== false && options.sessionLimit.redis, options.readBudget.redis];
  if (countsInMemory && counted.some((redis) => redis !== undefined && redis !== false)) {
    warnings.push(
      'limits: this server counts in its own memory only; a Redis client given for the limits is not used here (each instance counts alone)',
    );
  }
  const perProcess = perProcessParts(options);
  if (perProcess.length > 0) {
    warnings.push(
      `some of the kit's state is shared between instances and some is not: ${perProcess.join(', ')}: each instance keeps its own (share them too, or each counts and hears for one instance alone)${storeLacks(options, perProcess)}`,
    );
  }
  return warnings;
}

/**
 * What `store` does not hold of the per-process parts, and where they go: a SQL store (or one of
 * your own) holds records and webhook ids, not the status bus nor the limits' counters.
 */
function storeLacks(options: ResolvedOptions, perProcess: string[]): string {
  const { store } = options;
  if (store === undefined) return '';
  const lacks = [
    ...(store.statusBus === undefined && perProcess.includes('statusBus')
      ? ['the status bus (statusBus: createRedisStatusBus(...))']
      : []),
    ...(store.counts === undefined && perProcess.some((part) => part.includes('.redis'))
      ? ['the counters (sessionLimit: { redis }, sendLink: { redis }: a node-redis client)']
      : []),
  ];
  return lacks.length === 0
    ? ''
    : `; the store does not hold ${lacks.join(' nor ')}: give those parts their own options to share them`;
}
