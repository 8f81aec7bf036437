// CONTRACT STUB: the client helper replaces the bodies; the signatures are the contract.
import type { ApprovalCriterion } from './schemas.js';

/** Document fields keyed by criterion type, e.g. { DOCUMENT_OWNER_NAME: 'ŞEYMA' }. */
export type DocumentFields = Partial<Record<string, string | undefined>>;

/** DESIGN.md decision 7: Turkish letters to Latin, NFD minus marks, lower case, white space collapsed. */
export function normalizeForMatch(_value: string): string {
  throw new Error('not implemented');
}

/** true when the document field meets the criterion; a missing field never meets one. */
export function matchCriterion(_criterion: ApprovalCriterion, _documentFields: DocumentFields): boolean {
  throw new Error('not implemented');
}
