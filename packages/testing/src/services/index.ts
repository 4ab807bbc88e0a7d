export { type TestService, testServiceUrl } from "./test-service-url.js";
