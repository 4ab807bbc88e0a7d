export {
  describeSecretLeaks,
  installSecretGuard,
  type SecretGuard,
  type SecretLeak,
} from "./secret-guard.js";
export {
  fakeTavilyApiKey,
  testCoinDeskApiKey,
  testJwtSecret,
  testLlmApiKey,
  testSecrets,
} from "./test-secrets.js";
