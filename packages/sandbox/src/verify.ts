import type { VerifyRequest } from '@verify-kit/client';
import type { SubmittedDocument } from './documents.js';

export interface VerifySubject {
  email?: string | undefined;
  phoneNumber?: string | undefined;
  document?: SubmittedDocument | undefined;
}

const digits = (v: string) => v.replace(/\D/g, '');
const compact = (v: string) => v.replace(/\s+/g, '').toUpperCase();

/** docs/architecture.md, decision 9; the value's shape was already checked by VerifyRequestSchema. */
export function verifyValue(subject: VerifySubject, request: VerifyRequest): boolean {
  const doc = subject.document;
  // Nothing is verified before the person has shown a document.
  if (doc === undefined) return false;
  switch (request.type) {
    case 'CONTACT_EMAIL':
      return (
        subject.email !== undefined &&
        subject.email.trim().toLowerCase() === request.value.trim().toLowerCase()
      );
    case 'CONTACT_PHONE':
      return subject.phoneNumber !== undefined && digits(subject.phoneNumber) === digits(request.value);
    case 'DOCUMENT_NUMBER':
      return compact(doc.number) === compact(request.value);
    case 'DOCUMENT_TYPE':
      return doc.type === request.value;
    case 'DOCUMENT_COUNTRY':
      return doc.country === request.value.toUpperCase();
    default:
      return false;
  }
}
