export { createSecretResolver, vaultSource, fileSource } from './secret-resolver';
export type {
  SecretResolver,
  SecretResolverOptions,
  SecretSource,
  VaultOptions,
} from './secret-resolver';
export { isVaultRef, parseVaultRef } from './secret-ref';
export type { SecretRef } from './secret-ref';
export {
  assertRefInScope,
  defaultSecretPrefix,
  NODE_ID_PLACEHOLDER,
  OPERATOR_SECRET_SCOPE,
  refInScope,
  isSecretPrefix,
  secretScopeOf,
} from './secret-scope';
export type { SecretScope } from './secret-scope';
