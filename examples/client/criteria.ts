import { matchCriterion, normalizeForMatch } from '@verify-kit/client';

normalizeForMatch('  ŞEYMA\tIŞIK '); // 'seyma isik'
matchCriterion(
  { type: 'DOCUMENT_OWNER_NAME', condition: 'EQUALS', value: 'seyma isik', accentInsensitive: true },
  { DOCUMENT_OWNER_NAME: 'ŞEYMA IŞIK' },
); // true
