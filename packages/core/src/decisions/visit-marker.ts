import type { VisitMarker } from '../bindings/kit-request.js';

export type { VisitMarker };

/** The session key of the visit marker in express-session (session rotation does not carry it over). */
export const VISIT_KEY = 'verifyKitVisit';

export type VisitSession = Record<string, unknown>;

/** A visit marker read from a session (outside data): the marker, or undefined when it is not one. */
export function markerOf(session: VisitSession | undefined): VisitMarker | undefined {
  const marker = session?.[VISIT_KEY] as Partial<VisitMarker> | undefined;
  if (typeof marker !== 'object' || marker === null) return undefined;
  const { identificationId, accountId, seenAt } = marker;
  if (typeof identificationId !== 'string' || typeof seenAt !== 'number') return undefined;
  if (accountId !== null && typeof accountId !== 'string') return undefined;
  return { identificationId, accountId, seenAt };
}
