export {
  type AuthCard,
  type AuthCardBaseOptions,
  type AuthCardOptions,
  createAuthCard,
  type JwksAuthCardOptions,
  type SecretAuthCardOptions,
} from "./auth-card.js";
export { type AuthContext, authenticate, unknownUserId } from "./authenticate.js";
export type { JwksOptions } from "./remote-key-set.js";
export {
  type AuthClaims,
  type AuthIdentity,
  createTokenVerifier,
  type HmacAlgorithm,
  type JwksTokenVerifierOptions,
  type PublicKeyAlgorithm,
  type PublicKeyInput,
  type PublicKeyTokenVerifierOptions,
  type SecretTokenVerifierOptions,
  type TokenVerifier,
  type TokenVerifierBaseOptions,
  type TokenVerifierOptions,
} from "./token-verifier.js";
