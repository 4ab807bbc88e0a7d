import {
  type AuthClaims,
  AuthenticationError,
  createTokenVerifier,
  type TokenVerifierOptions,
} from "@framework/core";
import { UnauthenticatedError } from "../error/unauthenticated-error.js";
import { authenticationFailure } from "./authentication-failure.js";
import { bearerToken } from "./bearer-token.js";
import type { ServerAuth } from "./server-auth.js";

/** What {@link jwtAuth} takes besides how tokens are verified. */
export interface JwtAuthUserOptions {
  /**
   * The user id a verified token acts for, from its claims. Default: `sub`. Return another
   * stable, unique claim (e.g. `claims.email` when your issuer guarantees it); a token whose
   * claims give no id is refused.
   */
  userId?: (claims: AuthClaims) => string | undefined;
}

/**
 * Options of {@link jwtAuth}: exactly one of `jwksURL` (the issuer's JSON Web Key Set),
 * `secret` (HS256/384/512) or `publicKey` (PEM, JWK, `CryptoKey` or `KeyObject`), then
 * `issuer`, `audience`, `algorithms`, `clockToleranceSeconds`, and who the token is for.
 */
export type JwtAuthOptions = TokenVerifierOptions & JwtAuthUserOptions;

/**
 * Authenticates requests by the JWT in their `Authorization: Bearer <jwt>` header, verified
 * with jose: the signature (a JWKS, fetched on first use and cached across requests, a shared
 * secret or a public key), the algorithm (`alg: "none"` and algorithms outside `algorithms`
 * are refused; the default list follows the key's kind), `exp` and `nbf` with
 * `clockToleranceSeconds` of skew, `issuer` and `audience` when given, and a `sub`. The user
 * is the token's `sub` (or `userId(claims)`), with the token's claims.
 *
 * A request without an `Authorization` header is answered 401; a rejected token too, with
 * why (expired, bad signature, wrong issuer…) and never the token; a JWKS that cannot be
 * fetched 503.
 *
 * @throws ConfigurationError when the options are inconsistent; its `setting` names the
 *   option, e.g. `jwtAuth.jwksURL`.
 *
 * @example
 * const server = createServer({
 *   agents: { research },
 *   auth: jwtAuth({
 *     jwksURL: "https://id.example.com/.well-known/jwks.json",
 *     issuer: "https://id.example.com/",
 *     audience: "https://agents.example.com",
 *   }),
 * });
 */
export function jwtAuth(options: JwtAuthOptions): ServerAuth {
  const verifier = createTokenVerifier(options, "jwtAuth");
  const userIdOf = options.userId ?? ((claims: AuthClaims) => claims.sub);
  return async (request) => {
    const token = bearerToken(request);
    if (token === undefined) return null;
    let claims: AuthClaims;
    try {
      ({ claims } = await verifier.verify(token));
    } catch (error) {
      if (AuthenticationError.isInstance(error)) throw authenticationFailure(error);
      throw error;
    }
    const id = userIdOf(claims);
    if (typeof id !== "string" || id === "") {
      throw new UnauthenticatedError({ reason: "the token's claims name no user" });
    }
    return { id, claims };
  };
}
