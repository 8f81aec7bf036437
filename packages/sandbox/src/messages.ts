import type { Locale } from '@verify-kit/client';

/** Texts of the messages the sandbox "sends" (the outbox), in the session's locale. */
export const outboxTexts = {
  en: {
    linkSubject: 'Verify your identity',
    link: (deepLink: string, code: string, minutes: number) =>
      `Open this link on your phone to verify your identity: ${deepLink} — or enter the code ${code} in the app. The link is valid for ${minutes} minutes.`,
    otpSubject: 'Your verification code',
    otp: (otp: string) =>
      `Your verification code is ${otp}. It is valid for 5 minutes. Do not share it with anyone.`,
  },
  tr: {
    linkSubject: 'Kimliğinizi doğrulayın',
    link: (deepLink: string, code: string, minutes: number) =>
      `Kimliğinizi doğrulamak için bu bağlantıyı telefonunuzda açın: ${deepLink} — ya da uygulamaya ${code} kodunu girin. Bağlantı ${minutes} dakika geçerlidir.`,
    otpSubject: 'Doğrulama kodunuz',
    otp: (otp: string) => `Doğrulama kodunuz: ${otp}. Kod 5 dakika geçerlidir. Kimseyle paylaşmayın.`,
  },
} satisfies Record<Locale, unknown>;
