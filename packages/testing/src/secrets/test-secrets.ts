/** The API key the reliability suites give `OpenAIChatModel` and the fake LLM server. */
export const testLlmApiKey = "sk-test-reliability-7c1d2e3f4a5b6c7d";

/** The key {@link startFakeTavilyServer} accepts unless told otherwise. */
export const fakeTavilyApiKey = "tvly-dev-fake-0123456789abcdef";

/** A CoinDesk key for suites that make the fake CoinDesk server require one. */
export const testCoinDeskApiKey = "cd-test-reliability-2b4d6f8a0c";

/** An HMAC secret for authentication cards in the reliability suites. */
export const testJwtSecret = "jwt-test-reliability-secret-9f8e7d6c5b4a39281706";

/**
 * Every fixed credential the workspace's tests use: the keys above, plus the literal keys and
 * secrets other test files define for themselves. The secret guard every package's vitest run
 * installs fails a test file whose output or captured log lines contain one of them, so a key
 * that slips past redaction is caught wherever it happens. A test that adds a literal key
 * should add it here.
 */
export const testSecrets: readonly string[] = Object.freeze([
  testLlmApiKey,
  fakeTavilyApiKey,
  testCoinDeskApiKey,
  testJwtSecret,
  // packages/core
  "sk-test-e2e-0123456789abcdef",
  "sk-the-right-key-000000",
  "sk-test-3f9a1c7e5b2d4f60",
  "sk-the-right-key-000",
  "sk-live-abcdef123456",
  "tok-987654321",
  "tvly-0123456789",
  "authenticate-test-secret-0123456789",
  "test-shared-secret-0123456789-abcdef",
  "another-shared-secret-9876543210-zyx",
  "a-shared-secret-of-enough-length-0123456789",
  "another-secret-of-enough-length-0123456789",
  // packages/graph
  "secret-of-enough-length-1234567890",
  // packages/tools-deepsearch
  "sk-test-deepsearch-0123456789",
  // apps/crew
  "sk-wrong-key-1234",
  // packages/testing
  "sk-fake-key",
  "sk-right-key-123456",
  "sk-wrong-key-000000",
  "tvly-custom-key",
  "tvly-wrong",
  "k-123456",
  // packages/tools-websearch
  "tvly-other-key-123456",
  "tvly-wrong-key-abcdef987654",
  "tvly-wrong-key-0f9e8d7c6b",
  // packages/tools-crypto
  "cd-test-key-5f1e9a7c3b",
  "the-right-key-000",
  // packages/checkpoint-postgres
  "pg-test-password-5e6f7a8b9c",
]);
