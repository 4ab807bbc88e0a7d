import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { defineState, END, FlowStateGraph, type NodeContext, START } from "@framework/graph";
import {
  type CryptoKey,
  exportJWK,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  SignJWT,
} from "jose";
import { z } from "zod";

/** The instant JWT tests verify at, so that no assertion depends on the wall clock. */
const fixedNow = new Date("2030-01-01T00:00:00Z");

/** {@link fixedNow} in seconds since the epoch, as JWT time claims are written. */
export const fixedNowSeconds = Math.floor(fixedNow.getTime() / 1000);

/** A clock for `jwtAuth({ now })` that always answers {@link fixedNow}. */
export const fixedClock = (): Date => fixedNow;

/** A key pair an issuer signs with, its public half published with a `kid`. */
export interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
  /** Signs `claims` as a JWT with RS256 and this key's `kid` (or `kid` when given). */
  sign(claims: JWTPayload, kid?: string): Promise<string>;
}

/** An RS256 key pair with a fresh `kid`. */
export async function signingKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const kid = `key-${randomUUID()}`;
  return {
    kid,
    privateKey,
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" },
    sign: (claims, signedKid = kid) =>
      new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: signedKid }).sign(privateKey),
  };
}

/** A JSON Web Key Set served on 127.0.0.1, as an identity provider publishes one. */
export interface JwksServer {
  /** Where the key set is served; a path of its own, since core shares key sets per URL. */
  readonly url: string;
  /** Requests for the key set so far. */
  readonly requests: number;
  close(): Promise<void>;
}

/** Serves `keys` (public JWKs) as a JWKS on a free loopback port. */
export async function startJwksServer(keys: readonly JWK[]): Promise<JwksServer> {
  const path = `/${randomUUID()}/jwks.json`;
  let requests = 0;
  const server: Server = createServer((request, response) => {
    if (request.url !== path) {
      response.writeHead(404).end();
      return;
    }
    requests += 1;
    response.writeHead(200, { "content-type": "application/jwk-set+json" });
    response.end(JSON.stringify({ keys }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    get requests() {
      return requests;
    },
    async close() {
      // fetch keeps connections alive; without this, close() would wait for them to time out.
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The state of {@link whoAmIGraph}. */
export const WhoAmIState = defineState({
  question: z.string().optional(),
  userId: z.string().optional(),
});

/** A one-node graph whose node writes the `user_id` it was run for into `userId`. */
export function whoAmIGraph() {
  const graph = new FlowStateGraph(WhoAmIState);
  graph.addNode("who", async (_state, context: NodeContext) => ({
    userId: context.config.configurable?.user_id,
  }));
  graph.addEdge(START, "who");
  graph.addEdge("who", END);
  return graph.compile();
}
