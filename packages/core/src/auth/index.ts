export {
  type AuthCard,
  type AuthCardBaseOptions,
  type AuthCardOptions,
  type AuthClaims,
  type AuthIdentity,
  createAuthCard,
  type HmacAlgorithm,
  type JwksAuthCardOptions,
  type PublicKeyAlgorithm,
  type SecretAuthCardOptions,
} from "./auth-card.js";
export { type AuthContext, authenticate, unknownUserId } from "./authenticate.js";
export type { JwksOptions } from "./remote-key-set.js";
