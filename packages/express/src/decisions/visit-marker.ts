import type { Request } from 'express';

/** What express-session keeps of a visit: no status, only whose visit it is and when it was last seen. */
export interface VisitMarker {
  identificationId: string;
  accountId: string | null;
  /** Epoch ms of a gated request of the visit, refreshed at most every visitIdleMs / 10. */
  seenAt: number;
}

/** The session key of the visit marker (session rotation does not carry it over). */
export const VISIT_KEY = 'verifyKitVisit';

export type VisitSession = Record<string, unknown>;

export function visitSessionOf(req: Request): VisitSession | undefined {
  const session = (req as Request & { session?: unknown }).session;
  return typeof session === 'object' && session !== null ? (session as unknown as VisitSession) : undefined;
}

export function markerOf(session: VisitSession | undefined): VisitMarker | undefined {
  const marker = session?.[VISIT_KEY] as Partial<VisitMarker> | undefined;
  if (typeof marker !== 'object' || marker === null) return undefined;
  const { identificationId, accountId, seenAt } = marker;
  if (typeof identificationId !== 'string' || typeof seenAt !== 'number') return undefined;
  if (accountId !== null && typeof accountId !== 'string') return undefined;
  return { identificationId, accountId, seenAt };
}
