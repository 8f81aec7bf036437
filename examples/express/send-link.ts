import { VerifyKitError } from '@verify-kit/client';
import { createVerifyKit } from '@verify-kit/express';

/** Your accounts' contacts, each one verified by your app (a confirmation e-mail, an SMS code). */
const verifiedContacts = new Map([['ada', { email: 'ada@example.com', phoneNumber: '+90 532 000 00 01' }]]);
/** Accounts that passed the CAPTCHA on your page. */
export const humanChecked = new Set<string>();

const kit = createVerifyKit({
  baseUrl: process.env.IDV_BASE_URL!,
  apiKey: process.env.IDV_API_KEY!,
  workflowId: 'default',
  accountOf: (req) => req.session.userId,
  sendLink: {
    channels: ['email', 'sms'],
    // Where the link may go: the signed-in account's own contacts, never anything from the request.
    contactOf: (req) => verifiedContacts.get(String(req.session.userId)),
    smsCountries: ['+90', '+49'], // texts only to Turkey and Germany
    perRecipient: { max: 5, windowSeconds: 3600 }, // the default
    perHour: 100, // the default: sends per hour for this process
    beforeSend: (req) => {
      if (!humanChecked.has(String(req.session.userId))) {
        throw new VerifyKitError('HUMAN_CHECK_REQUIRED', 'complete the check on the page first', {
          status: 403,
        });
      }
    },
  },
});

export { kit };
