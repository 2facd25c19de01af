import { Metadata } from '@grpc/grpc-js';

/** Who is calling and on whose behalf; set by the gateway after authentication, propagated on every hop. */
export interface CallContext {
  requestId: string;
  teamId?: string;
  /** token id, `admin`, or the OIDC subject */
  principal?: string;
  permissions?: string[];
}

export const MD_REQUEST_ID = 'x-request-id';
export const MD_TEAM = 'x-inquest-team';
export const MD_PRINCIPAL = 'x-inquest-principal';
export const MD_PERMISSIONS = 'x-inquest-permissions';

export function toMetadata(ctx: CallContext | undefined, md = new Metadata()): Metadata {
  if (!ctx) return md;
  md.set(MD_REQUEST_ID, ctx.requestId);
  if (ctx.teamId) md.set(MD_TEAM, ctx.teamId);
  if (ctx.principal) md.set(MD_PRINCIPAL, ctx.principal);
  if (ctx.permissions) md.set(MD_PERMISSIONS, ctx.permissions.join(','));
  return md;
}

export function fromMetadata(md: Metadata): CallContext {
  const first = (k: string): string | undefined => {
    const v = md.get(k)[0];
    return v === undefined ? undefined : String(v);
  };
  const perms = first(MD_PERMISSIONS);
  return {
    requestId: first(MD_REQUEST_ID) ?? 'internal',
    teamId: first(MD_TEAM),
    principal: first(MD_PRINCIPAL),
    permissions: perms ? perms.split(',').filter(Boolean) : undefined,
  };
}
