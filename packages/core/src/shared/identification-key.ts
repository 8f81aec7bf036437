/**
 * The one rule for comparing identification ids: without regard to ASCII letter case. The service's
 * ids are UUIDs (spec: identificationId, string (UUID)), and a UUID names the same identification in
 * either case (RFC 9562), so a webhook that spells it in capitals is about the same identification.
 * Every map, cache, store key and bus message of the kit is keyed by `identificationKey(id)`; calls
 * to the service keep the id as the service gave it at creation. Only ASCII A–Z fold: no other
 * character of an id is changed, so two ids that differ otherwise never meet.
 */
export function identificationKey(identificationId: string): string {
  return identificationId.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** true when both ids name the same identification under that rule. */
export function sameIdentification(a: string, b: string): boolean {
  return a === b || identificationKey(a) === identificationKey(b);
}
