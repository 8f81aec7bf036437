import type { DocumentFields } from '@verify-kit/client';
import { z } from 'zod';

/**
 * What the reviewer does with a document in the sandbox (decision 2). `processing_error`: the
 * service could not process it (webhook `identification.failed`), and asks for it again.
 */
export const SCENARIOS = ['approve', 'manual_review', 'resubmit', 'reject', 'processing_error'] as const;
export type Scenario = (typeof SCENARIOS)[number];

/** Body of `POST /sandbox/sessions/:id/documents`: the document the person shows. */
export const DocumentSubmissionSchema = z.strictObject({
  type: z.enum(['I', 'P']),
  number: z.string().trim().min(1).max(64),
  personalNumber: z.string().trim().max(64).optional(),
  givenName: z.string().trim().min(1).max(128),
  surname: z.string().trim().min(1).max(128),
  country: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'country must be an ISO 3166-1 alpha-3 code')
    .transform((c) => c.toUpperCase()),
  scenario: z.enum(SCENARIOS).optional(),
});
export type DocumentSubmission = z.infer<typeof DocumentSubmissionSchema>;
export type SubmittedDocument = Omit<DocumentSubmission, 'scenario'>;

/** The document's fields keyed by criterion type, as matchCriterion reads them. */
export function documentFields(doc: SubmittedDocument): DocumentFields {
  return {
    DOCUMENT_NUMBER: doc.number,
    DOCUMENT_PERSONAL_NUMBER: doc.personalNumber,
    DOCUMENT_OWNER_NAME: doc.givenName,
    DOCUMENT_OWNER_SURNAME: doc.surname,
    DOCUMENT_TYPE: doc.type,
    DOCUMENT_COUNTRY: doc.country,
  };
}

export interface TestDocument {
  id: string;
  label: { en: string; tr: string };
  document: SubmittedDocument;
}

/** The documents the simulator offers; `GET /sandbox/test-documents` lists them. */
export const TEST_DOCUMENTS: readonly TestDocument[] = [
  {
    id: 'tr-id-card',
    label: { en: 'Turkish ID card — ŞEYMA IŞIK', tr: 'T.C. kimlik kartı — ŞEYMA IŞIK' },
    document: {
      type: 'I',
      number: 'A12F34567',
      personalNumber: '10000000146',
      givenName: 'ŞEYMA',
      surname: 'IŞIK',
      country: 'TUR',
    },
  },
  {
    id: 'tr-passport',
    label: { en: 'Turkish passport — ÇAĞRI ÖZTÜRK', tr: 'Türk pasaportu — ÇAĞRI ÖZTÜRK' },
    document: {
      type: 'P',
      number: 'U23456789',
      personalNumber: '10000000078',
      givenName: 'ÇAĞRI',
      surname: 'ÖZTÜRK',
      country: 'TUR',
    },
  },
  {
    id: 'de-passport',
    label: {
      en: 'German passport — ERIKA MUSTERMANN (country is not TUR)',
      tr: 'Alman pasaportu — ERIKA MUSTERMANN (ülke TUR değil)',
    },
    document: { type: 'P', number: 'C01X00T47', givenName: 'ERIKA', surname: 'MUSTERMANN', country: 'DEU' },
  },
  {
    id: 'tr-id-card-other-surname',
    label: {
      en: 'Turkish ID card — ŞEYMA YILMAZ (another surname)',
      tr: 'T.C. kimlik kartı — ŞEYMA YILMAZ (başka soyadı)',
    },
    document: {
      type: 'I',
      number: 'B98K76543',
      personalNumber: '10000000212',
      givenName: 'ŞEYMA',
      surname: 'YILMAZ',
      country: 'TUR',
    },
  },
];
