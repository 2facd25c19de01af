import { isInquestError } from '@inquest/client';

export interface ErrorDescription {
  kind:
    | 'unauthorized'
    | 'forbidden'
    | 'rate_limited'
    | 'network'
    | 'not_found'
    | 'code_missing'
    | 'other';
  title: string;
  message: string;
  retryAfter?: number;
  requestId?: string;
}

/** What an error means for the person looking at the page (401, 403, 429, network, other). */
export function describeError(error: unknown, origin = window.location.origin): ErrorDescription {
  if (isInquestError(error)) {
    const requestId = error.requestId;
    const base = requestId ? { requestId } : {};
    if (error.status === 401 || error.code === 'unauthorized')
      return {
        ...base,
        kind: 'unauthorized',
        title: 'Signed out',
        message: 'Your session has expired or the token is wrong.',
      };
    if (error.status === 403 || error.code === 'forbidden')
      return {
        ...base,
        kind: 'forbidden',
        title: 'Not allowed',
        message: `Your token may not do this: ${error.message}`,
      };
    if (error.status === 429 || error.code === 'rate_limited') {
      const retryAfter = Math.max(1, Math.ceil(error.retryAfter ?? 1));
      return {
        ...base,
        kind: 'rate_limited',
        title: 'Too many requests',
        message: `Too many requests, retry in ${retryAfter} s.`,
        retryAfter,
      };
    }
    if (error.status === 0 || error.code === 'network_error' || error.code === 'timeout')
      return {
        kind: 'network',
        title: 'Cannot reach Inquest',
        message: `Cannot reach Inquest at ${origin}.`,
      };
    if (error.status === 404 || error.code === 'not_found')
      return { ...base, kind: 'not_found', title: 'Not found', message: error.message };
    return { ...base, kind: 'other', title: 'Something went wrong', message: error.message };
  }
  // a lazily loaded page whose file did not arrive: the server is down, or a new release
  // replaced the hashed files this (older) page refers to; a reload fixes the second case
  if (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(
      error.message,
    )
  )
    return {
      kind: 'code_missing',
      title: 'This page could not be loaded',
      message: `The console could not load this page's code from ${origin}: Inquest may be unreachable, or a new version was installed. Reload the page.`,
    };
  if (error instanceof TypeError && /fetch|network/i.test(error.message))
    return {
      kind: 'network',
      title: 'Cannot reach Inquest',
      message: `Cannot reach Inquest at ${origin}.`,
    };
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'other', title: 'Something went wrong', message };
}
