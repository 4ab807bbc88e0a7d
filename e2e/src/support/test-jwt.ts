import { createHmac, generateKeyPairSync, type KeyObject, randomUUID, sign } from "node:crypto";

const base64url = (data: string | Buffer) => Buffer.from(data).toString("base64url");

function encode(header: object, claims: object): string {
  return `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
}

/** A compact JWT signed with HS256 and `secret`. */
export function signHs256(claims: object, secret: string): string {
  const body = encode({ alg: "HS256", typ: "JWT" }, claims);
  return `${body}.${createHmac("sha256", secret).update(body).digest("base64url")}`;
}

/** An unsigned JWT: `alg: "none"` and an empty signature. */
export function unsignedJwt(claims: object): string {
  return `${encode({ alg: "none", typ: "JWT" }, claims)}.`;
}

/** A signing key as an issuer publishes it: the private half, and the public JWK with its kid. */
export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicJwk: Record<string, unknown>;
}

/** A fresh ES256 (P-256) key pair with a random kid. */
export function es256SigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const kid = `key-${randomUUID()}`;
  return {
    kid,
    privateKey,
    publicJwk: { ...publicKey.export({ format: "jwk" }), kid, alg: "ES256", use: "sig" },
  };
}

/** A compact JWT signed with ES256 by `key`, naming its kid. */
export function signEs256(claims: object, key: SigningKey): string {
  const body = encode({ alg: "ES256", typ: "JWT", kid: key.kid }, claims);
  const signature = sign("sha256", Buffer.from(body), {
    key: key.privateKey,
    dsaEncoding: "ieee-p1363",
  });
  return `${body}.${signature.toString("base64url")}`;
}
