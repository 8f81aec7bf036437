import { readCookie } from '@verify-kit/core';

/**
 * The signed-in account of a request, as your app knows it (your session, your auth library). A
 * stand-in here: the `user` cookie the example's test sets. Never take an account from an unsigned cookie.
 */
export const accountOf = (request: Request) => readCookie(request.headers, 'user', { secure: false });
