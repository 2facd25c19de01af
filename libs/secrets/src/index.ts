export { createSecretResolver, vaultSource, fileSource } from './secret-resolver';
export type {
  SecretResolver,
  SecretResolverOptions,
  SecretSource,
  VaultOptions,
} from './secret-resolver';
export { isVaultRef, parseVaultRef } from './secret-ref';
export type { SecretRef } from './secret-ref';
