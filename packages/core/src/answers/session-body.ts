import { CreateSessionRequestSchema, isVerifyKitError } from '@verify-kit/client/fetch';
import type { Locale } from '@verify-kit/protocol';
import { serviceLocale } from '../creation/service-locale.js';
import { ERROR_CODE, kitError } from '../shared/errors.js';
import type { KitCore } from '../wiring/core.js';
import type { SessionOptions } from '../wiring/options.js';

/** The creation body for this request (`req`: the framework's): workflowId, defaults, then sessionOptions(req). */
export async function sessionBody(
  core: KitCore,
  req: unknown,
  request: { locale?: Locale; contact?: { email: string } | { phoneNumber: string } } = {},
) {
  const { sessionOptions, workflowId } = core.options;
  const defaults = { workflowId, locale: serviceLocale(request.locale) };
  let extra: SessionOptions = {};
  if (sessionOptions !== undefined) {
    try {
      extra = (await sessionOptions(req as never)) ?? {};
    } catch (error) {
      // An integrator may refuse on purpose: a VerifyKitError with a 4xx status goes out as it is.
      if (
        isVerifyKitError(error) &&
        error.status !== undefined &&
        error.status >= 400 &&
        error.status < 500
      ) {
        throw error;
      }
      core.log.error('sessionOptions(req) threw', {
        error: error instanceof Error ? error.message : String(error),
      });
      throw kitError(ERROR_CODE.SESSION_OPTIONS_FAILED, 'the server could not prepare the verification');
    }
  }
  const body: Record<string, unknown> =
    sessionOptions === undefined
      ? { ...defaults, sendOTP: false } // contact-less: no OTP, nothing sent
      : { ...defaults, ...(typeof extra === 'object' ? extra : { invalid: extra }) };
  if (request.contact !== undefined) {
    // The link goes to the contact the app vouched for (send-link.ts): it replaces any other (one is allowed).
    delete body.email;
    delete body.phoneNumber;
    Object.assign(body, request.contact, { sendOTP: true });
  }
  const parsed = CreateSessionRequestSchema.safeParse(body);
  if (!parsed.success) {
    core.warnOnce('sessionOptions(req) returned a body the service would refuse: fix sessionOptions', {
      issues: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    });
    throw kitError(ERROR_CODE.SESSION_OPTIONS_INVALID, 'the server’s verification settings are invalid');
  }
  return parsed.data;
}
